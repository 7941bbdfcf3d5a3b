//! Plan of the window forward entries (`window.hip`): forward problems with 1 to 4 input
//! channels a group on the scalar-load kernels, a pixel's filter window streamed as its source
//! row against a group's weights in LDS, on the SIMT lanes or, on NVIDIA sm_80+, as one GEMM row
//! of tensor-core steps.

use super::{
    ConvDims, DeviceInfo, EntryKind, LaunchPlan, MAX_GRID_Y, get, plain_launch, single_launch,
};
use crate::kernel::args::CkArgs;
use crate::kernel::config::KernelConfig;
use crate::model::{ElementOp, Op};

/// Threads of a window workgroup, the pixels each takes a pass, and the workgroups an SM is to
/// hold (its launch bound: at most 80 registers a thread); emitted into its source.
pub(crate) const WIN_BLOCK: u64 = 256;
pub(crate) const WIN_PIXELS: u64 = 2;
pub(crate) const WIN_BLOCKS: u64 = 3;
/// LDS of a group's weights as fp32: the default dynamic limit, which needs no opt-in.
const WIN_LDS_BYTES: u64 = 48 * 1024;

/// Warps of a tensor-core window workgroup, the pixels each takes a pass (whole 16-pixel MMA
/// fragments) and the workgroups an SM is to hold (its launch bound: at most 128 registers a
/// thread); emitted into its source.
pub(crate) const WM_WARPS: u64 = 4;
pub(crate) const WM_PIXELS: u64 = 32;
pub(crate) const WM_BLOCKS: u64 = 4;
/// Outputs a group and window values (taps x channels) the tensor-core entry takes at most: a
/// warp holds the accumulators of its pixels by every output (past 64 outputs the SIMT body ran
/// faster than fewer pixels a warp), and the weights' fragments of every step stay in LDS.
const WM_MAX_K: u64 = 64;
const WM_MAX_WINDOW: u64 = 256;

/// Whether the window entry takes `dims` (of a kernel that has it, with plain operand loads
/// and channels-last outputs): forward with 1 to 4 input channels a group, at most a
/// workgroup's threads of 8-channel output vectors (the last one partial where the count is not
/// a multiple of 8), a group's weights, padded to whole vectors, in 48 KB of LDS and output
/// pixels with room for a pass past the last within 32-bit indices. Groups of fewer outputs
/// than a vector are left to the kernels' other paths (depthwise layers to the merged groups'
/// entry), one group of them is not. Selection estimates such runs by their bytes and
/// multiply-adds.
pub fn window_suits(dims: &ConvDims) -> bool {
    let pixels = dims.n * dims.output.iter().product::<u64>();
    dims.op == Op::Fwd
        && !dims.transposed
        && (1..=4).contains(&dims.c)
        && (dims.k >= 8 || dims.g == 1)
        && dims.k.div_ceil(8) <= WIN_BLOCK
        && window_lds(dims) <= WIN_LDS_BYTES
        && pixels <= (i32::MAX as u64) / 2
        && dims.g <= MAX_GRID_Y
}

/// LDS bytes of a group's fp32 weights: the filter's taps by C by K padded to whole 8-channel
/// vectors.
fn window_lds(dims: &ConvDims) -> u64 {
    dims.filter.iter().product::<u64>() * dims.c * dims.k.next_multiple_of(8) * 4
}

/// Whether the tensor-core window entry takes `dims` (where the device and 16-bit operands of
/// one type allow): [`window_suits`] with at most 64 outputs a group and 256 values a window.
pub fn window_mma_suits(dims: &ConvDims) -> bool {
    window_suits(dims)
        && dims.k <= WM_MAX_K
        && dims.filter.iter().product::<u64>() * dims.c <= WM_MAX_WINDOW
}

