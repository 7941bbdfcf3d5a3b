//! Plan of the window forward entry (`window.hip`): forward problems with 1 to 4 input
//! channels a group on the scalar-load kernels, a pixel's filter window streamed as its source
//! row against a group's weights in LDS.

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

impl KernelConfig {
    /// The window plan, where the kernel has the entry, loads its operands plainly and `dims`
    /// suits it with each pixel's output channels adjacent (and 16-byte aligned vectors where
    /// they fill whole vectors, which the entry stores whole): a group a grid row,
    /// [`WIN_BLOCKS`] workgroups a compute unit over the groups (as many as it holds at once),
    /// each looping over its pixel ranges.
    pub(super) fn window_plan(
        &self,
        dims: &ConvDims,
        dev: &DeviceInfo,
        ys: &[(char, i64)],
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
        let span = WIN_BLOCK / dims.k.div_ceil(8) * WIN_PIXELS;
        let per_group = (WIN_BLOCKS * u64::from(dev.compute_units)).div_ceil(dims.g);
        let blocks = pixels.div_ceil(span).min(per_group).max(1);
        let launch = plain_launch(
            EntryKind::Window,
            [blocks as u32, dims.g as u32, 1],
            [WIN_BLOCK as u32, lds as u32],
        );
        Some(single_launch(launch, args, tensor_bytes))
    }
}
