//! Plans of the entries that run narrow problems in place of the GEMM tiles: backward weight
//! with few output channels (`sliced`), depthwise and narrow grouped backward weight (the
//! small-channel entries) and small-channel forward / backward data.

use super::split::{MAX_ACCUMULATION, convert_step};
use super::{
    ConvDims, DeviceInfo, EntryKind, LaunchPlan, MAX_GRID_X, MAX_GRID_Y, Step, get, packed,
    plain_launch, single_launch,
};
use crate::kernel::args::CkArgs;
use crate::kernel::config::KernelConfig;
use crate::model::{ElementOp, Layout, Op};

/// Shape of the small-channel entry (`direct.hip`), emitted into its source so that the host
/// and the kernel agree: row sets per block, threads per row set, and the channels a thread
/// covers (its `SPAN / C` rows of C channels each).
pub(crate) const DIRECT_SETS: u64 = 8;
pub(crate) const DIRECT_LANES: u64 = 32;
pub(crate) const DIRECT_SPAN: u64 = 8;

/// Output rows a step of the tensor-core backward-weight small-channel path multiplies, and the
/// steps it copies ahead (`direct.hip`, emitted into its source).
pub(crate) const DIRECT_STEP_ROWS: u64 = 2;
pub(crate) const DIRECT_DEPTH: u64 = 3;
/// 16-pixel runs of a row each warp of that path multiplies, at most: their offsets are set up
/// once, in registers, as is each thread's one 16-byte chunk of a ring row.
pub(crate) const DIRECT_RUNS: u64 = 2;
/// Workgroups of that path an SM holds at least (its launch bound: at most 128 registers, which
/// hold a step's fragments).
pub(crate) const DIRECT_MMA_BLOCKS: u64 = 2;
/// Shape of the depthwise backward-weight path along rows (`ck_direct_rows`, emitted into its
/// source): 8-group vectors a block, and its threads a vector at most; the floats of a thread's
/// sums in LDS at once (`DROWS_CHUNK` taps of 8, one more float for the banks).
pub(crate) const DROWS_VECS: u64 = 32;
pub(crate) const DROWS_SLOTS: u64 = 8;
pub(crate) const DROWS_CHUNK: u64 = 4;
pub(crate) const DROWS_STRIDE: u64 = DROWS_CHUNK * 8 + 1;
/// Workspace slices of the rows entry of rows other than a 3x3 filter's at most: the convert adds an output's slices
/// in a chain of loads (at most 8 thread sets an output), whose latency outgrew what more blocks
/// gained there. The 3x3 entry's blocks (three filter rows a thread) ran faster with every slice
/// their rows give (docs/performance.md).
const DROWS_MAX_SLICES: u64 = 64;
/// LDS of the scalar backward-weight small-channel path: each warp's sums of its row sets.
const DIRECT_LDS: u64 = DIRECT_SETS * DIRECT_LANES / 32 * 9 * DIRECT_SPAN * DIRECT_SETS * 4;
/// LDS of the tensor-core path's warp sums (each warp's [tap][8][8] floats), the least it takes,
/// and the most its rings may take: the default dynamic limit, which needs no opt-in.
const DIRECT_MMA_SUMS: u64 = DIRECT_SETS * DIRECT_LANES / 32 * 9 * 64 * 4;
const DIRECT_MMA_LDS: u64 = 48 * 1024;
/// Fewest output rows a chunk of the tensor-core path takes (each chunk copies halo rows).
const DIRECT_MMA_MIN_ROWS: u64 = 4;

/// Workgroups of the `sliced` entry a compute unit holds in the plan's count (eight warps each),
/// and the fewest 16-pixel steps a warp of a slice takes: below them a slice's fill and the
/// convert launch cost more than the idle compute units it feeds.
const SLICED_BLOCKS: u64 = 2;
const SLICED_MIN_STEPS: u64 = 32;

/// Threads of a small-channel forward / backward-data workgroup (`direct_conv.hip`): each owns
/// one 8-channel vector of one destination pixel at a time.
pub(crate) const DCONV_BLOCK: u64 = 256;
/// Floats between one vector's weights and the next in the small-channel LDS (bank spread), and
/// the floats of that LDS: eight vectors of a 3x3 filter at 8 channels a group.
pub(crate) const DCONV_PAD: u64 = 4;
pub(crate) const DCONV_LDS_FLOATS: u64 = 8 * (9 * 64 + DCONV_PAD);
/// Destination pixels of a row a thread of the depthwise strip bodies takes (`ck_dconv_strip`,
/// `ck_dconv_band`).
pub(crate) const DCONV_STRIP: u64 = 4;
/// LDS of a depthwise band block at most (its weights and two bands' source pixels): two blocks
/// an SM, as many as the registers hold, on a 227 KB Hopper SM.
pub const DCONV_BAND_LDS: u64 = 96 * 1024;
/// Vectors a depthwise band block takes at most: a band's pixels are whole where the groups fit.
const DCONV_BAND_VECS: u64 = 16;
/// Thread passes over a band at most (items are strips of one vector).
const DCONV_BAND_PASSES: u64 = 4;
/// Bands a block takes at least (else the strips run unstaged): a block's first copies and
/// its set-up are hidden only behind bands after them.
const DCONV_BAND_MIN_BANDS: u64 = 3;
/// Destination rows of a band at most.
const DCONV_BAND_ROWS: u64 = 32;
/// Vectors a warp of the small-channel tensor-core path owns (the N of its MMAs, 8 each), at
/// most 8 channels a group; at 16 a warp owns one group (its weights take twice the registers),
/// and windows at stride 2 take two vectors (see [`dconv_warp_vectors`]).
pub(crate) const DCONV_WARP_VECTORS: u64 = 4;
/// LDS of a small-channel tensor-core block: each warp's ring of three stages of two taps, a
/// tap 16 pixels by [`DCONV_WARP_VECTORS`] 16-byte vectors.
pub(crate) const DCONV_MMA_LDS: u64 = DCONV_BLOCK / 32 * 3 * 2 * 16 * DCONV_WARP_VECTORS * 16;
const DCONV_WARP_VECTORS_NARROW: u64 = 2;
/// Destination rows of a row-window run (`ck_dconv_mma`'s strips) at 16 channels a group and
/// at fewer: each source row is copied once for the strip's rows instead of once for each of
/// its filter rows. At fewer channels a warp's four vectors' sums take the registers.
pub(crate) const DCONV_STRIP_ROWS: u64 = 4;
pub(crate) const DCONV_STRIP_ROWS8: u64 = 2;
/// Pixels of a run of the small-channel tensor-core path (the M of its MMAs).
const DCONV_RUN: u64 = 16;
/// 16-pixel runs each warp of a tensor-core small-channel block takes at least: the warps set
/// up their weight fragments once a block.
const DCONV_MMA_RUNS: u64 = 4;

