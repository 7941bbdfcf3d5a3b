//! Split-K: how many slices the automatic split takes, whether a tile's slices add up in a
//! thread-block cluster instead of a workspace, and the convert launch that adds workspace
//! slices.

use super::{CLUSTER_PAD, DeviceInfo, EntryKind, MAX_CLUSTER, Step, plain_launch};
use crate::kernel::args::CkArgs;
use crate::kernel::config::KernelConfig;

/// Automatic split-K slices for `tiles` output tiles (group blocks included) on `slots`
/// workgroups resident at once, over `k_iters` K-tiles: at most 128 slices of at least
/// [`MIN_SPLIT_ITERS`] K-tiles each.
/// - Fewer tiles than slots: one round of them, `slots / tiles` slices.
/// - Otherwise the last round of tiles may leave most slots idle (158 tiles on 132 SMs run two
///   rounds at 60 %): the slice count that minimises rounds × (K-tiles a slice + a fixed
///   [`SPLIT_FILL`]) + [`SPLIT_CONVERT`] for the convert launch, where that is at least 25 %
///   below running unsplit: the model leaves out the slices' workspace traffic (backward
///   weight rn_k2376_100, 342 tiles, ran 9 % slower in five slices where it promised 11 %).
pub(crate) fn auto_split(tiles: u64, slots: u64, k_iters: u64) -> u64 {
    let most = (k_iters / MIN_SPLIT_ITERS).clamp(1, 128);
    if tiles < slots {
        return (slots / tiles).clamp(1, most);
    }
    let cost = |s: u64| {
        (tiles * s).div_ceil(slots) * (k_iters.div_ceil(s) + SPLIT_FILL)
            + if s > 1 { SPLIT_CONVERT } else { 0 }
    };
    let best = (1..=most).min_by_key(|&s| (cost(s), s)).unwrap_or(1);
    if cost(best) * 4 <= cost(1) * 3 {
        best
    } else {
        1
    }
}

/// The rates of [`KernelConfig::split_cluster`]'s model: tensor-core FLOPs an SM does a
/// nanosecond on mid-size tiles, the workspace's bytes a nanosecond (each written once and read
/// once), the convert launch, and a cluster's on-chip sum (two cluster barriers that wait for
/// the slowest slice, then every workgroup reading all its peers' partial rows). The last is
/// what the measured cluster runs cost beyond the model's K-tiles (`docs/kernels.md`, split-K
/// in clusters): without it the model put clusters ahead where workspace slices ran faster.
const SM_FLOPS_PER_NS: u64 = 4000;
const WORKSPACE_BYTES_PER_NS: u64 = 2500;
const CONVERT_NS: u64 = 3000;
const CLUSTER_NS: u64 = 3000;

/// The auto split's costs in K-tiles of one workgroup: its pipeline fill and epilogue (a slice
/// also stores a partial tile), and the convert launch that adds the slices.
const SPLIT_FILL: u64 = 4;
const SPLIT_CONVERT: u64 = 6;

/// Fewest K-tiles an automatic split-K slice runs: each slice also writes a partial tile.
const MIN_SPLIT_ITERS: u64 = 2;

/// Most GEMM-K products one accumulator sums before its partial leaves the registers. NVIDIA's
/// tensor cores add into their fp32 accumulators rounding toward zero, so a sum's error grows
/// with its length rather than its square root (`docs/kernels.md`, "Long reductions"): plans
/// cut GEMM-K into pieces of at most this many products, whose partial sums meet in fp32 with
/// rounding to nearest. That is at most 2^13 MMA steps of 16 products (2^14 of TF32's 8), each
/// losing less than 2^-23 of the sum: about 1e-3 of the result in the worst case.
pub(crate) const MAX_ACCUMULATION: u64 = 1 << 17;

/// Most K-tiles of `kt` GEMM-K elements one accumulator may take ([`MAX_ACCUMULATION`]).
pub(super) fn max_accumulated_iters(kt: u64) -> u64 {
    (MAX_ACCUMULATION / kt).max(1)
}

/// Largest workspace of split-K slices; beyond it the slices add into one atomically.
pub(super) const MAX_SLICE_BYTES: u64 = 256 << 20;

/// Threads of a convert workgroup: `convert_sets` sets of lanes over the workspace slices.
pub(crate) const CONVERT_BLOCK: u32 = 256;