/// LDS bytes of the tensor-core entry: the weights' B fragments of every 16-value step and
/// 8-output tile (8 bytes a lane), the window's table (16 bytes a value) and each warp's fp32
/// tile of 16 pixels by the outputs padded to whole vectors, plus 8 (`window.hip`).
fn window_mma_lds(dims: &ConvDims) -> u64 {
    let steps = (dims.filter.iter().product::<u64>() * dims.c).div_ceil(16);
    let tiles = dims.k.div_ceil(8);
    steps * tiles * 32 * 8 + steps * 16 * 16 + WM_WARPS * 16 * (tiles * 8 + 8) * 4
}

/// Whether every window value's offset from its window's origin, in elements of `xs`, fits the
/// 32-bit table of the tensor-core entry.
fn window_offsets_fit(dims: &ConvDims, xs: &[(char, i64)]) -> bool {
    let reach = |i: usize| (dims.filter[i] - 1) * dims.dilation[i];
    let span = [
        ('D', reach(0)),
        ('H', reach(1)),
        ('W', reach(2)),
        ('C', dims.c - 1),
    ]
    .iter()
    .map(|&(l, r)| u128::from(get(xs, l).unsigned_abs()) * u128::from(r))
    .sum::<u128>();
    span <= i32::MAX as u128
}

impl KernelConfig {
    /// The window plan, where the kernel has the entry, loads its operands plainly and `dims`
    /// suits it with each pixel's output channels adjacent (and 16-byte aligned vectors where
    /// they fill whole vectors, which the entries store whole): a group a grid row, on tensor
    /// cores where the device, the operands and the window allow ([`WM_BLOCKS`] workgroups of
    /// [`WM_WARPS`] warps a compute unit, each warp looping over [`WM_PIXELS`] pixels a pass),
    /// else on the SIMT lanes ([`WIN_BLOCKS`] workgroups a compute unit, each
    /// looping over its pixel ranges).
    pub(super) fn window_plan(
        &self,
        dims: &ConvDims,
        dev: &DeviceInfo,
        [xs, ys]: [&[(char, i64)]; 2],
        args: CkArgs,
        tensor_bytes: [u64; 3],
    ) -> Option<LaunchPlan> {
        let pass = ElementOp::PassThrough;
        let whole = dims.k.is_multiple_of(8);
        let aligned =
            get(ys, 'K') == 1 && (!whole || ys.iter().all(|&(l, st)| l == 'K' || st % 8 == 0));
        let lds = window_lds(dims);
        let fits = self.has_window()
            && window_suits(dims)
            && self.a.op == pass
            && self.b.op == pass
            && lds <= u64::from(dev.max_lds_bytes)
            && aligned;
        if !fits {
            return None;
        }
        let pixels = dims.n * dims.output.iter().product::<u64>();
        let per_cu = |blocks: u64| (blocks * u64::from(dev.compute_units)).div_ceil(dims.g);
        if self.mma_operands(dev)
            && window_mma_suits(dims)
            && window_offsets_fit(dims, xs)
            && let mma_lds = window_mma_lds(dims)
            && mma_lds <= u64::from(dev.max_lds_bytes)
        {
            let blocks = pixels
                .div_ceil(WM_PIXELS * WM_WARPS)
                .min(per_cu(WM_BLOCKS))
                .max(1);
            let launch = plain_launch(
                EntryKind::WindowMma,
                [blocks as u32, dims.g as u32, 1],
                [(WM_WARPS * 32) as u32, mma_lds as u32],
            );
            return Some(single_launch(launch, args, tensor_bytes));
        }
        let span = WIN_BLOCK / dims.k.div_ceil(8) * WIN_PIXELS;
        let blocks = pixels.div_ceil(span).min(per_cu(WIN_BLOCKS)).max(1);
        let launch = plain_launch(
            EntryKind::Window,
            [blocks as u32, dims.g as u32, 1],
            [WIN_BLOCK as u32, lds as u32],
        );
        Some(single_launch(launch, args, tensor_bytes))
    }
}
