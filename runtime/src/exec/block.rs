//! One workgroup's work on one block tile: the MPB×NPB fp32 accumulator over a range of K,
//! gathered KPB columns at a time, as a GPU block would (merged groups keep only the diagonal
//! group blocks).

use super::operands::{Half, Operands};
use ck_compiler::ir::Tile;

/// Where a block tile lies: `batch` of merged groups, tile index `tile` (row-major over tiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct TileId {
    pub batch: u64,
    pub tile: u64,
}

/// `(group, per-group index)` of each row and column of a tile; `None` outside the GEMM.
struct Lanes {
    rows: Vec<Option<(u64, u64)>>,
    cols: Vec<Option<(u64, u64)>>,
}

fn lanes(ops: &Operands, tile: Tile, id: TileId) -> Lanes {
    let s = &ops.shape;
    let n_tiles = s.n.div_ceil(tile.n as u64);
    let (tm, tn) = (id.tile / n_tiles, id.tile % n_tiles);
    Lanes {
        rows: side(tm, tile.m, s.m, s.group_m, |m| ops.row_group(id.batch, m)),
        cols: side(tn, tile.n, s.n, s.group_n, |n| ops.col_group(id.batch, n)),
    }
}

/// Rows and columns alike: the `width` lanes of tile `index` along a GEMM side of `extent`, each
/// with its group (`group_of`) and its index in a group of `per_group`.
fn side(
    index: u64,
    width: u32,
    extent: u64,
    per_group: u64,
    group_of: impl Fn(u64) -> Option<u64>,
) -> Vec<Option<(u64, u64)>> {
    let width = u64::from(width);
    (0..width)
        .map(|i| {
            let at = index * width + i;
            if at >= extent {
                return None;
            }
            group_of(at).map(|g| (g, at % per_group))
        })
        .collect()
}

/// The columns of row group `g`: contiguous, as merged columns are group-major.
fn same_group(cols: &[Option<(u64, u64)>], g: u64) -> std::ops::Range<usize> {
    let lo = cols.iter().position(|c| c.is_some_and(|(cg, _)| cg == g));
    match lo {
        Some(lo) => {
            lo..lo
                + cols[lo..]
                    .iter()
                    .take_while(|c| c.is_some_and(|(cg, _)| cg == g))
                    .count()
        }
        None => 0..0,
    }
}

/// The tile's accumulator over GEMM-K `[k_begin, k_end)` (`k_begin` a multiple of KPB).
pub(crate) fn accumulate(
    ops: &Operands,
    tile: Tile,
    id: TileId,
    k_begin: u64,
    k_end: u64,
) -> Vec<f32> {
    let (mpb, npb, kpb) = (tile.m as usize, tile.n as usize, tile.k as usize);
    let l = lanes(ops, tile, id);
    let ranges: Vec<_> = l
        .rows
        .iter()
        .map(|r| r.map_or(0..0, |(g, _)| same_group(&l.cols, g)))
        .collect();
    // The rows' and columns' halves of their operand indices, once a tile.
    let row_halves: Vec<Option<Half>> = l
        .rows
        .iter()
        .map(|r| r.map(|(g, m)| ops.a_row(g, m)))
        .collect();
    let col_halves: Vec<Option<Half>> = l
        .cols
        .iter()
        .map(|c| c.map(|(g, n)| ops.b_col(g, n)))
        .collect();
    let mut acc = vec![0f32; mpb * npb];
    let mut a = vec![0f32; mpb * kpb];
    let mut b = vec![0f32; kpb * npb];
    let (mut ak, mut bk) = (Vec::with_capacity(kpb), Vec::with_capacity(kpb));
    let mut kt = k_begin;
    while kt < k_end {
        let klen = (k_end - kt).min(kpb as u64) as usize;
        ak.clear();
        bk.clear();
        for kk in kt..kt + klen as u64 {
            ak.push(ops.a_k(kk));
            bk.push(ops.b_k(kk));
        }
        for (i, r) in row_halves.iter().enumerate() {
            for (kk, k) in ak.iter().enumerate() {
                a[i * kpb + kk] = r.as_ref().map_or(0.0, |r| ops.a_at(r, k));
            }
        }
        for (kk, k) in bk.iter().enumerate() {
            for (j, c) in col_halves.iter().enumerate() {
                b[kk * npb + j] = c.as_ref().map_or(0.0, |c| ops.b_at(k, c));
            }
        }
        for (i, cols) in ranges.iter().enumerate() {
            let row = &mut acc[i * npb..(i + 1) * npb];
            for kk in 0..klen {
                let av = a[i * kpb + kk];
                let brow = &b[kk * npb..(kk + 1) * npb];
                for j in cols.clone() {
                    row[j] += av * brow[j];
                }
            }
        }
        kt += kpb as u64;
    }
    acc
}

/// Calls `store(offset, value)` for every real element of the tile, in row-major tile order.
pub(crate) fn store(
    ops: &Operands,
    tile: Tile,
    id: TileId,
    values: &[f32],
    mut store: impl FnMut(usize, f32),
) {
    let l = lanes(ops, tile, id);
    let npb = tile.n as usize;
    for (i, r) in l.rows.iter().enumerate() {
        let Some((g, m)) = *r else { continue };
        for j in same_group(&l.cols, g) {
            if let Some((_, n)) = l.cols[j] {
                store(ops.c_offset(g, m, n), values[i * npb + j]);
            }
        }
    }
}
