//! The implicit-GEMM view of a convolution: A(m, k), B(k, n) and the destination offset of C(m, n)
//! per group, for each op.
//!
//! - fwd:        M = (n, out…),  N = k,          K = (filter…, c); A = in (im2col), B = wei, C = out
//! - bwd_data:   M = (n, in…),   N = c,          K = (filter…, k); A = out (col2im), B = wei, C = in
//! - bwd_weight: M = k,          N = (filter…, c), K = (n, out…);  A = out, B = in (im2col), C = wei
//!
//! Composite indices are row-major with the last component fastest. Source tensors are read
//! once into fp32, rounded to the instance's compute types.

use crate::decompose::GemmShape;
use crate::elementwise::{ElementArgs, apply};
use crate::layout::TensorDesc;
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
    /// Filter1x1Stride1Pad0: input and output positions coincide, no im2col arithmetic.
    direct: bool,
    a: Vec<f32>,
    a_desc: TensorDesc,
    b: Vec<f32>,
    b_desc: TensorDesc,
    c_desc: TensorDesc,
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

pub(crate) struct OperandsSpec<'a> {
    pub op: Op,
    pub shape: GemmShape,
    pub problem: &'a crate::problem::ConvProblem,
    pub a: &'a Tensor,
    pub b: &'a Tensor,
    /// Where `problem` holds A, B and C: the tensors' own layouts, or the transpose's or the
    /// fold's view of the same memory.
    pub a_desc: TensorDesc,
    pub b_desc: TensorDesc,
    pub c_desc: TensorDesc,
    pub compute: [DataType; 2],
    /// Element-wise ops of A and B, applied as elements are loaded.
    pub load_ops: [ElementOp; 2],
    pub args: ElementArgs,
    pub direct: bool,
}