/// GEMM rows (group, k) a small-channel thread owns at `c` channels per group.
fn direct_rows_per_thread(c: u64) -> u64 {
    (DIRECT_SPAN / c).max(1)
}

/// The tensor-core small-channel backward-weight plan (`ck_direct_mma`), for C = K = `c`
/// channels a group in whole 8-channel vectors: `x` blocks of `direct_vecs` vectors (the most,
/// up to 8, whose row rings fit [`DIRECT_MMA_LDS`]), `y` blocks of chunks of `direct_rows`
/// output rows (whole planes where those give every compute unit a block, else at least
/// [`DIRECT_MMA_MIN_ROWS`] rows), at most about four blocks per compute unit (more where a
/// block would sum more than [`MAX_ACCUMULATION`] products), each taking every `y`-th chunk into
/// its workspace slice; the convert entry adds the slices. None where even
/// one vector's rings do not fit, or a row needs more than one copy a thread or [`DIRECT_RUNS`]
/// runs a warp (input rows of more than 256 pixels).
fn direct_mma_plan(
    dims: &ConvDims,
    dev: &DeviceInfo,
    c: u64,
    mut args: CkArgs,
    tensor_bytes: [u64; 3],
) -> Option<LaunchPlan> {
    let [out_d, out_h, out_w] = dims.output;
    let cols = out_w.div_ceil(16) * 16;
    let xcols = (cols - 1) * dims.stride[2] + 2 * dims.dilation[2] + 1;
    let ahead = DIRECT_STEP_ROWS * (DIRECT_DEPTH + 1);
    let xslots = ahead * dims.stride[1] + 2 * dims.dilation[1];
    let lds = |v: u64| {
        let rings = xslots * (xcols * v).div_ceil(8) * 8 + ahead * cols * v;
        (rings * 16).max(DIRECT_MMA_SUMS)
    };
    // Eight warps: each of a vector's 8 / v warps takes every (8 / v)-th run of a row.
    let block = DIRECT_SETS * DIRECT_LANES;
    let fits = |v: u64| {
        lds(v) <= DIRECT_MMA_LDS
            && xcols * v <= block
            && cols / 16 <= DIRECT_RUNS * (block / 32 / v)
    };
    let nvec = dims.g * c / 8;
    let vecs = [8u64, 4, 2, 1]
        .into_iter()
        .find(|&v| v <= nvec && fits(v))?;
    let vec_blocks = nvec.div_ceil(vecs);
    let planes = dims.n * out_d;
    let cus = u64::from(dev.compute_units);
    let chunks = cus
        .div_ceil(vec_blocks * planes)
        .clamp(1, out_h.div_ceil(DIRECT_MMA_MIN_ROWS));
    let rows = out_h.div_ceil(chunks);
    let items = planes * out_h.div_ceil(rows);
    if items > i32::MAX as u64 || vec_blocks > MAX_GRID_X {
        return None;
    }
    // Enough slices that none sums more than MAX_ACCUMULATION products (counting a block's
    // pixels as one accumulator's: its warps share them).
    let fewest = (items * rows * cols).div_ceil(MAX_ACCUMULATION);
    let slices = (4 * cus)
        .div_ceil(vec_blocks)
        .max(fewest)
        .min(items)
        .min(MAX_GRID_Y);
    if items.div_ceil(slices) * rows * cols > MAX_ACCUMULATION {
        return None;
    }
    args.direct_ch = c as i64;
    args.direct_vecs = vecs as i64;
    args.direct_rows = rows as i64;
    let launch = plain_launch(
        EntryKind::DirectMma,
        [vec_blocks as u32, slices as u32, 1],
        [block as u32, lds(vecs) as u32],
    );
    Some(slices_plan(launch, slices, dims, dev, args, tensor_bytes))
}

/// Taps of a row piece of the depthwise rows entries (`ck_rows_taps`' `KX`): a 3x3 filter's
/// rows whole, other rows 5 up to 5 taps, else 7 (longer rows split into pieces of 7, the last
/// one's columns past the row computed and dropped).
fn rows_piece_taps(filter: [u64; 3]) -> u64 {
    match filter {
        [1, 3, 3] => 3,
        [_, _, x] if x <= 5 => 5,
        _ => 7,
    }
}

/// Filter-row groups of the depthwise rows entries: one for a 3x3 filter (a thread takes its
/// three rows), else each filter row's pieces.
fn rows_groups(filter: [u64; 3]) -> u64 {
    if filter == [1, 3, 3] {
        1
    } else {
        filter[1] * filter[2].div_ceil(rows_piece_taps(filter))
    }
}

/// Taps the depthwise rows entries multiply an output pixel: the filter's, with the last
/// piece of a long row's dropped ones.
pub fn rows_computed_taps(filter: [u64; 3]) -> u64 {
    if filter == [1, 3, 3] {
        9
    } else {
        rows_groups(filter) * rows_piece_taps(filter)
    }
}

/// Thread rows (a vector, a filter-row group, an output row) that fill the device on the rows
/// entries: two full blocks a compute unit. Below a quarter of that, rows split into column
/// segments, as many as reach it.
fn rows_fill(dev: &DeviceInfo) -> u64 {
    u64::from(dev.compute_units) * 2 * DROWS_SLOTS * DROWS_VECS
}

/// Fewest output columns of a segment (then rounded up to the entry's step): a segment loads
/// its window's first columns again.
const DROWS_MIN_SEGMENT: u64 = 32;

