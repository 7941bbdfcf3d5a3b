//! The implicit-GEMM view of a convolution: A(m, k), B(k, n) and the destination offset of C(m, n)
//! per group, for each op.
//!
//! - fwd:        M = (n, out…),  N = k,          K = (filter…, c); A = in (im2col), B = wei, C = out
//! - bwd_data:   M = (n, in…),   N = c,          K = (filter…, k); A = out (col2im), B = wei, C = in
//! - bwd_weight: M = k,          N = (filter…, c), K = (n, out…);  A = out, B = in (im2col), C = wei
//!
//! Composite indices are row-major with the last component fastest. Source tensors are read
//! once into fp32, rounded to the instance's compute types (a source of several tensors
//! combined by its op first). An element's index is split once per
//! tile row or column and once per GEMM-K index ([`Half`]); a panel joins the two halves with
//! additions and bound checks, so gathering a tile's operands divides nothing per element.

use crate::decompose::GemmShape;
use crate::elementwise::{ElementArgs, source_values};
use crate::layout::{Role, TensorDesc};
use crate::tensor::{Tensor, round_to};
use ck_compiler::model::{DataType, ElementOp, Op};

const MAX_DIMS: usize = 3;

pub(crate) struct Operands {
    op: Op,
    ndim: usize,
    pub shape: GemmShape,
    groups: u64,
    n: u64,
    k: u64,
    c: u64,
    input: [u64; MAX_DIMS],
    output: [u64; MAX_DIMS],
    filter: [u64; MAX_DIMS],
    stride: [u64; MAX_DIMS],
    dilation: [u64; MAX_DIMS],
    left_pad: [u64; MAX_DIMS],
    a: Vec<f32>,
    a_desc: TensorDesc,
    b: Vec<f32>,
    b_desc: TensorDesc,
    c_desc: TensorDesc,
}

/// One side of an operand element's index: what its own digits add to the storage offset, and
/// its terms of the spatial positions, which the other side completes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Half {
    offset: u64,
    pos: [i64; MAX_DIMS],
}

fn spatial(v: &[u64]) -> [u64; MAX_DIMS] {
    let mut out = [0; MAX_DIMS];
    out[..v.len()].copy_from_slice(v);
    out
}

/// Splits a row-major composite index over `dims` (last fastest) into `out`.
fn unravel(mut idx: u64, dims: &[u64], out: &mut [u64]) {
    for (o, &d) in out.iter_mut().zip(dims).rev() {
        *o = idx % d;
        idx /= d;
    }
}

/// A GEMM source's tensors: the convolution tensor in `role`, and the further tensors its op
/// combines with it (CK's multiple A/B), shaped as it.
#[derive(Clone, Copy)]
pub(crate) struct Source<'a> {
    pub role: Role,
    pub tensor: &'a Tensor,
    pub extra: &'a [Tensor],
}

pub(crate) struct OperandsSpec<'a> {
    pub op: Op,
    pub shape: GemmShape,
    pub problem: &'a crate::problem::ConvProblem,
    pub a: Source<'a>,
    pub b: Source<'a>,
    /// Where `problem` holds A, B and C: the tensors' own layouts, or the transpose's or the
    /// fold's view of the same memory.
    pub a_desc: TensorDesc,
    pub b_desc: TensorDesc,
    pub c_desc: TensorDesc,
    pub compute: [DataType; 2],
    /// Element-wise ops of A and B, applied as elements are loaded.
    pub load_ops: [ElementOp; 2],
    pub args: ElementArgs,
}

