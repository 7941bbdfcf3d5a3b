//! How an instance decomposes a problem into GEMM work: the merged GEMM shape, block tiles,
//! the split-K factor and the StreamK partition (CK-Tile's `StreamKTilePartitioner`).
//!
//! Shared by the support checks, the selection cost model and the CPU back end, so that all
//! three agree on what a launch does.

use crate::device::{DeviceModel, is_gfx11};
use crate::problem::ConvProblem;
use ck_compiler::ir::{Checked, SplitK, Tile};
use ck_compiler::model::{DataType, Kind, PipelineVersion};

/// The implicit GEMM one launch computes. With `merge` groups per block, M and N grow by the
/// merge factor (only the diagonal group blocks are real work) and `batches = ceil(G/merge)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmShape {
    /// Per-group sizes `(M, N, K)` of [`ConvProblem::gemm`].
    pub group_m: u64,
    pub group_n: u64,
    pub k: u64,
    pub merge: u64,
    /// `merge·M`, `merge·N`.
    pub m: u64,
    pub n: u64,
    pub batches: u64,
}

impl GemmShape {
    pub fn of(inst: &Checked, p: &ConvProblem) -> GemmShape {
        let (gm, gn, k) = p.gemm();
        let merge = u64::from(inst.work.merge_groups);
        GemmShape {
            group_m: gm,
            group_n: gn,
            k,
            merge,
            m: gm * merge,
            n: gn * merge,
            batches: p.g.div_ceil(merge),
        }
    }

    /// Block tiles of one batch: `ceil(M/MPB) · ceil(N/NPB)`.
    pub fn tiles(&self, inst: &Checked) -> u64 {
        self.tiles_of(inst.tile)
    }

    pub fn tiles_of(&self, tile: Tile) -> u64 {
        self.m.div_ceil(tile.m.max(1) as u64) * self.n.div_ceil(tile.n.max(1) as u64)
    }

    /// K-loop iterations of one whole tile: `ceil(K/KPB)`.
    pub fn iters_per_tile(&self, inst: &Checked) -> u64 {
        self.k.div_ceil(u64::from(inst.tile.k))
    }
}

/// Whether split-K partials go through an fp32 workspace and a convert pass.
pub fn is_two_stage(inst: &Checked) -> bool {
    inst.work.two_stage || matches!(inst.kind, Kind::XdlTwoStage | Kind::WmmaTwoStage)
}

/// Pipelines with a prefetch check: the K loop of one split must run more than `prefetch` times.
pub fn checks_prefetch(inst: &Checked) -> bool {
    match inst.kind {
        Kind::XdlV3 | Kind::XdlTwoStage | Kind::WmmaV3 | Kind::WmmaTwoStage => {
            inst.pipeline.version != PipelineVersion::V1
        }
        Kind::Tile => inst.pipeline.version == PipelineVersion::CompV6,
        _ => false,
    }
}

/// K-loop iterations of one split: `ceil(K / (k_batch·KPB))`.
pub fn k_loops(inst: &Checked, shape: &GemmShape, k_batch: u32) -> u64 {
    shape
        .k
        .div_ceil(k_batch.max(1) as u64 * u64::from(inst.tile.k))
}

/// Whether k_batch must be 1 on every target the instance may run on (gfx11 has no packed
/// f16/bf16 atomics), judged on `dev.arch` when known, else on the instance's targets.
pub fn needs_single_split(inst: &Checked, dev: &DeviceModel) -> bool {
    let limited_kind = matches!(inst.kind, Kind::XdlV3 | Kind::WmmaV3 | Kind::Wavelet);
    let gfx11 = match dev.arch {
        Some(a) => is_gfx11(a),
        None => !inst.targets.is_empty() && inst.targets.iter().all(|&a| is_gfx11(a)),
    };
    limited_kind && gfx11
}

/// The largest k_batch the instance's kernel accepts for this problem, from the rules that do not
/// depend on the device (CK-Tile limits and the prefetch rule are applied by [`k_batch`]).
fn tile_k_batch_cap(inst: &Checked, p: &ConvProblem, shape: &GemmShape) -> u64 {
    let mut cap = u64::MAX;
    if inst.kind == Kind::Wavelet {
        cap = 128;
    }
    if let Some(tk) = &inst.tile_kernel {
        if p.dtype.output.storage() != DataType::Fp32 {
            cap = cap.min(128);
        }
        if inst.mma[2] > 0 {
            cap = cap.min(shape.k.div_ceil(inst.mma[2] as u64));
        }
        // Slices add into the destination with packed 16-bit atomics, which an odd vector
        // cannot use; a two-stage kernel adds into its fp32 workspace instead.
        let half = matches!(p.dtype.output, DataType::Fp16 | DataType::Bf16);
        if tk.vector[2] % 2 == 1 && half && !is_two_stage(inst) {
            cap = 1;
        }
    }
    cap
}

