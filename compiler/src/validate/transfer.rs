//! A/B block-transfer and C-shuffle rules (old-CK ops), and the DL op's thread layout.

use super::Basics;
use super::codes as c;
use super::derive::transfer_extents;
use super::report::{Report, SpanOf, product as wide_product};
use crate::ir::{Dl, DlTransfer, Instance, Transfer};
use crate::model::{DataType, Op};
use crate::ops::Mma;
use crate::spec::TransferSpec;
use ck_dsl::Span;

pub(super) fn check(r: &mut Report, b: &Basics, i: &Instance) {
    match b.dev.mma {
        Mma::Xdl | Mma::Wmma => {}
        Mma::Dl => {
            if let Some(dl) = &i.dl {
                check_dl(r, i, dl);
            }
            return;
        }
        Mma::Tile => return,
    }
    let (ga, gb, ge) = b.gemm_types();
    let s = r.spec;
    let sides = [
        Side {
            key: "a",
            t: &i.a,
            ts: &s.a,
            rows: i.tile.m,
            k1: i.k1[0],
            global: ga,
            lds: b.types.compute_a,
            is_a: true,
        },
        Side {
            key: "b",
            t: &i.b,
            ts: &s.b,
            rows: i.tile.n,
            k1: i.k1[1],
            global: gb,
            lds: b.types.compute_b,
            is_a: false,
        },
    ];
    for sd in sides {
        side(r, b, i, sd);
    }
    cshuffle(r, i, ge);
}

struct Side<'a> {
    key: &'a str,
    t: &'a Transfer,
    ts: &'a TransferSpec,
    rows: u32,
    k1: u32,
    global: DataType,
    lds: DataType,
    is_a: bool,
}

fn side(r: &mut Report, b: &Basics, i: &Instance, sd: Side) {
    let Side {
        key,
        t,
        ts,
        rows,
        k1,
        global,
        lds,
        is_a,
    } = sd;
    let cl_span = ts.cluster.sp();
    let rank = t.cluster.len();
    // The v1-GEMM ops' block transfers take a 4-D slice (CK's `Sequence<1, K0PerBlock,
    // MPerBlock, K1>`): CK prints a 3-D cluster there but cannot build it.
    let (want_rank, want) = if b.dev.cluster_4d {
        (4, "[KBatch, K0, M|N, K1]")
    } else {
        (3, "[K0, M|N, K1]")
    };
    if rank != want_rank {
        r.error(
            c::CLUSTER_RANK,
            cl_span,
            format!(
                "`{key}.cluster` has {rank} elements; `{}` `{}` takes {want}",
                b.op, b.kind
            ),
            format!("rank {rank}"),
            format!("write `{key}.cluster` as {want}"),
        );
        return;
    }
    let wavelet = i.wavelet.is_some();
    let threads = i.wavelet.map_or(i.block, |w| w.load);
    let product = wide_product(&t.cluster);
    let threads64 = u64::from(threads);
    if (wavelet && product != threads64) || product > threads64 {
        let group = if wavelet {
            "the wavelet load group"
        } else {
            "the block"
        };
        r.error(
            c::CLUSTER_PRODUCT,
            cl_span,
            format!("`{key}.cluster` has {product} threads but {group} has {threads}"),
            format!("product {product}"),
            format!("make the cluster lengths multiply to {threads}"),
        );
    }
    let k0 = (i.tile.k / k1).max(1);
    let extents = transfer_extents(rank, k0, rows, k1);
    let names: &[&str] = if rank == 4 {
        &["KBatch", "K0", "M|N", "K1"]
    } else {
        &["K0", "M|N", "K1"]
    };
    let mut covers = true;
    for ((&e, &cl), name) in extents.iter().zip(&t.cluster).zip(names) {
        if e % cl != 0 {
            covers = false;
            let msg = if wavelet && *name == "K0" {
                format!("wavelet `{key}.cluster` K0 = {cl} must divide K0PerBlock / K1 = {e}")
            } else {
                format!(
                    "`{key}.cluster` {name} = {cl} does not divide the tile's {name} extent {e}"
                )
            };
            r.error(
                c::CLUSTER_DIV,
                cl_span,
                msg,
                format!("{name} = {cl}"),
                format!("use a {name} cluster length that divides {e}"),
            );
        }
    }
    for (what, order, span) in [
        ("arrange", &t.arrange, ts.arrange.sp()),
        ("access", &t.access, ts.access.sp()),
    ] {
        let mut sorted = order.clone();
        sorted.sort_unstable();
        if sorted != (0..rank as u32).collect::<Vec<_>>() {
            r.error(
                c::ORDER,
                span.or(cl_span),
                format!("`{key}.{what}` {order:?} is not a permutation of 0..{rank}"),
                "not a permutation",
                format!("list each of 0..{} once", rank - 1),
            );
        }
    }
    let expected_vd = if b.dev.cluster_4d {
        2
    } else if b.op == Op::BwdWeight || (b.op == Op::BwdData && !is_a) {
        1
    } else {
        2
    };
    // CK's forward ops also take A along dimension 1: they compile it, and the XDL op's
    // `IsSupportedArgument` reads such vectors per group (one channel a group, G a multiple of
    // the width); the others refuse every problem at run time, as the support rules do.
    let also_m = b.op == Op::Fwd && is_a && !b.dev.cluster_4d && b.dev.mma != Mma::Dl;
    if t.vector_dim != expected_vd && !(also_m && t.vector_dim == 1) {
        r.error(
            c::VECTOR_DIM,
            ts.vector_dim.sp(),
            format!(
                "`{key}.vector_dim` = {}, but `{}` `{}` reads {key} along dimension {expected_vd}",
                t.vector_dim, b.op, b.kind
            ),
            format!("expected {expected_vd}"),
            format!("set `{key}.vector_dim = {expected_vd};` or omit it"),
        );
        return;
    }
    let vd = t.vector_dim as usize;
    if covers && let (Some(&e), Some(&cl)) = (extents.get(vd), t.cluster.get(vd)) {
        let slice = e / cl;
        if slice % t.src_vector != 0 {
            r.error(
                c::SRC_VECTOR,
                ts.src_vector.sp(),
                format!("`{key}.src_vector` = {} does not divide the {slice} contiguous elements each thread reads", t.src_vector),
                format!("{slice} per thread"),
                format!("use a src_vector that divides {slice}"),
            );
        }
    }
    // CK's buffer loads take 16 elements of 1-, 2- and 4-byte types and 8 of 8-byte ones
    // (`amd_buffer_load_impl`). An LDS write is a plain vector store of any width, but for
    // 1-byte types, which CK's int8 workaround holds to 16 bytes (`DynamicBuffer::Set`).
    let load_max = if global.bytes() == 8 { 8 } else { 16 };
    let write_max = if lds.bytes() == 1 { 16 } else { u32::MAX };
    for (what, v, dtype, max, span, by) in [
        (
            "src_vector",
            t.src_vector,
            global,
            load_max,
            ts.src_vector.sp(),
            "a buffer load",
        ),
        (
            "dst_vector",
            t.dst_vector,
            lds,
            write_max,
            ts.dst_vector.sp(),
            "an LDS write",
        ),
    ] {
        let key = format!("{key}.{what}");
        let vector = Vector {
            code: c::VECTOR_BYTES,
            key: &key,
            by,
        };
        vector.check(r, v, dtype, max, span);
    }
    let k1_slice = k1 / t.cluster[rank - 1];
    if covers && !i.pipeline.direct_load && k1_slice % t.dst_vector != 0 {
        r.error(
            c::DST_VECTOR,
            ts.dst_vector.sp(),
            format!("`{key}.dst_vector` = {} does not divide the {k1_slice} K1 elements each thread writes", t.dst_vector),
            format!("{k1_slice} per thread"),
            format!("use a dst_vector that divides {k1_slice}"),
        );
    }
}

