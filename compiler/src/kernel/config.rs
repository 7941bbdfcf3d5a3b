//! What an instance means for the portable kernel: the derived constants the source is
//! specialised with and the host launch arithmetic reads. Derived once, here.

use super::operand::{Elem, OperandCfg};
use crate::ir::{Checked, Instance, SplitK};
use crate::model::{DataType, ElementOp, Layout, Op, PipelineVersion, Reduction};
use serde::{Deserialize, Serialize};

/// Why an instance has no portable kernel.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PortableError {
    #[error("instance `{instance}` breaks CK's rules {codes} (`allow`): no back end runs it")]
    Allowed { instance: String, codes: String },
    #[error(
        "instance `{instance}`: data type {dtype} has no portable kernel (fp32, tf32, fp16, bf16, fp8, bf8 and int8 do)"
    )]
    DataType { instance: String, dtype: DataType },
    #[error(
        "instance `{instance}` computes its {data} {operand} operand in {compute}: the portable kernels compute each operand in its own type (fp32 also in tf32)"
    )]
    ComputeType {
        instance: String,
        operand: &'static str,
        data: DataType,
        compute: DataType,
    },
    #[error(
        "instance `{instance}`: result op {op} reads the sum as its {cshuffle} C-shuffle type holds it, which the portable kernels of one-byte data do not stage"
    )]
    ByteResult {
        instance: String,
        op: ElementOp,
        cshuffle: DataType,
    },
    #[error(
        "instance `{instance}`: element-wise op {op} on the {tensor} tensor is only valid on the result"
    )]
    LoadOp {
        instance: String,
        tensor: &'static str,
        op: ElementOp,
    },
    #[error(
        "instance `{instance}`: the portable kernels apply pass_through, scale, relu, bilinear, add and add_relu to the result, not {op}"
    )]
    ResultOp { instance: String, op: ElementOp },
    #[error(
        "instance `{instance}` combines several {tensor} tensors before the GEMM, which the portable kernels do not read"
    )]
    Sources {
        instance: String,
        tensor: &'static str,
    },
    #[error(
        "instance `{instance}`: D tensor layout {layout} (one value per group and channel) has no portable kernel"
    )]
    DLayout { instance: String, layout: Layout },
    #[error(
        "instance `{instance}` reads input vectors along the groups (vector dimension 1), which the portable kernels do not"
    )]
    GroupVectors { instance: String },
}

/// How the GEMM-K loop is spread over workgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Schedule {
    /// One workgroup per (tile, slice); `Auto` slices come from the occupancy model at launch.
    SplitK { slices: SplitK, two_stage: bool },
    StreamK {
        reduction: Reduction,
        persistent: bool,
    },
}

/// Warp layout of a matrix-instruction math path: the math threads' warps (waves on AMD) form a
/// `warps[0] × warps[1]` grid and each warp owns `frags[0] × frags[1]` blocks of
/// `block[0] × block[1]` (depth `block[2]`) of the block tile. The same source falls back to the
/// SIMT thread grid on targets without the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MmaLayout {
    pub warps: [u32; 2],
    pub frags: [u32; 2],
    pub block: [u32; 3],
}

/// LDS one workgroup's `cp.async` ring may take.
pub const ASYNC_LDS_BUDGET: u32 = 96 * 1024;
const MAX_ASYNC_STAGES: u32 = 4;
/// Steps of 16 pixels each warp of the `sliced` entry keeps in flight, the one it multiplies
/// included.
pub const SLICED_STAGES: u32 = 4;

/// Warpgroup layout of the NVIDIA sm_90a `wgmma` path: `groups[0] × groups[1]` warpgroups of
/// 128 threads, each computing `slices` 64-row slices by `n` columns of the block tile with
/// operands read from 128-byte-swizzled shared memory. A K-major operand (loaded along K) keeps
/// rows of 64 K elements; an M/N-major one (loaded along its rows) lines of 64 rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WgmmaLayout {
    pub groups: [u32; 2],
    /// 64-row slices per warpgroup (one instruction each per K step) and their width.
    pub slices: u32,
    pub n: u32,
    /// Ring stages (at least 3: one tile computing, one whose MMAs may still read, the rest
    /// loading), the B tiles' byte offset and the LDS bytes, 1 KB of alignment slack included.
    pub stages: u32,
    pub lds_b_offset: u32,
    pub lds_bytes: u32,
    /// Workgroups an SM holds at once: as many as its registers allow (one or two), each with
    /// its share of the shared memory.
    pub blocks_per_cu: u32,
    /// The kernel also copies its operands with the tensor-memory accelerator, on problems
    /// whose tensor maps the host can encode (`tma.rs`).
    pub tma: bool,
}

/// Bytes of one 128-byte swizzle atom: the stages start on this boundary.
const SWIZZLE_ATOM: u32 = 1024;
/// Shared memory an SM gives its workgroups (H100 / H200: 228 KB, 1 KB of it reserved per
/// workgroup).
const WGMMA_SM_LDS: u32 = 220 * 1024;
/// Registers of an SM, and what a thread of the path takes: its accumulators and the loaders'
/// coordinates come to about 220, so a warpgroup-sized workgroup fits twice, larger ones once.
const SM_REGISTERS: u32 = 65536;
const WGMMA_THREAD_REGISTERS: u32 = 224;
const MAX_WGMMA_STAGES: u32 = 6;
/// Most accumulators a thread of the `wgmma` path holds: beside the loaders' coordinates, more
/// spill (a 64 × 256 slice, 128 of them, took 600 bytes of stack). Kernels with TMA copies
/// hold no loader state on the problems they copy for, and take twice as many (their
/// `cp.async` path, for other problems, may spill).
const MAX_WGMMA_ACC: u32 = 64;
const MAX_WGMMA_ACC_TMA: u32 = 128;

