//! Plan of the pointwise forward / backward-data entry (`pointwise.hip`): 1x1 convolutions of
//! Filter1x1Stride1Pad0 kernels whose weights fit the LDS, streamed a pixel range a workgroup.

use super::{
    ConvDims, DeviceInfo, EntryKind, LaunchPlan, MAX_GRID_Y, get, packed, plain_launch,
    single_launch,
};
use crate::emit::hip::args::CkArgs;
use crate::emit::hip::config::KernelConfig;
use crate::model::{ElementOp, Op};

/// Threads of a pointwise workgroup, and the pixels each takes a pass (emitted into its source).
pub(in crate::emit::hip) const PW_BLOCK: u64 = 256;
pub(in crate::emit::hip) const PW_PIXELS: u64 = 4;
/// LDS of a group's weights as fp32: the default dynamic limit, which needs no opt-in.
const PW_LDS_BYTES: u64 = 48 * 1024;
/// Workgroups a compute unit takes at once, about (the grid is a few waves of them; each loops
/// over its pixel ranges).
const PW_BLOCKS_PER_CU: u64 = 4;

/// Source and destination channels of a pointwise problem: C and K forward, K and C backward.
fn pointwise_channels(dims: &ConvDims) -> [u64; 2] {
    match dims.op {
        Op::Fwd => [dims.c, dims.k],
        _ => [dims.k, dims.c],
    }
}

/// Whether the pointwise entry takes `dims` (of a kernel that has it, with plain operand loads
/// and channels-last tensors): a forward or backward-data 1x1 filter at unit strides without
/// pads, source and destination channels in whole 8-channel vectors, and a group's weights in
/// 48 KB of LDS. Selection estimates such runs by their bytes.
pub fn pointwise_suits(dims: &ConvDims) -> bool {
    let [src, dst] = pointwise_channels(dims);
    dims.op != Op::BwdWeight
        && !dims.transposed
        && dims.filter == [1; 3]
        && dims.stride == [1; 3]
        && dims.pad == [0; 3]
        && dims.output == dims.input
        && src.is_multiple_of(8)
        && dst.is_multiple_of(8)
        // At most 1,536 destination channels: fewer vectors than a workgroup has threads.
        && src * dst * 4 <= PW_LDS_BYTES
        && dims.g <= MAX_GRID_Y
}

impl KernelConfig {
    /// The pointwise plan, where the kernel has the entry, [`pointwise_suits`] `dims`, its
    /// operand loads are plain, and both tensors have their channels contiguous and their
    /// pixels one (16-byte aligned) stride apart.
    pub(super) fn pointwise_plan(
        &self,
        dims: &ConvDims,
        dev: &DeviceInfo,
        [xs, ys]: [&[(char, i64)]; 2],
        args: CkArgs,
        tensor_bytes: [u64; 3],
    ) -> Option<LaunchPlan> {
        let pass = ElementOp::PassThrough;
        let spatial = dims.input;
        let linear = |s: &[(char, i64)], ch: char| {
            let [d, h, w] = spatial;
            get(s, ch) == 1
                && get(s, 'G') % 8 == 0
                && get(s, 'W') % 8 == 0
                && packed(s, [('W', w), ('H', h), ('D', d), ('N', dims.n)])
        };
        let [src, dst] = pointwise_channels(dims);
        let fits = self.has_pointwise()
            && pointwise_suits(dims)
            && self.a.op == pass
            && self.b.op == pass
            && src * dst * 4 <= u64::from(dev.max_lds_bytes)
            && linear(xs, 'C')
            && linear(ys, 'K');
        if !fits {
            return None;
        }
        let pixels = dims.n * spatial.iter().product::<u64>();
        let span = PW_BLOCK / (dst / 8) * PW_PIXELS;
        let per_group = (PW_BLOCKS_PER_CU * u64::from(dev.compute_units)).div_ceil(dims.g);
        let blocks = pixels.div_ceil(span).min(per_group).max(1);
        let launch = plain_launch(
            EntryKind::Pointwise,
            [blocks as u32, dims.g as u32, 1],
            [PW_BLOCK as u32, (src * dst * 4) as u32],
        );
        Some(single_launch(launch, args, tensor_bytes))
    }
}