/// The convert entry's launch over `out_elems` outputs of `args.ws_slices` slices: up to eight
/// thread sets per workgroup add the slices (a power of two that divides the workgroup, so each
/// set is whole warps), their sums meet in LDS.
pub(super) fn convert_step(args: &mut CkArgs, out_elems: u64, dev: &DeviceInfo) -> Step {
    let sets = 1u64 << (args.ws_slices.clamp(1, 8) as u64).ilog2();
    args.convert_sets = sets as i64;
    let lanes = u64::from(CONVERT_BLOCK) / sets;
    let blocks = out_elems
        .div_ceil(lanes)
        .clamp(1, 8 * u64::from(dev.compute_units));
    plain_launch(
        EntryKind::Convert,
        [blocks as u32, 1, 1],
        [CONVERT_BLOCK, CONVERT_BLOCK * 4],
    )
}

impl KernelConfig {
    /// The cluster that holds every automatic split-K slice of each of `tiles` output tiles
    /// (group blocks included) of `k_iters` K-tiles, in place of the plain split's `wanted`
    /// workspace slices, if one is worth it; `out_elems` outputs, GEMM N `gemm_n`. It adds the
    /// slices' partial tiles on chip (`ck_cluster_reduce`): no workspace and no convert launch.
    /// It needs a device with clusters, GEMM N and the tile's N in whole runs of 4, and the
    /// fp32 tile with padded rows in the LDS from the stage base.
    ///
    /// `slices` runs from the fewest that keep each slice within [`MAX_ACCUMULATION`] to the
    /// plain split's `wanted`. A cluster holds at most [`MAX_CLUSTER`] slices, and one of all
    /// `wanted` may not pack into the GPCs (`cluster_slots`) in as few rounds as the plain
    /// split; then a smaller one (fewer slices of more K-tiles each, no fewer than the range
    /// allows) competes with it by a model in nanoseconds: rounds ×
    /// (K-tiles a slice + SPLIT_FILL) × a K-tile's time, plus CLUSTER_NS for the cluster's sum,
    /// the plain split adding its workspace traffic and convert launch: clusters win where the
    /// slices' workspace is large, and lose where fewer, longer slices are what they cost
    /// (`docs/kernels.md` has the runs). Clusters only ever hold every slice of a tile: cluster
    /// groups that only shrank the workspace ran slower than the workspace slices alone.
    pub(super) fn split_cluster(
        &self,
        tiles: u64,
        k_iters: u64,
        slices: std::ops::RangeInclusive<u64>,
        out_elems: u64,
        gemm_n: u64,
        dev: &DeviceInfo,
    ) -> Option<u64> {
        let (fewest, wanted) = slices.into_inner();
        let [m, n, k] = self.tile.map(u64::from);
        let fits = (m * (n + u64::from(CLUSTER_PAD)) * 4) <= u64::from(self.stage_lds_on(dev));
        if wanted < 2 || !gemm_n.is_multiple_of(4) || !n.is_multiple_of(4) || !fits {
            return None;
        }
        let per_cu = u64::from(self.blocks_per_cu_on(dev));
        let ktile_ns = 2 * m * n * k * per_cu / SM_FLOPS_PER_NS;
        let run = |slices: u64, at_once: u64| {
            (tiles * slices).div_ceil(at_once) * (k_iters.div_ceil(slices) + SPLIT_FILL) * ktile_ns
        };
        let workspace_ns = 2 * wanted * out_elems * 4 / WORKSPACE_BYTES_PER_NS + CONVERT_NS;
        let plain = run(wanted, u64::from(dev.compute_units).max(1) * per_cu) + workspace_ns;
        // The fastest cluster, the largest among equals; none on a device without clusters.
        (fewest.max(2)..=wanted.min(MAX_CLUSTER as u64))
            .filter_map(|cs| {
                let at_once = u64::from(dev.cluster_slots[cs as usize - 1]) * per_cu;
                (at_once > 0).then(|| (run(cs, at_once) + CLUSTER_NS, std::cmp::Reverse(cs)))
            })
            .min()
            .filter(|&(ns, _)| ns <= plain)
            .map(|(_, std::cmp::Reverse(cs))| cs)
    }
}
