//! Plan of the pointwise forward / backward-data entries (`pointwise.hip`): 1x1 convolutions of
//! Filter1x1Stride1Pad0 kernels whose weights fit the LDS, streamed a pixel range a workgroup,
//! on the SIMT lanes or, on NVIDIA sm_80+, on tensor cores.

use super::{
    ConvDims, DeviceInfo, EntryKind, LaunchPlan, MAX_GRID_X, MAX_GRID_Y, Step, get, packed,
    plain_launch, single_launch,
};
use crate::kernel::args::CkArgs;
use crate::kernel::config::KernelConfig;
use crate::model::{ElementOp, Op};

/// Threads of a pointwise workgroup, and the pixels each takes a pass (emitted into its source).
pub(crate) const PW_BLOCK: u64 = 256;
pub(crate) const PW_PIXELS: u64 = 4;
/// LDS of a group's weights as fp32: the default dynamic limit, which needs no opt-in.
const PW_LDS_BYTES: u64 = 48 * 1024;
/// Workgroups a compute unit takes at once, about (the grid is a few waves of them; each loops
/// over its pixel ranges).
const PW_BLOCKS_PER_CU: u64 = 4;

/// Warps of a tensor-core pointwise workgroup, the stages of each warp's ring (a stage is a
/// 16-pixel run of the source channels), and the workgroups an SM is to hold (its launch bound:
/// at most 128 registers a thread); emitted into its source.
pub(crate) const PWM_WARPS: u64 = 4;
pub(crate) const PWM_STAGES: u64 = 2;
pub(crate) const PWM_BLOCKS: u64 = 4;
/// Destination channels a pass of the tensor-core entry has at least for its 16-bit outputs to
/// go through the warp's LDS tile (emitted into its source); narrower passes store from the
/// registers.
pub(crate) const PWM_STAGED_COLS: u64 = 48;
/// Source channels the tensor-core entry takes at most (its rings hold 16-pixel runs of them).
/// It takes only the SIMT entry's problems: past those weights the GEMM tiles ran faster.
const PWM_MAX_SOURCE: u64 = 256;
/// Destination ranges each read the whole source again, so they split a problem only where its
/// runs give every warp the device holds fewer than [`PWM_SPLIT_BELOW`]; then into as many as
/// give each warp [`PWM_MIN_RUNS_PER_WARP`].
const PWM_SPLIT_BELOW: u64 = 2;
const PWM_MIN_RUNS_PER_WARP: u64 = 4;

/// Source and destination channels of a pointwise problem: C and K forward, K and C backward.
fn pointwise_channels(dims: &ConvDims) -> [u64; 2] {
    match dims.op {
        Op::Fwd => [dims.c, dims.k],
        _ => [dims.k, dims.c],
    }
}

/// Whether `dims` is a pointwise problem: a forward or backward-data 1x1 filter at unit strides
/// without pads, a group's weights in 48 KB of LDS as fp32 and the groups within grid y.
fn pointwise_problem(dims: &ConvDims) -> bool {
    let [src, dst] = pointwise_channels(dims);
    dims.op != Op::BwdWeight
        && !dims.transposed
        && dims.filter == [1; 3]
        && dims.stride == [1; 3]
        && dims.pad == [0; 3]
        && dims.output == dims.input
        // At most 1,536 destination channels: fewer vectors than a workgroup has threads.
        && src * dst * 4 <= PW_LDS_BYTES
        && dims.g <= MAX_GRID_Y
}

/// Whether the pointwise entry's SIMT body takes `dims` (of a kernel that has it, with plain
/// operand loads and channels-last tensors): a pointwise problem whose source and destination
/// channels are whole 8-channel vectors. Selection estimates such runs by their bytes.
pub fn pointwise_suits(dims: &ConvDims) -> bool {
    let [src, dst] = pointwise_channels(dims);
    pointwise_problem(dims) && src.is_multiple_of(8) && dst.is_multiple_of(8)
}

/// Whether the tensor-core pointwise body takes `dims` (where the device and 16-bit operands
/// of one type allow): a pointwise problem of at most 256 source channels, both channel counts
/// even (it copies and stores channel pairs where whole vectors do not fit).
pub fn pointwise_mma_suits(dims: &ConvDims) -> bool {
    let [src, dst] = pointwise_channels(dims);
    pointwise_problem(dims)
        && src.is_multiple_of(2)
        && dst.is_multiple_of(2)
        && src <= PWM_MAX_SOURCE
}

