//! StreamK execution (CK-Tile `StreamKTilePartitioner`, see [`crate::decompose::StreamKPlan`]).
//!
//! Per GEMM batch, data-parallel tiles are computed whole. Each stream-K workgroup runs its even
//! share of the remaining MAC iterations, tile segment by tile segment. The workgroup that runs a
//! tile's first iteration owns it; every later contributor stores its partial in its workspace
//! slot and raises its flag. Fixup:
//! - Linear: the owner adds the partials of the later contributors in workgroup order;
//! - Tree: contributors pair up in rounds of doubling stride (local index `i` with `i % 2s == 0`
//!   absorbs `i + s`, storing the sum in its slot unless it is the owner);
//! - Atomic: every contributor adds its partial into the output, in workgroup order.
//!
//! All sums happen in a fixed order, so results are bitwise identical run to run.

use super::block::{TileId, accumulate, store};
use super::operands::Operands;
use super::workspace::Workspace;
use super::{Epilogue, RunError, RunStats};
use crate::decompose::StreamKPlan;
use crate::tensor::Tensor;
use ck_compiler::ir::{StreamK, Tile};
use ck_compiler::model::Reduction;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// A workgroup's work on one tile: local iterations `[begin, end)` of that tile.
struct Segment {
    cta: u64,
    tile: u64,
    begin: u64,
    acc: Vec<f32>,
}

/// The segments stream-K workgroup `cta` runs, in order.
fn segments(ops: &Operands, tile: Tile, plan: &StreamKPlan, batch: u64, cta: u64) -> Vec<Segment> {
    let (mut iter, end) = plan.sk_range(cta);
    let kpb = tile.k as u64;
    let mut out = Vec::new();
    while iter < end {
        let t = iter / plan.iters_per_tile;
        let tile_begin = t * plan.iters_per_tile;
        let seg_end = end.min(tile_begin + plan.iters_per_tile);
        let (lb, le) = (iter - tile_begin, seg_end - tile_begin);
        let k_end = (le * kpb).min(ops.shape.k);
        let acc = accumulate(ops, tile, TileId { batch, tile: t }, lb * kpb, k_end);
        out.push(Segment {
            cta,
            tile: t,
            begin: lb,
            acc,
        });
        iter = seg_end;
    }
    out
}

pub(crate) fn run(
    ops: &Operands,
    tile: Tile,
    sk: StreamK,
    plan: &StreamKPlan,
    epi: &Epilogue,
    dst: &mut Tensor,
    ws: &mut Workspace<'_>,
) -> Result<RunStats, RunError> {
    let batches = ops.shape.batches;
    let tile_elems = tile.m as usize * tile.n as usize;
    let batch_bytes = plan.workspace_bytes(tile.m, tile.n) as usize;
    let flags_at = tile_elems * 4 * plan.sk_ctas as usize;
    let slot = |batch: u64, cta: u64| batch as usize * batch_bytes + cta as usize * tile_elems * 4;
    let flag = |batch: u64, cta: u64| batch as usize * batch_bytes + flags_at + cta as usize * 4;

    // Data-parallel tiles and stream-K segments, computed in parallel.
    let dp: Vec<(TileId, Vec<f32>)> = (0..batches)
        .flat_map(|batch| (0..plan.dp_tiles).map(move |t| TileId { batch, tile: t }))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|id| (id, accumulate(ops, tile, id, 0, ops.shape.k)))
        .collect();
    let segs: Vec<(u64, Vec<Segment>)> = (0..batches)
        .flat_map(|batch| (0..plan.sk_ctas).map(move |c| (batch, c)))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(batch, cta)| (batch, segments(ops, tile, plan, batch, cta)))
        .collect();

    for (id, acc) in &dp {
        store(ops, tile, *id, acc, |off, v| dst.set(off, epi.stage(v)));
    }

    // Group contributions by tile; workgroup order within a tile.
    let mut by_tile: BTreeMap<(u64, u64), Vec<Segment>> = BTreeMap::new();
    for (batch, list) in segs {
        for s in list {
            by_tile.entry((batch, s.tile)).or_default().push(s);
        }
    }
    if sk.reduction != Reduction::Atomic {
        for b in 0..batches {
            for c in 0..plan.sk_ctas {
                ws.set_flag(flag(b, c), 0);
            }
        }
        // Non-owners publish their partials.
        for (&(batch, _), segs) in &by_tile {
            for s in segs.iter().filter(|s| s.begin > 0) {
                ws.write_f32(slot(batch, s.cta), &s.acc);
                ws.set_flag(flag(batch, s.cta), 1);
            }
        }
    }
    for ((batch, t), segs) in by_tile {
        let id = TileId { batch, tile: t };
        let owner = segs.first().filter(|s| s.begin == 0).ok_or_else(|| {
            RunError::Internal(format!(
                "StreamK tile {t} of batch {batch} has no workgroup starting it"
            ))
        })?;
        let read = |cta: u64| -> Result<Vec<f32>, RunError> {
            if ws.flag(flag(batch, cta)) != 1 {
                return Err(RunError::Internal(format!(
                    "StreamK workgroup {cta} did not publish its partial"
                )));
            }
            Ok(ws.read_f32(slot(batch, cta), tile_elems))
        };
        let total = match sk.reduction {
            Reduction::Atomic => {
                let mut v = vec![0f32; tile_elems];
                for s in &segs {
                    for (o, p) in v.iter_mut().zip(&s.acc) {
                        *o = epi.atomic_add(*o, *p);
                    }
                }
                store(ops, tile, id, &v, |off, x| dst.set(off, x));
                continue;
            }
            Reduction::Linear => {
                let mut acc = owner.acc.clone();
                for s in &segs[1..] {
                    for (a, p) in acc.iter_mut().zip(read(s.cta)?) {
                        *a += p;
                    }
                }
                acc
            }
            Reduction::Tree => {
                let mut parts: Vec<Vec<f32>> = vec![owner.acc.clone()];
                for s in &segs[1..] {
                    parts.push(read(s.cta)?);
                }
                let mut stride = 1;
                while stride < parts.len() {
                    for i in (0..parts.len()).step_by(2 * stride) {
                        if i + stride < parts.len() {
                            let partner = std::mem::take(&mut parts[i + stride]);
                            for (a, p) in parts[i].iter_mut().zip(partner) {
                                *a += p;
                            }
                            if i > 0 {
                                ws.write_f32(slot(batch, segs[i].cta), &parts[i]);
                            }
                        }
                    }
                    stride *= 2;
                }
                parts.swap_remove(0)
            }
        };
        store(ops, tile, id, &total, |off, v| dst.set(off, epi.stage(v)));
    }
    let iterations = batches * plan.tiles * plan.iters_per_tile;
    Ok(RunStats {
        k_batch: 1,
        batches,
        tiles: plan.tiles,
        workgroups: batches * plan.workgroups(sk.persistent),
        dp_tiles: plan.dp_tiles,
        sk_ctas: plan.sk_ctas,
        iterations,
    })
}
