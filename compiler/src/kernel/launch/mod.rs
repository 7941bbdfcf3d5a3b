//! Host launch arithmetic for a portable kernel and one problem: grid, block, LDS, workspace,
//! the argument block and the ordered steps. The runtime back ends and the tests use only this.
//! This module plans the implicit GEMM (its schedules, stride phases and the transposed
//! backward weight); `split` holds the split-K model and the convert launch, `narrow` the
//! entries that run narrow problems in place of the GEMM tiles (`pointwise` the streaming 1x1
//! one, `window` forward over few input channels).

use super::args::CkArgs;
use super::config::{KernelConfig, Schedule};
use super::device::{DeviceInfo, MAX_CLUSTER, Persist};
use super::operand::Elem;
use crate::ir::SplitK;
use crate::model::{ElementOp, Layout, Op, Reduction};
use serde::{Deserialize, Serialize};

mod narrow;
mod pointwise;
mod repack;
mod split;
mod window;

pub use narrow::{
    DCONV_BAND_LDS, dconv_mma_suits, dconv_strip_rows, dconv_window, dconv_window_stride,
    depthwise_rows_suit, rows_computed_taps,
};
pub(crate) use narrow::{
    DCONV_BLOCK, DCONV_LDS_FLOATS, DCONV_MMA_LDS, DCONV_PAD, DCONV_STRIP, DCONV_STRIP_ROWS,
    DCONV_STRIP_ROWS8, DCONV_WARP_VECTORS, DIRECT_DEPTH, DIRECT_LANES, DIRECT_MMA_BLOCKS,
    DIRECT_RUNS, DIRECT_SETS, DIRECT_SPAN, DIRECT_STEP_ROWS, DROWS_CHUNK, DROWS_SLOTS,
    DROWS_STRIDE, DROWS_VECS,
};
pub(crate) use pointwise::{
    PW_BLOCK, PW_PIXELS, PWM_BLOCKS, PWM_STAGED_COLS, PWM_STAGES, PWM_WARPS,
};
pub use pointwise::{pointwise_mma_suits, pointwise_suits};
pub(crate) use repack::{REPACK_BLOCK, REPACK_CHUNK, TRANSPOSE_BLOCK, TRANSPOSE_TILE};
pub use repack::{RowMap, Staged, StagedCopy, Transpose};
#[cfg(test)]
pub(crate) use split::MAX_ACCUMULATION;
pub(crate) use split::{CONVERT_BLOCK, auto_split};
use split::{MAX_SLICE_BYTES, convert_step, max_accumulated_iters};
pub(crate) use window::{WIN_BLOCK, WIN_BLOCKS, WIN_PIXELS, WM_BLOCKS, WM_PIXELS, WM_WARPS};
pub use window::{window_mma_suits, window_suits};

/// A problem in the kernel's terms: per-group sizes, spatial sizes as 3-D (outermost first;
/// 1-D and 2-D problems put 1 in front), left pads only (right pads are in `output`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConvDims {
    pub op: Op,
    pub ndim: u32,
    pub g: u64,
    pub n: u64,
    pub k: u64,
    pub c: u64,
    pub input: [u64; 3],
    pub filter: [u64; 3],
    pub output: [u64; 3],
    pub stride: [u64; 3],
    pub dilation: [u64; 3],
    pub pad: [u64; 3],
    /// Input, weight and output layouts.
    pub layouts: [Layout; 3],
    /// Backward weight only: these sizes are the transpose of the caller's problem, whose
    /// tensors keep their roles and layouts. The transpose's input is the caller's output
    /// gradient and its output gradient the caller's input (C and K swap, unit strides, left
    /// pads `(taps − 1)·dilation − pad`), and its weight is the caller's with K and C swapped
    /// and the filter reversed. Its GEMM reads the narrow tensor through the filter taps where
    /// the caller's reads the wide one (see [`LaunchPlan::transposed`]).
    #[serde(default)]
    pub transposed: bool,
}

/// Whether backward data splits into stride phases (see `KernelConfig::phase_plan`): a stride
/// above 1, and in every strided dimension unit dilation and an input at least the stride (so
/// that each phase has pixels).
pub fn takes_stride_phases(dims: &ConvDims) -> bool {
    let s = dims.stride;
    dims.op == Op::BwdData
        && s.iter().any(|&v| v > 1)
        && (0..3).all(|i| s[i] == 1 || (dims.dilation[i] == 1 && dims.input[i] >= s[i]))
}

/// One stride phase of backward data: the input pixels `r` mod the stride in each dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StridePhase {
    /// The residue of the phase's pixels in each dimension (0 where the stride is 1).
    pub r: [u64; 3],
    /// The first filter tap the stride divides for them: `(r + pad - t0)` is a multiple of the
    /// stride.
    pub t0: [u64; 3],
    /// The phase as a unit-stride problem of its own (every `s`-th pixel from `r`, every
    /// `s`-th tap from `t0`), or None where no tap reaches its pixels (a filter narrower than
    /// the stride).
    pub dims: Option<ConvDims>,
}