/// LDS of the tensor-core entry for `src` source channels and destination ranges of `range`
/// channels: the range's weights (the source padded to 16), each warp's ring, and where some
/// pass stages its outputs (`staged`) each warp's tile of a run's 16 x 64 outputs.
fn pointwise_mma_lds(src: u64, range: u64, staged: bool) -> u64 {
    let sp = src.div_ceil(16) * 16;
    let tiles = if staged { PWM_WARPS * 16 * 64 * 2 } else { 0 };
    sp * range * 2 + PWM_WARPS * PWM_STAGES * 32 * sp + tiles
}

/// The tensor-core pointwise launch: destination ranges of whole 64-channel passes (grid z),
/// one where the runs give every warp the device holds a couple, else as many as give each a
/// few, and as few as the LDS allows; workgroups of [`PWM_WARPS`] warps, as many an SM as their LDS lets run (up to
/// [`PWM_BLOCKS`]), each warp taking every (grid x · warps)-th run. None where one pass's
/// weights do not fit.
fn pointwise_mma_launch(
    [src, dst]: [u64; 2],
    pixels: u64,
    g: u64,
    staged: bool,
    dev: &DeviceInfo,
) -> Option<Step> {
    let lds = u64::from(dev.max_lds_bytes);
    let cus = u64::from(dev.compute_units);
    let passes = dst.div_ceil(64);
    let runs = pixels.div_ceil(16);
    let warps = PWM_WARPS * PWM_BLOCKS * cus;
    let want = if runs * g >= PWM_SPLIT_BELOW * warps {
        1
    } else {
        (PWM_MIN_RUNS_PER_WARP * warps).div_ceil(runs * g)
    };
    let fit =
        (lds.checked_sub(pointwise_mma_lds(src, 0, staged))? / (src.div_ceil(16) * 16 * 2) / 64)
            .min(passes);
    if fit == 0 {
        return None;
    }
    // Ranges of `per` passes. The kernel derives its range from grid z as
    // ceil(passes / ranges) passes, never more than `per`, so the LDS sized here holds it.
    let per = passes.div_ceil(want.clamp(1, passes)).min(fit);
    let ranges = passes.div_ceil(per);
    let bytes = pointwise_mma_lds(src, per * 64, staged);
    let per_cu = (lds / bytes).clamp(1, PWM_BLOCKS);
    let blocks = runs
        .div_ceil(PWM_WARPS)
        .min((per_cu * cus).div_ceil(g * ranges))
        .max(1);
    // Grid z has grid y's limit.
    (ranges <= MAX_GRID_Y && blocks <= MAX_GRID_X).then(|| {
        plain_launch(
            EntryKind::PointwiseMma,
            [blocks as u32, g as u32, ranges as u32],
            [(PWM_WARPS * 32) as u32, bytes as u32],
        )
    })
}

impl KernelConfig {
    /// The pointwise plan, where the kernel has the entry, its operand loads are plain and both
    /// tensors have their channels contiguous and their pixels one aligned stride apart: on
    /// tensor cores where the device, the operands and [`pointwise_mma_suits`] allow (strides
    /// in whole channel pairs), else on the SIMT lanes where [`pointwise_suits`] (strides in
    /// whole 16-byte vectors).
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
        let linear = |s: &[(char, i64)], ch: char, align: i64| {
            let [d, h, w] = spatial;
            get(s, ch) == 1
                && get(s, 'G') % align == 0
                && get(s, 'W') % align == 0
                && packed(s, [('W', w), ('H', h), ('D', d), ('N', dims.n)])
        };
        let [src, dst] = pointwise_channels(dims);
        let strided = |align| linear(xs, 'C', align) && linear(ys, 'K', align);
        let fits = self.has_pointwise()
            && self.a.op == pass
            && self.b.op == pass
            && src * dst * 4 <= u64::from(dev.max_lds_bytes);
        let mma = fits && self.mma_operands(dev) && pointwise_mma_suits(dims) && strided(2);
        let simt = fits && pointwise_suits(dims) && strided(8);
        if !mma && !simt {
            return None;
        }
        let pixels = dims.n * spatial.iter().product::<u64>();
        // Only tiles some pass writes take LDS: they would cost workgroups an SM. The kernel
        // stages 16-bit outputs of wide passes whose destination strides and channels are whole
        // 16-byte vectors.
        let (dst_strides, dst_ch) = match dims.op {
            Op::Fwd => (ys, 'K'),
            _ => (xs, 'C'),
        };
        let staged = self.out.bytes() == 2
            && dst >= PWM_STAGED_COLS
            && dst.is_multiple_of(8)
            && linear(dst_strides, dst_ch, 8);
        if mma && let Some(launch) = pointwise_mma_launch([src, dst], pixels, dims.g, staged, dev) {
            return Some(single_launch(launch, args, tensor_bytes));
        }
        if !simt {
            return None;
        }
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