impl Operands {
    pub fn new(s: OperandsSpec<'_>) -> Operands {
        let p = s.problem;
        // A unary op's result is stored in the source's type, then read in the compute type;
        // an op combining several tensors stores into the compute type directly (CK's
        // multiple-A/B loads).
        let load = |src: Source<'_>, op: ElementOp, dt: DataType| {
            let stored = if src.extra.is_empty() {
                src.tensor.dtype()
            } else {
                dt
            };
            source_values(op, src.role, src.tensor, src.extra, &s.args)
                .into_iter()
                .map(|v| round_to(dt, round_to(stored, v as f32)))
                .collect()
        };
        Operands {
            op: s.op,
            ndim: p.ndim as usize,
            shape: s.shape,
            groups: p.g,
            n: p.n,
            k: p.k,
            c: p.c,
            input: spatial(&p.input),
            output: spatial(&p.output()),
            filter: spatial(&p.filter),
            stride: spatial(&p.stride),
            dilation: spatial(&p.dilation),
            left_pad: spatial(&p.left_pad),
            a: load(s.a, s.load_ops[0], s.compute[0]),
            a_desc: s.a_desc,
            b: load(s.b, s.load_ops[1], s.compute[1]),
            b_desc: s.b_desc,
            c_desc: s.c_desc,
        }
    }

    /// The group of merged row `m` / column `n` in batch `batch`, `None` past G.
    pub fn row_group(&self, batch: u64, m: u64) -> Option<u64> {
        let g = batch * self.shape.merge + m / self.shape.group_m;
        (g < self.groups).then_some(g)
    }

    pub fn col_group(&self, batch: u64, n: u64) -> Option<u64> {
        let g = batch * self.shape.merge + n / self.shape.group_n;
        (g < self.groups).then_some(g)
    }

    /// The digits `(n, pixel…)` of a GEMM row or K index over pixels of `sizes`: the group's and
    /// the batch's strides in `offset` (`[g, n, …]` are a tensor's first two dimensions), the
    /// pixel's position in `pos`.
    fn pixel_half(&self, desc: &TensorDesc, g: u64, i: u64, sizes: &[u64; MAX_DIMS]) -> Half {
        let nd = self.ndim;
        let mut dims = [self.n; 1 + MAX_DIMS];
        dims[1..=nd].copy_from_slice(&sizes[..nd]);
        let mut digits = [0u64; 1 + MAX_DIMS];
        unravel(i, &dims[..=nd], &mut digits[..=nd]);
        let mut h = Half {
            offset: g * desc.strides[0] + digits[0] * desc.strides[1],
            pos: [0; MAX_DIMS],
        };
        for d in 0..nd {
            h.pos[d] = digits[1 + d] as i64;
        }
        h
    }

    /// An output pixel's half as it reads the input: its position times the stride, less the pad.
    fn strided(&self, mut h: Half) -> Half {
        for d in 0..self.ndim {
            h.pos[d] = h.pos[d] * self.stride[d] as i64 - self.left_pad[d] as i64;
        }
        h
    }

    /// The digits `(filter…, inner)` of a filter-and-channel index, the channel's stride
    /// (`desc.strides[inner_at]`) in `offset`; with `spatial`, the taps' strides too (a weight
    /// tensor), else the taps times the dilation in `pos` (an image's, joined to the other
    /// half's positions).
    fn tap_half(
        &self,
        desc: &TensorDesc,
        i: u64,
        inner: u64,
        inner_at: usize,
        spatial: bool,
    ) -> Half {
        let nd = self.ndim;
        let mut dims = [inner; 1 + MAX_DIMS];
        dims[..nd].copy_from_slice(&self.filter[..nd]);
        let mut digits = [0u64; 1 + MAX_DIMS];
        unravel(i, &dims[..=nd], &mut digits[..=nd]);
        let st = &desc.strides;
        let mut h = Half {
            offset: digits[nd] * st[inner_at],
            pos: [0; MAX_DIMS],
        };
        for d in 0..nd {
            if spatial {
                h.offset += digits[d] * st[3 + d];
            } else {
                h.pos[d] = (digits[d] * self.dilation[d]) as i64;
            }
        }
        h
    }

    /// A's half of row `m` of group `g` (fwd: `(n, out…)`, bwd_data: `(n, in…)`, bwd_weight: `k`).
    pub fn a_row(&self, g: u64, m: u64) -> Half {
        let d = &self.a_desc;
        match self.op {
            Op::Fwd => self.strided(self.pixel_half(d, g, m, &self.output)),
            // Input positions plus the pad; the taps' share is taken off in the join.
            Op::BwdData => {
                let mut h = self.pixel_half(d, g, m, &self.input);
                for (p, pad) in h.pos.iter_mut().zip(self.left_pad) {
                    *p += pad as i64;
                }
                h
            }
            Op::BwdWeight => Half {
                offset: g * d.strides[0] + m * d.strides[2],
                pos: [0; MAX_DIMS],
            },
        }
    }

    /// A's half of GEMM-K index `kk` (fwd: `(filter…, c)`, bwd_data: `(filter…, k)`,
    /// bwd_weight: `(n, out…)`).
    pub fn a_k(&self, kk: u64) -> Half {
        let d = &self.a_desc;
        match self.op {
            Op::Fwd => self.tap_half(d, kk, self.c, 2, false),
            Op::BwdData => self.tap_half(d, kk, self.k, 2, false),
            // The output gradient's own pixels: offsets only.
            Op::BwdWeight => {
                let mut h = self.pixel_half(d, 0, kk, &self.output);
                for (dim, p) in h.pos.iter_mut().enumerate().take(self.ndim) {
                    h.offset += *p as u64 * d.strides[3 + dim];
                    *p = 0;
                }
                h
            }
        }
    }

    /// B's half of GEMM-K index `kk` (fwd: `(filter…, c)`, bwd_data: `(filter…, k)`,
    /// bwd_weight: `(n, out…)`).
    pub fn b_k(&self, kk: u64) -> Half {
        let d = &self.b_desc;
        match self.op {
            Op::Fwd => self.tap_half(d, kk, self.c, 2, true),
            Op::BwdData => self.tap_half(d, kk, self.k, 1, true),
            Op::BwdWeight => self.strided(self.pixel_half(d, 0, kk, &self.output)),
        }
    }

    /// B's half of column `n` of group `g` (fwd: `k`, bwd_data: `c`, bwd_weight: `(filter…, c)`).
    pub fn b_col(&self, g: u64, n: u64) -> Half {
        let d = &self.b_desc;
        let group = g * d.strides[0];
        match self.op {
            Op::Fwd => Half {
                offset: group + n * d.strides[1],
                pos: [0; MAX_DIMS],
            },
            Op::BwdData => Half {
                offset: group + n * d.strides[2],
                pos: [0; MAX_DIMS],
            },
            Op::BwdWeight => {
                let mut h = self.tap_half(d, n, self.c, 2, false);
                h.offset += group;
                h
            }
        }
    }

    /// A(row, k) from its halves ([`Self::a_row`], [`Self::a_k`]); 0 in padding.
    pub fn a_at(&self, row: &Half, k: &Half) -> f32 {
        let mut offset = row.offset + k.offset;
        if self.op == Op::BwdWeight {
            return self.a[offset as usize];
        }
        for (d, stride) in self.a_desc.strides[3..].iter().enumerate().take(self.ndim) {
            let pos = match self.op {
                // An image position: output position · stride − pad + tap · dilation.
                Op::Fwd => row.pos[d] + k.pos[d],
                // The output position an input position meets through the tap, if any.
                Op::BwdData => {
                    let t = row.pos[d] - k.pos[d];
                    let s = self.stride[d] as i64;
                    if t < 0 || t % s != 0 {
                        return 0.0;
                    }
                    t / s
                }
                Op::BwdWeight => unreachable!("returned above"),
            };
            let limit = if self.op == Op::Fwd {
                self.input[d]
            } else {
                self.output[d]
            };
            if pos < 0 || pos as u64 >= limit {
                return 0.0;
            }
            offset += pos as u64 * stride;
        }
        self.a[offset as usize]
    }

    /// B(k, col) from its halves ([`Self::b_k`], [`Self::b_col`]); 0 in padding.
    pub fn b_at(&self, k: &Half, col: &Half) -> f32 {
        let mut offset = k.offset + col.offset;
        if self.op == Op::BwdWeight {
            for (d, stride) in self.b_desc.strides[3..].iter().enumerate().take(self.ndim) {
                let pos = k.pos[d] + col.pos[d];
                if pos < 0 || pos as u64 >= self.input[d] {
                    return 0.0;
                }
                offset += pos as u64 * stride;
            }
        }
        self.b[offset as usize]
    }

    /// Storage offset in the destination of C(m, n) of group `g`.
    pub fn c_offset(&self, g: u64, m: u64, n: u64) -> usize {
        let nd = self.ndim;
        let mut idx = [0u64; 3 + MAX_DIMS];
        let mut pos = [0u64; 1 + MAX_DIMS];
        match self.op {
            Op::Fwd | Op::BwdData => {
                // m = (n, spatial…) over output (fwd) or input (bwd_data) positions; n = k or c.
                let sp = if self.op == Op::Fwd {
                    &self.output
                } else {
                    &self.input
                };
                let mut dims = [self.n; 1 + MAX_DIMS];
                dims[1..=nd].copy_from_slice(&sp[..nd]);
                unravel(m, &dims[..=nd], &mut pos[..=nd]);
                idx[..3].copy_from_slice(&[g, pos[0], n]);
                idx[3..3 + nd].copy_from_slice(&pos[1..=nd]);
            }
            Op::BwdWeight => {
                // m = k, n = (filter…, c)
                let mut fdims = [self.c; 1 + MAX_DIMS];
                fdims[..nd].copy_from_slice(&self.filter[..nd]);
                unravel(n, &fdims[..=nd], &mut pos[..=nd]);
                idx[..3].copy_from_slice(&[g, m, pos[nd]]);
                idx[3..3 + nd].copy_from_slice(&pos[..nd]);
            }
        }
        self.c_desc.offset(&idx[..3 + nd]) as usize
    }
}