/// The `wgmma` layout of a block tile, if it has one: operands of one type copied whole (the
/// `cp.async` ring), 16-bit, or fp32 computed in tf32 (`tf32`) with both operands K-major
/// (the only tf32 form of the instruction), every thread a loader and a math thread in whole
/// warpgroups, tile rows in 64-row slices spread over as many warpgroups as divide them,
/// warpgroup N a multiple of 8 up to 256 (of 64 for an N-major B, whose swizzle atoms are 64
/// rows), K-major operands one 128-byte line deep per atom (64 16-bit or 32 fp32 elements),
/// at most [`MAX_WGMMA_ACC`] accumulators a thread ([`MAX_WGMMA_ACC_TMA`] with TMA copies,
/// `tma`).
fn wgmma_layout(
    [a, b]: [&OperandCfg; 2],
    block: u32,
    whole_block: bool,
    [m, n, k]: [u32; 3],
    tma: bool,
    tf32: bool,
) -> Option<WgmmaLayout> {
    let types_ok = a.elem == b.elem
        && !a.elem.is_byte()
        && (a.elem != Elem::F32 || (tf32 && !a.along_rows && !b.along_rows));
    if !types_ok || !whole_block || !a.copies_whole_vectors() || !b.copies_whole_vectors() {
        return None;
    }
    // One instruction takes 32 bytes of K; a K-major atom is one 128-byte line.
    let line = super::tma::box_channels(a.elem);
    if !block.is_multiple_of(128)
        || !m.is_multiple_of(64)
        || !(k * a.elem.bytes()).is_multiple_of(32)
    {
        return None;
    }
    let groups = block / 128;
    let gm = gcd(groups, m / 64);
    let (gn, slices) = (groups / gm, m / 64 / gm);
    if !n.is_multiple_of(gn) {
        return None;
    }
    let nw = n / gn;
    let max_acc = if tma {
        MAX_WGMMA_ACC_TMA
    } else {
        MAX_WGMMA_ACC
    };
    if slices * nw / 2 > max_acc {
        return None;
    }
    let k_major_ok = |op: &OperandCfg| op.along_rows || k.is_multiple_of(line);
    if !nw.is_multiple_of(8) || nw > 256 || (b.along_rows && !nw.is_multiple_of(64)) {
        return None;
    }
    if !k_major_ok(a) || !k_major_ok(b) {
        return None;
    }
    let (a_stage, b_stage) = (m * k * a.elem.bytes(), n * k * b.elem.bytes());
    let blocks_per_cu = (SM_REGISTERS / (block * WGMMA_THREAD_REGISTERS)).clamp(1, 2);
    let stages = (3..=MAX_WGMMA_STAGES)
        .rev()
        .find(|s| SWIZZLE_ATOM + s * (a_stage + b_stage) <= WGMMA_SM_LDS / blocks_per_cu)?;
    Some(WgmmaLayout {
        groups: [gm, gn],
        slices,
        n: nw,
        stages,
        lds_b_offset: stages * a_stage,
        lds_bytes: SWIZZLE_ATOM + stages * (a_stage + b_stage),
        blocks_per_cu,
        tma,
    })
}

/// The persistent entry's LDS (`persistent.hip`): a ring of `stages` on the warpgroup layout's
/// stage sizes, its B tiles at `lds_b_offset`, then a strip for each warp at `strip_offset`
/// (16 rows, each 128 bytes of outputs padded by eight elements) through which the warp sends its
/// rows of a finished tile while the next tile's copies land; `lds_bytes` in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PersistLayout {
    pub stages: u32,
    pub lds_b_offset: u32,
    pub strip_offset: u32,
    pub lds_bytes: u32,
}

/// Rows of a warp's strip: the 16 rows a warp holds of a 64-row warpgroup slice.
const PERSIST_STRIP_ROWS: u32 = 16;

/// Bytes of a strip row: 128 bytes of outputs (a whole line of the output tensor), padded by
/// eight elements so that the warp's pair writes fall in distinct banks.
const fn persist_strip_row(out: Elem) -> u32 {
    128 + 8 * out.bytes()
}

/// A matrix instruction as the layouts see it: the lanes of the warp or wave that runs it and
/// the rows × columns × depth of the block one instruction computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MatrixUnit {
    lanes: u32,
    block: [u32; 3],
}

/// NVIDIA `mma.sync` m16n8k16 (32-lane warps).
const MMA_SYNC: [MatrixUnit; 1] = [MatrixUnit {
    lanes: 32,
    block: [16, 8, 16],
}];
/// NVIDIA `mma.sync` m16n8k8 on TF32 operands: fp32 data whose instance computes in tf32.
const MMA_SYNC_TF32: [MatrixUnit; 1] = [MatrixUnit {
    lanes: 32,
    block: [16, 8, 8],
}];
/// gfx9 MFMA (wave64): 32x32x8, else 16x16x16 (f16 and bf16_1k forms).
const MFMA: [MatrixUnit; 2] = [
    MatrixUnit {
        lanes: 64,
        block: [32, 32, 8],
    },
    MatrixUnit {
        lanes: 64,
        block: [16, 16, 16],
    },
];
/// gfx11 and gfx12 WMMA 16x16x16 (wave32).
const WMMA: [MatrixUnit; 1] = [MatrixUnit {
    lanes: 32,
    block: [16, 16, 16],
}];
/// Most fp32 accumulators one lane holds (registers: beyond this the kernel spills).
const MAX_ACC: u32 = 128;

/// What the math layouts are chosen for: the math threads `[begin, begin + count)`, the block
/// tile `m × n × k`, and the instance's own wave grid and instruction block.
#[derive(Clone, Copy, Debug)]
struct MathThreads {
    begin: u32,
    count: u32,
    tile: [u32; 3],
    waves: [u32; 2],
    instr: [u32; 2],
}

