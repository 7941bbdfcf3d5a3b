//! Staged copies: a plan whose GEMM runs a padded or folded form of the caller's problem reads
//! some of the caller's tensors through copies in the workspace, which the kernel's repack
//! entry makes before the GEMM, and writes its destination into one that it copies back after.

use super::{
    Buffers, ConvDims, DeviceInfo, EntryKind, LaunchPlan, PlanError, Step, WORKSPACE_ALIGN,
    ZeroTarget, get,
};
use crate::kernel::args::CkArgs;
use crate::kernel::config::KernelConfig;
use crate::model::Op;
use serde::{Deserialize, Serialize};

/// Threads of a repack workgroup.
pub(crate) const REPACK_BLOCK: u32 = 256;

/// Elements of a copy's block that one packing thread takes: 16 bytes of 16-bit data, one
/// vector store where the blocks are whole chunks.
pub(crate) const REPACK_CHUNK: u64 = 8;

/// Most repack workgroups per compute unit: the entry strides over the rest.
const REPACK_BLOCKS_PER_CU: u64 = 16;

/// How a tensor lies in its staged copy. The tensor is `rows` rows of `src` elements; the copy
/// is `rows` rows of `blocks` blocks of `out` elements, where element `j < inp` of block `b`
/// holds the row's element `b·inp + j − shift` if that lies in the row, and every other element
/// is zero.
///
/// Channels padded to a vector are blocks of one pixel (`inp` channels, `out` padded ones); a
/// stride folded into the channels makes a block of `s` pixels; `shift` puts zero taps in
/// front of a filter row, and blocks past the row's end add zero pixels or taps after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RowMap {
    pub rows: u64,
    pub src: u64,
    pub blocks: u64,
    pub inp: u64,
    pub out: u64,
    pub shift: u64,
}

impl RowMap {
    /// Elements of the tensor.
    pub fn source_len(&self) -> u64 {
        self.rows.saturating_mul(self.src)
    }

    /// Elements of the copy.
    pub fn staged_len(&self) -> u64 {
        self.rows
            .saturating_mul(self.blocks)
            .saturating_mul(self.out)
    }

    /// Whether each element of the tensor has its own place in the copy.
    pub fn covers(&self) -> bool {
        self.inp > 0
            && self.inp <= self.out
            && self.blocks.saturating_mul(self.inp) >= self.shift.saturating_add(self.src)
    }

    /// Whether the copy is the tensor itself (no repack needed).
    pub fn is_identity(&self) -> bool {
        self.shift == 0 && self.inp == self.out && self.blocks * self.inp == self.src
    }

    /// The tensor element that element `i` of the copy holds; `None` where it holds a zero.
    pub fn source_of(&self, i: u64) -> Option<u64> {
        let row = self.blocks * self.out;
        let (r, t) = (i / row, i % row);
        let (b, j) = (t / self.out, t % self.out);
        let m = (b * self.inp + j).checked_sub(self.shift)?;
        (j < self.inp && m < self.src).then_some(r * self.src + m)
    }

    /// Where element `i` of the tensor lies in the copy.
    pub fn staged_of(&self, i: u64) -> u64 {
        let (r, m) = (i / self.src, i % self.src + self.shift);
        r * self.blocks * self.out + (m / self.inp) * self.out + m % self.inp
    }
}

/// Weights `[G][K][taps][C]` as backward data reads them along GEMM-K: `[G][C][taps][K]`,
/// each tap's K × C matrix transposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Transpose {
    pub groups: u64,
    pub k: u64,
    pub taps: u64,
    pub c: u64,
}

impl Transpose {
    /// Elements of the weights (and of their copy).
    pub fn elements(&self) -> u64 {
        [self.groups, self.k, self.taps, self.c]
            .into_iter()
            .fold(1, u64::saturating_mul)
    }
}

/// How a staged copy holds its tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StagedCopy {
    /// Rows padded or folded ([`RowMap`]), by the repack entry.
    Rows(RowMap),
    /// Transposed weights, by the transpose entry.
    Transposed(Transpose),
}

impl StagedCopy {
    /// The entry that makes the copy.
    pub fn entry(&self) -> EntryKind {
        match self {
            StagedCopy::Rows(_) => EntryKind::Repack,
            StagedCopy::Transposed(_) => EntryKind::Transpose,
        }
    }
}

/// A tensor of the caller's that a plan's GEMM reads or writes through a staged copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Staged {
    pub copy: StagedCopy,
    pub elem_bytes: u64,
    /// Byte offset of the copy in the workspace.
    pub offset: u64,
}