/// The depthwise backward-weight plan along output rows (`ck_direct_rows`): `x` blocks of
/// `vecs` 8-group vectors by the filter's row groups ([`rows_groups`]) by as many row slots as
/// fill [`DROWS_SLOTS`] · [`DROWS_VECS`] threads (at least one), `y` blocks of `direct_rows`
/// items of the (image, depth, row, segment) sequence, each writing its workspace slice; the
/// convert entry adds them. Rows split into segments of `direct_pixels` output columns (whole
/// rows when 0) where the thread rows are too few to fill the device ([`rows_fill`]: long rows
/// of few images, as 1-D layers), each at least [`DROWS_MIN_SEGMENT`] columns.
/// Slices: one item a slot where that makes at most eight blocks a compute unit, fewer where the
/// slices would outweigh half the input's bytes (small images of many groups: the convert reads
/// every slice), at most [`DROWS_MAX_SLICES`] for rows of 4 or more taps, more items a block
/// beyond. `vecs`: all the vectors up to [`DROWS_VECS`] (no idle lanes where they are fewer),
/// or half, a quarter ... down to 4 where that costs less: rounds of one block a compute unit
/// times the items a slot runs in turn and half an item for the block's sum (the slices stop
/// short of the rows where the convert's chain or the input's bytes bound them, and a block of
/// many vectors then has few slots, each taking many rows). None where the grid would exceed
/// its limits.
fn direct_rows_plan(
    dims: &ConvDims,
    dev: &DeviceInfo,
    mut args: CkArgs,
    tensor_bytes: [u64; 3],
) -> Option<LaunchPlan> {
    let three = dims.filter == [1, 3, 3];
    let row_groups = rows_groups(dims.filter);
    let nvec = dims.g / 8;
    let rows = dims.n * dims.output[0] * dims.output[1];
    let wo = dims.output[2];
    // Output columns a step of the entry takes (`COLS` of `ck_rows_taps`).
    let kx = rows_piece_taps(dims.filter);
    let step = match (dims.stride[2], kx) {
        (1, _) => kx,
        (_, 7) => 1,
        _ => 2,
    };
    let thread_rows = nvec * row_groups * rows;
    let fill = rows_fill(dev);
    let (segs, seg_cols) = if 4 * thread_rows < fill && wo >= 2 * DROWS_MIN_SEGMENT {
        let segs = fill
            .div_ceil(thread_rows)
            .min(wo / DROWS_MIN_SEGMENT.next_multiple_of(step));
        let cols = wo.div_ceil(segs).next_multiple_of(step);
        (wo.div_ceil(cols), cols)
    } else {
        (1, 0)
    };
    let items = rows * segs;
    let cus = u64::from(dev.compute_units);
    let slice_bytes = dims.g * dims.filter[1] * dims.filter[2] * 4;
    let max_slices = if three { MAX_GRID_Y } else { DROWS_MAX_SLICES };
    // Item slots, vector blocks and slices of `vecs` vectors a block.
    let shape = |vecs: u64| {
        let slots = (DROWS_SLOTS * DROWS_VECS / (vecs * row_groups)).max(1);
        let vec_blocks = nvec.div_ceil(vecs);
        let slices = items
            .div_ceil(slots)
            .min((8 * cus).div_ceil(vec_blocks))
            .min(tensor_bytes[0] / (2 * slice_bytes))
            .clamp(1, max_slices);
        (slots, vec_blocks, slices)
    };
    // A slot's items run one after another, each a chain of dependent loads, and a compute unit
    // holds one block of these register-heavy threads: rounds of a block a compute unit times
    // a slot's items and half an item more for the block's sum and slice (twice that, in whole
    // numbers).
    let cost = |vecs: u64| {
        let (slots, vec_blocks, slices) = shape(vecs);
        let rounds = (vec_blocks * slices).div_ceil(cus);
        rounds * (2 * items.div_ceil(slices).div_ceil(slots) + 1)
    };
    let mut vecs = nvec.min(DROWS_VECS);
    let mut v = vecs;
    while v > 4 {
        v /= 2;
        if cost(v) < cost(vecs) {
            vecs = v;
        }
    }
    let (slots, vec_blocks, slices) = shape(vecs);
    let per_block = items.div_ceil(slices);
    let slices = items.div_ceil(per_block);
    if vec_blocks > MAX_GRID_X || items > i32::MAX as u64 {
        return None;
    }
    let threads = vecs * row_groups * slots;
    args.direct_rows = per_block as i64;
    args.direct_vecs = vecs as i64;
    args.direct_pixels = seg_cols as i64;
    let entry = if three {
        EntryKind::DirectRows
    } else {
        EntryKind::DirectRowTaps
    };
    let launch = plain_launch(
        entry,
        [vec_blocks as u32, slices as u32, 1],
        [threads as u32, (threads * DROWS_STRIDE * 4) as u32],
    );
    Some(slices_plan(launch, slices, dims, dev, args, tensor_bytes))
}

/// Whether the depthwise rows entries take `dims` (of a kernel that merges groups, with plain
/// operand loads): backward weight as stated, one channel a group on both sides in whole
/// 8-group vectors, channels-last tensors, one depth tap, a 3x3 filter or rows of 4 or more
/// taps (at most `DROWS_SLOTS` (8) filter-row groups: rows of up to 7 taps, half as many of up
/// to 14, ...), width stride 1 or 2 at unit width dilation. Selection estimates such runs by
/// their bytes and multiply-adds.
pub fn depthwise_rows_suit(dims: &ConvDims) -> bool {
    let [z, y, x] = dims.filter;
    dims.op == Op::BwdWeight
        && !dims.transposed
        && dims.c == 1
        && dims.k == 1
        && dims.g.is_multiple_of(8)
        && channels_last(dims)
        && z == 1
        && (x == 3 && y == 3 || x >= 4 && (1..=DROWS_SLOTS).contains(&rows_groups(dims.filter)))
        && [1, 2].contains(&dims.stride[2])
        && dims.dilation[2] == 1
}

/// Whether the small-channel forward / backward-data entry's tensor-core path (sm_80+, 16-bit
/// operands of one type, a kernel that merges groups) takes `dims` as a whole: 8- or 16-channel
/// groups (4-channel ones in row windows) with a 3x3 filter over channels-last tensors, within
/// its grid and 32-bit pixel indices (strided backward data in its stride phases).
pub fn dconv_mma_suits(dims: &ConvDims) -> bool {
    let int = |sp: [u64; 3]| dims.n * sp.iter().product::<u64>() <= (i32::MAX as u64) / 2;
    dims.op != Op::BwdWeight
        && !dims.transposed
        && dconv_mma_channels(dims)
        && dims.k == dims.c
        && dims.filter == [1, 3, 3]
        && channels_last(dims)
        && dims.g.div_ceil(8) <= MAX_GRID_Y
        && int(dims.input)
        && int(dims.output)
}

