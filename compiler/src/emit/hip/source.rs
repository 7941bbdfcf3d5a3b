//! Renders a kernel's source from its configuration: prelude, argument struct, the
//! constants, the shared implicit-GEMM body, and the small-channel and sliced entries of kernels
//! that have them.

use crate::kernel::Elem;
use crate::kernel::args;
use crate::kernel::config::{KernelConfig, SLICED_STAGES, Schedule};
use crate::kernel::launch::{
    CLUSTER_PAD, CONVERT_BLOCK, DCONV_BLOCK, DCONV_LDS_FLOATS, DCONV_MMA_LDS, DCONV_PAD,
    DCONV_STRIP, DCONV_STRIP_ROWS, DCONV_STRIP_ROWS8, DCONV_WARP_VECTORS, DIRECT_DEPTH,
    DIRECT_LANES, DIRECT_MMA_BLOCKS, DIRECT_RUNS, DIRECT_SETS, DIRECT_SPAN, DIRECT_STEP_ROWS,
    DROWS_CHUNK, DROWS_SLOTS, DROWS_STRIDE, DROWS_VECS, PW_BLOCK, PW_PIXELS, PWM_BLOCKS,
    PWM_STAGED_COLS, PWM_STAGES, PWM_WARPS, REPACK_BLOCK, REPACK_CHUNK, STAGE_PAD, TRANSPOSE_BLOCK,
    TRANSPOSE_TILE, WIN_BLOCK, WIN_BLOCKS, WIN_PIXELS, WM_BLOCKS, WM_PIXELS, WM_WARPS,
};
use crate::model::{ElementOp, Op, Reduction};
use std::fmt::Write;

const PRELUDE: &str = include_str!("prelude.hip");
/// CK's one-byte element types (int8, FNUZ fp8 and bf8) and their conversions.
const BYTE_TYPES: &str = include_str!("bytes.hip");
/// The shared implicit-GEMM body, in order: operand coordinates and global→LDS loaders, the
/// math paths (SIMT and tensor cores) behind one accumulator mapping, the TMA copies of the
/// sm_90a path, then the GEMM loop, epilogue and work schedules.
/// The repack entry of staged copies closes it.
pub(super) const BODY: [&str; 5] = [
    include_str!("operands.hip"),
    include_str!("math.hip"),
    include_str!("tma.hip"),
    include_str!("schedule.hip"),
    include_str!("repack.hip"),
];

/// The lines of the body's warpgroup path that state its 16-bit stage layout (a K-major row is
/// one 128-byte line of 64 elements, an instruction 16 of them deep), and their forms for fp32
/// operands computed in tf32 (32 elements a line, 8 an instruction): a kernel with an fp32
/// `wgmma` layout takes the second. Kept as edits rather than element-size constants in the
/// body so that the 16-bit kernels keep the texts the compile ledger lists
/// (`scripts/compile-ledger.txt`); each first form occurs once in the body (tested).
pub(super) const TF32_WGMMA_LINES: [(&str, &str); 3] = [
    (
        ": (k / 64) * (ROWS * 128) + r * 128 + (k % 64) * 2;",
        ": (k / 32) * (ROWS * 128) + r * 128 + (k % 32) * 4;",
    ),
    (
        "return (byte ^ (((byte >> 7) & 7) << 4)) / 2;",
        "return (byte ^ (((byte >> 7) & 7) << 4)) / 4;",
    ),
    (
        "for (int k = 0; k < KPB; k += 16) {",
        "for (int k = 0; k < KPB; k += 8) {",
    ),
];

/// The small-channel entries of kernels that merge groups: backward weight, and forward and
/// backward data.
const DIRECT: &str = include_str!("direct.hip");
const DIRECT_CONV: &str = include_str!("direct_conv.hip");
const SLICED: &str = include_str!("sliced.hip");
/// The pointwise entry of Filter1x1Stride1Pad0 forward and backward-data kernels.
const POINTWISE: &str = include_str!("pointwise.hip");
const WINDOW: &str = include_str!("window.hip");
/// The persistent entry of TMA kernels ([`KernelConfig::persist_layout`]).
const PERSISTENT: &str = include_str!("persistent.hip");
/// The transpose entry of backward-data kernels that read their weights transposed.
const TRANSPOSE: &str = include_str!("transpose.hip");

