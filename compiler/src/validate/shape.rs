//! Block, tile, instruction and wave rules.

use super::Basics;
use super::codes as c;
use super::report::{Report, SpanOf, join};
use crate::arch::{self, MmaUnit};
use crate::ir::Instance;
use crate::model::DataType;
use crate::ops::Mma;

pub(super) fn check(r: &mut Report, b: &Basics, i: &Instance) {
    match b.dev.mma {
        Mma::Tile => tile(r, b, i),
        Mma::Dl => k1(r, i),
        Mma::Xdl | Mma::Wmma => gemm(r, b, i),
    }
}

fn k1(r: &mut Report, i: &Instance) {
    let s = r.spec;
    for (k1, span) in [(i.k1[0], s.ak1.sp()), (i.k1[1], s.bk1.sp().or(s.ak1.sp()))] {
        if !i.tile.k.is_multiple_of(k1) {
            r.error(
                c::K1_DIV,
                span.or(s.tile.sp()),
                format!("K per block {} is not divisible by K1 = {k1}", i.tile.k),
                format!("K1 = {k1} does not divide {}", i.tile.k),
                format!(
                    "use a K per block that is a multiple of {k1}, e.g. {}",
                    i.tile.k.div_ceil(k1) * k1
                ),
            );
            return;
        }
    }
}

/// Threads of a block of CK's own (not CK-Tile) kernels at most: `CK_MAX_THREAD_PER_BLOCK`.
const MAX_BLOCK: u32 = 256;

fn gemm(r: &mut Report, b: &Basics, i: &Instance) {
    let s = r.spec;
    let native = if b.dev.mma == Mma::Wmma { 32 } else { 64 };
    let math = i.wavelet.map_or(i.block, |w| w.math);
    let math_span = if i.wavelet.is_some() {
        s.wavelet_math.sp()
    } else {
        s.block.sp()
    };
    if let Some(w) = i.wavelet {
        wavelet(r, b, i, w.load, w.math);
    } else if !i.block.is_multiple_of(32) || i.block > MAX_BLOCK {
        // CK's kernels are compiled for at most 256 threads a block (`__launch_bounds__` of
        // `CK_MAX_THREAD_PER_BLOCK`).
        r.error(
            c::BLOCK,
            s.block.sp(),
            format!(
                "block size {} is not a multiple of 32 in 32..={MAX_BLOCK}",
                i.block
            ),
            "invalid block size",
            "use 64, 128 or 256 threads",
        );
        return;
    }
    k1(r, i);
    let [im, in_] = [i.mma[0], i.mma[1]];
    let mut tiles_ok = true;
    for (dim, extent, instr, rep) in [
        ("M", i.tile.m, im, i.repeat[0]),
        ("N", i.tile.n, in_, i.repeat[1]),
    ] {
        if extent % (instr * rep) != 0 {
            tiles_ok = false;
            r.error(
                c::TILE_DIV,
                s.tile.sp(),
                format!("{dim} per block {extent} is not divisible by instr {dim} x repeat {dim} = {instr} x {rep} = {}", instr * rep),
                format!("{dim} = {extent} not a multiple of {}", instr * rep),
                format!("use {dim} per block a multiple of {}, or change `repeat`", instr * rep),
            );
        }
    }
    if tiles_ok && i.waves[0] * i.waves[1] * native != math {
        r.error(
            c::WAVES,
            math_span,
            format!(
                "{}x{} waves of {native} threads = {} threads, but the block has {math}",
                i.waves[0],
                i.waves[1],
                i.waves[0] * i.waves[1] * native
            ),
            format!("{} threads expected", i.waves[0] * i.waves[1] * native),
            format!(
                "set `block = {};` or change `repeat` so that (M/(instr·repeat))·(N/(instr·repeat)) = {}",
                i.waves[0] * i.waves[1] * native,
                math / native
            ),
        );
    }
    let ct = b.types.compute_a;
    for &a in &b.targets {
        let info = arch::info(a);
        if info.mma_shapes(ct).is_empty() {
            continue; // CK0207 already reported.
        }
        let ok = match (b.dev.mma, info.mma) {
            (Mma::Xdl, MmaUnit::Wmma) => im == 16 && in_ == 16 && ct.bytes() <= 2,
            _ => info.mma_k(ct, im, in_).is_some(),
        };
        if !ok {
            let shapes = info
                .mma_shapes(ct)
                .iter()
                .map(|s| format!("[{}, {}]", s[0], s[1]));
            let help = match info.mma {
                MmaUnit::MmaSync => {
                    format!("on {a} use an instr whose M is a multiple of 16 and N of 8")
                }
                MmaUnit::Wmma => format!(
                    "{a} runs 16x16 instructions of types up to 2 bytes: use `instr = [16, 16];`"
                ),
                MmaUnit::Mfma => format!("{ct} instructions on {a}: {}", join(shapes)),
            };
            r.error(
                c::INSTR,
                s.instr.sp(),
                format!("no {im}x{in_} {ct} instruction on `{a}`"),
                format!("{im}x{in_} not available on {a}"),
                help,
            );
        }
        // The wave32 variant of a V3 XDL op keeps the M waves and doubles the N waves.
        if tiles_ok && b.dev.mma == Mma::Xdl && info.wave_size == 32 && info.mma == MmaUnit::Wmma {
            let nwaves = (math / 32) / i.waves[0].max(1);
            if nwaves == 0 || !i.tile.n.is_multiple_of(nwaves * in_) {
                r.error(
                    c::WAVES,
                    math_span,
                    format!(
                        "on wave32 `{a}` the {math} threads form {} waves, {nwaves} along N, which do not split N = {} into {in_}-wide instructions",
                        math / 32,
                        i.tile.n
                    ),
                    format!("no wave32 layout on {a}"),
                    format!("use an N per block that is a multiple of {}", (nwaves.max(1)) * in_),
                );
            }
        }
    }
}