/// The channels a group the small-channel tensor-core path takes: 8 or 16 (a tap's k16 step),
/// or 4 in row windows ([`dconv_window`]), where half its products are the zeros between a
/// vector's two groups; in tap pairs 4 channels gained nothing over the scalar path.
fn dconv_mma_channels(dims: &ConvDims) -> bool {
    [8, 16].contains(&dims.c) || dims.c == 4 && dconv_window(dims)
}

/// Whether the tensor-core path of [`dconv_mma_suits`] runs `dims` in row windows (each filter
/// row's window of source pixels copied once for its taps, runs within destination rows): a
/// 3x3 filter, or backward data's filters under it (its stride phases'), at unit height and
/// width dilation and stride ([`dconv_window_stride`]) on rows that padding to whole 16-pixel
/// runs grows by at most a third.
pub fn dconv_window(dims: &ConvDims) -> bool {
    let w = if dims.op == Op::Fwd {
        dims.output[2]
    } else {
        dims.input[2]
    };
    let s = dconv_window_stride(dims);
    let [z, y, x] = dims.filter;
    let phase = dims.op == Op::BwdData && z == 1 && y <= 2 && x <= 2;
    (dims.filter == [1, 3, 3] || phase)
        && dims.stride[1..] == [s, s]
        && (dims.op == Op::Fwd || dims.stride[0] == 1)
        && dims.dilation[1..] == [1, 1]
        && 3 * w.next_multiple_of(DCONV_RUN) <= 4 * w
}

/// The height and width stride the row windows take: 2 for forward at stride 2 (windows of 33
/// source pixels, whose stages fit the ring at a warp's two vectors only), else 1.
pub fn dconv_window_stride(dims: &ConvDims) -> u64 {
    if dims.op == Op::Fwd && dims.stride[1..] == [2, 2] {
        2
    } else {
        1
    }
}

/// Vectors a warp of the small-channel tensor-core path owns: one 16-channel group, or two
/// vectors in row windows at stride 2, else [`DCONV_WARP_VECTORS`].
fn dconv_warp_vectors(dims: &ConvDims, body: DconvBody) -> u64 {
    if dims.c == 16 || body == DconvBody::RowWindows && dconv_window_stride(dims) == 2 {
        DCONV_WARP_VECTORS_NARROW
    } else {
        DCONV_WARP_VECTORS
    }
}

/// Destination rows of a small-channel tensor-core run in row windows at `c` channels a group.
pub fn dconv_strip_rows(c: u64) -> u64 {
    if c == 16 {
        DCONV_STRIP_ROWS
    } else {
        DCONV_STRIP_ROWS8
    }
}

/// Whether the input and output are channels-last (NWGC, NHWGC, NDHWGC and their outputs).
fn channels_last(dims: &ConvDims) -> bool {
    matches!(
        dims.layouts,
        [
            Layout::Nwgc | Layout::Nhwgc | Layout::Ndhwgc,
            _,
            Layout::Nwgk | Layout::Nhwgk | Layout::Ndhwgk
        ]
    )
}

/// A backward-weight small-channel launch whose `slices` workgroup rows (`grid[1]`) each write
/// a workspace slice of the filter's sums, then the convert entry that adds them.
fn slices_plan(
    launch: Step,
    slices: u64,
    dims: &ConvDims,
    dev: &DeviceInfo,
    mut args: CkArgs,
    tensor_bytes: [u64; 3],
) -> LaunchPlan {
    args.ws_slices = slices as i64;
    let out_elems = dims.g * dims.k * dims.c * dims.filter.iter().product::<u64>();
    let convert = convert_step(&mut args, out_elems, dev);
    let mut plan = single_launch(launch, args, tensor_bytes);
    plan.steps.push(convert);
    plan.workspace_bytes = slices * out_elems * 4;
    plan
}

/// Whether the small-channel forward / backward-data entry runs `dims` as depthwise strips
/// (`ck_dconv_strip`): one channel a group, rows of 3, 5 or 7 taps at unit width dilation,
/// forward at width stride 1 or 2, backward data at unit strides.
fn dconv_strip(dims: &ConvDims, c: u64) -> bool {
    let strides = if dims.op == Op::Fwd {
        [1, 2].contains(&dims.stride[2])
    } else {
        dims.stride.iter().all(|&s| s == 1)
    };
    c == 1 && [3, 5, 7].contains(&dims.filter[2]) && dims.dilation[2] == 1 && strides
}

/// LDS floats of one 8-channel vector's weights in the small-channel forward / backward-data
/// entry: every tap's `8·c` weights, padded.
fn dconv_vector_floats(dims: &ConvDims, c: u64) -> u64 {
    dims.filter.iter().product::<u64>() * 8 * c + DCONV_PAD
}

/// Whether the small-channel entry reaches the tensors of `dims` (source `xs` and destination
/// `ys` strides, C channels a group): its 64-group blocks within grid y, pixel counts within
/// its 32-bit indices (with room for a pass past the last one), and channels-last tensors with
/// packed groups and channels whose other strides are multiples of `align` elements (8: 16-byte
/// vectors of 16-bit data; 2: pairs of channels).
fn dconv_tensors(dims: &ConvDims, [xs, ys]: [&[(char, i64)]; 2], align: i64) -> bool {
    let c = dims.c;
    let int = |v: u64| v <= (i32::MAX as u64) / 2;
    let pixels = |sp: [u64; 3]| dims.n * sp.iter().product::<u64>();
    let channels_last = |s: &[(char, i64)], ch: char| {
        (c == 1 || get(s, ch) == 1)
            && get(s, 'G') == c as i64
            && s.iter()
                .all(|&(l, st)| l == 'G' || l == ch || st % align == 0)
    };
    (dims.g * c).div_ceil(64) <= MAX_GRID_Y
        && int(pixels(dims.input))
        && int(pixels(dims.output))
        && channels_last(xs, 'C')
        && channels_last(ys, 'K')
}

/// Which body of the small-channel forward / backward-data entry runs a plan: a thread a pixel
/// on the SIMT lanes, depthwise strips along rows, or tensor cores over tap pairs or row
/// windows (`direct_conv.hip`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum DconvBody {
    Simt,
    Strip,
    /// Strips reading and writing pairs of channels, for an even G that is not a multiple of 8
    /// (its pixels are not 16-byte aligned); the last vector's pairs past G are left out.
    PairStrip,
    TapPairs,
    RowWindows,
}