fn cshuffle(r: &mut Report, i: &Instance, e: DataType) {
    let s = r.spec;
    let cs = &i.c;
    for (dim, sh, rep) in [
        ("M", cs.m_per_shuffle, i.repeat[0]),
        ("N", cs.n_per_shuffle, i.repeat[1]),
    ] {
        if rep % sh != 0 {
            r.error(
                c::SHUFFLE,
                s.c.shuffle.sp(),
                format!("C-shuffle {dim} repeats per shuffle {sh} do not divide the {rep} {dim} repeats per wave"),
                format!("{sh} does not divide {rep}"),
                format!("use a divisor of {rep}, usually 1"),
            );
            return;
        }
    }
    let threads = i.wavelet.map_or(i.block, |w| w.math);
    let (m_sh, n_sh) = super::lds::shuffle_tile(i);
    let cl = &cs.cluster;
    let span = s.c.cluster.sp();
    let shape_ok = cl.len() == 4 && cl[0] == 1 && cl[2] == 1;
    if !shape_ok {
        r.error(
            c::C_CLUSTER,
            span,
            format!("`c.cluster` {cl:?} is not [1, M, 1, N]"),
            "expected [1, M, 1, N]",
            "write `c.cluster = [1, M, 1, N];`",
        );
        return;
    }
    // CK's C-shuffle transfer lets threads beyond the cluster idle, so a smaller cluster is
    // valid (CK's direct-load rows use 128 of 256 threads); only a larger one cannot run.
    let product = wide_product(cl);
    if product > u64::from(threads) {
        r.error(
            c::C_CLUSTER,
            span,
            format!(
                "`c.cluster` has {product} threads, more than the block's {threads} math threads"
            ),
            format!("product {product}"),
            format!("make M x N at most {threads}"),
        );
        return;
    }
    if !m_sh.is_multiple_of(u64::from(cl[1])) {
        r.error(
            c::C_CLUSTER,
            span,
            format!(
                "`c.cluster` M = {} does not divide the {m_sh} rows of one shuffle",
                cl[1]
            ),
            format!("M = {}", cl[1]),
            format!("use an M cluster that divides {m_sh}"),
        );
    }
    if !n_sh.is_multiple_of(u64::from(cl[3]) * u64::from(cs.vector)) {
        r.error(
            c::C_VECTOR,
            s.c.vector.sp().or(span),
            format!("`c.cluster` N x `c.vector` = {} x {} does not divide the {n_sh} columns of one shuffle", cl[3], cs.vector),
            format!("{} does not divide {n_sh}", cl[3] * cs.vector),
            format!("choose N cluster and vector whose product divides {n_sh}"),
        );
    }
    // The shuffle's global store takes what a buffer store does (`amd_buffer_store_impl`: 16
    // elements, 8 of 8-byte types). Backward weight adds into its output: a buffer atomic add
    // takes 16 bytes, and two-stage ops add into an fp32 workspace.
    let (out, max) = if i.op == Op::BwdWeight && i.work.two_stage {
        (DataType::Fp32, 4)
    } else if i.op == Op::BwdWeight {
        (e, 16 / e.bytes())
    } else {
        (e, if e.bytes() == 8 { 8 } else { 16 })
    };
    let vector = Vector {
        code: c::C_VECTOR,
        key: "c.vector",
        by: "an output store",
    };
    vector.check(r, cs.vector, out, max, s.c.vector.sp());
}