/// The layout for the first fitting instruction of `units`, if there is one: operands of one
/// type (16-bit, or fp32 for the TF32 units), whole warps starting on a warp boundary, and a
/// tile the warps cover exactly. The instance's own instruction block and wave grid win when
/// they fit; then the earlier unit, then the squarest warp tile (fewest fragment loads).
fn mma_layout(units: &[MatrixUnit], [a, b]: [Elem; 2], t: &MathThreads) -> Option<MmaLayout> {
    let tf32_units = units == MMA_SYNC_TF32.as_slice();
    if a != b || a.is_byte() || (a == Elem::F32) != tf32_units {
        return None;
    }
    let [m, n, k] = t.tile;
    units
        .iter()
        .enumerate()
        .filter(|(_, u)| {
            t.count.is_multiple_of(u.lanes)
                && t.begin.is_multiple_of(u.lanes)
                && k.is_multiple_of(u.block[2])
        })
        .flat_map(|(rank, u)| {
            let warps = t.count / u.lanes;
            (1..=warps)
                .filter(move |wm| warps.is_multiple_of(*wm))
                .map(move |wm| (rank, *u, [wm, warps / wm]))
        })
        .filter(|(_, u, [wm, wn])| {
            m.is_multiple_of(wm * u.block[0]) && n.is_multiple_of(wn * u.block[1])
        })
        .map(|(rank, u, [wm, wn])| {
            let l = MmaLayout {
                warps: [wm, wn],
                frags: [m / (wm * u.block[0]), n / (wn * u.block[1])],
                block: u.block,
            };
            (rank, u, l)
        })
        .filter(|(_, u, l)| {
            l.frags[0] * l.frags[1] * (u.block[0] * u.block[1] / u.lanes) <= MAX_ACC
        })
        .min_by_key(|(rank, u, l)| {
            (
                [u.block[0], u.block[1]] != t.instr,
                l.warps != t.waves,
                *rank,
                (l.frags[0] * u.block[0]).abs_diff(l.frags[1] * u.block[1]),
            )
        })
        .map(|(_, _, l)| l)
}

/// Every derived constant of one portable kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelConfig {
    pub op: Op,
    pub block: u32,
    pub tile: [u32; 3],
    pub a: OperandCfg,
    pub b: OperandCfg,
    pub out: Elem,
    pub out_op: ElementOp,
    /// Threads `[begin, begin + count)` that load tiles, and the first math thread.
    pub load_begin: u32,
    pub load_threads: u32,
    pub math_begin: u32,
    /// Math threads form a `tm × tn` grid; each owns `rm × rn` outputs strided by the grid.
    pub thread_grid: [u32; 2],
    pub per_thread: [u32; 2],
    /// Warp layouts of the matrix-instruction paths, where the tile and types allow one:
    /// NVIDIA `mma.sync` (m16n8k8 on TF32 operands where the instance computes fp32 data in
    /// tf32), gfx9 MFMA (wave64) and gfx11/gfx12 WMMA (wave32). Exact fp32 runs on the SIMT
    /// path.
    pub mma: Option<MmaLayout>,
    pub mfma: Option<MmaLayout>,
    pub wmma: Option<MmaLayout>,
    /// The sm_90a warpgroup path, where the tile allows one; on a device that runs it
    /// ([`DeviceInfo::wgmma`](super::device::DeviceInfo)) it replaces `mma.sync` and its LDS
    /// layout replaces the others.
    pub wgmma: Option<WgmmaLayout>,
    /// LDS stages (2 = double buffer) and whether the next tile is prefetched into registers.
    pub stages: u32,
    pub reg_prefetch: bool,
    pub merge_groups: u32,
    /// Backward-weight tiles whose warps lie along K (at most 64x64, whole 16x16 blocks): the
    /// warps that split GEMM-K in the `sliced` entry; 1 for every other kernel.
    pub sliced_warps: u32,
    /// Filter1x1Stride1Pad0: input and output pixels coincide, no im2col arithmetic.
    pub fast_1x1: bool,
    /// Tensor offsets in 64 bits (large-tensor instances); 32 otherwise, where the host keeps
    /// every tensor under 2 GB.
    pub wide_index: bool,
    pub schedule: Schedule,
    /// Byte offset of the B tiles in dynamic LDS and the total LDS bytes.
    pub lds_b_offset: u32,
    pub lds_bytes: u32,
    /// The pipeline runs as a `cp.async` ring on devices that copy asynchronously (NVIDIA
    /// sm_80+): no wavelet split, both operands copy whole vectors, and at least two stages fit
    /// `ASYNC_LDS_BUDGET` (a double-buffered pipeline keeps its two regardless). The kernel
    /// reads this decision (`ASYNC_RING`) rather than deriving it again.
    pub async_ring: bool,
    /// Stages of that ring: as many as fit `ASYNC_LDS_BUDGET` (2 to 4); without a ring,
    /// `stages`. Its LDS layout has the B tiles at `async_lds_b_offset` and takes
    /// `async_lds_bytes`.
    pub async_stages: u32,
    pub async_lds_b_offset: u32,
    pub async_lds_bytes: u32,
    /// Workgroups per compute unit the compiler keeps registers for (NVIDIA launch bounds).
    pub blocks_per_cu: u32,
}

fn elem(inst: &Instance, dtype: DataType) -> Result<Elem, PortableError> {
    Elem::of(dtype).ok_or_else(|| PortableError::DataType {
        instance: inst.name.clone(),
        dtype,
    })
}

fn load_op(
    inst: &Instance,
    tensor: &'static str,
    op: ElementOp,
) -> Result<ElementOp, PortableError> {
    match op {
        ElementOp::PassThrough | ElementOp::Scale | ElementOp::Relu => Ok(op),
        other => Err(PortableError::LoadOp {
            instance: inst.name.clone(),
            tensor,
            op: other,
        }),
    }
}