/// Vectors a depthwise band block takes: every vector of a pixel where there are at most
/// [`DCONV_BAND_VECS`] (a band's copies are then whole pixels, in address order), else the
/// largest divisor of `nvec` from 8 up to that, else 8.
fn band_vectors(nvec: u64) -> u64 {
    if nvec <= DCONV_BAND_VECS {
        return nvec;
    }
    (8..=DCONV_BAND_VECS)
        .rev()
        .find(|&v| nvec.is_multiple_of(v))
        .unwrap_or(8)
}

/// The depthwise band plan (`ck_dconv_band`, forward at width stride 1 or 2, backward data at
/// unit strides, one depth tap; vectors of `vector_bytes` in the source): blocks of
/// [`band_vectors`] vectors take bands of `direct_rows` destination rows by `direct_pixels`
/// strips, every `x`-th band of the problem, two blocks a compute unit. A band's extent is the one whose LDS fits
/// [`DCONV_BAND_LDS`] with the most destination pixels for the source pixels it copies, the
/// fewest idle threads in its passes and the least padding past the last row and strip, while
/// the bands still give every compute unit two blocks. None where one row of one strip does not
/// fit, or where the bands give a block fewer than [`DCONV_BAND_MIN_BANDS`] (small images).
fn dconv_band_plan(
    dims: &ConvDims,
    dev: &DeviceInfo,
    vector_bytes: u64,
    mut args: CkArgs,
    tensor_bytes: [u64; 3],
) -> Option<LaunchPlan> {
    let fwd = dims.op == Op::Fwd;
    let [fy, fx] = [dims.filter[1], dims.filter[2]];
    let nvec = dims.g / 8;
    let vecs = band_vectors(nvec);
    let vec_blocks = nvec.div_ceil(vecs);
    let [dd, dh, dw] = if fwd { dims.output } else { dims.input };
    let (step_h, step_w) = if fwd {
        (dims.stride[1], dims.stride[2])
    } else {
        (1, 1)
    };
    let budget = DCONV_BAND_LDS.min(u64::from(dev.max_lds_bytes));
    let weights = vecs * (fy * fx * 8 + DCONV_PAD) * 4;
    let strips_row = dw.div_ceil(DCONV_STRIP);
    let fill = 2 * u64::from(dev.compute_units);
    // (score, rows, strips, LDS bytes); the score in parts in 2^30, integers for determinism.
    let mut best: Option<(u64, u64, u64, u64)> = None;
    for rows in 1..=dh.min(DCONV_BAND_ROWS) {
        let span_r = (rows - 1) * step_h + (fy - 1) * dims.dilation[1] + 1;
        let mut last = 0;
        for col_bands in 1..=strips_row {
            let strips = strips_row.div_ceil(col_bands);
            if strips == last {
                continue;
            }
            last = strips;
            let span_c = (strips * DCONV_STRIP - 1) * step_w + fx;
            let bytes = weights + 2 * span_r * span_c * vecs * vector_bytes;
            let items = rows * strips * vecs;
            if bytes > budget || items > DCONV_BAND_PASSES * DCONV_BLOCK {
                continue;
            }
            let (row_bands, col_bands) = (dh.div_ceil(rows), strips_row.div_ceil(strips));
            let bands = dims.n * dd * row_bands * col_bands;
            // Destination pixels over copied source pixels (at most 1 / stride²), threads
            // working over threads passing, destination rows and columns over those planned,
            // and the bands' share of the two blocks an SM.
            let mut score = (1u64 << 30) * rows * strips * DCONV_STRIP / (span_r * span_c);
            score = score * items / (items.div_ceil(DCONV_BLOCK) * DCONV_BLOCK);
            score = score * dh / (row_bands * rows);
            score = score * dw / (col_bands * strips * DCONV_STRIP);
            score = score * (bands * vec_blocks).min(fill) / fill;
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, rows, strips, bytes));
            }
        }
    }
    let (_, rows, strips, bytes) = best?;
    let bands = dims.n * dd * dh.div_ceil(rows) * strips_row.div_ceil(strips);
    if bands * vec_blocks < DCONV_BAND_MIN_BANDS * fill {
        return None;
    }
    // One wave of blocks: two a compute unit.
    let blocks = bands.min((fill / vec_blocks).max(1));
    args.direct_ch = 1;
    args.direct_vecs = vecs as i64;
    args.direct_rows = rows as i64;
    args.direct_pixels = strips as i64;
    args.direct_strip = 2;
    let launch = plain_launch(
        EntryKind::Direct,
        [blocks as u32, vec_blocks as u32, 1],
        [DCONV_BLOCK as u32, bytes as u32],
    );
    Some(single_launch(launch, args, tensor_bytes))
}

/// Vectors a block of the small-channel SIMT bodies takes, at most `widest`: lanes are
/// vectors by pixel slots, so the lanes idle are the last block's vectors past `nvec` and the
/// threads past the last whole slot. The most vectors whose share of working lanes is within
/// 5 % of the best share, and at least [`SIMT_MIN_VECS`] (or every vector) where the LDS holds
/// them: a warp's load then covers 64 bytes of a pixel at least (144 groups take 3 blocks of
/// 6 vectors, where blocks of 8 left a quarter of the lanes idle).
fn simt_vectors(nvec: u64, widest: u64) -> u64 {
    // Working lanes of a block of `v` vectors, over all lanes, scaled to parts in 2^20.
    let working = |v: u64| {
        let slots = DCONV_BLOCK / v * v;
        ((nvec * slots) << 20) / (nvec.div_ceil(v) * v * DCONV_BLOCK)
    };
    let least = SIMT_MIN_VECS.min(nvec).min(widest).max(1);
    let best = (least..=widest).map(working).max().unwrap_or(0);
    (least..=widest)
        .rev()
        .find(|&v| working(v) * 20 >= best * 19)
        .unwrap_or(least)
}

/// Vectors a block of the small-channel SIMT bodies takes at least, where there are as many.
const SIMT_MIN_VECS: u64 = 4;