/// FNV-1a, 64 bits: a stable digest of text (the instance constants that name a kernel's
/// symbols; the snapshot listing of emitted files).
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn eop(op: ElementOp) -> &'static str {
    match op {
        ElementOp::PassThrough => "CK_EOP_PASS",
        ElementOp::Scale => "CK_EOP_SCALE",
        ElementOp::Relu => "CK_EOP_RELU",
        ElementOp::Bilinear => "CK_EOP_BILINEAR",
        ElementOp::Add => "CK_EOP_ADD",
        ElementOp::AddRelu => "CK_EOP_ADD_RELU",
        // `KernelConfig::new` refuses these (`PortableError::ResultOp`/`LoadOp`); were one to
        // reach a kernel, its text would name no operation and fail to compile.
        ElementOp::ConvScale
        | ElementOp::ConvScaleRelu
        | ElementOp::ConvScaleAdd
        | ElementOp::ConvInvscale
        | ElementOp::ScaleScalePass
        | ElementOp::ScaleScaleRelu
        | ElementOp::ScaleAdd
        | ElementOp::ScaleAddScaleAddRelu => "CK_EOP_NONE",
    }
}

/// A kernel's text, a function of its configuration only: instances that derive the same
/// constants share it (and its symbols), so it is compiled once for all of them.
pub struct KernelText {
    /// `ck_<hash of the constants>`; the entry points are `<base>_main`, `<base>_convert`,
    /// `<base>_repack` and,
    /// where the kernel has them, `<base>_direct`, `<base>_direct_mma`, `<base>_pointwise` and `<base>_pointwise_mma`.
    pub symbol_base: String,
    /// Prelude, argument struct, constants and body, without any provenance comment.
    pub text: String,
}