/// The stride phases of `dims`, one per residue, in order (depth slowest); meaningful where
/// [`takes_stride_phases`].
pub fn stride_phases(dims: &ConvDims) -> Vec<StridePhase> {
    let s = dims.stride;
    (0..s.iter().product::<u64>())
        .map(|p| {
            let r = [p / (s[1] * s[2]), (p / s[2]) % s[1], p % s[2]];
            let mut t0 = [0; 3];
            let mut d = dims.clone();
            for i in (0..3).filter(|&i| s[i] > 1) {
                t0[i] = (r[i] + dims.pad[i]) % s[i];
                if t0[i] >= dims.filter[i] {
                    return StridePhase { r, t0, dims: None };
                }
                d.input[i] = (dims.input[i] - r[i]).div_ceil(s[i]);
                d.filter[i] = (dims.filter[i] - t0[i]).div_ceil(s[i]);
                d.pad[i] = (r[i] + dims.pad[i] - t0[i]) / s[i];
                d.stride[i] = 1;
            }
            StridePhase {
                r,
                t0,
                dims: Some(d),
            }
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("problem is for {problem}, the kernel computes {kernel}")]
    Op { problem: Op, kernel: Op },
    #[error("{what} must be positive")]
    Zero { what: &'static str },
    #[error("layout {layout} cannot hold the {role} of a {ndim}-D convolution")]
    Layout {
        layout: Layout,
        role: &'static str,
        ndim: u32,
    },
    #[error("kernel needs {need} bytes of LDS, the device allows {max}")]
    Lds { need: u32, max: u32 },
    #[error("only a unit-stride backward-weight problem runs as its transpose")]
    Transpose,
    #[error("staged copies cannot serve {0}")]
    Staged(&'static str),
    #[error(
        "a StreamK workgroup would sum {products} GEMM-K products in its accumulators, more than the {limit} that bound their rounding error"
    )]
    Accumulation { products: u64, limit: u64 },
    #[error("{what} ({value}) exceeds the launch limit {limit}")]
    TooLarge {
        what: &'static str,
        value: u64,
        limit: u64,
    },
}

/// Entry points of a portable kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EntryKind {
    /// The implicit GEMM.
    Main,
    /// fp32 workspace → output tensor (two-stage and atomic split-K of non-fp32 outputs).
    Convert,
    /// Small-channel backward weight (kernels that merge groups; see [`KernelConfig::has_direct`]).
    Direct,
    /// Its tensor-core path (NVIDIA sm_80+), with its own register budget; an empty entry on
    /// other targets, where no plan launches it.
    DirectMma,
    /// Its depthwise path along output rows (`ck_direct_rows`): 3x3 filters.
    DirectRows,
    /// The same for other rows of 4 or more taps, one filter row (or a piece of 7 taps of a
    /// longer one) a thread (`ck_direct_row_taps`).
    DirectRowTaps,
    /// Backward weight with GEMM-K split over the warps of a workgroup (tiles whose warps lie
    /// along K; see [`KernelConfig::sliced_warps`]).
    Sliced,
    /// A caller's tensor to or from its staged copy ([`RowMap`]).
    Repack,
    /// The weights to the copy that backward data reads along GEMM-K ([`Transpose`]; kernels
    /// with [`KernelConfig::weights_transposed`]).
    Transpose,
    /// Pointwise forward and backward data with few channels (Filter1x1Stride1Pad0 kernels;
    /// see [`KernelConfig::has_pointwise`]).
    Pointwise,
    /// Its tensor-core path (NVIDIA sm_80+), for up to 256 source channels; an empty entry on
    /// other targets, where no plan launches it.
    PointwiseMma,
    /// Forward with 1 to 4 input channels a group (scalar-load kernels; see
    /// [`KernelConfig::has_window`]).
    Window,
    /// Its tensor-core path (NVIDIA sm_80+); an empty entry on other targets, where no plan
    /// launches it.
    WindowMma,
    /// The implicit GEMM over persistent workgroups, each taking every grid-th tile (TMA
    /// kernels; see [`KernelConfig::persist_layout`]): plans without split-K on a device with
    /// the warpgroup path.
    Persistent,
}

/// Which buffer a zero-fill step clears.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ZeroTarget {
    /// The tensor the op writes (fp32 atomic accumulation into it).
    Output,
    Workspace,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Fill `bytes` bytes at `offset` of the buffer with zeros.
    Zero {
        target: ZeroTarget,
        offset: u64,
        bytes: u64,
    },
    Launch {
        entry: EntryKind,
        grid: [u32; 3],
        block: [u32; 3],
        lds_bytes: u32,
        /// The stride phase whose argument block the launch takes (see
        /// [`LaunchPlan::phases`]); 0 in plans without phases.
        phase: usize,
        /// Workgroups a thread-block cluster (consecutive along x); 1: no clusters.
        cluster: u32,
    },
    /// A launch of the repack entry that copies tensor `tensor` (0 input, 1 weight, 2 output)
    /// into its staged copy, or with `unpack` the copy back into it
    /// ([`LaunchPlan::repack_args`]); the `transpose` entry for a copy of transposed weights
    /// ([`StagedCopy::entry`]). Packs come before every GEMM launch and after the
    /// zero-fills, the unpack after every GEMM launch (of every stride phase).
    Repack {
        tensor: usize,
        unpack: bool,
        blocks: u32,
        threads: u32,
    },
}

/// One stride phase of a backward-data plan: its argument block (addresses left at 0), the
/// byte offsets of its input, weight and output views into the whole tensors, and of its own
/// region of the workspace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phase {
    pub args: CkArgs,
    pub offsets: [u64; 3],
    pub workspace_offset: u64,
}

/// Everything needed to run one kernel on one problem, in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaunchPlan {
    pub steps: Vec<Step>,
    pub workspace_bytes: u64,
    /// Byte offset of the StreamK flags in the workspace.
    pub flags_offset: u64,
    /// Bytes of the input, weight and output tensors (elements × element size).
    pub tensor_bytes: [u64; 3],
    /// The argument block with the buffer addresses left at 0; see [`LaunchPlan::args_for`].
    /// With phases, the first phase's.
    pub args: CkArgs,
    /// Set where the plan runs the caller's backward-weight problem as its transpose
    /// ([`ConvDims::transposed`]): the byte offset of the weight view's origin, the caller's
    /// last filter tap. The launches read their input from the output-gradient buffer and their
    /// output gradient from the input buffer; `tensor_bytes` are by the caller's roles.
    pub transposed: Option<u64>,
    /// Backward data with strides: one unit-stride GEMM per stride phase, each launch on its
    /// own views of the tensors ([`KernelConfig::plan`]). Empty otherwise. The phases write
    /// disjoint output elements and workspace regions, so a back end may run their launches
    /// concurrently (each phase's own launches in order, after every zero-fill).
    pub phases: Vec<Phase>,
    /// The caller's input, weight and output where the GEMM reads or writes a staged copy in
    /// the workspace instead ([`KernelConfig::plan_staged`]); `tensor_bytes` are the caller's.
    pub staged: [Option<Staged>; 3],
}