fn wavelet(r: &mut Report, b: &Basics, i: &Instance, load: u32, math: u32) {
    let s = r.spec;
    // A spec's block is derived from the groups; a built instance carries its own.
    let block = s.block.as_ref().map_or(u64::from(i.block), |b| b.value);
    if block != u64::from(load) + u64::from(math) {
        r.error(
            c::WAVELET_GROUPS,
            s.block.sp(),
            format!(
                "block = {block} but wavelet load + math = {load} + {math} = {}",
                u64::from(load) + u64::from(math)
            ),
            "differs from load + math",
            "remove `block`; wavelet instances launch load + math threads",
        );
    }
    if i.block > 1024 {
        r.error(
            c::WAVELET_GROUPS,
            s.wavelet_load.sp(),
            format!("load + math = {} threads exceed 1024", i.block),
            "too many threads",
            "use smaller load and math groups, e.g. 256 and 256",
        );
    }
    for &a in &b.targets {
        let wave = arch::info(a).wave_size;
        for (key, n, span) in [
            ("load", load, s.wavelet_load.sp()),
            ("math", math, s.wavelet_math.sp()),
        ] {
            if n % wave != 0 {
                r.error(
                    c::WAVELET_GROUPS,
                    span,
                    format!("wavelet {key} group of {n} threads is not a multiple of the {a} wave size {wave}"),
                    format!("not a multiple of {wave}"),
                    format!("use a multiple of {wave} for `wavelet.{key}`"),
                );
                return;
            }
        }
    }
}