pub fn kernel_text(cfg: &KernelConfig) -> KernelText {
    let mut consts = String::new();
    // Writing to a String cannot fail.
    let _ = constants(&mut consts, cfg);
    let symbol_base = format!("ck_{:016x}", fnv1a(&consts));
    let body_len: usize = BODY.iter().map(|b| b.len()).sum();
    let mut text = String::with_capacity(PRELUDE.len() + consts.len() + body_len + 4096);
    text.push_str(PRELUDE);
    text.push('\n');
    // Only kernels of one-byte data: every other kernel's text stays as the ledger lists it.
    if cfg.byte_data() {
        text.push_str(BYTE_TYPES);
        text.push('\n');
    }
    // The constants first: the argument struct has the tensor maps only where CK_TMA_TILE.
    text.push_str(&consts);
    text.push_str(&args::c_struct());
    // The warpgroup path keeps registers for its own workgroups per SM (blocks_per_cu_on).
    let _ = writeln!(
        text,
        "#define CK_ENTRY_THREADS(e, n, b) extern \"C\" __global__ void CK_LAUNCH_BOUNDS(n, b) {symbol_base}_##e\n\
         #if defined(CK_WGMMA)\n#define CK_ENTRY(e) CK_ENTRY_THREADS(e, BLOCK, WG_BLOCKS_PER_CU)\n#else\n\
         #define CK_ENTRY(e) CK_ENTRY_THREADS(e, BLOCK, BLOCKS_PER_CU)\n#endif"
    );
    text.push('\n');
    let tf32_wgmma = cfg.wgmma.is_some() && cfg.a.elem == Elem::F32;
    for part in BODY {
        if tf32_wgmma {
            let mut part = part.to_string();
            for (from, to) in TF32_WGMMA_LINES {
                part = part.replacen(from, to, 1);
            }
            text.push_str(&part);
        } else {
            text.push_str(part);
        }
    }
    if cfg.has_direct() {
        if cfg.op == Op::BwdWeight {
            let _ = writeln!(
                text,
                "\nconstexpr int DIRECT_SETS = {DIRECT_SETS};\nconstexpr int DIRECT_LANES = {DIRECT_LANES};\n\
                 constexpr int DIRECT_SPAN = {DIRECT_SPAN};\nconstexpr int DIRECT_DEPTH = {DIRECT_DEPTH};\n\
                 constexpr int DIRECT_RUNS = {DIRECT_RUNS};\nconstexpr int DIRECT_STEP_ROWS = {DIRECT_STEP_ROWS};\n\
                 constexpr int DIRECT_MMA_BLOCKS = {DIRECT_MMA_BLOCKS};\nconstexpr int DROWS_VECS = {DROWS_VECS};\n\
                 constexpr int DROWS_SLOTS = {DROWS_SLOTS};\nconstexpr int DROWS_CHUNK = {DROWS_CHUNK};\n\
                 constexpr int DROWS_STRIDE = {DROWS_STRIDE};"
            );
            text.push_str(DIRECT);
        } else {
            let _ = writeln!(
                text,
                "\nconstexpr int DIRECT_BLOCK = {DCONV_BLOCK};\nconstexpr int DC_VW = {DCONV_WARP_VECTORS};\n\
                 constexpr int DCONV_PAD = {DCONV_PAD};\nconstexpr int DCONV_LDS_FLOATS = {DCONV_LDS_FLOATS};\n\
                 constexpr int DCONV_MMA_LDS = {DCONV_MMA_LDS};\n\
                 constexpr int DCONV_STRIP = {DCONV_STRIP};\nconstexpr int DC_STRIP_ROWS = {DCONV_STRIP_ROWS};\n\
                 constexpr int DC_STRIP_ROWS8 = {DCONV_STRIP_ROWS8};"
            );
            text.push_str(DIRECT_CONV);
        }
    }
    if cfg.has_sliced() {
        text.push_str(SLICED);
    }
    if cfg.has_pointwise() {
        let _ = writeln!(
            text,
            "\nconstexpr int PW_BLOCK = {PW_BLOCK};\nconstexpr int PW_PIXELS = {PW_PIXELS};\n\
             constexpr int PWM_WARPS = {PWM_WARPS};\nconstexpr int PWM_STAGES = {PWM_STAGES};\n\
             constexpr int PWM_BLOCKS = {PWM_BLOCKS};\nconstexpr int PWM_STAGED_COLS = {PWM_STAGED_COLS};"
        );
        text.push_str(POINTWISE);
    }
    if cfg.has_window() {
        let _ = writeln!(
            text,
            "\nconstexpr int WIN_BLOCK = {WIN_BLOCK};\nconstexpr int WIN_PIXELS = {WIN_PIXELS};\n\
             constexpr int WIN_BLOCKS = {WIN_BLOCKS};\nconstexpr int WM_WARPS = {WM_WARPS};\n\
             constexpr int WM_PIXELS = {WM_PIXELS};\nconstexpr int WM_BLOCKS = {WM_BLOCKS};"
        );
        text.push_str(WINDOW);
    }
    if let Some(p) = cfg.persist_layout() {
        let _ = writeln!(
            text,
            "\nconstexpr int PS_STAGES = {};\nconstexpr int PS_LDS_B_OFFSET = {};\n\
             constexpr int PS_STRIP_OFFSET = {};",
            p.stages, p.lds_b_offset, p.strip_offset
        );
        text.push_str(PERSISTENT);
    }
    if cfg.weights_transposed() {
        let _ = writeln!(
            text,
            "\nconstexpr int TRANSPOSE_TILE = {TRANSPOSE_TILE};\nconstexpr int TRANSPOSE_BLOCK = {TRANSPOSE_BLOCK};"
        );
        text.push_str(TRANSPOSE);
    }
    KernelText { symbol_base, text }
}

