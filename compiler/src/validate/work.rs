//! Work-distribution rules: split-K, StreamK, two-stage, groups to merge, large tensors,
//! explicit GEMM.

use super::Basics;
use super::codes as c;
use super::report::{Report, SpanOf};
use crate::arch::{self, Vendor};
use crate::ir::{Instance, SplitK};
use crate::model::{ConvSpec, DataType, Kind};
use crate::ops::{LayoutFamily, SplitKSupport, Support, layout_info};

pub(super) fn check(r: &mut Report, b: &Basics, i: &Instance) {
    let s = r.spec;
    let w = &i.work;
    let sk_span = s.split_k.sp();
    if w.streamk.is_some() {
        streamk(r, b, i);
    }
    if w.split_k == SplitK::Auto && b.dev.split_k != SplitKSupport::FixedOrAuto {
        r.error(
            c::SPLIT_K_AUTO,
            sk_span,
            format!("`{}` `{}` cannot choose k_batch itself", b.op, b.kind),
            "auto not supported",
            "set a fixed `split_k`, or use xdl_v3, wavelet or tile",
        );
    }
    if let SplitK::Fixed(k) = w.split_k
        && k > 1
    {
        if b.dev.split_k == SplitKSupport::None {
            r.error(
                c::SPLIT_K,
                sk_span,
                format!("`{}` `{}` has no split-K", b.op, b.kind),
                "no split-K",
                "remove `split_k`",
            );
        } else if let Some(&a) = b.targets.iter().find(|&&a| !arch::info(a).split_k) {
            r.error(
                c::SPLIT_K,
                sk_span,
                format!("split_k = {k} on `{a}`: gfx11 has no packed f16/bf16 atomics, so CK requires k_batch = 1"),
                "k_batch must be 1 here",
                format!("set `split_k = 1;` or remove `{a}` from `targets`"),
            );
        }
        // Two-stage ops and the multiple-D op add their split-K slices in an fp32 workspace
        // (`p_workspace_` of `DeviceGroupedConvBwdWeightMultipleD_Xdl_CShuffle`), not with bf16
        // atomics.
        let (_, _, e) = b.gemm_types();
        if e == DataType::Bf16
            && !w.two_stage
            && b.kind != Kind::XdlMultipleD
            && let Some(&a) = b.targets.iter().find(|&&a| !arch::info(a).bf16_atomics)
        {
            r.error(
                c::BF16_ATOMICS,
                sk_span,
                format!("split_k = {k} accumulates bf16 with atomics, which `{a}` lacks"),
                "needs bf16 atomics",
                format!("use a two-stage kind, set `split_k = 1;`, or remove `{a}`"),
            );
        }
    }
    let m = w.merge_groups;
    let mspan = s.merge_groups.sp();
    if !m.is_power_of_two() || m > 64 {
        r.error(
            c::MERGE_GROUPS,
            mspan,
            format!("merge_groups = {m} is not a power of two up to 64"),
            "expected 1, 2, 4, ..., 64",
            format!("use {}", m.next_power_of_two().min(64)),
        );
    } else if m > 1 && !b.dev.merge_groups {
        r.error(
            c::MERGE_GROUPS,
            mspan,
            format!("`{}` `{}` cannot merge groups", b.op, b.kind),
            "no NumGroupsToMerge",
            "remove `merge_groups`, or use xdl_v3, xdl_two_stage, wmma_two_stage, wavelet or tile",
        );
    }
    // Merged two-stage groups hold one channel each (the runtime requires C = K = 1); vector
    // loads across groups need G next to C in memory: the channels-last grouped layout, or
    // NGC… tensors, which CK's op copies to that layout before its GEMM (`TransposeStrides`).
    let vectors = i.a.src_vector.max(i.b.src_vector);
    if m > 1
        && b.dev.two_stage == Support::Always
        && vectors > 1
        && !matches!(
            layout_info(b.layout.input).family,
            LayoutFamily::NSpatialGC | LayoutFamily::NGCSpatial
        )
    {
        r.error(
            c::MERGED_LAYOUT,
            mspan,
            format!(
                "merging {m} single-channel groups with {vectors}-wide loads needs G next to C, \
                 which `{}` does not have",
                b.layout.input
            ),
            "merged groups cannot be read with vectors in this layout",
            "use the channels-last grouped layout (`layout = nhwgc;`), or scalar loads \
             (`a.src_vector = 1; b.src_vector = 1;`)",
        );
    }
    let flag = |support: Support, v: bool| match support {
        Support::No => v,
        Support::Always => !v,
        Support::Optional => false,
    };
    if flag(b.dev.two_stage, w.two_stage) {
        r.error(
            c::TWO_STAGE,
            s.two_stage.sp(),
            format!(
                "two_stage = {} contradicts `{}` `{}`",
                w.two_stage, b.op, b.kind
            ),
            "contradicts the kind",
            if w.two_stage {
                "use kind xdl_two_stage or wmma_two_stage"
            } else {
                "omit `two_stage`; two-stage kinds always use the fp32 workspace"
            },
        );
    }
    if flag(b.dev.large_tensor, w.large_tensor) {
        r.error(
            c::LARGE_TENSOR,
            s.large_tensor.sp(),
            format!(
                "large_tensor = {} contradicts `{}` `{}`",
                w.large_tensor, b.op, b.kind
            ),
            "contradicts the kind",
            if w.large_tensor {
                "use kind xdl_v3 (bwd_weight), xdl_large_tensor (fwd) or tile"
            } else {
                "omit `large_tensor`"
            },
        );
    }
    if let Some(k) = &i.tile_kernel
        && k.explicit_gemm
        && (m != 1 || b.spec != ConvSpec::Filter1x1Stride1Pad0)
    {
        r.error(
            c::EXPLICIT_GEMM,
            s.explicit_gemm.sp(),
            format!("explicit GEMM needs merge_groups = 1 and spec filter1x1_stride1_pad0 (have {m} and {})", b.spec),
            "explicit GEMM preconditions",
            "set `spec = filter1x1_stride1_pad0;` and `merge_groups = 1;`",
        );
    }
}

fn streamk(r: &mut Report, b: &Basics, i: &Instance) {
    let s = r.spec;
    let span = s
        .streamk_span
        .or(s.streamk.reduction.sp())
        .or(s.streamk.persistent.sp());
    if !b.dev.streamk {
        r.error(
            c::STREAMK,
            span,
            format!(
                "StreamK exists only for `bwd_weight` `tile`, not `{}` `{}`",
                b.op, b.kind
            ),
            "no StreamK here",
            "remove `streamk.*`, or use `op = bwd_weight; kind = tile;`",
        );
        return;
    }
    if let Some(&a) = b.targets.iter().find(|&&a| {
        let info = arch::info(a);
        info.vendor == Vendor::Amd && !(info.is_wave64() && info.has_tile_kernels())
    }) {
        r.error(
            c::STREAMK,
            span,
            format!("StreamK runs on gfx90a, gfx942 and gfx950 (wave64), not `{a}`"),
            "unsupported target",
            format!("remove `{a}` from `targets`"),
        );
    }
    if !b.types.ds.is_empty() {
        r.error(
            c::STREAMK,
            span,
            "StreamK kernels take no D tensors",
            "D tensors with StreamK",
            "remove `ds.*` or StreamK",
        );
    }
    if i.work.split_k != SplitK::Fixed(1) {
        r.error(
            c::STREAMK_SPLIT_K,
            s.split_k.sp().or(span),
            "StreamK splits K itself and requires k_batch = 1",
            "split-K with StreamK",
            "remove `split_k`",
        );
    }
}
