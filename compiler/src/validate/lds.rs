//! LDS use per workgroup and the budget per target (arch LDS; CK-Tile double-buffered
//! pipelines get half, as in the dispatcher's arch specs).

use super::codes as c;
use super::report::{Report, SpanOf};
use crate::arch;
use crate::ir::Instance;
use crate::model::{Arch, Kind, PipelineVersion as V};

/// Bytes of LDS one workgroup allocates: the A and B tiles (with `lds_pad` rows, twice for a
/// double buffer), or the C-shuffle tile when that is larger (it reuses the same LDS).
pub fn lds_bytes(i: &Instance) -> u32 {
    let (ta, tb) = (i.types.compute_a.bytes(), i.types.compute_b.bytes());
    let (m, n, k) = (i.tile.m, i.tile.n, i.tile.k);
    if i.kind == Kind::Tile {
        return (m * k * ta) + (n * k * tb);
    }
    let pad = |p: bool| u32::from(p);
    let ab = k * (m + pad(i.a.lds_pad)) * ta + k * (n + pad(i.b.lds_pad)) * tb;
    let ab = if i.pipeline.double_buffer { 2 * ab } else { ab };
    let (sm, sn) = shuffle_tile(i);
    let c = sm * sn * u64::from(i.types.cshuffle.bytes());
    u32::try_from(c).unwrap_or(u32::MAX).max(ab)
}

/// Rows and columns of one C-shuffle step, wide: shuffle repeats are checked only later.
pub fn shuffle_tile(i: &Instance) -> (u64, u64) {
    let w = |a: u32, b: u32, c: u32| u64::from(a) * u64::from(b) * u64::from(c);
    (
        w(i.c.m_per_shuffle, i.waves[0], i.mma[0]),
        w(i.c.n_per_shuffle, i.waves[1], i.mma[1]),
    )
}

/// LDS bytes the instance may use on `arch`.
pub fn lds_budget(i: &Instance, arch: Arch) -> u32 {
    let lds = arch::info(arch).lds_bytes;
    let half =
        i.kind == Kind::Tile && matches!(i.pipeline.version, V::CompV4 | V::CompAsync | V::CompV6);
    if half { lds / 2 } else { lds }
}

pub(super) fn check(r: &mut Report, i: &Instance) {
    let used = lds_bytes(i);
    for &a in &i.targets {
        let budget = lds_budget(i, a);
        if used > budget {
            r.error(
                c::LDS,
                r.spec.tile.sp(),
                format!("the instance needs {used} bytes of LDS, but `{a}` allows {budget} for pipeline `{}`", i.pipeline.version),
                format!("{used} > {budget} bytes"),
                "use a smaller tile M, N or K, or a pipeline without a double buffer",
            );
        }
    }
}