/// A kernel constant's value: a flag is a `constexpr bool`; a size, or an enumerator of the
/// prelude's enumerations by name, a `constexpr int`.
enum Const {
    Bool(bool),
    Int(u64),
    Name(&'static str),
}

impl std::fmt::Display for Const {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Const::Bool(b) => write!(f, "{b}"),
            Const::Int(v) => write!(f, "{v}"),
            Const::Name(n) => f.write_str(n),
        }
    }
}

/// Every instance-specific line of the kernel text.
fn constants(s: &mut String, cfg: &KernelConfig) -> std::fmt::Result {
    let op = match cfg.op {
        Op::Fwd => "CK_FWD",
        Op::BwdData => "CK_BWD_DATA",
        Op::BwdWeight => "CK_BWD_WEIGHT",
    };
    let (schedule, reduction) = match cfg.schedule {
        Schedule::SplitK { .. } => ("CK_SCHEDULE_SPLIT_K", "CK_SK_ATOMIC"),
        Schedule::StreamK { reduction, .. } => (
            "CK_SCHEDULE_STREAMK",
            match reduction {
                Reduction::Atomic => "CK_SK_ATOMIC",
                Reduction::Linear => "CK_SK_LINEAR",
                Reduction::Tree => "CK_SK_TREE",
            },
        ),
    };
    writeln!(s, "\n// ---- Instance constants.")?;
    writeln!(s, "enum {{ CK_FWD, CK_BWD_DATA, CK_BWD_WEIGHT }};")?;
    writeln!(
        s,
        "enum {{ CK_EOP_PASS, CK_EOP_SCALE, CK_EOP_RELU, CK_EOP_BILINEAR, CK_EOP_ADD, CK_EOP_ADD_RELU }};"
    )?;
    writeln!(s, "enum {{ CK_SCHEDULE_SPLIT_K, CK_SCHEDULE_STREAMK }};")?;
    writeln!(s, "enum {{ CK_SK_ATOMIC, CK_SK_LINEAR, CK_SK_TREE }};")?;
    writeln!(s, "typedef {} AT;", cfg.a.elem.c_type())?;
    writeln!(s, "typedef {} BT;", cfg.b.elem.c_type())?;
    writeln!(s, "typedef {} OT;", cfg.out.c_type())?;
    let [m, n, k] = cfg.tile;
    // The matrix-instruction path is chosen per target by the prelude; the layouts are per
    // instance (warps of 32 lanes on NVIDIA, waves of CK_WAVE lanes on AMD). Undefined first: a
    // translation unit may hold several kernels.
    for (flag, present) in [
        ("CK_MMA_TILE", cfg.mma.is_some()),
        ("CK_MFMA_TILE", cfg.mfma.is_some()),
        ("CK_WMMA_TILE", cfg.wmma.is_some()),
        ("CK_WGMMA_TILE", cfg.wgmma.is_some()),
        ("CK_TMA_TILE", cfg.wgmma.is_some_and(|l| l.tma)),
    ] {
        writeln!(s, "#undef {flag}\n#define {flag} {}", u8::from(present))?;
    }
    let warps = cfg.mma.map_or([1, 1], |l| l.warps);
    let mfma = cfg
        .mfma
        .map_or([1, 1, 32], |l| [l.warps[0], l.warps[1], l.block[0]]);
    let wmma = cfg.wmma.map_or([1, 1], |l| l.warps);
    let wg = cfg.wgmma.map_or([1, 1, 1, 8, 3, 0, 1], |l| {
        [
            l.groups[0],
            l.groups[1],
            l.slices,
            l.n,
            l.stages,
            l.lds_b_offset,
            l.blocks_per_cu,
        ]
    });
    let consts: [(&str, Const); 50] = [
        ("CK_OP", Const::Name(op)),
        ("BLOCK", Const::Int(cfg.block.into())),
        ("MPB", Const::Int(m.into())),
        ("NPB", Const::Int(n.into())),
        ("KPB", Const::Int(k.into())),
        ("K1A", Const::Int(cfg.a.k1.into())),
        ("K1B", Const::Int(cfg.b.k1.into())),
        ("LDS_A_ROW", Const::Int(cfg.a.lds_row.into())),
        ("LDS_B_ROW", Const::Int(cfg.b.lds_row.into())),
        ("LDS_A_SIZE", Const::Int(cfg.a.lds_stage.into())),
        ("LDS_B_SIZE", Const::Int(cfg.b.lds_stage.into())),
        ("LDS_B_OFFSET", Const::Int(cfg.lds_b_offset.into())),
        (
            "LDS_B_OFFSET_ASYNC",
            Const::Int(cfg.async_lds_b_offset.into()),
        ),
        ("ASYNC_RING", Const::Bool(cfg.async_ring)),
        ("ASYNC_STAGES", Const::Int(cfg.async_stages.into())),
        ("VEC_A", Const::Int(cfg.a.vector.into())),
        ("VEC_B", Const::Int(cfg.b.vector.into())),
        ("A_ALONG_M", Const::Bool(cfg.a.along_rows)),
        ("B_ALONG_N", Const::Bool(cfg.b.along_rows)),
        ("EOP_A", Const::Name(eop(cfg.a.op))),
        ("EOP_B", Const::Name(eop(cfg.b.op))),
        ("EOP_OUT", Const::Name(eop(cfg.out_op))),
        ("LOAD_BEGIN", Const::Int(cfg.load_begin.into())),
        ("LOAD_THREADS", Const::Int(cfg.load_threads.into())),
        ("MATH_BEGIN", Const::Int(cfg.math_begin.into())),
        ("TM_T", Const::Int(cfg.thread_grid[0].into())),
        ("TN_T", Const::Int(cfg.thread_grid[1].into())),
        ("RM", Const::Int(cfg.per_thread[0].into())),
        ("RN", Const::Int(cfg.per_thread[1].into())),
        ("WM_W", Const::Int(warps[0].into())),
        ("WN_W", Const::Int(warps[1].into())),
        ("MFMA_WM", Const::Int(mfma[0].into())),
        ("MFMA_WN", Const::Int(mfma[1].into())),
        ("MFMA_BLOCK", Const::Int(mfma[2].into())),
        ("WMMA_WM", Const::Int(wmma[0].into())),
        ("WMMA_WN", Const::Int(wmma[1].into())),
        ("WG_M", Const::Int(wg[0].into())),
        ("WG_N", Const::Int(wg[1].into())),
        ("WG_FM", Const::Int(wg[2].into())),
        ("WG_NW", Const::Int(wg[3].into())),
        ("WG_STAGES", Const::Int(wg[4].into())),
        ("WG_LDS_B_OFFSET", Const::Int(wg[5].into())),
        ("WG_BLOCKS_PER_CU", Const::Int(wg[6].into())),
        ("STAGES", Const::Int(cfg.stages.into())),
        ("REG_PREFETCH", Const::Bool(cfg.reg_prefetch)),
        ("MERGE", Const::Int(cfg.merge_groups.into())),
        ("BLOCKS_PER_CU", Const::Int(cfg.blocks_per_cu.into())),
        ("FAST_1X1", Const::Bool(cfg.fast_1x1)),
        ("WIDE_INDEX", Const::Bool(cfg.wide_index)),
        ("SCHEDULE", Const::Name(schedule)),
    ];
    for (name, value) in consts {
        let ty = match value {
            Const::Bool(_) => "bool",
            Const::Int(_) | Const::Name(_) => "int",
        };
        writeln!(s, "constexpr {ty} {name} = {value};")?;
    }
    writeln!(s, "constexpr int SK_REDUCTION = {reduction};")?;
    // Only kernels with the sliced entry: every other kernel's text (and symbol) stays as it was.
    if cfg.has_sliced() {
        writeln!(
            s,
            "constexpr int SK_WARPS = {};\nconstexpr int SK_STAGES = {SLICED_STAGES};",
            cfg.sliced_warps
        )?;
    }
    writeln!(s, "constexpr int STAGE_PAD = {STAGE_PAD};")?;
    writeln!(s, "constexpr int CLUSTER_PAD = {CLUSTER_PAD};")?;
    writeln!(s, "constexpr int CONVERT_BLOCK = {CONVERT_BLOCK};")?;
    writeln!(
        s,
        "constexpr int REPACK_BLOCK = {REPACK_BLOCK};\nconstexpr int REPACK_CHUNK = {REPACK_CHUNK};"
    )?;
    writeln!(
        s,
        "constexpr int TMA_MAPS_OFFSET = {};\nconstexpr int BOX_CH = {};",
        args::TMA_MAPS_OFFSET,
        // Only the warpgroup path copies boxes; other kernels keep the 16-bit value their
        // ledgered texts have.
        crate::kernel::box_channels(if cfg.wgmma.is_some() {
            cfg.a.elem
        } else {
            Elem::F16
        })
    )?;
    // The warpgroup path is per kernel too (on sm_90a, for kernels with a layout).
    writeln!(s, "#undef CK_WGMMA")?;
    if let Some(l) = cfg.wgmma {
        wgmma_instruction(s, l.n, cfg.a.elem, [cfg.a.along_rows, cfg.b.along_rows])?;
    }
    Ok(())
}