/// Device addresses of the buffers of one launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buffers {
    pub input: u64,
    pub weight: u64,
    pub output: u64,
    pub d: u64,
    pub workspace: u64,
}

impl LaunchPlan {
    /// The argument blocks of the plan's GEMMs (addresses left at 0): every stride phase's, or
    /// the one of a plan without phases.
    pub fn arg_blocks(&self) -> impl Iterator<Item = &CkArgs> {
        let single = self.phases.is_empty().then_some(&self.args);
        single
            .into_iter()
            .chain(self.phases.iter().map(|p| &p.args))
    }

    /// The argument block of a launch of stride phase `phase` (0 without phases) for these
    /// buffers (by conv role, whichever one the op writes).
    pub fn args_for(&self, bufs: Buffers, phase: usize) -> CkArgs {
        let (mut a, [xo, wo, yo], wso) =
            self.phases.get(phase).map_or((self.args, [0; 3], 0), |p| {
                (p.args, p.offsets, p.workspace_offset)
            });
        // A staged tensor's GEMM reads or writes its copy.
        let place =
            |addr: u64, i: usize| self.staged[i].map_or(addr, |st| bufs.workspace + st.offset);
        a.x = place(bufs.input, 0) + xo;
        a.w = place(bufs.weight, 1) + wo;
        a.y = place(bufs.output, 2) + yo;
        a.d = bufs.d;
        if let Some(origin) = self.transposed {
            (a.x, a.y) = (a.y, a.x);
            a.w += origin;
            // D is read at the output's offsets.
            if a.d != 0 {
                a.d += origin;
            }
        }
        a.ws = bufs.workspace + wso;
        a.flags = if self.workspace_bytes > 0 {
            bufs.workspace + self.flags_offset
        } else {
            0
        };
        a
    }
}

/// Element strides `[n/g, g/k, c, d, h, w]`-style for one tensor, by dimension letter.
fn strides(
    layout: Layout,
    role: &'static str,
    ndim: u32,
    sizes: &[(char, u64)],
) -> Result<Vec<(char, i64)>, PlanError> {
    use Layout::*;
    let (order, lay_ndim): (&str, u32) = match layout {
        Nwgc => ("NWGC", 1),
        Nhwgc => ("NHWGC", 2),
        Ndhwgc => ("NDHWGC", 3),
        Gnwc => ("GNWC", 1),
        Gnhwc => ("GNHWC", 2),
        Gndhwc => ("GNDHWC", 3),
        Ngcw => ("NGCW", 1),
        Ngchw => ("NGCHW", 2),
        Ngcdhw => ("NGCDHW", 3),
        Gkxc => ("GKWC", 1),
        Gkyxc => ("GKHWC", 2),
        Gkzyxc => ("GKDHWC", 3),
        Gkcx => ("GKCW", 1),
        Gkcyx => ("GKCHW", 2),
        Gkczyx => ("GKCDHW", 3),
        Nwgk => ("NWGK", 1),
        Nhwgk => ("NHWGK", 2),
        Ndhwgk => ("NDHWGK", 3),
        Gnwk => ("GNWK", 1),
        Gnhwk => ("GNHWK", 2),
        Gndhwk => ("GNDHWK", 3),
        Ngkw => ("NGKW", 1),
        Ngkhw => ("NGKHW", 2),
        Ngkdhw => ("NGKDHW", 3),
        Gc | GK => ("", 0),
    };
    let letters: Vec<char> = order.chars().collect();
    let fits = lay_ndim == ndim
        && sizes
            .iter()
            .all(|(l, _)| matches!(l, 'D' | 'H') || letters.contains(l));
    if !fits {
        return Err(PlanError::Layout { layout, role, ndim });
    }
    let mut out = Vec::new();
    let mut stride = 1u64;
    for l in letters.iter().rev() {
        let size = sizes.iter().find(|s| s.0 == *l).map_or(1, |s| s.1);
        out.push((*l, i64::try_from(stride).unwrap_or(i64::MAX)));
        stride = stride.saturating_mul(size);
    }
    // Spatial dimensions a lower-dimensional layout lacks have size 1; any stride works.
    for (l, _) in sizes {
        if !letters.contains(l) {
            out.push((*l, 0));
        }
    }
    Ok(out)
}

/// Element strides of a weight tensor of `dims`' filter with `k` filters of `c` channels.
fn weight_strides(dims: &ConvDims, k: u64, c: u64) -> Result<Vec<(char, i64)>, PlanError> {
    let [z, y, x] = dims.filter;
    let sizes = [
        ('G', dims.g),
        ('K', k),
        ('C', c),
        ('D', z),
        ('H', y),
        ('W', x),
    ];
    strides(dims.layouts[1], "weight", dims.ndim, &sizes)
}

fn get(s: &[(char, i64)], l: char) -> i64 {
    s.iter().find(|x| x.0 == l).map_or(0, |x| x.1)
}

/// Bytes of padding per row of the staged epilogue's LDS tile (emitted into the kernel source):
/// rows stay 16-byte aligned and consecutive rows start 4 banks apart.
pub(crate) const STAGE_PAD: u32 = 16;

/// Floats of padding per row of a cluster's fp32 partial tile in LDS (emitted into the kernel
/// source): the 8 rows of an accumulator store land 32 bytes apart in the banks.
pub(crate) const CLUSTER_PAD: u32 = 8;

