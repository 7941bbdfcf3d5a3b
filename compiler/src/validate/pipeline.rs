//! Pipeline rules: versions per kind, compv5/compv6, schedulers, prefetch, LDS double buffer,
//! direct loads.

use super::Basics;
use super::codes as c;
use super::report::{Report, SpanOf, join};
use crate::arch::{self, Vendor};
use crate::ir::Instance;
use crate::model::{Arch, Op, PipelineVersion as V, Scheduler};
use crate::ops::PipelineFamily as F;

pub(super) fn check(r: &mut Report, b: &Basics, i: &Instance) {
    let s = r.spec;
    let p = &i.pipeline;
    let fam = b.dev.pipeline;
    let vspan = s.pipeline.version.sp();
    if !fam.versions().contains(&p.version) {
        r.error(
            c::PIPELINE_VERSION,
            vspan,
            format!(
                "pipeline `{}` does not exist for `{}` `{}`",
                p.version, b.op, b.kind
            ),
            "not a pipeline of this kind",
            format!("use one of: {}", join(fam.versions())),
        );
        return;
    }
    if p.version == V::CompV5 && b.op != Op::Fwd {
        r.error(
            c::COMPV5_BACKWARD,
            vspan,
            format!("compv5 is not available for `{}`", b.op),
            "forward only",
            "use compv3 or mem for backward ops",
        );
    }
    if p.scheduler == Scheduler::Interwave {
        let ok = match fam {
            F::Tile => matches!(p.version, V::Mem | V::BasicV1),
            F::BlockGemm => matches!(p.version, V::V1 | V::V2),
            _ => true,
        };
        if !ok {
            r.error(
                c::INTERWAVE,
                s.pipeline.scheduler.sp(),
                format!("pipeline `{}` has no interwave scheduler", p.version),
                "interwave unsupported here",
                if fam == F::Tile {
                    "use intrawave, or pipeline mem or basic_v1"
                } else {
                    "use intrawave, or pipeline v1 or v2"
                },
            );
        }
    }
    // CK's gridwise v1 pipelines exist for one or two stages (`GridwiseGemmPipeline_Selector`);
    // the old WMMA ops' v2 pipeline takes the count and ignores it.
    let ignored = fam == F::OldWmma && p.version == V::V2;
    if b.dev.prefetch && !ignored && !(1..=2).contains(&p.prefetch) {
        r.error(
            c::PREFETCH,
            s.pipeline.prefetch.sp(),
            format!(
                "`{}` `{}` supports 1 or 2 prefetch stages, not {}",
                b.op, b.kind, p.prefetch
            ),
            "1 or 2",
            "set `pipeline.prefetch = 1;`",
        );
    }
    let need_double = match fam {
        F::Tile => Some(matches!(p.version, V::CompV4 | V::CompAsync)),
        F::BlockGemm => Some(p.version == V::V4),
        _ => None,
    };
    if let Some(need) = need_double
        && need != p.double_buffer
    {
        r.error(
            c::DOUBLE_BUFFER,
            s.pipeline.double_buffer.sp().or(vspan),
            if need {
                format!(
                    "pipeline `{}` uses a double LDS buffer, but double_buffer = false",
                    p.version
                )
            } else {
                format!(
                    "pipeline `{}` has no double LDS buffer, but double_buffer = true",
                    p.version
                )
            },
            "contradicts the pipeline",
            "omit `pipeline.double_buffer`; the pipeline decides it",
        );
    }
    direct(r, b, i);
    if p.version == V::CompV6
        && let Some(k) = &i.tile_kernel
    {
        for (dim, rows, vec) in [("M", i.tile.m, k.vector[0]), ("N", i.tile.n, k.vector[1])] {
            if rows * i.tile.k < i.block * vec {
                r.error(
                    c::COMPV6,
                    s.tile.sp(),
                    format!(
                        "compv6 needs tile {dim} x K = {} >= block x vector = {} x {vec}",
                        rows * i.tile.k,
                        i.block
                    ),
                    "tile too small for compv6",
                    "use a larger tile or fewer warps, or compv3",
                );
            }
        }
    }
}

fn amd_not_gfx950(b: &Basics) -> Option<Arch> {
    b.targets
        .iter()
        .copied()
        .find(|&a| arch::info(a).vendor == Vendor::Amd && a != Arch::Gfx950)
}

fn direct(r: &mut Report, b: &Basics, i: &Instance) {
    let s = r.spec;
    let p = &i.pipeline;
    let span = s.pipeline.direct_load.sp();
    if p.direct_load {
        if !b.dev.direct_load {
            r.error(
                c::DIRECT_LOAD,
                span,
                format!("`{}` `{}` has no direct-load variant", b.op, b.kind),
                "no direct load",
                "use kind xdl_v3 for direct loads",
            );
            return;
        }
        if !matches!(p.version, V::V1 | V::V4) {
            r.error(
                c::DIRECT_LOAD,
                span,
                format!("direct load runs with pipeline v1 or v4, not {}", p.version),
                "wrong pipeline",
                "set `pipeline.version = v1;` or `v4`",
            );
        }
    }
    let is_async = matches!(p.version, V::BasicAsyncV1 | V::CompAsync);
    if (p.direct_load || is_async)
        && let Some(a) = amd_not_gfx950(b)
    {
        let what = if is_async {
            format!("async pipeline `{}`", p.version)
        } else {
            "direct load".to_string()
        };
        r.error(
            c::DIRECT_LOAD,
            span.or(s.pipeline.version.sp()),
            format!("{what} needs gfx950, but targets include `{a}`"),
            "gfx950 only",
            format!("remove `{a}` from `targets`, or use a synchronous pipeline"),
        );
    }
}