/// The warpgroup MMA of a kernel with a `wgmma` layout, on sm_90a: `d += A × B` for one K step
/// of 32 bytes (16 deep for 16-bit operands, 8 for tf32) of a 64 × `n` slice, A and B from
/// shared-memory descriptors; an M/N-major operand (loaded along its rows, 16-bit only) is read
/// transposed. tf32 reads fp32 operands and drops their low 13 mantissa bits. Accumulator
/// `d[h][2c + e]` is register `4c + 2h + e` of the instruction: row `8h` and column `8c + e`
/// from the thread's origin.
fn wgmma_instruction(
    s: &mut String,
    n: u32,
    elem: Elem,
    [trans_a, trans_b]: [bool; 2],
) -> std::fmt::Result {
    let (ty, depth) = match elem {
        Elem::Bf16 => ("bf16", 16),
        Elem::F16 => ("f16", 16),
        Elem::F32 => ("tf32", 8),
        // `wgmma_layout` gives one-byte operands no warpgroup layout.
        Elem::I8 | Elem::F8 | Elem::Bf8 => return Ok(()),
    };
    // Only 16-bit operands take the transpose immediates.
    let trans = if elem == Elem::F32 {
        String::new()
    } else {
        format!(", {}, {}", u8::from(trans_a), u8::from(trans_b))
    };
    let regs = n / 2;
    let list = (0..regs)
        .map(|r| format!("%{r}"))
        .collect::<Vec<_>>()
        .join(", ");
    let outs = (0..regs)
        .map(|r| {
            let (c, h, e) = (r / 4, (r / 2) % 2, r % 2);
            format!("\"+f\"(d[{h}][{}])", 2 * c + e)
        })
        .collect::<Vec<_>>()
        .join(", ");
    writeln!(s, "#if defined(CK_WGMMA_ARCH)")?;
    writeln!(s, "#define CK_WGMMA 1")?;
    writeln!(
        s,
        "CK_DEV void ck_wgmma(float (&d)[2][{}], unsigned long long da, unsigned long long db) {{",
        n / 4
    )?;
    // scale-d is a predicate: 1 accumulates into d.
    writeln!(
        s,
        "    asm volatile(\"{{ .reg .pred p; setp.ne.b32 p, %{}, 0; \"",
        regs + 2
    )?;
    writeln!(
        s,
        "                 \"wgmma.mma_async.sync.aligned.m64n{n}k{depth}.f32.{ty}.{ty} {{{list}}}, %{}, %{}, p, 1, 1{trans}; }}\"",
        regs,
        regs + 1,
    )?;
    writeln!(s, "                 : {outs}")?;
    writeln!(s, "                 : \"l\"(da), \"l\"(db), \"r\"(1));")?;
    writeln!(s, "}}")?;
    writeln!(s, "#endif")
}
