//! CK-Tile dispatcher kernel names (`unified_grouped_conv_codegen.py`):
//! `grouped_conv_{variant}_{dt}_{layout}_{n}d_{pipeline}_{epilogue}_{sched}_{tile}_{warps}_{warp_tile}`
//! plus optional suffixes. Old-CK instances are named as their CK-Tile equivalent, converted the
//! way CK's config generator converts them.

use super::spelling::TILE_PIPELINE;
use crate::ir::{Checked, Instance};
use crate::model::{Arch, DataType, Epilogue, Kind, Op, PipelineVersion, Reduction};

/// The dispatcher's vector sizes when none are given; only other sizes get a `_vec` suffix.
const DEFAULT_VECTORS: [u32; 3] = [4, 8, 8];

/// The dispatcher kernel name; None for DL instances, which have no CK-Tile equivalent.
pub fn dispatcher_name(inst: &Checked) -> Option<String> {
    tile_equivalent(inst).map(|t| name_with(inst, t))
}

/// The dispatcher name of a `kind = tile` instance, named by its own CK-Tile parameters (so
/// it always has one).
pub(crate) fn tile_kernel_name(inst: &Checked) -> String {
    name_with(inst, TileEquivalent::own(inst))
}

/// The name of `inst` with CK-Tile parameters `t`.
fn name_with(inst: &Checked, t: TileEquivalent) -> String {
    let variant = match inst.op {
        Op::Fwd => "forward",
        Op::BwdData => "bwd_data",
        Op::BwdWeight => "bwd_weight",
    };
    let pipeline = TILE_PIPELINE
        .cpp(t.pipeline)
        .unwrap_or(t.pipeline.keyword());
    let epilogue = inst.tile_kernel.map_or(Epilogue::Cshuffle, |k| k.epilogue);
    let dims = |v: [u32; 3]| format!("{}x{}x{}", v[0], v[1], v[2]);
    let mut name = format!(
        "grouped_conv_{variant}_{}_{}_{}d_{pipeline}_{epilogue}_{}_{}_{}_{}",
        inst.types.input.keyword(),
        inst.layout.input.keyword(),
        inst.ndim,
        inst.pipeline.scheduler.keyword(),
        dims([inst.tile.m, inst.tile.n, inst.tile.k]),
        dims(t.warps),
        dims(t.warp_tile),
    );
    let mut suffix = |s: &str| {
        name.push('_');
        name.push_str(s);
    };
    let vector = inst.tile_kernel.map_or(DEFAULT_VECTORS, |k| k.vector);
    if vector != DEFAULT_VECTORS {
        suffix(&format!("vec{}_{}_{}", vector[0], vector[1], vector[2]));
    }
    if let Some(k) = inst.tile_kernel.filter(|k| k.wave_groups > 1) {
        suffix(&format!("wg{}", k.wave_groups));
    }
    if inst.work.merge_groups > 1 {
        suffix(&format!("gm{}", inst.work.merge_groups));
    }
    if t.double_buffer {
        suffix("dsb");
    }
    if inst.work.two_stage {
        suffix("2stage");
    }
    if inst.spec != crate::model::ConvSpec::Default {
        suffix(inst.spec.keyword());
    }
    if inst.tile_kernel.is_some_and(|k| k.explicit_gemm) {
        suffix("explicit_gemm");
    }
    if let Some(sk) = inst.work.streamk {
        suffix(match sk.reduction {
            Reduction::Tree => "streamk_tree",
            Reduction::Linear => "streamk_linear",
            Reduction::Atomic => "streamk_atomic",
        });
        if sk.persistent {
            suffix("persistent");
        }
    }
    if inst.work.large_tensor {
        suffix("large_tensor");
    }
    if let Some(pad) = inst.tile_kernel.map(|k| k.pad).filter(|p| *p != [true; 3]) {
        let dims: String = pad
            .iter()
            .zip(['m', 'n', 'k'])
            .filter(|(p, _)| **p)
            .map(|(_, c)| c)
            .collect();
        suffix(&format!("pad{dims}"));
    }
    name
}

struct TileEquivalent {
    pipeline: PipelineVersion,
    warps: [u32; 3],
    warp_tile: [u32; 3],
    double_buffer: bool,
}

impl TileEquivalent {
    /// A CK-Tile kernel's own parameters.
    fn own(inst: &Instance) -> TileEquivalent {
        TileEquivalent {
            pipeline: inst.pipeline.version,
            warps: inst.waves,
            warp_tile: inst.mma,
            double_buffer: inst.pipeline.double_buffer,
        }
    }
}

/// The CK-Tile parameters of an instance: its own for CK-Tile kernels; for old-CK ops
/// m_warp = M/(MPerXdl·MXdl), n_warp likewise, k_warp = Block/(wave·m_warp·n_warp), pipeline
/// v1→basic_v1, v2→mem, v3→compv3, v4→compv4 with a double LDS buffer, v5→compv6, and direct
/// loads on v1/v4 → basic_async_v1/comp_async.
fn tile_equivalent(inst: &Instance) -> Option<TileEquivalent> {
    use PipelineVersion::*;
    match inst.kind {
        Kind::Dl => return None,
        Kind::Tile => return Some(TileEquivalent::own(inst)),
        _ => {}
    }
    let wave = if inst.targets.first().is_some_and(|a| is_wave32(*a)) {
        32
    } else {
        64
    };
    let per = |t: u32, instr: u32, rep: u32| t.checked_div(instr.saturating_mul(rep)).unwrap_or(0);
    let m = per(inst.tile.m, inst.mma[0], inst.repeat[0]);
    let n = per(inst.tile.n, inst.mma[1], inst.repeat[1]);
    let threads = inst.wavelet.map_or(inst.block, |w| w.math);
    let k = threads.checked_div(wave * m * n).unwrap_or(0);
    let direct = inst.pipeline.direct_load;
    let pipeline = match inst.pipeline.version {
        _ if inst.kind == Kind::Wavelet => Wavelet,
        V1 if direct => BasicAsyncV1,
        V4 if direct => CompAsync,
        V1 | WeightOnly => BasicV1,
        V2 => Mem,
        V3 => CompV3,
        V4 => CompV4,
        V5 => CompV6,
        other => other,
    };
    let warp_k = if inst.mma[2] != 0 {
        inst.mma[2]
    } else {
        instruction_k(inst.mma[0], inst.types.compute_a)
    };
    Some(TileEquivalent {
        pipeline,
        warps: [m, n, k],
        warp_tile: [inst.mma[0], inst.mma[1], warp_k],
        double_buffer: pipeline == CompV4 || inst.pipeline.double_buffer,
    })
}

fn is_wave32(a: Arch) -> bool {
    matches!(
        a,
        Arch::Gfx1100 | Arch::Gfx1101 | Arch::Gfx1200 | Arch::Gfx1201
    )
}

/// K of the base MFMA instruction (gfx942) for an M×M instruction and element type.
fn instruction_k(m: u32, t: DataType) -> u32 {
    let k32 = match t.bytes() {
        1 => 16,
        2 => 8,
        4 => 2,
        _ => 4,
    };
    if m == 16 { k32 * 2 } else { k32 }
}