/// Whether the output's offsets are linear in the GEMM index the epilogue would decompose:
/// each dimension's stride is the next inner one's times its size (one of size 1 may have any
/// stride). `order` lists (dimension, size) from the innermost.
fn packed(strides: &[(char, i64)], order: [(char, u64); 4]) -> bool {
    let mut expect = get(strides, order[0].0);
    order.windows(2).all(|w| {
        expect = expect.saturating_mul(w[0].1 as i64);
        w[1].1 == 1 || get(strides, w[1].0) == expect
    })
}

/// Alignment of the regions of a workspace (StreamK flags, stride phases' slices).
const WORKSPACE_ALIGN: u64 = 256;

/// A launch of `entry` outside stride phases and clusters, `[threads, LDS bytes]` a workgroup.
fn plain_launch(entry: EntryKind, grid: [u32; 3], [threads, lds_bytes]: [u32; 2]) -> Step {
    Step::Launch {
        entry,
        grid,
        block: [threads, 1, 1],
        lds_bytes,
        phase: 0,
        cluster: 1,
    }
}

/// A plan of one launch that writes each output once: no workspace, no zero-fill, no convert.
fn single_launch(launch: Step, args: CkArgs, tensor_bytes: [u64; 3]) -> LaunchPlan {
    LaunchPlan {
        steps: vec![launch],
        workspace_bytes: 0,
        flags_offset: 0,
        tensor_bytes,
        args,
        phases: Vec::new(),
        transposed: None,
        staged: [None; 3],
    }
}

/// Grid dimension limits shared by HIP and CUDA.
const MAX_GRID_X: u64 = i32::MAX as u64;
const MAX_GRID_Y: u64 = 65535;

/// K-tiles a tile may have for [`Persist::Planned`] plans to take the persistent entry: past
/// them a tile is mostly its K loop, which the entry's copies from one thread across tiles
/// do not speed up.
const PERSIST_MAX_K_ITERS: u64 = 4;
/// Tiles each workgroup must take, at least, for the overlap of one tile's epilogue with the
/// next one's copies to outweigh the entry's longer loop.
const PERSIST_MIN_TILES: u64 = 2;

/// Whether persistent workgroups pay on an unsplit plan of `tiles` tiles of `k_iters`
/// K-tiles each, on a device holding `slots` workgroups at once (the rule of
/// [`Persist::Planned`]).
fn persist_pays(k_iters: u64, tiles: u64, slots: u64) -> bool {
    k_iters <= PERSIST_MAX_K_ITERS && tiles >= PERSIST_MIN_TILES * slots
}

impl KernelConfig {
    /// Plans one run of this kernel on `dims`.
    pub fn plan(&self, dims: &ConvDims, dev: &DeviceInfo) -> Result<LaunchPlan, PlanError> {
        if dims.op != self.op {
            return Err(PlanError::Op {
                problem: dims.op,
                kernel: self.op,
            });
        }
        let positive = [
            ("G", dims.g),
            ("N", dims.n),
            ("K", dims.k),
            ("C", dims.c),
            ("compute units", u64::from(dev.compute_units)),
        ];
        for (what, v) in positive {
            if v == 0 {
                return Err(PlanError::Zero { what });
            }
        }
        let spatial = dims
            .input
            .iter()
            .chain(&dims.filter)
            .chain(&dims.output)
            .chain(&dims.stride)
            .chain(&dims.dilation);
        if spatial.into_iter().any(|&v| v == 0) {
            return Err(PlanError::Zero {
                what: "spatial size, filter, output, stride or dilation",
            });
        }
        let lds_bytes = self.lds_bytes_on(dev);
        if lds_bytes > dev.max_lds_bytes {
            return Err(PlanError::Lds {
                need: lds_bytes,
                max: dev.max_lds_bytes,
            });
        }
        let [di, hi, wi] = dims.input;
        let [do_, ho, wo] = dims.output;
        let xs = strides(
            dims.layouts[0],
            "input",
            dims.ndim,
            &[
                ('N', dims.n),
                ('G', dims.g),
                ('C', dims.c),
                ('D', di),
                ('H', hi),
                ('W', wi),
            ],
        )?;
        let caller_ws = weight_strides(dims, dims.k, dims.c)?;
        // Kernels that read transposed weights read them from their copy ([`repack`]).
        let ws = if self.weights_transposed() {
            repack::transposed_weight_strides(dims)
        } else {
            caller_ws.clone()
        };
        let ys = strides(
            dims.layouts[2],
            "output",
            dims.ndim,
            &[
                ('N', dims.n),
                ('G', dims.g),
                ('K', dims.k),
                ('D', do_),
                ('H', ho),
                ('W', wo),
            ],
        )?;
        if dims.transposed {
            return self.transposed_plan(dims, [&xs, &ys], dev);
        }
        let plan = match self.phase_plan(dims, [&xs, &ws, &ys], dev)? {
            Some(plan) => plan,
            None => self.plan_views(dims, [&xs, &ws, &ys], dev)?,
        };
        if self.weights_transposed() {
            return self.stage_transposed_weights(plan, dims, &caller_ws, dev);
        }
        Ok(plan)
    }

    /// The plan of a transposed backward-weight problem ([`ConvDims::transposed`]) over the
    /// caller's weight: filter `[z, y, x]` with K = `dims.c` and C = `dims.k` in its layout,
    /// viewed with K and C swapped and every spatial stride negated from the last tap.
    fn transposed_plan(
        &self,
        dims: &ConvDims,
        [xs, ys]: [&[(char, i64)]; 2],
        dev: &DeviceInfo,
    ) -> Result<LaunchPlan, PlanError> {
        if dims.op != Op::BwdWeight || dims.stride != [1; 3] {
            return Err(PlanError::Transpose);
        }
        let held = weight_strides(dims, dims.c, dims.k)?;
        let origin: i64 = ['D', 'H', 'W']
            .iter()
            .zip(dims.filter)
            .map(|(&l, taps)| (taps as i64 - 1) * get(&held, l))
            .sum();
        let view: Vec<(char, i64)> = held
            .iter()
            .map(|&(l, st)| match l {
                'K' => ('C', st),
                'C' => ('K', st),
                'G' => ('G', st),
                _ => (l, -st),
            })
            .collect();
        let mut plan = self.plan_views(dims, [xs, &view, ys], dev)?;
        plan.tensor_bytes.swap(0, 2);
        plan.transposed = Some(origin as u64 * u64::from(self.tensor_elems()[1].bytes()));
        Ok(plan)
    }

