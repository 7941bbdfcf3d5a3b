//! The selection cost model: an estimate of an instance's run time on a problem, in units of
//! one multiply-add of one workgroup (lower is better).
//!
//! - **Tile efficiency.** Work is counted in whole block tiles and whole K steps:
//!   `ceil(M/MPB)·ceil(N/NPB)` tiles of `ceil(K/KPB)` iterations of `MPB·NPB·KPB` MACs, so
//!   padding waste costs as much as real work.
//! - **Workgroups vs compute units.** Workgroups run in waves of `CUs × occupancy`; the time is
//!   the number of waves times one workgroup's work, so a half-empty last wave costs a full one.
//!   A workgroup of fewer waves (warps) than its compute unit has SIMDs (SM sub-partitions)
//!   leaves the others idle: its MACs cost `SIMDs / waves` times as much (a one-warp tile on an
//!   SM of four sub-partitions, four times).
//! - **Split-K.** `k_batch` slices shorten each workgroup's K loop but multiply workgroups; every
//!   slice beyond the first adds its tile to the output (counted as [`FIXUP_MACS`] per element),
//!   and two-stage instances add a convert pass over the destination.
//! - **StreamK.** Data-parallel tiles run in waves; stream-K workgroups each run an even share of
//!   the remaining iterations; each partial a tile's owner absorbs (one after another: Linear,
//!   or a level at a time: Tree) costs what moving its fp32 tile through L2 costs against one
//!   K-iteration's operands. Measured on the H100, counting it as a few MACs an element made
//!   StreamK look cheapest where the kernels ran it 1.5–40 times slower than split-K.
//! - **Narrow loads.** A K step moves `(MPB + NPB)·KPB` operand elements; an A or B vector
//!   narrower than 16 bytes moves them in proportionally more loads, so its steps cost that
//!   many times more (scalar loads of fp16, eight times). Instances that merge groups run
//!   their own small-channel paths, whose loads the vectors do not describe.
//!
//! - **SIMT math.** Exact fp32 products on NVIDIA run on the SIMT lanes, not the tensor cores:
//!   their MACs cost [`SIMT_FP32_MAC`] times as much.
//!
//! Batches of merged groups (`ceil(G/merge)`) run one after another at full occupancy.
//!
//! Ranking without a learned model ([`estimate`]) adds what the MAC count leaves out:
//! instances that merge groups run problems of few channels a group on their small-channel
//! entry, which multiplies no padding; a K step of an `MPB × NPB` tile moves
//! `(MPB + NPB)·KPB` operand elements for its `MPB·NPB·KPB` MACs, so of two tiles with equal
//! waves the smaller loads more per product ([`LOAD_ROWS`]); and on sm_90, tf32 kernels
//! without warpgroup MMAs take longer per MAC ([`TF32_MMA_SYNC`]).

use crate::decompose::{GemmShape, StreamKPlan, is_two_stage, k_batch};
use crate::device::DeviceModel;
use crate::dims::conv_dims;
use crate::probe::vectors;
use crate::problem::ConvProblem;
use ck_compiler::arch::{ArchInfo, MmaUnit};
use ck_compiler::ir::Checked;
use ck_compiler::kernel::KernelConfig;
use ck_compiler::model::{Arch, DataType};

/// Cost of reading, adding and writing one accumulator element of a partial tile.
pub const FIXUP_MACS: f64 = 4.0;

/// How many times longer a multiply-add takes on NVIDIA's SIMT lanes than on its tensor cores'
/// TF32 MMAs: the tensor cores have no exact fp32 form, so fp32 products run on the lanes.
pub const SIMT_FP32_MAC: f64 = 4.0;

/// The device the estimate is for: `dev.arch` when known, else the instance's first target.
fn arch_of(inst: &Checked, dev: &DeviceModel) -> Option<&'static ArchInfo> {
    dev.arch
        .or_else(|| inst.targets.first().copied())
        .map(ck_compiler::arch::info)
}

/// How many times longer a workgroup takes for its MACs than one that keeps every SIMD (SM
/// sub-partition) of its compute unit busy: one wave runs on one SIMD, so a workgroup of fewer
/// waves than SIMDs leaves the others idle.
fn idle_simds(inst: &Checked, dev: &DeviceModel) -> f64 {
    let Some(a) = arch_of(inst, dev) else {
        return 1.0;
    };
    let waves = (inst.block / a.wave_size.max(1)).max(1);
    f64::from(a.simds_per_cu) / f64::from(waves.min(a.simds_per_cu).max(1))
}