/// A transfer vector: at most what the load or store behind it takes.
struct Vector<'a> {
    code: &'static str,
    key: &'a str,
    /// What moves the vector ("a buffer load", "an LDS write", "an output store").
    by: &'static str,
}

impl Vector<'_> {
    fn check(&self, r: &mut Report, v: u32, dtype: DataType, max: u32, span: Option<Span>) {
        let key = self.key;
        if v > max {
            r.error(
                self.code,
                span,
                format!(
                    "`{key}` = {v} {dtype}: more than the {max} elements {} takes",
                    self.by
                ),
                format!("more than {max} elements"),
                format!("use at most {max} elements"),
            );
        }
    }
}

fn check_dl(r: &mut Report, i: &Instance, dl: &Dl) {
    let s = r.spec;
    let threads = wide_product(&dl.cluster_m1) * wide_product(&dl.cluster_n1);
    if threads != u64::from(i.block) {
        r.error(
            c::CLUSTER_PRODUCT,
            s.dl.cluster_m1.sp(),
            format!(
                "DL M1 x N1 thread clusters hold {threads} threads, but block = {}",
                i.block
            ),
            format!("{threads} threads"),
            format!("make the M1 and N1 cluster lengths multiply to {}", i.block),
        );
    }
    let k0 = (i.tile.k / i.k1[0]).max(1);
    // The bwd-weight DL op's transfers have a leading split-K batch dimension, one per block.
    let batched = i.op == Op::BwdWeight;
    for (key, t, rows, span) in [
        ("a", &dl.a, i.tile.m, s.dl.a.cluster.sp()),
        ("b", &dl.b, i.tile.n, s.dl.b.cluster.sp()),
    ] {
        dl_side(r, key, t, [k0, rows, i.k1[0]], i.block, batched, span);
    }
}

fn dl_side(
    r: &mut Report,
    key: &str,
    t: &DlTransfer,
    [k0, rows, k1]: [u32; 3],
    block: u32,
    batched: bool,
    span: Option<ck_dsl::Span>,
) {
    let (rank, dims) = if batched {
        (5, "[B, K0, M0|N0, M1|N1, K1]")
    } else {
        (4, "[K0, M0|N0, M1|N1, K1]")
    };
    if t.slice.len() != rank || t.cluster.len() != rank {
        r.error(
            c::CLUSTER_RANK,
            span,
            format!("`dl.{key}` slice and cluster need {rank} elements {dims}"),
            format!("expected {rank} elements"),
            format!("write {rank}-element lists"),
        );
        return;
    }
    let product = wide_product(&t.cluster);
    if product != u64::from(block) {
        r.error(
            c::CLUSTER_PRODUCT,
            span,
            format!("`dl.{key}.cluster` has {product} threads but block = {block}"),
            format!("product {product}"),
            format!("make the cluster lengths multiply to {block}"),
        );
    }
    let cover: Vec<u64> = t
        .slice
        .iter()
        .zip(&t.cluster)
        .map(|(&a, &b)| u64::from(a) * u64::from(b))
        .collect();
    let [k0, rows, k1] = [k0, rows, k1].map(u64::from);
    let (batch, inner) = cover.split_at(rank - 4);
    if batch.iter().any(|&b| b != 1)
        || inner[0] != k0
        || inner[1] * inner[2] != rows
        || inner[3] != k1
    {
        let want = if batched { "B = 1, " } else { "" };
        r.error(
            c::CLUSTER_DIV,
            span,
            format!("`dl.{key}` slice x cluster covers {cover:?}, not the tile's {want}K0 = {k0}, {rows} rows, K1 = {k1}"),
            "does not cover the tile",
            format!("choose slice and cluster lengths whose products are {dims} of the tile"),
        );
    }
}