    /// The plan over tensors with element strides `xs`, `ws` and `ys` (views, for the phases of
    /// [`Self::phase_plan`]).
    fn plan_views(
        &self,
        dims: &ConvDims,
        [xs, ws, ys]: [&[(char, i64)]; 3],
        dev: &DeviceInfo,
    ) -> Result<LaunchPlan, PlanError> {
        let lds_bytes = self.lds_bytes_on(dev);
        let [di, hi, wi] = dims.input;
        let [z, y, x] = dims.filter;
        let [do_, ho, wo] = dims.output;
        let (in_px, filt, out_px) = (di * hi * wi, z * y * x, do_ * ho * wo);
        let (k_radix, tma_box) = self.k_boxes(dims, dev);
        let (m, n, k) = match dims.op {
            Op::Fwd => (dims.n * out_px, dims.k, dims.c * filt),
            Op::BwdData => (dims.n * in_px, dims.c, k_radix * filt),
            Op::BwdWeight => (dims.k, dims.c * filt, dims.n * out_px),
        };
        // The kernel decomposes GEMM indices in 32-bit arithmetic.
        for (what, v) in [("GEMM M", m), ("GEMM N", n), ("GEMM K", k)] {
            if v > u64::from(u32::MAX) {
                return Err(PlanError::TooLarge {
                    what,
                    value: v,
                    limit: u64::from(u32::MAX),
                });
            }
        }
        let [mt, nt, kt] = self.tile.map(u64::from);
        let (tiles_m, tiles_n, k_iters) = (m.div_ceil(mt), n.div_ceil(nt), k.div_ceil(kt).max(1));
        let out_idx = match dims.op {
            Op::Fwd => 2,
            Op::BwdData => 0,
            Op::BwdWeight => 1,
        };
        let tensor_bytes = self.tensor_bytes(dims);
        let mut args = CkArgs {
            G: dims.g as i64,
            N: dims.n as i64,
            K: dims.k as i64,
            C: dims.c as i64,
            Di: di as i64,
            Hi: hi as i64,
            Wi: wi as i64,
            Z: z as i64,
            Y: y as i64,
            X: x as i64,
            Do: do_ as i64,
            Ho: ho as i64,
            Wo: wo as i64,
            sd: dims.stride[0] as i64,
            sh: dims.stride[1] as i64,
            sw: dims.stride[2] as i64,
            dd: dims.dilation[0] as i64,
            dh: dims.dilation[1] as i64,
            dw: dims.dilation[2] as i64,
            pd: dims.pad[0] as i64,
            ph: dims.pad[1] as i64,
            pw: dims.pad[2] as i64,
            xs_n: get(xs, 'N'),
            xs_g: get(xs, 'G'),
            xs_c: get(xs, 'C'),
            xs_d: get(xs, 'D'),
            xs_h: get(xs, 'H'),
            xs_w: get(xs, 'W'),
            ws_g: get(ws, 'G'),
            ws_k: get(ws, 'K'),
            ws_c: get(ws, 'C'),
            ws_z: get(ws, 'D'),
            ws_y: get(ws, 'H'),
            ws_x: get(ws, 'W'),
            ys_n: get(ys, 'N'),
            ys_g: get(ys, 'G'),
            ys_k: get(ys, 'K'),
            ys_d: get(ys, 'D'),
            ys_h: get(ys, 'H'),
            ys_w: get(ys, 'W'),
            M: m as i64,
            Ng: n as i64,
            Kg: k as i64,
            k_radix: k_radix as i64,
            tma_box: tma_box as i64,
            tiles_m: tiles_m as i64,
            tiles_n: tiles_n as i64,
            k_iters: k_iters as i64,
            split_iters: k_iters as i64,
            alpha: 1.0,
            beta: 0.0,
            ..CkArgs::default()
        };
        args.vec_a = i64::from(self.vector_ok(dims, true, xs, ws, ys));
        args.vec_b = i64::from(self.vector_ok(dims, false, xs, ws, ys));

        args.ws_slices = 1;
        // Packed outputs: the epilogue's row (or column) offset is one product.
        args.lin_out = i64::from(match dims.op {
            Op::Fwd => packed(ys, [('W', wo), ('H', ho), ('D', do_), ('N', dims.n)]),
            Op::BwdData => packed(xs, [('W', wi), ('H', hi), ('D', di), ('N', dims.n)]),
            Op::BwdWeight => packed(ws, [('C', dims.c), ('W', x), ('H', y), ('D', z)]),
        });
        args.stage_out = i64::from(self.stage_output(dims, [xs, ws, ys], dev));
        if let Some(plan) = self.narrow_plan(dims, dev, [xs, ys], args, tensor_bytes) {
            return Ok(plan);
        }

        let block = [self.block, 1, 1];
        let tiles = dims.g * tiles_m * tiles_n;
        let cus = u64::from(dev.compute_units);
        let out_elems = dims.g * m * n;
        let mut steps = Vec::new();
        let (mut workspace_bytes, mut flags_offset) = (0u64, 0u64);
        // Atomic accumulation lands in fp32: the output itself when it is fp32 and needs no
        // element-wise op, otherwise the workspace followed by the convert kernel.
        let direct_fp32 = self.out == Elem::F32 && self.out_op == ElementOp::PassThrough;
        let (mut main_entry, mut main_lds) = (EntryKind::Main, lds_bytes);
        let main_grid = match self.schedule {
            Schedule::SplitK { slices, two_stage } => {
                let group_blocks = dims.g.div_ceil(u64::from(self.merge_groups));
                let tile_blocks = tiles_m * tiles_n * group_blocks;
                let bpc = u64::from(self.blocks_per_cu_on(dev));
                // Fixed or automatic, no slice sums more than MAX_ACCUMULATION products.
                let fewest = k_iters.div_ceil(max_accumulated_iters(kt));
                let wanted = match slices {
                    SplitK::Fixed(s) => u64::from(s.max(1)),
                    SplitK::Auto => auto_split(tile_blocks, cus * bpc, k_iters),
                }
                .max(fewest)
                .min(k_iters);
                // Automatic slices add up in a cluster where the device has them.
                let cluster = match slices {
                    SplitK::Auto if !two_stage => {
                        self.split_cluster(tile_blocks, k_iters, fewest..=wanted, out_elems, n, dev)
                    }
                    _ => None,
                };
                let split_iters = k_iters.div_ceil(cluster.unwrap_or(wanted));
                // A cluster is every slice of one tile (the last may be empty: 9 K-tiles in
                // four slices of three); otherwise no slice is empty.
                let slices = cluster.unwrap_or(k_iters.div_ceil(split_iters));
                args.split_iters = split_iters as i64;
                args.cluster = cluster.unwrap_or(0) as i64;
                // Partial sums outside a cluster go to a workspace slice each, added by the
                // convert entry; only where those slices would exceed MAX_SLICE_BYTES are they
                // added atomically.
                let partial = cluster.is_none() && (slices > 1 || two_stage);
                if partial && slices * out_elems * 4 <= MAX_SLICE_BYTES {
                    args.split_ws = 1;
                    args.ws_slices = slices as i64;
                    workspace_bytes = slices * out_elems * 4;
                } else {
                    args.store_atomic = i64::from(partial);
                    args.atomic_to_ws = i64::from(partial && (two_stage || !direct_fp32));
                }
                if group_blocks > MAX_GRID_Y {
                    return Err(PlanError::TooLarge {
                        what: "group blocks",
                        value: group_blocks,
                        limit: MAX_GRID_Y,
                    });
                }
                match self.persist_layout().filter(|_| slices == 1 && !partial) {
                    Some(p) if self.persists(&args, tiles, cus * bpc, dev) => {
                        main_entry = EntryKind::Persistent;
                        main_lds = p.lds_bytes;
                        [tiles.min(cus * bpc), 1]
                    }
                    _ => [tiles_m * tiles_n * slices, group_blocks],
                }
            }
            Schedule::StreamK {
                reduction,
                persistent,
            } => {
                // DP + two-tile SK: the partial last wave plus one full wave go to StreamK so every
                // SK block gets one to two tiles of work; the rest are data-parallel tiles.
                let (full_waves, rem) = (tiles / cus, tiles % cus);
                let sk_tiles = if rem == 0 {
                    0
                } else {
                    rem + if full_waves >= 1 { cus } else { 0 }
                };
                let sk_tiles = sk_tiles.min(tiles);
                let dp_tiles = tiles - sk_tiles;
                let sk_blocks = cus.min(sk_tiles * k_iters);
                // The most K-tiles one workgroup sums for one tile: a data-parallel tile's
                // whole GEMM-K, or an SK block's share. Data-parallel tiles exist only with
                // at least a wave of tiles, so spreading them over the SK blocks would give
                // each at least a tile's GEMM-K too: beyond MAX_ACCUMULATION the plan is refused.
                let iters = sk_tiles * k_iters;
                let share = iters
                    .checked_div(sk_blocks)
                    .map_or(0, |s| (s + u64::from(iters % sk_blocks > 0)).min(k_iters));
                let longest = if dp_tiles > 0 { k_iters } else { share };
                let most = max_accumulated_iters(kt);
                if longest > most {
                    return Err(PlanError::Accumulation {
                        products: longest * kt,
                        limit: most * kt,
                    });
                }
                let dp_blocks = if persistent {
                    dp_tiles.min(cus)
                } else {
                    dp_tiles
                };
                args.sk_blocks = sk_blocks as i64;
                args.sk_tiles = sk_tiles as i64;
                args.dp_tiles = dp_tiles as i64;
                args.dp_blocks = dp_blocks as i64;
                if let Some(iters) = (sk_tiles * k_iters).checked_div(sk_blocks) {
                    args.sk_iters = iters as i64;
                    args.sk_rem = ((sk_tiles * k_iters) % sk_blocks) as i64;
                }
                let atomic = reduction == Reduction::Atomic && sk_blocks > 0;
                args.store_atomic = i64::from(atomic);
                args.atomic_to_ws = i64::from(atomic && !direct_fp32);
                if !atomic && sk_blocks > 0 {
                    let partials = sk_blocks * mt * nt * 4;
                    flags_offset = partials.next_multiple_of(WORKSPACE_ALIGN);
                    workspace_bytes = flags_offset + sk_blocks * 4;
                    steps.push(Step::Zero {
                        target: ZeroTarget::Workspace,
                        offset: flags_offset,
                        bytes: sk_blocks * 4,
                    });
                }
                [sk_blocks + dp_blocks, 1]
            }
        };
        if main_grid[0] > MAX_GRID_X {
            return Err(PlanError::TooLarge {
                what: "workgroups",
                value: main_grid[0],
                limit: MAX_GRID_X,
            });
        }
        let launch = |entry, gx: u64, gy: u64, lds, cluster| Step::Launch {
            entry,
            grid: [gx as u32, gy as u32, 1],
            block,
            lds_bytes: lds,
            phase: 0,
            cluster,
        };
        if args.store_atomic == 1 {
            if args.atomic_to_ws == 1 {
                workspace_bytes = out_elems * 4;
                steps.push(Step::Zero {
                    target: ZeroTarget::Workspace,
                    offset: 0,
                    bytes: workspace_bytes,
                });
            } else {
                steps.push(Step::Zero {
                    target: ZeroTarget::Output,
                    offset: 0,
                    bytes: tensor_bytes[out_idx],
                });
            }
        }
        if main_grid[0] > 0 {
            steps.push(launch(
                main_entry,
                main_grid[0],
                main_grid[1],
                main_lds,
                args.cluster.max(1) as u32,
            ));
        }
        if args.atomic_to_ws == 1 || args.split_ws == 1 {
            steps.push(convert_step(&mut args, out_elems, dev));
        }
        Ok(LaunchPlan {
            steps,
            workspace_bytes,
            flags_offset,
            tensor_bytes,
            args,
            phases: Vec::new(),
            transposed: None,
            staged: [None; 3],
        })
    }