/// How many times longer a MAC takes for running on the vector lanes ([`SIMT_FP32_MAC`] for
/// exact fp32 on NVIDIA) than on the matrix units.
fn simt_math(inst: &Checked, dev: &DeviceModel) -> f64 {
    let nvidia = arch_of(inst, dev).is_some_and(|a| a.mma == MmaUnit::MmaSync);
    if nvidia && inst.types.compute_a == DataType::Fp32 {
        SIMT_FP32_MAC
    } else {
        1.0
    }
}

/// How many times longer a tf32 MAC takes on `mma.sync` than on the warpgroup MMAs of an
/// sm_90 device: the tf32 kernels without a warpgroup layout (16-deep K-tiles, wider tiles
/// whose accumulators the layout does not hold).
pub const TF32_MMA_SYNC: f64 = 1.5;

/// [`TF32_MMA_SYNC`] for a tf32 instance whose kernel has no warpgroup layout on an sm_90
/// device, 1 otherwise.
fn tf32_mma_sync(inst: &Checked, dev: &DeviceModel) -> f64 {
    let sm90 = arch_of(inst, dev).is_some_and(|a| a.arch == Arch::Sm90);
    let sync = sm90
        && inst.types.tf32_products()
        && KernelConfig::new(inst).is_ok_and(|c| c.wgmma.is_none());
    if sync { TF32_MMA_SYNC } else { 1.0 }
}

/// How many times longer a K step takes for loading its operands in vectors narrower than 16
/// bytes (see the module docs).
fn narrow_loads(inst: &Checked, p: &ConvProblem) -> f64 {
    if inst.work.merge_groups > 1 {
        return 1.0;
    }
    let full = u64::from(16 / p.dtype.input.bytes().clamp(1, 16));
    let [va, vb, _] = vectors(inst);
    let (m, n) = (u64::from(inst.tile.m), u64::from(inst.tile.n));
    let loads = m * full / va.clamp(1, full) + n * full / vb.clamp(1, full);
    loads as f64 / (m + n).max(1) as f64
}