/// The small-channel forward / backward-data plan: `y` blocks of `direct_vecs` adjacent
/// 8-channel vectors (up to 8: a power of two on tensor cores, else [`simt_vectors`], a block's
/// threads spanning them by 256 / vecs pixel slots), `x` blocks of the destination pixels, about eight workgroups per compute unit with at least
/// one pass of the block's threads each (`mma`, the tensor-core path: [`DCONV_MMA_RUNS`] runs
/// of 16 pixels for each of its warps; in row windows, rows padded to whole runs and blocks of
/// whole runs). No workspace: each output is written once.
fn dconv_plan(
    dims: &ConvDims,
    dev: &DeviceInfo,
    c: u64,
    body: DconvBody,
    mut args: CkArgs,
    tensor_bytes: [u64; 3],
) -> LaunchPlan {
    // A partial last vector only where pair strips mask it.
    let nvec = (dims.g * c).div_ceil(8);
    // The most vectors, up to 8, whose weights fit the LDS.
    let widest = (DCONV_LDS_FLOATS / dconv_vector_floats(dims, c))
        .min(nvec)
        .min(8);
    // Tensor-core warps split a block's vectors into sets of DC_VW: a power of two.
    let mma = matches!(body, DconvBody::TapPairs | DconvBody::RowWindows);
    let vecs = if mma {
        1u64 << widest.ilog2()
    } else {
        simt_vectors(nvec, widest)
    };
    let vec_blocks = nvec.div_ceil(vecs);
    let [d, h, w] = if dims.op == Op::Fwd {
        dims.output
    } else {
        dims.input
    };
    // Work items: pixels, or strips of them along rows.
    let window = body == DconvBody::RowWindows;
    let (h, w) = match body {
        DconvBody::Strip | DconvBody::PairStrip => (h, w.div_ceil(DCONV_STRIP)),
        DconvBody::RowWindows => (
            h.div_ceil(dconv_strip_rows(c)),
            w.next_multiple_of(DCONV_RUN),
        ),
        _ => (h, w),
    };
    let pixels = dims.n * d * h * w;
    let pass = if mma {
        // Warps per vector set of the block.
        let warps = DCONV_BLOCK / 32 / (vecs / vecs.min(dconv_warp_vectors(dims, body)));
        DCONV_RUN * DCONV_MMA_RUNS * warps
    } else {
        DCONV_BLOCK / vecs
    };
    let chunks = (8 * u64::from(dev.compute_units)).div_ceil(vec_blocks);
    let mut per_block = pixels.div_ceil(chunks).max(pass);
    if window {
        // A run must not cross a row: blocks start on whole runs.
        per_block = per_block.next_multiple_of(DCONV_RUN);
    }
    args.direct_ch = c as i64;
    args.direct_vecs = vecs as i64;
    args.direct_mma = match body {
        DconvBody::TapPairs => 1,
        DconvBody::RowWindows => 2,
        _ => 0,
    };
    args.direct_strip = match body {
        DconvBody::Strip => 1,
        DconvBody::PairStrip => 3,
        _ => 0,
    };
    args.direct_pixels = per_block as i64;
    // LDS: the tensor-core bodies' copy rings, or the SIMT bodies' weights.
    let lds = if mma {
        DCONV_MMA_LDS
    } else {
        DCONV_LDS_FLOATS * 4
    };
    let launch = plain_launch(
        EntryKind::Direct,
        [pixels.div_ceil(per_block) as u32, vec_blocks as u32, 1],
        [DCONV_BLOCK as u32, lds as u32],
    );
    single_launch(launch, args, tensor_bytes)
}

impl KernelConfig {
    /// The plan of an entry that runs narrow problems in place of the GEMM tiles, where one
    /// fits `dims`: backward weight's `sliced` entry (few output channels), its depthwise rows,
    /// tensor-core and scalar small-channel entries, the small-channel forward /
    /// backward-data entry, the window forward entry (`window.rs`) or the pointwise entry
    /// (`pointwise.rs`).
    pub(super) fn narrow_plan(
        &self,
        dims: &ConvDims,
        dev: &DeviceInfo,
        [xs, ys]: [&[(char, i64)]; 2],
        args: CkArgs,
        tensor_bytes: [u64; 3],
    ) -> Option<LaunchPlan> {
        if dims.op == Op::BwdWeight {
            if let Some(plan) = self.sliced_plan(dims, dev, [xs, ys], args, tensor_bytes) {
                return Some(plan);
            }
            let vectors = self.dconv_channels(dims, xs, ys);
            // Depthwise with the rows entries' filters and width steps, and offsets within a
            // row in 32 bits.
            let row_offsets = |s: &[(char, i64)], w: u64| {
                get(s, 'W').unsigned_abs().saturating_mul(w) <= i32::MAX as u64
            };
            let along_rows = depthwise_rows_suit(dims)
                && row_offsets(xs, dims.input[2])
                && row_offsets(ys, dims.output[2]);
            if let Some(plan) = vectors
                .filter(|_| along_rows)
                .and_then(|_| direct_rows_plan(dims, dev, args, tensor_bytes))
            {
                return Some(plan);
            }
            let vectors = vectors.filter(|_| self.small_channels(dims));
            let mma = vectors.filter(|_| self.mma_operands(dev));
            if let Some(plan) =
                mma.and_then(|ch| direct_mma_plan(dims, dev, ch, args, tensor_bytes))
            {
                return Some(plan);
            }
            if let Some(ch) = self.direct_channels(dims, xs, ys) {
                return Some(self.direct_plan(dims, dev, ch, args, tensor_bytes));
            }
        } else if let Some(ch) = self
            .dconv_channels(dims, xs, ys)
            .filter(|&c| self.dconv_filter(dims, c, dev))
        {
            let body = match (self.dconv_tensor_cores(dims, dev), dconv_window(dims)) {
                (true, true) => DconvBody::RowWindows,
                (true, false) => DconvBody::TapPairs,
                _ if dconv_strip(dims, ch) => DconvBody::Strip,
                _ => DconvBody::Simt,
            };
            // Strips of one depth tap run in bands where one fits the LDS.
            if body == DconvBody::Strip
                && dims.filter[0] == 1
                && let Some(plan) = dconv_band_plan(
                    dims,
                    dev,
                    8 * u64::from(self.a.elem.bytes()),
                    args,
                    tensor_bytes,
                )
            {
                return Some(plan);
            }
            return Some(dconv_plan(dims, dev, ch, body, args, tensor_bytes));
        } else if self.dconv_pairs(dims, xs, ys) {
            return Some(dconv_plan(
                dims,
                dev,
                1,
                DconvBody::PairStrip,
                args,
                tensor_bytes,
            ));
        } else if let Some(plan) = self.window_plan(dims, dev, [xs, ys], args, tensor_bytes) {
            return Some(plan);
        }
        self.pointwise_plan(dims, dev, [xs, ys], args, tensor_bytes)
    }