    /// Whether an unsplit plan of `tiles` tiles, `slots` workgroups at once, runs on the
    /// persistent entry: the kernel has it, `dev` runs its warpgroup path and lets it (where
    /// it pays, by default: see [`persist_pays`]), the host can encode the problem's tensor
    /// maps (the entry's overlap of a tile's epilogue with the next tile's copies needs them)
    /// and the output takes the staged epilogue's 16-byte runs, which the warps' strips send
    /// too.
    fn persists(&self, args: &CkArgs, tiles: u64, slots: u64, dev: &DeviceInfo) -> bool {
        let wanted = match dev.persistent {
            Persist::Off => false,
            Persist::Planned => persist_pays(args.k_iters as u64, tiles, slots),
            Persist::Always => true,
        };
        dev.wgmma
            && wanted
            && args.stage_out == 1
            && super::tma::tensor_maps(self.tma_kernel(), args).is_some()
    }

    /// The radix of backward data's output-channel GEMM-K digit and the channels of the K-major
    /// TMA boxes, where this device runs the kernel's TMA copies and the filter has more than
    /// one tap (one tap's last K-tile ends at the zero fill as it is): a box is a 128-byte line
    /// of channels, or half of one where the tap's channels (forward: C; backward data: K) are
    /// whole half lines but not whole lines. Backward data of one group also rounds K up to
    /// whole boxes when the padding adds at most three fifths to the MMAs (K = 2376: 2.4 %;
    /// K = 72: a third, in half lines; K = 40: three fifths): up to there the copies' hardware
    /// addresses win back more than the padding's MMAs cost against the same tile's
    /// `cp.async` copies; at 1.8 and 2 times the MMAs they only break even. It pads to half
    /// lines where whole lines would add over a quarter more (K = 32, 72, 96): half-line boxes
    /// took 1.3 to 1.8 times less time there, but 7 to 17 % more than lines padded by a fifth
    /// or less (K = 160, 208, 288; `docs/performance.md`). Each K box then lies in one tap, as
    /// the copies need; the `cp.async` path reads the padding as zeros. Otherwise K and lines.
    fn k_boxes(&self, dims: &ConvDims, dev: &DeviceInfo) -> (u64, u64) {
        let line = u64::from(super::tma::box_channels(self.a.elem));
        let half = line / 2;
        let tma = dev.wgmma && self.wgmma.is_some_and(|l| l.tma);
        let taps: u64 = dims.filter.iter().product();
        if !tma || taps == 1 {
            return (dims.k, line);
        }
        let boxed = |ch: u64| {
            if ch.is_multiple_of(line) || !ch.is_multiple_of(half) {
                line
            } else {
                half
            }
        };
        match dims.op {
            Op::Fwd => (dims.k, boxed(dims.c)),
            Op::BwdWeight => (dims.k, line),
            Op::BwdData if dims.g != 1 => (dims.k, boxed(dims.k)),
            Op::BwdData => {
                let (by_line, by_half) =
                    (dims.k.next_multiple_of(line), dims.k.next_multiple_of(half));
                let (padded, kb) = if 4 * by_line > 5 * by_half {
                    (by_half, half)
                } else {
                    (by_line, line)
                };
                if 5 * padded <= 8 * dims.k {
                    (padded, kb)
                } else {
                    (dims.k, line)
                }
            }
        }
    }