/// Estimated time of `inst` on `p` (see the module docs). Call after the support check.
pub fn cost(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> f64 {
    let shape = GemmShape::of(inst, p);
    let (mpb, npb, kpb) = (inst.tile.m as f64, inst.tile.n as f64, inst.tile.k as f64);
    let tiles = shape.tiles(inst);
    let iters = shape.iters_per_tile(inst);
    let slots = dev.slots();
    let tile_elems = mpb * npb;
    let iter_macs =
        tile_elems * kpb * idle_simds(inst, dev) * narrow_loads(inst, p) * simt_math(inst, dev);
    let batches = shape.batches as f64;
    if let Some(sk) = inst.work.streamk {
        let plan = StreamKPlan::new(tiles, iters, slots);
        let dp_waves = plan.dp_tiles.div_ceil(slots);
        let sk_iters = plan.iters_per_sk_cta + u64::from(plan.extra_iters > 0);
        // Workgroups per SK tile (CK's estimate); the owner absorbs the others' partials.
        let per_tile = if plan.sk_ctas > 0 {
            iters.div_ceil(plan.iters_per_sk_cta.max(1))
        } else {
            1
        };
        let fixup = if sk.reduction == ck_compiler::model::Reduction::Tree {
            (per_tile as f64).log2().ceil()
        } else {
            per_tile.saturating_sub(1) as f64
        };
        // An owner absorbs each partial in turn, after its producer has stored it and raised
        // its flag: an fp32 tile through L2 (4·MPB·NPB bytes) where a K-iteration brings in
        // 2·(MPB + NPB)·KPB bytes of operands, so it takes about that ratio of an iteration.
        let absorb = iter_macs * 2.0 * tile_elems / ((mpb + npb) * kpb);
        let per_batch = (dp_waves * iters + sk_iters) as f64 * iter_macs + fixup * absorb;
        return per_batch * batches;
    }
    let kb = k_batch(inst, p, dev).max(1) as u64;
    let workgroups = tiles * kb;
    let waves = workgroups.div_ceil(slots) as f64;
    let per_wg = iters.div_ceil(kb) as f64 * iter_macs;
    let mut time = waves * per_wg + (kb - 1) as f64 * tile_elems * FIXUP_MACS;
    if is_two_stage(inst) {
        let (m, n, _) = p.gemm();
        time += (m * n) as f64 / slots as f64;
    }
    time * batches
}

/// The tile rows whose operand loads [`estimate`] counts as much as the tile's MACs: a tile of
/// `MPB × NPB` costs `1 + LOAD_ROWS·(1/MPB + 1/NPB)` times its MAC count (fitted to the tf32
/// forward runs of `docs/performance.md`, where the MAC count tied tiles of equal waves).
pub const LOAD_ROWS: f64 = 64.0;

/// The ranking estimate where no learned model fits (the unit of [`cost`]): [`cost`] with the
/// tile's operand loads ([`LOAD_ROWS`]), except that an instance that merges groups runs a
/// problem of few channels a group (C = K: 1 or 2 with any filter, 4 or 8 with a 3x3 one) on
/// its small-channel entry, whose work is the problem's own multiply-adds spread over the
/// device's workgroup slots, where its GEMM tile would pad each group to the tile.
pub fn estimate(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> f64 {
    let small_channel = inst.work.merge_groups > 1
        && conv_dims(p).is_ok_and(|d| {
            d.c == d.k && (d.c <= 2 || (matches!(d.c, 4 | 8) && d.filter == [1, 3, 3]))
        });
    if !small_channel {
        let (m, n) = (f64::from(inst.tile.m), f64::from(inst.tile.n));
        return cost(inst, p, dev)
            * (1.0 + LOAD_ROWS * (1.0 / m + 1.0 / n))
            * tf32_mma_sync(inst, dev);
    }
    let (m, n, k) = p.gemm();
    (p.g * m * n * k) as f64 / dev.slots().max(1) as f64 * simt_math(inst, dev)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::DeviceModel;
    use crate::testing::{changed, forced};
    use ck_compiler::ir::SplitK;

    #[test]
    fn scalar_loads_cost_more_than_wide_ones() {
        let wide = forced(
            &crate::testing::instance(crate::testing::Variant::XdlV3),
            |i| {
                i.work.split_k = SplitK::Fixed(1);
                i.a.src_vector = 8;
                i.b.src_vector = 8;
            },
        );
        let scalar = changed(&wide, |i| {
            i.a.src_vector = 1;
            i.b.src_vector = 1;
        });
        let dev = DeviceModel::default();
        let p = ConvProblem::parse("bwd_weight 2d N=4 K=64 C=64 filter=3 input=14").unwrap();
        // Eight scalar loads where one 16-byte load moved eight fp16 elements.
        let ratio = cost(&scalar, &p, &dev) / cost(&wide, &p, &dev);
        assert!((ratio - 8.0).abs() < 1e-9, "{ratio}");
        // fp32: four elements fill 16 bytes.
        let f =
            ConvProblem::parse("bwd_weight 2d N=4 K=64 C=64 filter=3 input=14 dtype=fp32").unwrap();
        let ratio = cost(&scalar, &f, &dev) / cost(&wide, &f, &dev);
        assert!((ratio - 4.0).abs() < 1e-9, "{ratio}");
    }

    #[test]
    fn merged_instances_estimate_few_channel_groups_by_their_own_products() {
        let gemm = changed(
            &crate::testing::instance(crate::testing::Variant::XdlV3),
            |i| i.work.split_k = SplitK::Fixed(1),
        );
        let merged = changed(&gemm, |i| i.work.merge_groups = 8);
        let dev = DeviceModel::default();
        let dw = ConvProblem::parse("fwd 2d G=64 N=8 K=1 C=1 filter=3 input=56 pad=1").unwrap();
        // The GEMM count pads each one-channel group to the tile; the small-channel entry
        // multiplies only the problem's products.
        let (m, n, k) = dw.gemm();
        let own = (64 * m * n * k) as f64 / dev.slots() as f64;
        assert_eq!(estimate(&merged, &dw, &dev), own);
        assert!(own < cost(&merged, &dw, &dev));
        // Wider groups, filters the 4- and 8-channel bodies do not take, and instances that do
        // not merge keep the GEMM count.
        let loads =
            |i: &Checked| 1.0 + LOAD_ROWS * (1.0 / f64::from(i.tile.m) + 1.0 / f64::from(i.tile.n));
        for q in [
            "fwd 2d G=64 N=8 K=16 C=16 filter=3 input=56 pad=1",
            "fwd 2d G=64 N=8 K=8 C=8 filter=5 input=56 pad=2",
        ] {
            let q = ConvProblem::parse(q).unwrap();
            assert_eq!(
                estimate(&merged, &q, &dev),
                cost(&merged, &q, &dev) * loads(&merged)
            );
        }
        assert_eq!(
            estimate(&gemm, &dw, &dev),
            cost(&gemm, &dw, &dev) * loads(&gemm)
        );
    }

    #[test]
    fn of_two_tiles_with_equal_waves_the_larger_ranks_first() {
        let small = changed(
            &crate::testing::instance(crate::testing::Variant::XdlV3),
            |i| i.work.split_k = SplitK::Fixed(1),
        );
        let small = changed(&small, |i| (i.tile.m, i.tile.n) = (64, 64));
        let large = small.clone();
        let large = changed(&large, |i| (i.tile.m, i.tile.n) = (128, 128));
        // One compute unit, so that whole tiles are whole waves: equal MAC counts.
        let dev = DeviceModel {
            arch: None,
            compute_units: 1,
            occupancy: 1,
        };
        let p = ConvProblem::parse("fwd 2d N=2 K=256 C=64 filter=3 input=16 pad=1").unwrap();
        assert_eq!(cost(&small, &p, &dev), cost(&large, &p, &dev));
        assert!(estimate(&large, &p, &dev) < estimate(&small, &p, &dev));
    }

    #[test]
    fn padding_and_split_k_change_the_cost() {
        let inst = changed(
            &crate::testing::instance(crate::testing::Variant::XdlV3),
            |i| i.work.split_k = SplitK::Fixed(1),
        );
        let dev = DeviceModel {
            arch: None,
            compute_units: 4,
            occupancy: 1,
        };
        let p = ConvProblem::parse("bwd_weight 2d N=2 K=16 C=16 filter=1 input=8").unwrap();
        let q = ConvProblem::parse("bwd_weight 2d N=2 K=18 C=16 filter=1 input=8").unwrap();
        // K=18 needs a second row of tiles for two channels: a second wave on one CU.
        let one = DeviceModel {
            compute_units: 1,
            ..dev.clone()
        };
        assert!(cost(&inst, &q, &one) > cost(&inst, &p, &one));
        assert_eq!(cost(&inst, &q, &dev), cost(&inst, &p, &dev));
        let split = changed(&inst, |i| i.work.split_k = SplitK::Fixed(4));
        // One tile on four CUs: splitting K four ways fills them.
        assert!(cost(&split, &p, &dev) < cost(&inst, &p, &dev));
    }

    #[test]
    fn workgroups_of_fewer_waves_than_simds_cost_more() {
        let inst = changed(
            &crate::testing::instance(crate::testing::Variant::XdlV3),
            |i| {
                i.work.split_k = SplitK::Fixed(1);
                i.targets = vec![ck_compiler::model::Arch::Sm90];
            },
        );
        let dev = DeviceModel {
            arch: None,
            compute_units: 4,
            occupancy: 1,
        };
        let p = ConvProblem::parse("bwd_weight 2d N=2 K=16 C=16 filter=1 input=8").unwrap();
        let time = |block: u32| {
            let i = forced(&inst, |i| i.block = block);
            cost(&i, &p, &dev)
        };
        // An SM has four sub-partitions of 32-thread warps: one warp leaves three idle.
        assert_eq!(time(32), 4.0 * time(128));
        assert_eq!(time(64), 2.0 * time(128));
        assert_eq!(time(256), time(128));
        // On gfx942 (wave64, four SIMDs) 64 threads are one wave.
        let gfx = DeviceModel {
            arch: Some(ck_compiler::model::Arch::Gfx942),
            ..dev
        };
        let inst = changed(&inst, |i| i.block = 64);
        let one = cost(&inst, &p, &gfx);
        let inst = forced(&inst, |i| i.block = 256);
        assert_eq!(one, 4.0 * cost(&inst, &p, &gfx));
    }
}
