//! Data-parallel and split-K execution: every block tile is computed by `k_batch` workgroups,
//! each over a KPB-aligned slice of GEMM-K. One slice writes the tile; several add their partials
//! into the output (atomic semantics, each add rounded to the output type) or, for two-stage
//! instances, into an fp32 workspace that a second pass converts.

use super::block::{TileId, accumulate, store};
use super::operands::Operands;
use super::workspace::Workspace;
use super::{Epilogue, RunStats};
use crate::tensor::Tensor;
use ck_compiler::ir::Tile;
use rayon::prelude::*;

pub(crate) struct SplitK {
    pub k_batch: u32,
    pub two_stage: bool,
}

/// KPB-aligned GEMM-K range of split `s`: `ceil(iters / k_batch)` iterations each.
fn split_range(ops: &Operands, tile: Tile, k_batch: u64, s: u64) -> (u64, u64) {
    let iters = ops.shape.k.div_ceil(tile.k as u64);
    let per = iters.div_ceil(k_batch) * tile.k as u64;
    ((s * per).min(ops.shape.k), ((s + 1) * per).min(ops.shape.k))
}

pub(crate) fn run(
    ops: &Operands,
    tile: Tile,
    plan: &SplitK,
    epi: &Epilogue,
    dst: &mut Tensor,
    ws: &mut Workspace<'_>,
) -> RunStats {
    let shape = ops.shape;
    let tiles = shape.tiles_of(tile);
    let kb = plan.k_batch.max(1) as u64;
    let ids: Vec<TileId> = (0..shape.batches)
        .flat_map(|batch| (0..tiles).map(move |t| TileId { batch, tile: t }))
        .collect();
    let results: Vec<Vec<f32>> = ids
        .par_iter()
        .map(|&id| {
            let mut out = vec![0f32; tile.m as usize * tile.n as usize];
            for s in 0..kb {
                let (b, e) = split_range(ops, tile, kb, s);
                if b >= e {
                    continue;
                }
                let part = accumulate(ops, tile, id, b, e);
                for (o, p) in out.iter_mut().zip(part) {
                    *o = if plan.two_stage {
                        *o + p
                    } else if kb == 1 {
                        epi.stage(p)
                    } else {
                        epi.atomic_add(*o, p)
                    };
                }
            }
            out
        })
        .collect();
    if plan.two_stage {
        // Stage 1 left fp32 sums in the workspace at the destination's offsets; stage 2 converts.
        ws.clear(0, dst.len() * 4);
        for (&id, values) in ids.iter().zip(&results) {
            store(ops, tile, id, values, |off, v| ws.write_f32(off * 4, &[v]));
        }
        for (i, v) in ws.read_f32(0, dst.len()).into_iter().enumerate() {
            dst.set(i, epi.stage(v));
        }
    } else {
        for (&id, values) in ids.iter().zip(&results) {
            store(ops, tile, id, values, |off, v| dst.set(off, v));
        }
    }
    let iterations: u64 = ids.len() as u64 * shape.k.div_ceil(tile.k as u64);
    RunStats {
        k_batch: plan.k_batch,
        batches: shape.batches,
        tiles,
        workgroups: ids.len() as u64 * kb,
        dp_tiles: tiles,
        sk_ctas: 0,
        iterations,
    }
}