/// The result ops the kernels' epilogue applies (`CK_EOP_*` of `emit::hip::source`).
fn result_op(inst: &Instance, op: ElementOp) -> Result<ElementOp, PortableError> {
    match op {
        ElementOp::PassThrough
        | ElementOp::Scale
        | ElementOp::Relu
        | ElementOp::Bilinear
        | ElementOp::Add
        | ElementOp::AddRelu => Ok(op),
        other => Err(PortableError::ResultOp {
            instance: inst.name.clone(),
            op: other,
        }),
    }
}

/// Greatest common divisor of two unsigned integers (the planner's and the probes' widths).
pub fn gcd<T>(a: T, b: T) -> T
where
    T: Copy + PartialEq + Default + std::ops::Rem<Output = T>,
{
    if b == T::default() { a } else { gcd(b, a % b) }
}

/// Largest power of two dividing `want` and `extent`, at most 16 bytes of `elem`.
fn vector_width(want: u32, extent: u32, elem: Elem) -> u32 {
    let g = gcd(want.max(1), extent.max(1));
    // The lowest set bit of the gcd is the largest power of two dividing both.
    (g & g.wrapping_neg()).min(16 / elem.bytes())
}

/// Math-thread grid: `tn` divides the thread count, rows and columns per thread as even as the
/// tile allows, fewest idle outputs first.
fn thread_grid(threads: u32, m: u32, n: u32) -> ([u32; 2], [u32; 2]) {
    let mut best: Option<(u64, [u32; 2], [u32; 2])> = None;
    for tn in (1..=threads).filter(|d| threads.is_multiple_of(*d)) {
        let tm = threads / tn;
        let (rm, rn) = (m.div_ceil(tm), n.div_ceil(tn));
        let waste = u64::from(rm * tm) * u64::from(rn * tn) - u64::from(m) * u64::from(n);
        let score = waste * 1024 + u64::from(rm.abs_diff(rn));
        if best.is_none_or(|b| score < b.0) {
            best = Some((score, [tm, tn], [rm, rn]));
        }
    }
    let (_, grid, per) = best.unwrap_or((0, [1, 1], [m, n]));
    (grid, per)
}

impl KernelConfig {
    /// Kernels that merge groups also carry a small-channel entry (`direct.hip` for backward
    /// weight, `direct_conv.hip` for forward and backward data): the problems they are for
    /// have a handful of channels per group.
    pub fn has_direct(&self) -> bool {
        self.merge_groups > 1 && !self.byte_data()
    }

    /// A tensor of one-byte elements (int8, fp8, bf8): the kernel has the implicit GEMM on
    /// the SIMT path only (the other entries and the matrix paths read 16-bit or fp32 data).
    pub fn byte_data(&self) -> bool {
        self.tensor_elems().iter().any(|e| e.is_byte())
    }

    /// Filter1x1Stride1Pad0 forward and backward-data kernels also carry the `pointwise` entry
    /// (`pointwise.hip`): with few channels a 1x1 problem is one pass over its tensors.
    pub fn has_pointwise(&self) -> bool {
        self.fast_1x1 && self.op != Op::BwdWeight && !self.byte_data()
    }

    /// Scalar-load forward kernels (one element a load of both operands) that do not merge
    /// groups also carry the `window` entry (`window.hip`): with 1 to 4 input channels a group,
    /// a pixel's filter window is a short source row.
    pub fn has_window(&self) -> bool {
        self.op == Op::Fwd
            && self.a.vector == 1
            && self.b.vector == 1
            && !self.has_direct()
            && !self.byte_data()
    }

    /// The persistent entry's layout, where the kernel has one: TMA kernels of the split-K
    /// schedule that do not merge groups, with at least three stages left beside the warps'
    /// strips in the warpgroup layout's LDS budget.
    pub fn persist_layout(&self) -> Option<PersistLayout> {
        let w = self.wgmma.filter(|l| l.tma)?;
        if self.merge_groups != 1 || !matches!(self.schedule, Schedule::SplitK { .. }) {
            return None;
        }
        let [m, n, k] = self.tile;
        let (a_stage, b_stage) = (m * k * self.a.elem.bytes(), n * k * self.b.elem.bytes());
        let strips = self.block / 32 * PERSIST_STRIP_ROWS * persist_strip_row(self.out);
        let budget = WGMMA_SM_LDS / w.blocks_per_cu;
        let stages = (3..=w.stages)
            .rev()
            .find(|s| SWIZZLE_ATOM + s * (a_stage + b_stage) + strips <= budget)?;
        Some(PersistLayout {
            stages,
            lds_b_offset: stages * a_stage,
            strip_offset: stages * (a_stage + b_stage),
            lds_bytes: SWIZZLE_ATOM + stages * (a_stage + b_stage) + strips,
        })
    }

    /// The kernel has the `sliced` backward-weight entry ([`Self::sliced_warps`]).
    pub fn has_sliced(&self) -> bool {
        self.sliced_warps > 1 && !self.byte_data()
    }

    /// LDS of the `sliced` entry: each warp's ring of `SLICED_STAGES` steps of 16 pixels by
    /// the tile's M and N channels (rows padded by 16 bytes), or after it the warps' sums.
    pub fn sliced_lds_bytes(&self) -> u32 {
        let [m, n, _] = self.tile;
        let step = 16 * (m + 8) * 2 + 16 * (n + 8) * 2;
        (self.sliced_warps * SLICED_STAGES * step).max(self.sliced_warps * m * n * 4)
    }

    /// The warpgroup layout, where `dev` runs that path.
    fn wgmma_on(&self, dev: &super::device::DeviceInfo) -> Option<WgmmaLayout> {
        self.wgmma.filter(|_| dev.wgmma)
    }