fn tile(r: &mut Report, b: &Basics, i: &Instance) {
    let s = r.spec;
    let (t, w, wt) = (i.tile, i.waves, i.mma);
    if i.block > 1024 {
        r.error(
            c::BLOCK,
            s.warps.sp(),
            format!(
                "{}x{}x{} warps make {} threads, more than 1024",
                w[0], w[1], w[2], i.block
            ),
            "too many warps",
            "use at most 16 warps of 64 or 32 of 32 threads",
        );
    }
    for (dim, extent, warps, wtile) in [
        ("M", t.m, w[0], wt[0]),
        ("N", t.n, w[1], wt[1]),
        ("K", t.k, w[2], wt[2]),
    ] {
        if extent % (warps * wtile) != 0 {
            r.error(
                c::TILE_WARPS_DIV,
                s.tile.sp(),
                format!("tile {dim} = {extent} is not divisible by warps {dim} x warp tile {dim} = {warps} x {wtile}"),
                format!("not a multiple of {}", warps * wtile),
                format!("use a tile {dim} that is a multiple of {}", warps * wtile),
            );
        }
    }
    let ct = b.types.compute_a;
    for &a in &b.targets {
        let info = arch::info(a);
        if let Some(configs) = info.warp_configs()
            && !configs.contains(&w)
        {
            let list = configs
                .iter()
                .map(|c| format!("[{}, {}, {}]", c[0], c[1], c[2]));
            r.error(
                c::WARP_LAYOUT,
                s.warps.sp(),
                format!(
                    "warp layout [{}, {}, {}] is not among the CK-Tile warp configs of `{a}`",
                    w[0], w[1], w[2]
                ),
                format!("not a {a} warp config"),
                format!("use one of {}", join(list)),
            );
        }
        if !info.mma_shapes(ct).is_empty() && !info.warp_tile_available(ct, wt) {
            r.error(
                c::WARP_TILE,
                s.warp_tile.sp(),
                format!("warp tile {}x{}x{} of {ct} is not available on `{a}`", wt[0], wt[1], wt[2]),
                format!("not a {a} warp tile"),
                if info.wave_size == 32 {
                    "wave32 targets take 16x16xK warp tiles, K a multiple of 16".to_string()
                } else {
                    "fp16/bf16 warp tiles on CDNA: 32x32x8, 16x16x16, 32x32x16, 16x16x32, 4x64x16, 64x4x16".to_string()
                },
            );
        }
        if info.vendor == arch::Vendor::Amd && info.wave_size == 32 {
            wave32_tile(r, i, ct, a);
        }
    }
    for (name, v) in ["A", "B", "C"]
        .into_iter()
        .zip(i.tile_kernel.map_or([1; 3], |k| k.vector))
    {
        if v != 1 && v % 2 != 0 {
            r.error(
                c::TILE_VECTOR,
                s.vector.sp(),
                format!("CK-Tile vector size {name} = {v} is neither 1 nor even"),
                "odd vector size",
                format!("use {} or {}", v - 1, v + 1),
            );
        }
    }
}

fn wave32_tile(r: &mut Report, i: &Instance, ct: DataType, a: crate::model::Arch) {
    let s = r.spec;
    let (w, wt) = (i.waves, i.mma);
    let broken = if wt[2] < 32 && ct != DataType::Fp32 {
        Some((
            format!("warp tile K = {} is below 32 on wave32 `{a}`", wt[2]),
            "use a warp tile K of 32 or more".to_string(),
        ))
    } else if w[2] * wt[2] > i.tile.k {
        Some((
            format!(
                "warps K x warp tile K = {} x {} exceeds tile K = {} on wave32 `{a}`",
                w[2], wt[2], i.tile.k
            ),
            format!("use tile K >= {}", w[2] * wt[2]),
        ))
    } else if wt[0] == 32 {
        Some((
            format!("warp tile M = 32 is not supported on wave32 `{a}`"),
            "use a warp tile M of 16".to_string(),
        ))
    } else {
        None
    };
    if let Some((msg, help)) = broken {
        r.error(
            c::WAVE32_TILE,
            s.warp_tile.sp(),
            msg,
            "breaks a wave32 rule",
            help,
        );
    }
}