impl Operands {
    pub fn new(s: OperandsSpec<'_>) -> Operands {
        let p = s.problem;
        // The op's result is stored in the source's type, then read in the compute type.
        let load = |t: &Tensor, op: ElementOp, dt: DataType| {
            t.to_f32()
                .into_iter()
                .map(|v| {
                    round_to(
                        dt,
                        round_to(t.dtype(), apply(op, f64::from(v), 0.0, &s.args) as f32),
                    )
                })
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
            direct: s.direct,
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

    /// Input position of output position `o` and filter tap `f` in dimension `d`, `None` in padding.
    fn in_pos(&self, d: usize, o: u64, f: u64) -> Option<u64> {
        if self.direct {
            return Some(o);
        }
        let i = (o * self.stride[d] + f * self.dilation[d]).checked_sub(self.left_pad[d])?;
        (i < self.input[d]).then_some(i)
    }

    /// Output position that input position `i` and filter tap `f` contribute to, `None` if none.
    fn out_pos(&self, d: usize, i: u64, f: u64) -> Option<u64> {
        if self.direct {
            return Some(i);
        }
        let t = (i + self.left_pad[d]).checked_sub(f * self.dilation[d])?;
        let o = t / self.stride[d];
        (t % self.stride[d] == 0 && o < self.output[d]).then_some(o)
    }

    fn at(data: &[f32], desc: &TensorDesc, idx: &[u64]) -> f32 {
        data[desc.offset(idx) as usize]
    }

    /// A(m, kk) of group `g`; `m` and `kk` are per-group indices inside the GEMM bounds.
    pub fn a(&self, g: u64, m: u64, kk: u64) -> f32 {
        let nd = self.ndim;
        let mut idx = [0u64; 3 + MAX_DIMS];
        let mut pos = [0u64; 1 + MAX_DIMS];
        match self.op {
            Op::Fwd => {
                // m = (n, out…), kk = (filter…, c); A = in[g, n, c, out·s + f·d − p]
                let mut dims = [self.n; 1 + MAX_DIMS];
                dims[1..=nd].copy_from_slice(&self.output[..nd]);
                unravel(m, &dims[..=nd], &mut pos[..=nd]);
                let mut fc = [0u64; 1 + MAX_DIMS];
                let mut fdims = [self.c; 1 + MAX_DIMS];
                fdims[..nd].copy_from_slice(&self.filter[..nd]);
                unravel(kk, &fdims[..=nd], &mut fc[..=nd]);
                idx[..3].copy_from_slice(&[g, pos[0], fc[nd]]);
                for d in 0..nd {
                    match self.in_pos(d, pos[1 + d], fc[d]) {
                        Some(i) => idx[3 + d] = i,
                        None => return 0.0,
                    }
                }
            }
            Op::BwdData => {
                // m = (n, in…), kk = (filter…, k); A = out[g, n, k, (in + p − f·d)/s]
                let mut dims = [self.n; 1 + MAX_DIMS];
                dims[1..=nd].copy_from_slice(&self.input[..nd]);
                unravel(m, &dims[..=nd], &mut pos[..=nd]);
                let mut fk = [0u64; 1 + MAX_DIMS];
                let mut fdims = [self.k; 1 + MAX_DIMS];
                fdims[..nd].copy_from_slice(&self.filter[..nd]);
                unravel(kk, &fdims[..=nd], &mut fk[..=nd]);
                idx[..3].copy_from_slice(&[g, pos[0], fk[nd]]);
                for d in 0..nd {
                    match self.out_pos(d, pos[1 + d], fk[d]) {
                        Some(o) => idx[3 + d] = o,
                        None => return 0.0,
                    }
                }
            }
            Op::BwdWeight => {
                // m = k, kk = (n, out…); A = out[g, n, k, out…]
                let mut dims = [self.n; 1 + MAX_DIMS];
                dims[1..=nd].copy_from_slice(&self.output[..nd]);
                unravel(kk, &dims[..=nd], &mut pos[..=nd]);
                idx[..3].copy_from_slice(&[g, pos[0], m]);
                idx[3..3 + nd].copy_from_slice(&pos[1..=nd]);
            }
        }
        Self::at(&self.a, &self.a_desc, &idx[..3 + nd])
    }

    /// B(kk, n) of group `g`.
    pub fn b(&self, g: u64, kk: u64, n: u64) -> f32 {
        let nd = self.ndim;
        let mut idx = [0u64; 3 + MAX_DIMS];
        match self.op {
            Op::Fwd | Op::BwdData => {
                // Fwd: kk = (filter…, c), n = k.  BwdData: kk = (filter…, k), n = c.  B = wei[g, k, c, filter…]
                let inner = if self.op == Op::Fwd { self.c } else { self.k };
                let mut fdims = [inner; 1 + MAX_DIMS];
                fdims[..nd].copy_from_slice(&self.filter[..nd]);
                let mut fx = [0u64; 1 + MAX_DIMS];
                unravel(kk, &fdims[..=nd], &mut fx[..=nd]);
                let (k, c) = if self.op == Op::Fwd {
                    (n, fx[nd])
                } else {
                    (fx[nd], n)
                };
                idx[..3].copy_from_slice(&[g, k, c]);
                idx[3..3 + nd].copy_from_slice(&fx[..nd]);
            }
            Op::BwdWeight => {
                // kk = (n, out…), n = (filter…, c); B = in[g, n, c, out·s + f·d − p]
                let mut dims = [self.n; 1 + MAX_DIMS];
                dims[1..=nd].copy_from_slice(&self.output[..nd]);
                let mut pos = [0u64; 1 + MAX_DIMS];
                unravel(kk, &dims[..=nd], &mut pos[..=nd]);
                let mut fdims = [self.c; 1 + MAX_DIMS];
                fdims[..nd].copy_from_slice(&self.filter[..nd]);
                let mut fc = [0u64; 1 + MAX_DIMS];
                unravel(n, &fdims[..=nd], &mut fc[..=nd]);
                idx[..3].copy_from_slice(&[g, pos[0], fc[nd]]);
                for d in 0..nd {
                    match self.in_pos(d, pos[1 + d], fc[d]) {
                        Some(i) => idx[3 + d] = i,
                        None => return 0.0,
                    }
                }
            }
        }
        Self::at(&self.b, &self.b_desc, &idx[..3 + nd])
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