    /// Workgroups per compute unit on `dev`: the `wgmma` layout's where that path runs.
    pub fn blocks_per_cu_on(&self, dev: &super::device::DeviceInfo) -> u32 {
        self.wgmma_on(dev)
            .map_or(self.blocks_per_cu, |w| w.blocks_per_cu)
    }

    /// Dynamic LDS bytes of a workgroup on `dev`.
    pub fn lds_bytes_on(&self, dev: &super::device::DeviceInfo) -> u32 {
        if let Some(w) = self.wgmma_on(dev) {
            w.lds_bytes
        } else if dev.async_copy {
            self.async_lds_bytes
        } else {
            self.lds_bytes
        }
    }

    /// LDS bytes from the kernel's stage base on `dev` (what the staged epilogue may fill): the
    /// launch's, less the warpgroup layout's alignment slack.
    pub fn stage_lds_on(&self, dev: &super::device::DeviceInfo) -> u32 {
        let slack = if self.wgmma_on(dev).is_some() {
            SWIZZLE_ATOM
        } else {
            0
        };
        self.lds_bytes_on(dev) - slack
    }

    /// Backward data that loads its weights along GEMM-K: from a copy in the workspace with
    /// the output channels innermost (`[G][C][taps][K]`, the caller's `[G][K][taps][C]`
    /// transposed per tap), which the plan's `transpose` entry makes before the GEMM.
    pub fn weights_transposed(&self) -> bool {
        self.op == Op::BwdData && !self.b.along_rows
    }

    /// What the tensor maps of this kernel's TMA copies depend on.
    pub fn tma_kernel(&self) -> super::tma::TmaKernel {
        super::tma::TmaKernel {
            op: self.op,
            elem: self.a.elem,
            tile: self.tile,
            weights_transposed: self.weights_transposed(),
        }
    }

    /// Element types of the input, weight and output tensors.
    pub fn tensor_elems(&self) -> [Elem; 3] {
        match self.op {
            Op::Fwd => [self.a.elem, self.b.elem, self.out],
            Op::BwdData => [self.out, self.b.elem, self.a.elem],
            Op::BwdWeight => [self.b.elem, self.out, self.a.elem],
        }
    }