    /// Bytes of the input, weight and output tensors of `dims` (packed).
    fn tensor_bytes(&self, dims: &ConvDims) -> [u64; 3] {
        let px = |s: [u64; 3]| s.iter().product::<u64>();
        let elems = [
            dims.g * dims.n * dims.c * px(dims.input),
            dims.g * dims.k * dims.c * px(dims.filter),
            dims.g * dims.n * dims.k * px(dims.output),
        ];
        let te = self.tensor_elems();
        [0, 1, 2].map(|i| elems[i] * u64::from(te[i].bytes()))
    }

    /// Backward data with strides, split as CK splits it: an input pixel gets contributions
    /// only from the filter taps that the stride divides, so the pixels of one stride phase
    /// (coordinate ≡ r mod s in every strided dimension) form a unit-stride backward-data
    /// problem of their own over every s-th tap from the phase's first. Each phase is planned
    /// on views of the tensors (s-fold strides, offset origins) with a workspace region of its
    /// own, so that the phases may run at once; none runs the taps the other phases' pixels
    /// skip. A phase without taps (a filter narrower than the stride: 1x1 stride 2) gets only
    /// zeros: one zero-fill of the whole output first, which every back end issues before the
    /// phases (not where the output op adds a D tensor). Taken where every strided dimension
    /// has unit dilation and an input at least the stride (each phase has pixels) and the
    /// schedule is split-K (StreamK flags are per plan); the phases' own plans must not clear
    /// the output, which the others write.
    fn phase_plan(
        &self,
        dims: &ConvDims,
        [xs, ws, ys]: [&[(char, i64)]; 3],
        dev: &DeviceInfo,
    ) -> Result<Option<LaunchPlan>, PlanError> {
        if !takes_stride_phases(dims) || !matches!(self.schedule, Schedule::SplitK { .. }) {
            return Ok(None);
        }
        let s = dims.stride;
        let te = self.tensor_elems();
        let (mut steps, mut phases, mut workspace_bytes) = (Vec::new(), Vec::new(), 0);
        let mut tapless = false;
        for ph in stride_phases(dims) {
            let Some(d) = ph.dims else {
                // Its pixels are op(0): zeros unless the output op adds a D tensor.
                let zero_out = matches!(
                    self.out_op,
                    ElementOp::PassThrough | ElementOp::Scale | ElementOp::Relu
                );
                if !zero_out {
                    return Ok(None);
                }
                tapless = true;
                continue;
            };
            let (mut xv, mut wv) = (xs.to_vec(), ws.to_vec());
            let (mut x_off, mut w_off) = (0, 0);
            for (i, l) in ['D', 'H', 'W'].into_iter().enumerate() {
                if s[i] == 1 {
                    continue;
                }
                x_off += ph.r[i] * get(xs, l) as u64;
                w_off += ph.t0[i] * get(ws, l) as u64;
                for v in xv.iter_mut().chain(wv.iter_mut()).filter(|v| v.0 == l) {
                    v.1 *= s[i] as i64;
                }
            }
            let sub = self.plan_views(&d, [&xv, &wv, ys], dev)?;
            if sub.steps.iter().any(|st| {
                matches!(
                    st,
                    Step::Zero {
                        target: ZeroTarget::Output,
                        ..
                    }
                )
            }) {
                return Ok(None);
            }
            let phase = phases.len();
            let region = workspace_bytes;
            steps.extend(sub.steps.into_iter().map(|mut st| {
                match &mut st {
                    Step::Launch { phase: ph, .. } => *ph = phase,
                    // The workspace's (zero-fills of the output were refused above).
                    Step::Zero { offset, .. } => *offset += region,
                    // Views of the plan's own tensors are never staged.
                    Step::Repack { .. } => {}
                }
                st
            }));
            workspace_bytes += sub.workspace_bytes.next_multiple_of(WORKSPACE_ALIGN);
            phases.push(Phase {
                args: sub.args,
                offsets: [
                    x_off * u64::from(te[0].bytes()),
                    w_off * u64::from(te[1].bytes()),
                    0,
                ],
                workspace_offset: region,
            });
        }
        let tensor_bytes = self.tensor_bytes(dims);
        if tapless {
            steps.insert(
                0,
                Step::Zero {
                    target: ZeroTarget::Output,
                    offset: 0,
                    bytes: tensor_bytes[0],
                },
            );
        }
        Ok(Some(LaunchPlan {
            steps,
            workspace_bytes,
            flags_offset: 0,
            tensor_bytes,
            args: phases[0].args,
            phases,
            transposed: None,
            staged: [None; 3],
        }))
    }