/// Tiles of a transpose workgroup: `TRANSPOSE_TILE`² elements through LDS, so that the reads
/// and the writes each go along whole rows.
pub(crate) const TRANSPOSE_TILE: u32 = 32;
/// Threads of a transpose workgroup: a row of the tile a warp, 8 rows at a time.
pub(crate) const TRANSPOSE_BLOCK: u32 = 256;

/// Element strides of the transposed weights' copy ([`Transpose`]) by dimension letter.
pub(super) fn transposed_weight_strides(dims: &ConvDims) -> Vec<(char, i64)> {
    let [z, y, x] = dims.filter;
    let mut out = Vec::with_capacity(6);
    let mut stride = 1u64;
    for (l, size) in [
        ('K', dims.k),
        ('W', x),
        ('H', y),
        ('D', z),
        ('C', dims.c),
        ('G', dims.g),
    ] {
        out.push((l, i64::try_from(stride).unwrap_or(i64::MAX)));
        stride = stride.saturating_mul(size);
    }
    out
}

impl LaunchPlan {
    /// The argument block of the repack launch of tensor `tensor` (0 input, 1 weight,
    /// 2 output) for these buffers: `x` the caller's tensor, `y` its copy.
    pub fn repack_args(&self, bufs: Buffers, tensor: usize, unpack: bool) -> CkArgs {
        let mut a = CkArgs::default();
        let Some(st) = self.staged.get(tensor).copied().flatten() else {
            return a;
        };
        a.x = [bufs.input, bufs.weight, bufs.output][tensor];
        a.y = bufs.workspace + st.offset;
        let sizes = match st.copy {
            StagedCopy::Rows(m) => [m.rows, m.src, m.blocks, m.inp, m.out, m.shift],
            // The transpose entry's: groups, taps, then the K × C matrix of a tap.
            StagedCopy::Transposed(t) => [t.groups, t.taps, t.k, t.c, 0, 0],
        };
        [
            a.rp_rows,
            a.rp_src,
            a.rp_blocks,
            a.rp_in,
            a.rp_out,
            a.rp_shift,
        ] = sizes.map(|v| v as i64);
        a.rp_bytes = st.elem_bytes as i64;
        a.rp_unpack = i64::from(unpack);
        a
    }
}

impl KernelConfig {
    /// Plans the GEMM of `dims` over staged copies of the caller's tensors: `maps[i]` (input,
    /// weight, output) says how tensor `i` lies in the tensor of `dims` where it is not that
    /// tensor itself. The copies follow the kernel's own workspace; the sources are packed
    /// after the zero-fills and before the GEMM, the destination unpacked after it, and every
    /// zero-fill of the destination clears its copy instead.
    pub fn plan_staged(
        &self,
        dims: &ConvDims,
        maps: [Option<RowMap>; 3],
        dev: &DeviceInfo,
    ) -> Result<LaunchPlan, PlanError> {
        // The repack entry moves 2- and 4-byte elements.
        if self.byte_data() {
            return Err(PlanError::Staged("one-byte tensors"));
        }
        let mut plan = self.plan(dims, dev)?;
        if plan.transposed.is_some() {
            return Err(PlanError::Staged("a transposed plan"));
        }
        if plan.staged[1].is_some() && maps[1].is_some_and(|m| !m.is_identity()) {
            return Err(PlanError::Staged(
                "weights that the kernel reads transposed",
            ));
        }
        let dst = match dims.op {
            Op::Fwd => 2,
            Op::BwdData => 0,
            Op::BwdWeight => 1,
        };
        let elem_bytes = self.tensor_elems().map(|e| u64::from(e.bytes()));
        let align = |v: u64| v.div_ceil(WORKSPACE_ALIGN) * WORKSPACE_ALIGN;
        let mut end = align(plan.workspace_bytes);
        let mut packs = Vec::new();
        let mut unpack = None;
        for (i, map) in maps.into_iter().enumerate() {
            let Some(map) = map.filter(|m| !m.is_identity()) else {
                continue;
            };
            let bytes = map.staged_len().saturating_mul(elem_bytes[i]);
            if !map.covers() || bytes != plan.tensor_bytes[i] {
                return Err(PlanError::Staged(
                    "a copy that does not match the GEMM's tensor",
                ));
            }
            let st = Staged {
                copy: StagedCopy::Rows(map),
                elem_bytes: elem_bytes[i],
                offset: end,
            };
            end = align(end.saturating_add(bytes));
            plan.tensor_bytes[i] = map.source_len().saturating_mul(elem_bytes[i]);
            plan.staged[i] = Some(st);
            // Packing takes a chunk of a block of the copy a thread, unpacking an element of
            // the tensor.
            let threads = if i == dst {
                map.source_len()
            } else {
                (map.rows.saturating_mul(map.blocks)).saturating_mul(map.out.div_ceil(REPACK_CHUNK))
            };
            let blocks = threads
                .div_ceil(u64::from(REPACK_BLOCK))
                .clamp(1, REPACK_BLOCKS_PER_CU * u64::from(dev.compute_units));
            let step = Step::Repack {
                tensor: i,
                unpack: i == dst,
                blocks: blocks as u32,
                threads: REPACK_BLOCK,
            };
            if i == dst {
                unpack = Some(step);
            } else {
                packs.push(step);
            }
        }
        if let Some(st) = plan.staged[dst] {
            for step in &mut plan.steps {
                if let Step::Zero { target, offset, .. } = step
                    && *target == ZeroTarget::Output
                {
                    *target = ZeroTarget::Workspace;
                    *offset += st.offset;
                }
            }
        }
        if plan.staged.iter().any(Option::is_some) {
            plan.workspace_bytes = end;
        }
        plan.steps.splice(0..0, packs);
        plan.steps.extend(unpack);
        Ok(plan)
    }