    /// What the small-channel entries need: a kernel that has one, 1, 2, 4 or 8 input channels
    /// per group and plain operand loads.
    fn plain_small_channels(&self, dims: &ConvDims) -> bool {
        [1, 2, 4, 8].contains(&dims.c) && self.plain_merged()
    }

    /// A kernel that has the small-channel entries and plain operand loads.
    fn plain_merged(&self) -> bool {
        let pass = ElementOp::PassThrough;
        self.has_direct() && self.a.op == pass && self.b.op == pass
    }

    /// What the backward-weight small-channel entries need besides: a 3x3 filter with one
    /// depth tap.
    fn small_channels(&self, dims: &ConvDims) -> bool {
        self.plain_small_channels(dims) && dims.filter == [1, 3, 3]
    }

    /// The filters the small-channel forward / backward-data entry takes at `c` channels a
    /// group: 3x3 with one depth tap, any filter at 1 or 2 channels whose weights of one
    /// vector fit its LDS, and those of the tensor-core path (the only one for 16 channels).
    fn dconv_filter(&self, dims: &ConvDims, c: u64, dev: &DeviceInfo) -> bool {
        if c > 8 {
            return self.dconv_tensor_cores(dims, dev);
        }
        dims.filter == [1, 3, 3]
            || (c <= 2 && dconv_vector_floats(dims, c) <= DCONV_LDS_FLOATS)
            || self.dconv_tensor_cores(dims, dev)
    }

    /// Channels per group when the small-channel entry runs `dims`: a kernel that has it, a
    /// backward-weight problem with a 3x3 filter (one depth tap), 1, 2, 4 or 8 channels per
    /// group, plain operand loads, pixel and row counts within the kernel's 32-bit indices, and
    /// channels-last tensors whose vectors (the thread's `8 / C` rows of the output gradient;
    /// their input channels) are aligned.
    fn direct_channels(
        &self,
        dims: &ConvDims,
        xs: &[(char, i64)],
        ys: &[(char, i64)],
    ) -> Option<u64> {
        let (c, k) = (dims.c, dims.k);
        let int = |v: u64| v <= i32::MAX as u64;
        if !self.small_channels(dims)
            || !int(dims.n * dims.output.iter().product::<u64>())
            || !int(dims.g * k)
        {
            return None;
        }
        let rows_per_thread = direct_rows_per_thread(c);
        // With K = 1 a thread's rows are groups and it reads their channels as one vector.
        let across = k == 1;
        let x_vec = if across { rows_per_thread * c } else { c };
        let others = |s: &[(char, i64)], skip: [char; 2], v: u64| {
            s.iter()
                .all(|&(l, st)| skip.contains(&l) || st % v as i64 == 0)
        };
        // Rows (g, k) of the output gradient are consecutive elements of a pixel.
        let y_ok = (k == 1 || get(ys, 'K') == 1)
            && get(ys, 'G') == k as i64
            && others(ys, ['G', 'K'], rows_per_thread);
        let x_group = get(xs, 'G');
        let x_ok = (c == 1 || get(xs, 'C') == 1)
            && if across {
                x_group == c as i64
            } else {
                x_group % c as i64 == 0
            }
            && others(xs, ['G', 'C'], x_vec);
        let fits = (across || k.is_multiple_of(rows_per_thread))
            && (dims.g * k).is_multiple_of(rows_per_thread)
            && y_ok
            && x_ok;
        fits.then_some(c)
    }

    /// Whether the small-channel forward / backward-data entry runs `dims` on tensor cores
    /// (`ck_dconv_mma`): on NVIDIA sm_80+, with 16-bit source and weights of one type, 8 or 16
    /// channels a group and a 3x3 filter, or for backward data one under it that the stride
    /// phases of a 3x3 filter at stride 2 have (2x2, 2x1, 1x2, 1x1; backward data at strides
    /// the phases do not take masks the taps its strides do not divide); 4 channels a group
    /// where it runs in row windows ([`dconv_window`]), half its products zeros. Otherwise
    /// narrower groups would multiply mostly zeros: 4 channels in tap pairs gained nothing over
    /// the scalar path and depthwise lost (`docs/performance.md`, what was tried).
    fn dconv_tensor_cores(&self, dims: &ConvDims, dev: &DeviceInfo) -> bool {
        let [z, y, x] = dims.filter;
        let phase = dims.op == Op::BwdData && y <= 2 && x <= 2;
        self.mma_operands(dev) && dconv_mma_channels(dims) && z == 1 && ((y, x) == (3, 3) || phase)
    }