    /// Whether finished tiles go out through LDS in 16-byte runs (`ck_store_staged`: 8
    /// elements, 16 of one byte): the tile's N is a multiple of the run, the output's GEMM
    /// columns are contiguous (for backward weight, packed (z, y, x, c)), the GEMM N and every
    /// other output stride are multiples of it (a run stays in one row, aligned), and the tile,
    /// in the output type, fits the LDS from the kernel's stage base (`stage_lds_on`).
    fn stage_output(
        &self,
        dims: &ConvDims,
        [xs, ws, ys]: [&[(char, i64)]; 3],
        dev: &DeviceInfo,
    ) -> bool {
        let [m, n, _] = self.tile;
        let taps: u64 = dims.filter.iter().product();
        let (strides, col, gemm_n, linear) = match dims.op {
            Op::Fwd => (ys, 'K', dims.k, true),
            Op::BwdData => (xs, 'C', dims.c, true),
            Op::BwdWeight => (ws, 'C', dims.c * taps, {
                let [z, y, x] = dims.filter;
                packed(ws, [('C', dims.c), ('W', x), ('H', y), ('D', z)])
            }),
        };
        // A run is 16 bytes: 8 elements, or 16 of a one-byte type.
        let run: u32 = if self.out.is_byte() { 16 } else { 8 };
        let aligned = strides.iter().all(|&(l, st)| {
            if l == col {
                st == 1
            } else {
                st % i64::from(run) == 0
            }
        });
        let tile_bytes = u64::from(m) * u64::from(n * self.out.bytes() + STAGE_PAD);
        n.is_multiple_of(run)
            && linear
            && aligned
            && gemm_n.is_multiple_of(u64::from(run))
            && tile_bytes <= u64::from(self.stage_lds_on(dev))
    }

    /// Whether an operand's vector loads are legal: its contiguous dimension has unit stride,
    /// its extent and every other stride are multiples of the vector (so groups stay inside one
    /// channel run and aligned).
    fn vector_ok(
        &self,
        dims: &ConvDims,
        is_a: bool,
        xs: &[(char, i64)],
        ws: &[(char, i64)],
        ys: &[(char, i64)],
    ) -> bool {
        let cfg = if is_a { &self.a } else { &self.b };
        let v = u64::from(cfg.vector);
        if v == 1 {
            return false;
        }
        // (tensor strides, contiguous letter, its extent)
        let (s, inner, extent) = match (dims.op, is_a) {
            (Op::Fwd, true) => (xs, 'C', dims.c),
            (Op::Fwd, false) => (ws, 'C', dims.c),
            (Op::BwdData, true) => (ys, 'K', dims.k),
            (Op::BwdData, false) if cfg.along_rows => (ws, 'C', dims.c),
            (Op::BwdData, false) => (ws, 'K', dims.k),
            (Op::BwdWeight, true) => (ys, 'K', dims.k),
            (Op::BwdWeight, false) => (xs, 'C', dims.c),
        };
        extent % v == 0
            && s.iter().all(|&(l, st)| {
                if l == inner {
                    st == 1
                } else {
                    st % v as i64 == 0
                }
            })
    }
}