    /// The portable kernel's configuration; fails only where the instance has no portable
    /// kernel (it `allow`s broken rules, or uses a data type or load op the kernel lacks).
    pub fn new(inst: &Checked) -> Result<KernelConfig, PortableError> {
        if !inst.allow.is_empty() {
            return Err(PortableError::Allowed {
                instance: inst.name.clone(),
                codes: inst.allow.join(", "),
            });
        }
        for (tensor, sources) in [
            ("input", &inst.types.input_sources),
            ("weight", &inst.types.weight_sources),
        ] {
            if !sources.is_empty() {
                return Err(PortableError::Sources {
                    instance: inst.name.clone(),
                    tensor,
                });
            }
        }
        // CK's forward op reads such vectors across groups of one channel; the portable
        // kernels' vectors run along the channels.
        if inst.op == Op::Fwd
            && inst.tile_kernel.is_none()
            && inst.a.vector_dim == 1
            && inst.a.src_vector > 1
        {
            return Err(PortableError::GroupVectors {
                instance: inst.name.clone(),
            });
        }
        if let Some(&layout) = inst.layout.ds.iter().find(|&&l| l == Layout::GK) {
            return Err(PortableError::DLayout {
                instance: inst.name.clone(),
                layout,
            });
        }
        // Validation keeps every size positive and the wavelet groups adding up to the block.
        let [m, n, k] = [inst.tile.m, inst.tile.n, inst.tile.k];
        let (x, w, y) = (
            elem(inst, inst.types.input)?,
            elem(inst, inst.types.weight)?,
            elem(inst, inst.types.output)?,
        );
        // The kernels multiply what they load (tf32 aside): an operand computed in a narrower
        // type (CK's fp16 lists computing in fp8) would need rounding on load they lack.
        let t = &inst.types;
        let data = match inst.op {
            Op::Fwd => [t.input, t.weight],
            Op::BwdData => [t.output, t.weight],
            Op::BwdWeight => [t.output, t.input],
        };
        for ((operand, data), compute) in ["A", "B"]
            .into_iter()
            .zip(data)
            .zip([t.compute_a, t.compute_b])
        {
            if compute.storage() != data.storage() {
                return Err(PortableError::ComputeType {
                    instance: inst.name.clone(),
                    operand,
                    data,
                    compute,
                });
            }
        }
        // fp32 data computed in tf32: the tensor cores' TF32 MMAs.
        let tf32 = inst.types.tf32_products();
        let ops = inst.elementwise;
        // A, B and the result by conv role; the contiguous dimension of each operand follows from
        // the op (channels are innermost in the NHWGC/GKYXC/NHWGK family).
        let (a, a_op, a_rows, b, b_op, b_rows, out, out_op) = match inst.op {
            Op::Fwd => (
                x,
                ("input", ops.input),
                false,
                w,
                ("weight", ops.weight),
                false,
                y,
                ops.output,
            ),
            Op::BwdData => (
                y,
                ("output", ops.output),
                false,
                w,
                ("weight", ops.weight),
                true,
                x,
                ops.input,
            ),
            Op::BwdWeight => (
                y,
                ("output", ops.output),
                true,
                x,
                ("input", ops.input),
                true,
                w,
                ops.weight,
            ),
        };
        let (load_begin, load_threads, math_begin, math_threads, stages) = match inst.wavelet {
            // Producer/consumer roles need two LDS stages.
            Some(wv) => (0, wv.load, wv.load, wv.math, 2),
            None => (
                0,
                inst.block,
                0,
                inst.block,
                if inst.pipeline.double_buffer { 2 } else { 1 },
            ),
        };
        let operand = |e: Elem,
                       (tensor, op): (&'static str, ElementOp),
                       rows: u32,
                       along: bool,
                       k1: u32,
                       pad: bool,
                       want: u32| {
            // An operand loaded along its rows is kept row-contiguous in LDS ([K][rows + pad]):
            // its global vectors land as one store, and the tensor-core path reads it with a
            // transposing matrix load. The 16-byte pad staggers consecutive K rows over the
            // banks; TF32 fragments, read an element a lane from four K rows, take 32 bytes so
            // that those rows start eight banks apart. An operand loaded along K keeps the
            // instance's K1 layout.
            let vector = vector_width(want, if along { rows } else { k }, e);
            let row_pad = if tf32 { 32 } else { 16 } / e.bytes();
            // An operand loaded along K keeps K1 runs of at least one vector (CK-Tile kinds
            // have no K1 of their own), so each vector lands as one store.
            let (k1, lds_row) = if along {
                (1, rows + row_pad)
            } else {
                let k1 = gcd(k1.max(vector), k);
                (k1, rows * k1 + if pad { k1 } else { 0 })
            };
            Ok::<_, PortableError>(OperandCfg {
                elem: e,
                vector,
                along_rows: along,
                k1,
                lds_row,
                lds_stage: (k / k1) * lds_row,
                op: load_op(inst, tensor, op)?,
            })
        };
        result_op(inst, out_op)?;
        // CK converts the sum to the C-shuffle type before the result op reads it; the
        // epilogue applies the op to the fp32 sum, which for one-byte types (an int8 sum
        // wraps) is another result. Pass-through and an fp32 C-shuffle type agree.
        let byte_data = [x, w, y].iter().any(|e| e.is_byte());
        if byte_data && out_op != ElementOp::PassThrough && t.cshuffle != DataType::Fp32 {
            return Err(PortableError::ByteResult {
                instance: inst.name.clone(),
                op: out_op,
                cshuffle: t.cshuffle,
            });
        }
        let a = operand(
            a,
            a_op,
            m,
            a_rows,
            inst.k1[0],
            inst.a.lds_pad,
            inst.a.src_vector,
        )?;
        let b_along = |rows: bool| {
            operand(
                b,
                b_op,
                n,
                rows,
                inst.k1[1],
                inst.b.lds_pad,
                inst.b.src_vector,
            )
        };
        let mut b = b_along(b_rows)?;
        // tf32 backward data: the tf32 `wgmma` takes K-major operands only, and the weights'
        // K (GEMM-K) is strided. Where a warpgroup layout fits with B loaded along GEMM-K, the
        // kernel reads a copy of the weights with the output channels innermost
        // ([`KernelConfig::weights_transposed`]), which the plan makes first.
        if inst.op == Op::BwdData && tf32 {
            let along_k = b_along(false)?;
            let fits = wgmma_layout(
                [&a, &along_k],
                inst.block,
                inst.wavelet.is_none(),
                [m, n, k],
                super::tma::tma_tile(inst.op, [&a, &along_k], [m, n, k]),
                tf32,
            );
            if fits.is_some() {
                b = along_k;
            }
        }
        // B offset and total bytes of `s` LDS stages.
        let layout = |s: u32| {
            let off = (s * a.lds_stage * a.elem.bytes()).div_ceil(16) * 16;
            (off, off + s * b.lds_stage * b.elem.bytes())
        };
        let (lds_b_offset, lds_bytes) = layout(stages);
        // The ring has at least two stages, as many as fit the budget (a double-buffered
        // pipeline keeps its two even when they do not).
        let ring_ok =
            inst.wavelet.is_none() && a.copies_whole_vectors() && b.copies_whole_vectors();
        let ring_stages = (2..=MAX_ASYNC_STAGES)
            .rev()
            .find(|&s| layout(s).1 <= ASYNC_LDS_BUDGET)
            .or((stages >= 2).then_some(stages));
        let (async_ring, async_stages) = match ring_stages {
            Some(s) if ring_ok => (true, s),
            _ => (false, stages),
        };
        // CK-Tile's block_per_cu: one workgroup per compute unit for the double-LDS pipelines,
        // two for the others; old CK kernels ask for one.
        let blocks_per_cu = match inst.pipeline.version {
            PipelineVersion::CompV4 | PipelineVersion::CompAsync => 1,
            v if v.is_tile() => 2,
            _ => 1,
        };
        let (async_lds_b_offset, async_lds_bytes) = layout(async_stages);
        let (thread_grid, per_thread) = thread_grid(math_threads, m, n);
        let math = MathThreads {
            begin: math_begin,
            count: math_threads,
            tile: [m, n, k],
            waves: [inst.waves[0], inst.waves[1]],
            instr: [inst.mma[0], inst.mma[1]],
        };
        let elems = [a.elem, b.elem];
        let schedule = match inst.work.streamk {
            Some(sk) => Schedule::StreamK {
                reduction: sk.reduction,
                persistent: sk.persistent,
            },
            None => Schedule::SplitK {
                slices: inst.work.split_k,
                two_stage: inst.work.two_stage,
            },
        };
        Ok(KernelConfig {
            op: inst.op,
            block: inst.block,
            tile: [m, n, k],
            a,
            b,
            out,
            out_op,
            load_begin,
            load_threads,
            math_begin,
            thread_grid,
            per_thread,
            mma: mma_layout(if tf32 { &MMA_SYNC_TF32 } else { &MMA_SYNC }, elems, &math),
            wgmma: wgmma_layout(
                [&a, &b],
                inst.block,
                inst.wavelet.is_none(),
                [m, n, k],
                super::tma::tma_tile(inst.op, [&a, &b], [m, n, k]),
                tf32,
            ),
            mfma: mma_layout(&MFMA, elems, &math),
            wmma: mma_layout(&WMMA, elems, &math),
            stages,
            reg_prefetch: inst.pipeline.prefetch >= 2,
            merge_groups: inst.work.merge_groups,
            sliced_warps: match inst.waves[2] {
                w if inst.op == Op::BwdWeight
                    && w > 1
                    && m % 16 == 0
                    && n % 16 == 0
                    && m <= 64
                    && n <= 64 =>
                {
                    w
                }
                _ => 1,
            },
            fast_1x1: inst.spec == crate::model::ConvSpec::Filter1x1Stride1Pad0,
            wide_index: inst.work.large_tensor || inst.kind == crate::model::Kind::XdlLargeTensor,
            schedule,
            lds_b_offset,
            lds_bytes,
            async_ring,
            blocks_per_cu,
            async_stages,
            async_lds_b_offset,
            async_lds_bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_grid_covers_tile_without_waste_when_possible() {
        let (grid, per) = thread_grid(256, 128, 128);
        assert_eq!(grid[0] * grid[1], 256);
        assert_eq!([grid[0] * per[0], grid[1] * per[1]], [128, 128]);
        assert_eq!(per, [8, 8]);
        // 48 columns over 64 threads: no divisor of 64 splits 48 evenly into columns and 16 rows.
        let (grid, per) = thread_grid(64, 16, 48);
        assert!(grid[0] * per[0] >= 16 && grid[1] * per[1] >= 48);
    }

    /// Math threads `[0, count)` over `tile`, with the instance's wave grid and instruction.
    fn math(count: u32, tile: [u32; 3], waves: [u32; 2], instr: [u32; 2]) -> MathThreads {
        MathThreads {
            begin: 0,
            count,
            tile,
            waves,
            instr,
        }
    }

    /// Every layout covers the tile exactly with whole warps of `lanes` lanes.
    fn assert_covers(l: MmaLayout, lanes: u32, threads: u32, [m, n, _]: [u32; 3]) {
        assert_eq!(l.warps[0] * l.warps[1] * lanes, threads);
        assert_eq!(
            [
                l.warps[0] * l.frags[0] * l.block[0],
                l.warps[1] * l.frags[1] * l.block[1]
            ],
            [m, n]
        );
    }

    #[test]
    fn mma_layout_covers_the_tile_with_whole_warps() {
        let any = [0, 0];
        let f16 = [Elem::F16; 2];
        let l = mma_layout(&MMA_SYNC, f16, &math(256, [128, 128, 32], any, any)).unwrap();
        assert_covers(l, 32, 256, [128, 128, 32]);
        // Warp tiles as square as the grid allows: 2×4 warps of 64×32.
        assert_eq!((l.warps, l.frags), ([2, 4], [4, 4]));
        // The instance's own grid when it fits.
        let l = mma_layout(&MMA_SYNC, f16, &math(256, [128, 128, 32], [4, 2], any)).unwrap();
        assert_eq!((l.warps, l.frags), ([4, 2], [2, 8]));
        // fp32, mixed types, K not a multiple of 16, partial warps or a tile the warps cannot
        // cover keep the SIMT path.
        let none =
            |elems, threads, tile| mma_layout(&MMA_SYNC, elems, &math(threads, tile, any, any));
        assert_eq!(none([Elem::F32; 2], 256, [128, 128, 32]), None);
        assert_eq!(none([Elem::F16, Elem::Bf16], 256, [128, 128, 32]), None);
        assert_eq!(none(f16, 256, [128, 128, 8]), None);
        assert_eq!(none(f16, 48, [64, 64, 32]), None);
        assert_eq!(none([Elem::Bf16; 2], 64, [8, 64, 32]), None);
        // Math threads that start inside a warp (a wavelet split) have no whole warps.
        let t = MathThreads {
            begin: 16,
            ..math(128, [64, 64, 32], any, any)
        };
        assert_eq!(mma_layout(&MMA_SYNC, f16, &t), None);
        // fp32 operands computed in tf32 take m16n8k8 steps, 16-bit ones never.
        let f32 = [Elem::F32; 2];
        let l = mma_layout(&MMA_SYNC_TF32, f32, &math(128, [128, 64, 32], any, any)).unwrap();
        assert_eq!((l.warps, l.frags, l.block), ([2, 2], [4, 4], [16, 8, 8]));
        assert_eq!(
            mma_layout(&MMA_SYNC_TF32, f16, &math(128, [128, 64, 32], any, any)),
            None
        );
    }

    #[test]
    fn mfma_layout_covers_the_tile_with_whole_waves() {
        let any = [0, 0];
        let bf16 = [Elem::Bf16; 2];
        // 256 threads are 4 wave64s; 32x32 blocks first: 2×2 waves of 2×2 blocks.
        let l = mma_layout(&MFMA, bf16, &math(256, [128, 128, 32], any, any)).unwrap();
        assert_covers(l, 64, 256, [128, 128, 32]);
        assert_eq!((l.warps, l.frags, l.block), ([2, 2], [2, 2], [32, 32, 8]));
        // The instance's own XDL block and wave grid win.
        let l = mma_layout(&MFMA, bf16, &math(256, [128, 128, 32], [4, 1], [16, 16])).unwrap();
        assert_eq!((l.warps, l.frags, l.block), ([4, 1], [2, 8], [16, 16, 16]));
        // A tile 32x32 blocks cannot cover takes 16x16 blocks.
        let l = mma_layout(&MFMA, bf16, &math(64, [16, 64, 32], any, any)).unwrap();
        assert_eq!((l.warps, l.frags, l.block), ([1, 1], [1, 4], [16, 16, 16]));
        // K a multiple of 8 but not 16 only fits 32x32x8.
        let l = mma_layout(&MFMA, bf16, &math(64, [32, 32, 8], any, any)).unwrap();
        assert_eq!(l.block, [32, 32, 8]);
        // 32 lanes are half a wave64; 128 fp32 accumulators per lane at most (a 256x256 tile
        // over one wave would need 1024).
        assert_eq!(
            mma_layout(&MFMA, bf16, &math(32, [32, 32, 32], any, any)),
            None
        );
        assert_eq!(
            mma_layout(&MFMA, bf16, &math(64, [256, 256, 32], any, any)),
            None
        );
        assert_eq!(
            mma_layout(&MFMA, bf16, &math(64, [8, 64, 32], any, any)),
            None
        );
    }

    #[test]
    fn wmma_layout_covers_the_tile_with_whole_waves() {
        let any = [0, 0];
        let f16 = [Elem::F16; 2];
        let l = mma_layout(&WMMA, f16, &math(128, [64, 64, 32], any, any)).unwrap();
        assert_covers(l, 32, 128, [64, 64, 32]);
        assert_eq!((l.warps, l.frags, l.block), ([2, 2], [2, 2], [16, 16, 16]));
        let l = mma_layout(&WMMA, f16, &math(256, [128, 128, 32], [2, 4], [16, 16])).unwrap();
        assert_eq!((l.warps, l.frags), ([2, 4], [4, 2]));
        // 16x16x16 blocks: N or K of 8 do not fit.
        assert_eq!(
            mma_layout(&WMMA, f16, &math(64, [32, 8, 32], any, any)),
            None
        );
        assert_eq!(
            mma_layout(&WMMA, f16, &math(64, [32, 32, 8], any, any)),
            None
        );
    }

    /// An operand of 16-byte vectors.
    fn operand(elem: Elem, along_rows: bool) -> OperandCfg {
        OperandCfg {
            elem,
            vector: 16 / elem.bytes(),
            along_rows,
            k1: if along_rows { 1 } else { 8 },
            lds_row: 0,
            lds_stage: 0,
            op: ElementOp::PassThrough,
        }
    }

    #[test]
    fn wgmma_layout_takes_whole_warpgroups_and_swizzle_atoms() {
        let (k_major, n_major) = (operand(Elem::F16, false), operand(Elem::F16, true));
        let layout = |a, b, block, tile| wgmma_layout([a, b], block, true, tile, false, false);
        // Forward (K-major operands), 256 threads on 128x128x64: two warpgroups of 64x128 and
        // as many 32 KB stages as fit one SM.
        let l = layout(&k_major, &k_major, 256, [128, 128, 64]).unwrap();
        assert_eq!((l.groups, l.slices, l.n, l.stages), ([2, 1], 1, 128, 6));
        assert_eq!(l.blocks_per_cu, 1);
        assert_eq!((l.lds_b_offset, l.lds_bytes), (6 * 16384, 1024 + 6 * 32768));
        // One warpgroup over 128 rows takes two 64-row slices.
        let l = layout(&k_major, &k_major, 128, [128, 48, 64]).unwrap();
        assert_eq!((l.groups, l.slices, l.n), ([1, 1], 2, 48));
        // A workgroup of one warpgroup fits an SM's registers twice: half the shared memory
        // each, four 22 KB stages.
        assert_eq!((l.blocks_per_cu, l.stages), (2, 4));
        // K-major operands need 64 K elements per block; M/N-major ones do not, but an N-major
        // B needs warpgroup columns in 64-row atoms.
        assert_eq!(layout(&k_major, &k_major, 256, [128, 128, 32]), None);
        assert_eq!(
            layout(&n_major, &n_major, 256, [128, 64, 32]).map(|l| l.n),
            Some(64)
        );
        assert_eq!(layout(&n_major, &n_major, 256, [64, 64, 32]), None);
        // Partial warpgroups, rows not in 64-row slices, more than 64 accumulators a thread,
        // fp32, a wavelet split: no layout.
        assert_eq!(layout(&k_major, &k_major, 192, [128, 128, 64]), None);
        assert_eq!(layout(&k_major, &k_major, 256, [48, 128, 64]), None);
        assert_eq!(layout(&k_major, &k_major, 128, [128, 128, 64]), None);
        let f32 = operand(Elem::F32, false);
        assert_eq!(layout(&f32, &f32, 256, [128, 128, 64]), None);
        assert_eq!(
            wgmma_layout(
                [&k_major, &k_major],
                256,
                false,
                [128, 128, 64],
                false,
                false
            ),
            None
        );
        // fp32 computed in tf32, both operands K-major: a 128-byte line is 32 elements, so
        // 32-deep blocks take it as 16-bit ones take 64, in stages of the same bytes.
        let tf32 = |a, b, tile| wgmma_layout([a, b], 256, true, tile, false, true);
        let l = tf32(&f32, &f32, [128, 128, 32]).unwrap();
        assert_eq!((l.groups, l.slices, l.n, l.stages), ([2, 1], 1, 128, 6));
        assert_eq!((l.lds_b_offset, l.lds_bytes), (6 * 16384, 1024 + 6 * 32768));
        assert_eq!(tf32(&f32, &f32, [128, 128, 16]), None);
        // tf32 has no transposed form: an M/N-major fp32 operand gets no layout.
        let f32_n = operand(Elem::F32, true);
        assert_eq!(tf32(&f32, &f32_n, [128, 128, 32]), None);
        // With TMA copies, 128 accumulators: two warpgroups of 64x256, four 48 KB stages.
        let l = wgmma_layout([&k_major, &k_major], 256, true, [128, 256, 64], true, false).unwrap();
        assert_eq!(
            (l.groups, l.slices, l.n, l.stages, l.tma),
            ([2, 1], 1, 256, 4, true)
        );
        assert_eq!(layout(&k_major, &k_major, 256, [128, 256, 64]), None);
    }

    #[test]
    fn vector_width_is_a_power_of_two_within_16_bytes() {
        assert_eq!(vector_width(8, 32, Elem::F16), 8);
        assert_eq!(vector_width(8, 32, Elem::F32), 4);
        assert_eq!(vector_width(6, 24, Elem::F16), 2);
        assert_eq!(vector_width(0, 24, Elem::F16), 1);
    }
}