    /// The `sliced` backward-weight plan, where the kernel has that entry and `dims` fits it:
    /// NVIDIA sm_80+ with 16-bit operands of one type and plain loads, a 2-D problem as stated
    /// (not its transpose), K within the tile's M in whole 8-byte chunks (any K in kernels
    /// whose A vector is under 4, which read a step's output gradient as one run: then the
    /// pixels are K apart and a group's run starts on 16 bytes), C in whole N tiles (a tile is
    /// one filter tap), packed output-gradient pixels with K contiguous and 8-byte aligned,
    /// channels-last input in aligned 16-byte chunks, pixel counts in 32 bits and at most
    /// [`MAX_ACCUMULATION`] of them a warp. A workgroup per N tile and group; its warps split
    /// the pixels and add their sums in LDS, each output is stored once: no workspace, no
    /// convert. Where those workgroups are fewer than the device holds, rows of them
    /// (`grid[1]`) split the pixels further, each of at least [`SLICED_MIN_STEPS`] steps a
    /// warp, and write workspace slices that the convert entry adds.
    fn sliced_plan(
        &self,
        dims: &ConvDims,
        dev: &DeviceInfo,
        [xs, ys]: [&[(char, i64)]; 2],
        args: CkArgs,
        tensor_bytes: [u64; 3],
    ) -> Option<LaunchPlan> {
        let [m, n, _] = self.tile.map(u64::from);
        let [do_, ho, wo] = dims.output;
        let plain = self.a.op == ElementOp::PassThrough && self.b.op == ElementOp::PassThrough;
        let two_d = dims.input[0] == 1 && dims.filter[0] == 1 && do_ == 1;
        let raw = self.a.vector < 4;
        let k_ok = if raw {
            get(ys, 'W') == dims.k as i64 && (dims.g == 1 || get(ys, 'G') % 8 == 0)
        } else {
            dims.k.is_multiple_of(4) && ys.iter().all(|&(_, st)| st % 4 == 0 || st == 1)
        };
        let dout_ok = get(ys, 'K') == 1
            && k_ok
            && packed(ys, [('W', wo), ('H', ho), ('D', do_), ('N', dims.n)]);
        let input_ok = get(xs, 'C') == 1 && xs.iter().all(|&(l, st)| l == 'C' || st % 8 == 0);
        let tiles = dims.filter.iter().product::<u64>() * dims.c / n;
        let lds = self.sliced_lds_bytes();
        let pixels = dims.n * ho * wo;
        let warps = u64::from(self.sliced_warps);
        let fits = self.has_sliced()
            && self.mma_operands(dev)
            && plain
            && two_d
            && !dims.transposed
            && dims.k <= m
            && dims.c.is_multiple_of(n)
            && dout_ok
            && input_ok
            && pixels <= (i32::MAX as u64) / 2
            && lds <= dev.max_lds_bytes
            && tiles <= MAX_GRID_X
            && dims.g <= MAX_GRID_Y;
        if !fits {
            return None;
        }
        let blocks = tiles * dims.g;
        let steps = pixels.div_ceil(16);
        let wanted = (SLICED_BLOCKS * u64::from(dev.compute_units) / blocks)
            .min(steps / (warps * SLICED_MIN_STEPS));
        let fewest = pixels.div_ceil(MAX_ACCUMULATION * warps);
        let slices = wanted.max(fewest).clamp(1, MAX_GRID_Y);
        if pixels.div_ceil(slices * warps) > MAX_ACCUMULATION {
            return None;
        }
        let launch = plain_launch(
            EntryKind::Sliced,
            [tiles as u32, slices as u32, dims.g as u32],
            [self.sliced_warps * 32, lds],
        );
        Some(if slices > 1 {
            slices_plan(launch, slices, dims, dev, args, tensor_bytes)
        } else {
            single_launch(launch, args, tensor_bytes)
        })
    }

    /// Whether the small-channel entries' tensor-core paths can run on `dev`: NVIDIA sm_80+
    /// (`cp.async`, `ldmatrix`, `mma.sync`) with 16-bit operands of one type.
    pub(super) fn mma_operands(&self, dev: &DeviceInfo) -> bool {
        let (a, b) = (self.a.elem, self.b.elem);
        dev.async_copy && a == b && a.bytes() == 2
    }

    /// Channels per group when an entry over 8-channel vectors runs `dims` (the small-channel
    /// forward / backward-data entry, and backward weight's tensor-core and depthwise rows
    /// entries, which check their filters themselves): a kernel that has it, C = K of 1, 2, 4,
    /// 8 or 16 with whole 8-channel vectors (G·C a multiple of 8) in at most 65535 blocks of eight, plain
    /// loads, pixel counts within the kernel's 32-bit indices, and channels-last source and
    /// destination whose 16-byte vectors are aligned (packed groups and channels, every other
    /// stride a multiple of 8).
    fn dconv_channels(
        &self,
        dims: &ConvDims,
        xs: &[(char, i64)],
        ys: &[(char, i64)],
    ) -> Option<u64> {
        let c = dims.c;
        // 16 channels a group run only on the forward / backward-data tensor-core path, whose
        // filter check (`dconv_filter`) takes them; the backward-weight entries' own checks
        // want at most 8.
        let fits = (self.plain_small_channels(dims) || c == 16 && self.plain_merged())
            && dims.k == c
            && (dims.g * c).is_multiple_of(8)
            && dconv_tensors(dims, [xs, ys], 8);
        fits.then_some(c)
    }

    /// Whether the small-channel forward / backward-data entry runs `dims` as pair strips
    /// ([`DconvBody::PairStrip`]): depthwise ([`dconv_strip`]'s filters and strides) with an
    /// even G that is not a multiple of 8 (ShuffleNet's 58 and 116, GhostNet's 12 to 100
    /// groups), whose one vector of weights fits the LDS, plain loads, pixel counts within
    /// 32-bit indices, and channels-last tensors with packed groups whose other strides are
    /// even (4-byte aligned pairs of 16-bit channels, 8-byte of fp32 ones).
    fn dconv_pairs(&self, dims: &ConvDims, xs: &[(char, i64)], ys: &[(char, i64)]) -> bool {
        self.plain_merged()
            && dims.c == 1
            && dims.k == 1
            && dims.g.is_multiple_of(2)
            && !dims.g.is_multiple_of(8)
            && dconv_strip(dims, 1)
            && dconv_vector_floats(dims, 1) <= DCONV_LDS_FLOATS
            && dconv_tensors(dims, [xs, ys], 2)
    }

    /// The small-channel entry's plan: blocks of [`DIRECT_SETS`] row sets by [`DIRECT_LANES`]
    /// threads per set, the output pixels split over blocks (about four per compute unit, at
    /// least 64 pixels each); each block writes a workspace slice and the convert entry adds them.
    fn direct_plan(
        &self,
        dims: &ConvDims,
        dev: &DeviceInfo,
        c: u64,
        mut args: CkArgs,
        tensor_bytes: [u64; 3],
    ) -> LaunchPlan {
        let row_blocks = (dims.g * dims.k / direct_rows_per_thread(c)).div_ceil(DIRECT_SETS);
        let pixels = dims.n * dims.output.iter().product::<u64>();
        let wanted = (4 * u64::from(dev.compute_units)).div_ceil(row_blocks);
        let slices = wanted.min(pixels.div_ceil(64)).clamp(1, MAX_GRID_Y);
        let per_block = pixels.div_ceil(slices);
        let slices = pixels.div_ceil(per_block);
        args.direct_ch = c as i64;
        args.direct_pixels = per_block as i64;
        let launch = plain_launch(
            EntryKind::Direct,
            [row_blocks as u32, slices as u32, 1],
            [(DIRECT_SETS * DIRECT_LANES) as u32, DIRECT_LDS as u32],
        );
        slices_plan(launch, slices, dims, dev, args, tensor_bytes)
    }
}