    /// `plan` (of a kernel that reads transposed weights) with their copy: after the plan's
    /// own workspace, made by the transpose entry before every other launch. The caller's
    /// weights (`caller_ws`) must be packed `[G][K][taps][C]`.
    pub(super) fn stage_transposed_weights(
        &self,
        mut plan: LaunchPlan,
        dims: &ConvDims,
        caller_ws: &[(char, i64)],
        dev: &DeviceInfo,
    ) -> Result<LaunchPlan, PlanError> {
        let [z, y, x] = dims.filter;
        let (c, taps) = (dims.c, z * y * x);
        // (dimension, its stride in packed weights, its extent); a unit one may have any stride.
        let packed = [
            ('C', 1, c),
            ('W', c, x),
            ('H', x * c, y),
            ('D', y * x * c, z),
            ('K', taps * c, dims.k),
            ('G', dims.k * taps * c, dims.g),
        ];
        let is_packed = packed
            .iter()
            .all(|&(l, st, extent)| extent == 1 || get(caller_ws, l) == st as i64);
        if !is_packed {
            return Err(PlanError::Staged(
                "weights that are not packed [G][K][taps][C]",
            ));
        }
        let t = Transpose {
            groups: dims.g,
            k: dims.k,
            taps,
            c,
        };
        let elem_bytes = u64::from(self.b.elem.bytes());
        let offset = plan.workspace_bytes.next_multiple_of(WORKSPACE_ALIGN);
        plan.workspace_bytes = offset.saturating_add(t.elements().saturating_mul(elem_bytes));
        plan.staged[1] = Some(Staged {
            copy: StagedCopy::Transposed(t),
            elem_bytes,
            offset,
        });
        let edge = u64::from(TRANSPOSE_TILE);
        let tiles = (t.groups * t.taps)
            .saturating_mul(t.k.div_ceil(edge))
            .saturating_mul(t.c.div_ceil(edge));
        let blocks = tiles.clamp(1, REPACK_BLOCKS_PER_CU * u64::from(dev.compute_units));
        plan.steps.insert(
            0,
            Step::Repack {
                tensor: 1,
                unpack: false,
                blocks: blocks as u32,
                threads: TRANSPOSE_BLOCK,
            },
        );
        Ok(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3-channel row of 5 pixels folded by stride 2 and padded to 8: blocks of 2 pixels.
    const FOLD: RowMap = RowMap {
        rows: 2,
        src: 15,
        blocks: 3,
        inp: 6,
        out: 8,
        shift: 0,
    };

    #[test]
    fn every_source_element_has_one_place_and_comes_back() {
        for map in [
            FOLD,
            // Weights 7 taps × 3 channels with one zero tap in front, folded by 2.
            RowMap {
                rows: 3,
                src: 21,
                blocks: 4,
                inp: 6,
                out: 8,
                shift: 3,
            },
        ] {
            assert!(map.covers() && !map.is_identity());
            let mut seen = vec![0; map.source_len() as usize];
            for i in 0..map.staged_len() {
                if let Some(s) = map.source_of(i) {
                    seen[s as usize] += 1;
                    assert_eq!(map.staged_of(s), i);
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{map:?}: {seen:?}");
        }
        // The fold's last block holds pixel 4 and a zero pixel past the row.
        assert_eq!(FOLD.source_of(2 * 8 + 2), Some(14));
        assert_eq!(FOLD.source_of(2 * 8 + 3), None);
        assert_eq!(FOLD.source_of(6), None);
    }
}