/// The k_batch a launch uses: the fixed value, or for `auto` CK's occupancy rule
/// `floor(slots / (tiles·batches))` clamped to `[1, (K−1)/KPB]`, to the kernel's own limits, and
/// down until each split still runs more K loops than the pipeline prefetches. StreamK is 1.
pub fn k_batch(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> u32 {
    let shape = GemmShape::of(inst, p);
    match inst.work.split_k {
        SplitK::Fixed(k) => k,
        SplitK::Auto => {
            if inst.work.streamk.is_some() || needs_single_split(inst, dev) {
                return 1;
            }
            let grid = (shape.tiles(inst) * shape.batches).max(1);
            let upper = ((shape.k.saturating_sub(1)) / u64::from(inst.tile.k)).max(1);
            let mut k = (dev.slots() / grid)
                .clamp(1, upper)
                .min(tile_k_batch_cap(inst, p, &shape))
                .max(1);
            while k > 1
                && checks_prefetch(inst)
                && k_loops(inst, &shape, k as u32) <= inst.pipeline.prefetch as u64
            {
                k -= 1;
            }
            u32::try_from(k).unwrap_or(u32::MAX)
        }
    }
}

/// The largest k_batch the kernel accepts (for the support check of a fixed value).
pub(crate) fn k_batch_cap(inst: &Checked, p: &ConvProblem) -> u64 {
    tile_k_batch_cap(inst, p, &GemmShape::of(inst, p))
}

/// CK-Tile's StreamK partition of one GEMM batch ("DP + two-tile SK"): whole tiles first go to
/// data-parallel workgroups; when the tile count does not divide the grid, the last full wave
/// plus the remainder become stream-K tiles whose MAC iterations are split evenly over `grid`
/// workgroups. Falls back to pure data-parallel when there are fewer SK iterations than
/// workgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamKPlan {
    pub grid: u64,
    pub tiles: u64,
    pub iters_per_tile: u64,
    pub dp_tiles: u64,
    pub sk_tiles: u64,
    pub sk_ctas: u64,
    pub iters_per_sk_cta: u64,
    pub extra_iters: u64,
}

impl StreamKPlan {
    pub fn new(tiles: u64, iters_per_tile: u64, grid: u64) -> StreamKPlan {
        let grid = grid.max(1);
        let remainder = tiles % grid;
        let (mut sk_tiles, mut sk_ctas) = (0, 0);
        if remainder != 0 {
            // One full wave joins the remainder when there is more than a wave of tiles.
            sk_tiles = if tiles > grid {
                (grid + remainder).min(tiles)
            } else {
                tiles
            };
            sk_ctas = grid;
            if sk_tiles * iters_per_tile < grid {
                (sk_tiles, sk_ctas) = (0, 0);
            }
        }
        let total_sk = sk_tiles * iters_per_tile;
        StreamKPlan {
            grid,
            tiles,
            iters_per_tile,
            dp_tiles: tiles - sk_tiles,
            sk_tiles,
            sk_ctas,
            iters_per_sk_cta: total_sk.checked_div(sk_ctas).unwrap_or(0),
            extra_iters: total_sk.checked_rem(sk_ctas).unwrap_or(0),
        }
    }

    pub fn of(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> StreamKPlan {
        let shape = GemmShape::of(inst, p);
        StreamKPlan::new(shape.tiles(inst), shape.iters_per_tile(inst), dev.slots())
    }

    /// Global iteration range `[begin, end)` of stream-K workgroup `cta` (DP iterations come first).
    pub fn sk_range(&self, cta: u64) -> (u64, u64) {
        let begin = self.dp_tiles * self.iters_per_tile
            + cta * self.iters_per_sk_cta
            + cta.min(self.extra_iters);
        (
            begin,
            begin + self.iters_per_sk_cta + u64::from(cta < self.extra_iters),
        )
    }

    /// Workgroups launched: persistent = the grid (or one per tile when DP tiles don't divide
    /// it evenly); non-persistent = one per DP tile plus the SK workgroups.
    pub fn workgroups(&self, persistent: bool) -> u64 {
        if persistent {
            if self.dp_tiles.is_multiple_of(self.grid) {
                self.grid
            } else {
                self.tiles
            }
        } else {
            self.dp_tiles + self.sk_ctas
        }
    }

    /// Workspace bytes of one batch for Linear/Tree fixup: one fp32 partial tile per SK
    /// workgroup plus 128-byte-aligned 4-byte flags.
    pub fn workspace_bytes(&self, tile_m: u32, tile_n: u32) -> u64 {
        tile_m as u64 * tile_n as u64 * 4 * self.sk_ctas + (4 * self.sk_ctas).next_multiple_of(128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamk_partition_matches_ck() {
        // 10 tiles on 4 workgroups: 4 + 2 remainder = 6 SK tiles, 4 DP tiles.
        let p = StreamKPlan::new(10, 3, 4);
        assert_eq!((p.dp_tiles, p.sk_tiles, p.sk_ctas), (4, 6, 4));
        assert_eq!((p.iters_per_sk_cta, p.extra_iters), (4, 2));
        assert_eq!(p.sk_range(0), (12, 17));
        assert_eq!(p.sk_range(1), (17, 22));
        assert_eq!(p.sk_range(3), (26, 30));
        assert_eq!(p.workgroups(false), 8);
        assert_eq!(p.workgroups(true), 4);
        // Divisible tiles: pure DP, no workspace.
        let p = StreamKPlan::new(8, 3, 4);
        assert_eq!((p.dp_tiles, p.sk_ctas), (8, 0));
        assert_eq!(p.workspace_bytes(64, 64), 0);
        // Fewer tiles than workgroups, but enough iterations: all SK.
        let p = StreamKPlan::new(3, 8, 4);
        assert_eq!(
            (p.dp_tiles, p.sk_tiles, p.sk_ctas, p.iters_per_sk_cta),
            (0, 3, 4, 6)
        );
        assert_eq!(p.workspace_bytes(16, 16), 16 * 16 * 4 * 4 + 128);
        // Too few iterations: DP fallback.
        let p = StreamKPlan::new(3, 1, 4);
        assert_eq!((p.dp_tiles, p.sk_ctas), (3, 0));
    }
}
