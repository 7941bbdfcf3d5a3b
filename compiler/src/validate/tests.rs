//! One test per rule: a valid baseline of each kind (the rows of `instances/`), one field
//! changed, and the exact code and label span checked.

use super::codes as c;
use crate::ir::{SplitK, Validated};
use crate::model::*;
use crate::spec::*;
use ck_dsl::{Diagnostics, FileId, Span};
use std::cell::Cell;

thread_local! {
    static NEXT: Cell<usize> = const { Cell::new(0) };
}

/// A fresh span, distinct from every other one, so a label can be traced to its field.
fn span() -> Span {
    NEXT.with(|n| {
        let start = n.get() + 10;
        n.set(start);
        Span::new(FileId(0), start, start + 5)
    })
}

fn sp<T>(v: T) -> Sp<T> {
    Sp::new(v, span())
}

fn int(v: u64) -> Option<Int> {
    Some(sp(v))
}

fn ints(v: &[u64]) -> Option<Ints> {
    Some(sp(v.to_vec()))
}

fn transfer(cluster: &[u64], src: u64, dst: u64, pad: bool) -> TransferSpec {
    TransferSpec {
        cluster: ints(cluster),
        src_vector: int(src),
        dst_vector: int(dst),
        lds_pad: Some(sp(pad)),
        ..TransferSpec::default()
    }
}

fn base(name: &str, op: Op, kind: Kind, targets: &[Arch]) -> InstanceSpec {
    let mut s = InstanceSpec::new(sp(name.to_string()), Origin::default());
    s.op = Some(sp(op));
    s.kind = Some(sp(kind));
    s.dims = int(2);
    s.layout = Some(sp(Layout::Nhwgc));
    s.dtype = Some(sp(DataType::Fp16));
    s.targets = Some(sp(targets.to_vec()));
    s
}

/// Sets block, tile, k1, instr, repeat.
fn gemm(s: &mut InstanceSpec, block: u64, tile: [u64; 3], k1: u64, instr: u64, repeat: [u64; 2]) {
    s.block = int(block);
    s.tile = ints(&tile);
    s.ak1 = int(k1);
    s.bk1 = s.ak1.clone();
    s.instr = ints(&[instr, instr]);
    s.repeat = ints(&repeat);
}

fn cshuffle(s: &mut InstanceSpec, cluster: &[u64], vector: u64) {
    s.c = CShuffleSpec {
        shuffle: ints(&[1, 1]),
        cluster: ints(cluster),
        vector: int(vector),
    };
}

/// CK's v1 f16 row `256,256,128,4,8,32,32,4,2 | S<1,4,32,2>,2,8,4,true | S<1,4,16,4>,2,8,2,true | 1,1,S<1,32,1,8>,8`.
fn xdl_v1() -> InstanceSpec {
    let mut s = base(
        "xdl_v1",
        Op::BwdWeight,
        Kind::Xdl,
        &[Arch::Gfx90a, Arch::Gfx942],
    );
    gemm(&mut s, 256, [256, 128, 32], 8, 32, [4, 2]);
    s.a = transfer(&[1, 4, 32, 2], 8, 4, true);
    s.b = transfer(&[1, 4, 16, 4], 8, 2, true);
    cshuffle(&mut s, &[1, 32, 1, 8], 8);
    s
}

/// CK's V3 row `64,32,128,32,8,32,32,1,4 | S<4,4,1>,1,8,8 | S<4,16,1>,1,8,8 | S<1,8,1,8>,2`, v2.
fn xdl_v3() -> InstanceSpec {
    let mut s = base(
        "xdl_v3",
        Op::BwdWeight,
        Kind::XdlV3,
        &[Arch::Gfx90a, Arch::Gfx942],
    );
    gemm(&mut s, 64, [32, 128, 32], 8, 32, [1, 4]);
    s.a = transfer(&[4, 4, 1], 8, 8, false);
    s.b = transfer(&[4, 16, 1], 8, 8, false);
    cshuffle(&mut s, &[1, 8, 1, 8], 2);
    s.pipeline.scheduler = Some(sp(Scheduler::Intrawave));
    s.pipeline.version = Some(sp(PipelineVersion::V2));
    s
}

/// The two-stage config string's row, merging 8 groups.
fn xdl_two_stage() -> InstanceSpec {
    let mut s = xdl_v3();
    s.name = sp("xdl_two_stage".to_string());
    s.kind = Some(sp(Kind::XdlTwoStage));
    s.c.vector = int(1);
    s.pipeline.version = Some(sp(PipelineVersion::V1));
    s.merge_groups = int(8);
    s
}

/// CK's WMMA-V3 row `64,32,32,32,8,16,16,2,1 | S<4,8,1>,1,2,2,0 | S<4,16,1>,1,2,2,0 | 1,1,S<1,8,1,8>,2`.
fn wmma_v3() -> InstanceSpec {
    let mut s = base(
        "wmma_v3",
        Op::BwdWeight,
        Kind::WmmaV3,
        &[Arch::Gfx1100, Arch::Gfx1201],
    );
    gemm(&mut s, 64, [32, 32, 32], 8, 16, [2, 1]);
    s.a = transfer(&[4, 8, 1], 2, 2, false);
    s.b = transfer(&[4, 16, 1], 2, 2, false);
    cshuffle(&mut s, &[1, 8, 1, 8], 2);
    s
}

fn wmma_two_stage() -> InstanceSpec {
    let mut s = wmma_v3();
    s.name = sp("wmma_two_stage".to_string());
    s.kind = Some(sp(Kind::WmmaTwoStage));
    s
}

fn with_bilinear(mut s: InstanceSpec, name: &str, kind: Kind) -> InstanceSpec {
    s.name = sp(name.to_string());
    s.kind = Some(sp(kind));
    s.ds_layouts = Some(sp(vec![Layout::Gkyxc]));
    s.ds_types = Some(sp(vec![DataType::Fp16]));
    s.wei_op = Some(sp(ElementOp::Bilinear));
    s
}

fn xdl_multiple_d() -> InstanceSpec {
    with_bilinear(xdl_v1(), "xdl_multiple_d", Kind::XdlMultipleD)
}

fn wmma_multiple_d() -> InstanceSpec {
    with_bilinear(wmma_v3(), "wmma_multiple_d", Kind::WmmaMultipleD)
}

fn explicit_gemm() -> InstanceSpec {
    let mut s = xdl_v3();
    s.name = sp("explicit_gemm".to_string());
    s.kind = Some(sp(Kind::ExplicitGemm));
    s.spec = Some(sp(ConvSpec::Filter1x1Stride1Pad0));
    s
}

/// CK's wavelet 128x128 row: load 256, math 256, clusters S<4,32,2>, src M/32, dst 4.
fn wavelet() -> InstanceSpec {
    let mut s = base("wavelet", Op::BwdWeight, Kind::Wavelet, &[Arch::Gfx942]);
    s.tile = ints(&[128, 128, 32]);
    s.ak1 = int(8);
    s.instr = ints(&[32, 32]);
    s.repeat = ints(&[2, 2]);
    s.wavelet_load = int(256);
    s.wavelet_math = int(256);
    s.pipeline.prefetch = int(1);
    s.a = transfer(&[4, 32, 2], 4, 4, false);
    s.b = transfer(&[4, 32, 2], 4, 4, false);
    s.c.cluster = ints(&[1, 32, 1, 8]);
    s
}

/// The builder test's CK-Tile string: 128x128x32, warps 4x1x1, 16x16x16, vectors 4/4/4, compv3.
fn tile_bwd_weight() -> InstanceSpec {
    let mut s = base(
        "tile_bwd_weight",
        Op::BwdWeight,
        Kind::Tile,
        &[Arch::Gfx942],
    );
    s.dtype = Some(sp(DataType::Bf16));
    s.tile = ints(&[128, 128, 32]);
    s.warps = ints(&[4, 1, 1]);
    s.warp_tile = ints(&[16, 16, 16]);
    s.vector = ints(&[4, 4, 4]);
    s.pipeline.version = Some(sp(PipelineVersion::CompV3));
    s
}

/// The StreamK config string: 64x64x64, warps 2x2x1, basic_async_v1, tree, gfx950.
fn tile_streamk() -> InstanceSpec {
    let mut s = base("tile_streamk", Op::BwdWeight, Kind::Tile, &[Arch::Gfx950]);
    s.tile = ints(&[64, 64, 64]);
    s.warps = ints(&[2, 2, 1]);
    s.warp_tile = ints(&[16, 16, 16]);
    s.vector = ints(&[8, 8, 8]);
    s.pipeline.version = Some(sp(PipelineVersion::BasicAsyncV1));
    s.streamk.reduction = Some(sp(Reduction::Tree));
    s.streamk.persistent = Some(sp(false));
    s.streamk_span = s.streamk.reduction.as_ref().map(|r| r.span);
    s
}

/// The dispatcher's default tile: 128x128x64, warps 2x2x1, warp tile 32x32x16, vectors 4/8/8.
fn tile_dispatcher(name: &str, op: Op) -> InstanceSpec {
    let mut s = base(
        name,
        op,
        Kind::Tile,
        &[Arch::Gfx90a, Arch::Gfx942, Arch::Gfx950],
    );
    s.tile = ints(&[128, 128, 64]);
    s.warps = ints(&[2, 2, 1]);
    s.warp_tile = ints(&[32, 32, 16]);
    s.vector = ints(&[4, 8, 8]);
    s
}

/// CK's backward-data WMMA f16 row `128,64,128,8,8,16,16,2,4 | S<4,32,1>,2,8,8,1 |
/// S<8,16,1>,1,8,8,1 | 1,1,S<1,32,1,4>,8`.
fn wmma_bwd_data() -> InstanceSpec {
    let mut s = base("wmma_bwd_data", Op::BwdData, Kind::Wmma, &[Arch::Gfx1100]);
    gemm(&mut s, 128, [64, 128, 64], 8, 16, [2, 4]);
    s.a = transfer(&[4, 32, 1], 8, 8, true);
    s.b = transfer(&[8, 16, 1], 8, 8, true);
    cshuffle(&mut s, &[1, 32, 1, 4], 8);
    s
}

fn baselines() -> Vec<InstanceSpec> {
    vec![
        xdl_v1(),
        xdl_v3(),
        xdl_two_stage(),
        wmma_v3(),
        wmma_two_stage(),
        xdl_multiple_d(),
        wmma_multiple_d(),
        explicit_gemm(),
        wavelet(),
        tile_bwd_weight(),
        tile_streamk(),
        tile_dispatcher("tile_fwd", Op::Fwd),
        tile_dispatcher("tile_bwd_data", Op::BwdData),
        wmma_bwd_data(),
    ]
}

fn ok(s: InstanceSpec) -> Validated {
    match super::validate(std::slice::from_ref(&s)) {
        Ok(v) => v,
        Err(d) => panic!("{} should validate: {:#?}", s.name.value, d.0),
    }
}

fn errors(s: &InstanceSpec) -> Diagnostics {
    match super::validate(std::slice::from_ref(s)) {
        Ok(_) => panic!("{} should fail", s.name.value),
        Err(d) => d,
    }
}

/// The instance fails with `code` only, its first label on `at`.
fn fails(s: InstanceSpec, code: &str, at: Option<Span>) {
    let mut d = errors(&s);
    // Warnings may come with the error (a derived transfer of scalar loads, say).
    d.0.retain(|d| d.severity == ck_dsl::Severity::Error);
    let codes: Vec<_> = d.iter().map(|d| d.code).collect();
    assert!(
        codes.iter().all(|&c| c == code),
        "expected only {code}, got {codes:?}: {:#?}",
        d.0
    );
    let at = at.unwrap_or(s.name.span);
    assert_eq!(
        d.0[0].primary_span(),
        Some(at),
        "label of {code}: {:#?}",
        d.0[0]
    );
    assert!(d.0[0].help.is_some(), "{code} has no help");
}

fn span_of<T>(v: &Option<Sp<T>>) -> Option<Span> {
    v.as_ref().map(|v| v.span)
}

#[test]
fn baselines_validate() {
    let all = baselines();
    let v = super::validate(&all).unwrap_or_else(|d| panic!("{:#?}", d.0));
    assert_eq!(v.instances().len(), all.len());
}

#[test]
fn defaults_and_derivation() {
    let mut s = xdl_v3();
    s.a = TransferSpec::default();
    s.b = TransferSpec::default();
    s.c = CShuffleSpec::default();
    s.repeat = None;
    s.pipeline = PipelineSpec::default();
    let v = ok(s);
    let i = &v.instances()[0];
    assert_eq!(i.repeat, [1, 4]);
    assert_eq!(i.waves, [1, 1, 1]);
    assert_eq!(i.a.cluster, vec![4, 16, 1]);
    assert_eq!(i.a.arrange, vec![2, 0, 1]);
    assert_eq!(i.a.access, vec![1, 0, 2]);
    assert_eq!((i.a.vector_dim, i.a.src_vector, i.a.dst_vector), (1, 2, 8));
    assert_eq!(i.b.cluster, vec![4, 16, 1]);
    assert_eq!(i.b.src_vector, 8);
    assert_eq!(i.c.cluster.iter().product::<u32>(), 64);
    assert_eq!((i.c.m_per_shuffle, i.c.n_per_shuffle), (1, 1));
    assert_eq!(i.types.acc, DataType::Fp32);
    assert_eq!(i.types.compute_a, DataType::Fp16);
    assert_eq!(i.layout.weight, Layout::Gkyxc);
    assert_eq!(i.layout.output, Layout::Nhwgk);
    assert_eq!(i.pipeline.version, PipelineVersion::V1);
    assert_eq!(i.pipeline.scheduler, Scheduler::Intrawave);
    assert_eq!(i.work.split_k, SplitK::Fixed(1));
    assert_eq!(i.mma, [32, 32, 8]);
}

#[test]
fn v1_derives_four_d_clusters() {
    let mut s = xdl_v1();
    s.a = TransferSpec::default();
    let v = ok(s);
    let a = &v.instances()[0].a;
    assert_eq!(a.cluster.len(), 4);
    assert_eq!(a.arrange, vec![0, 3, 1, 2]);
    assert_eq!(a.access, vec![0, 2, 1, 3]);
    assert_eq!(a.vector_dim, 2);
}

#[test]
fn tile_block_and_wavelet_block() {
    assert_eq!(ok(tile_bwd_weight()).instances()[0].block, 256);
    let w = ok(wavelet());
    assert_eq!(w.instances()[0].block, 512);
    assert_eq!(w.instances()[0].c.vector, 8);
}

#[test]
fn every_error_of_every_instance_is_reported() {
    let mut a = xdl_v3();
    a.dims = int(4);
    let mut b = wmma_v3();
    b.name = sp("other".to_string());
    b.targets = Some(sp(vec![Arch::Gfx942]));
    let d = super::validate(&[a, b]).unwrap_err();
    let codes: Vec<_> = d.iter().map(|d| d.code).collect();
    assert_eq!(codes, vec![c::DIMS, c::TARGET_KIND]);
}

#[test]
fn ck0201_missing_key() {
    let mut s = xdl_v3();
    s.tile = None;
    fails(s, c::MISSING_KEY, None);
}

#[test]
fn ck0202_no_device_op() {
    let mut s = wavelet();
    s.op = Some(sp(Op::Fwd));
    let at = span_of(&s.kind);
    fails(s, c::NO_DEVICE_OP, at);
}

#[test]
fn ck0203_dims() {
    let mut s = xdl_v3();
    s.dims = int(4);
    let at = span_of(&s.dims);
    fails(s, c::DIMS, at);
}

#[test]
fn ck0204_layout_dims() {
    let mut s = xdl_v3();
    s.layout = Some(sp(Layout::Ndhwgc));
    let at = span_of(&s.layout);
    fails(s, c::LAYOUT_DIMS, at);
}

#[test]
fn ck0205_layout_triple() {
    let mut s = xdl_v3();
    s.layout = Some(sp(Layout::Ngchw));
    let at = span_of(&s.layout);
    fails(s, c::LAYOUT_TRIPLE, at);
}

/// The backward-data WMMA v1 op as CK's `static_assert` and `IsSupportedArgument` have it:
/// 2-D and 3-D N…GK or GN…K gradients only.
#[test]
fn ck0205_bwd_data_wmma_layouts() {
    let mut s = wmma_bwd_data();
    s.layout = Some(sp(Layout::Ngchw));
    let at = span_of(&s.layout);
    fails(s, c::LAYOUT_TRIPLE, at);
    let mut s = wmma_bwd_data();
    s.dims = int(1);
    s.layout = Some(sp(Layout::Nwgc));
    let at = span_of(&s.layout);
    fails(s, c::LAYOUT_TRIPLE, at);
    let mut s = wmma_bwd_data();
    s.layout = Some(sp(Layout::Gnhwc));
    ok(s);
}

/// Its template pads the GEMM always and takes one K1 and no GemmSpecialization; CK ships it
/// in int8 (int32 accumulators) as well.
#[test]
fn bwd_data_wmma_keys_and_types() {
    let mut s = wmma_bwd_data();
    s.gemm_spec = Some(sp(GemmSpec::MPadding));
    let at = span_of(&s.gemm_spec);
    fails(s, c::NOT_APPLICABLE, at);
    let mut s = wmma_bwd_data();
    s.pad = Some(sp(vec![true, false]));
    let at = span_of(&s.pad);
    fails(s, c::NOT_APPLICABLE, at);
    let mut s = wmma_bwd_data();
    s.bk1 = int(4);
    let at = span_of(&s.bk1);
    fails(s, c::NOT_APPLICABLE, at);
    let mut s = wmma_bwd_data();
    s.dtype = Some(sp(DataType::Int8));
    s.acc_type = Some(sp(DataType::Int32));
    gemm(&mut s, 128, [64, 128, 128], 16, 16, [2, 4]);
    s.a = transfer(&[4, 32, 1], 16, 16, true);
    s.b = transfer(&[8, 16, 1], 8, 16, true);
    ok(s);
}

#[test]
fn ck0206_types_op() {
    let mut s = xdl_v3();
    s.dtype = Some(sp(DataType::Int8));
    let at = span_of(&s.dtype);
    fails(s, c::TYPES_OP, at);
}

#[test]
fn ck0207_type_target() {
    let mut s = xdl_v3();
    s.compute_a = Some(sp(DataType::Fp8));
    s.compute_b = Some(sp(DataType::Fp8));
    let at = span_of(&s.compute_a);
    fails(s, c::TYPE_TARGET, at);
}

#[test]
fn ck0208_element_op() {
    let mut s = xdl_v3();
    s.wei_op = Some(sp(ElementOp::Scale));
    let at = span_of(&s.wei_op);
    fails(s, c::ELEMENT_OP, at);
}

#[test]
fn ck0209_conv_spec() {
    let mut s = xdl_v3();
    s.spec = Some(sp(ConvSpec::Filter3x3));
    let at = span_of(&s.spec);
    fails(s, c::CONV_SPEC, at);
}

#[test]
fn ck0210_ds() {
    let mut s = xdl_multiple_d();
    s.ds_types = Some(sp(vec![DataType::Fp16, DataType::Fp16]));
    let at = span_of(&s.ds_layouts);
    fails(s, c::DS, at);
    // D tensors on an op without them.
    let mut s = xdl_v1();
    s.ds_layouts = Some(sp(vec![Layout::Gkyxc]));
    s.ds_types = Some(sp(vec![DataType::Fp16]));
    let at = span_of(&s.ds_layouts);
    fails(s, c::DS, at);
}

/// A D tensor's layout has the instance's rank (CK builds its descriptor with the problem's),
/// and a binary element op combines the result with one D tensor.
#[test]
fn ck0210_d_rank_and_count() {
    let mut s = xdl_multiple_d();
    s.ds_layouts = Some(sp(vec![Layout::Gkzyxc]));
    let at = span_of(&s.ds_layouts);
    fails(s, c::DS, at);
    let mut s = xdl_multiple_d();
    s.ds_layouts = Some(sp(vec![Layout::Gkyxc, Layout::Gkyxc]));
    s.ds_types = Some(sp(vec![DataType::Fp16, DataType::Fp16]));
    let at = span_of(&s.wei_op);
    fails(s, c::DS, at);
}

/// CK's scale backward-weight instances are multiple-D ops with an empty D tuple.
#[test]
fn a_multiple_d_op_may_have_no_d_tensors() {
    let mut s = xdl_multiple_d();
    s.ds_layouts = None;
    s.ds_types = None;
    s.wei_op = Some(sp(ElementOp::Scale));
    let v = ok(s);
    assert!(v.instances()[0].types.ds.is_empty());
}

#[test]
fn ck0211_not_applicable() {
    let mut s = xdl_v3();
    s.warps = ints(&[2, 2, 1]);
    let at = span_of(&s.warps);
    fails(s, c::NOT_APPLICABLE, at);
}

#[test]
fn ck0212_range() {
    let mut s = xdl_v3();
    s.block = int(0);
    let at = span_of(&s.block);
    fails(s, c::RANGE, at);
}

#[test]
fn ck0213_target_kind() {
    let mut s = wmma_v3();
    s.targets = Some(sp(vec![Arch::Gfx942]));
    let at = span_of(&s.targets);
    fails(s, c::TARGET_KIND, at);
}

#[test]
fn duplicate_names_are_rejected_without_resolution() {
    let a = xdl_v3();
    let mut b = xdl_v3();
    b.name = sp("xdl_v3".to_string());
    let at = b.name.span;
    let d = super::validate(&[a, b]).unwrap_err();
    assert_eq!(d.0.len(), 1);
    assert_eq!(d.0[0].code, crate::resolve::codes::DUPLICATE_NAME);
    assert_eq!(d.0[0].primary_span(), Some(at));
}

#[test]
fn ck0215_list_len() {
    let mut s = xdl_v3();
    s.tile = ints(&[32, 128]);
    let at = span_of(&s.tile);
    fails(s, c::LIST_LEN, at);
}

#[test]
fn ck0216_targets() {
    let mut s = xdl_v3();
    s.targets = Some(sp(vec![]));
    let at = span_of(&s.targets);
    fails(s, c::TARGETS, at);
}

#[test]
fn ck0301_tile_div() {
    let mut s = xdl_v3();
    s.repeat = ints(&[1, 3]);
    let at = span_of(&s.tile);
    fails(s, c::TILE_DIV, at);
}

#[test]
fn ck0302_waves() {
    let mut s = xdl_v3();
    s.block = int(128);
    let at = span_of(&s.block);
    let d = errors(&s);
    assert_eq!(d.0[0].code, c::WAVES);
    assert_eq!(d.0[0].primary_span(), at);
}

#[test]
fn ck0302_wave32_variant() {
    let mut s = xdl_v3();
    s.instr = ints(&[16, 16]);
    s.tile = ints(&[16, 16, 32]);
    s.repeat = ints(&[1, 1]);
    s.a = TransferSpec::default();
    s.b = TransferSpec::default();
    s.c = CShuffleSpec::default();
    s.pipeline = PipelineSpec::default();
    s.targets = Some(sp(vec![Arch::Gfx1100]));
    let at = span_of(&s.block);
    fails(s, c::WAVES, at);
}

#[test]
fn ck0303_instr() {
    let mut s = xdl_v3();
    s.instr = ints(&[64, 64]);
    s.tile = ints(&[64, 256, 32]);
    let at = span_of(&s.instr);
    let d = errors(&s);
    assert_eq!(d.0[0].code, c::INSTR);
    assert_eq!(d.0[0].primary_span(), at);
}

#[test]
fn ck0304_k1_div() {
    let mut s = wavelet();
    s.ak1 = int(12);
    let at = span_of(&s.ak1);
    let d = errors(&s);
    assert_eq!(d.0[0].code, c::K1_DIV);
    assert_eq!(d.0[0].primary_span(), at);
}

#[test]
fn ck0305_block() {
    let mut s = xdl_v3();
    s.block = int(2048);
    let at = span_of(&s.block);
    let d = errors(&s);
    assert_eq!(d.0[0].code, c::BLOCK);
    assert_eq!(d.0[0].primary_span(), at);
}

#[test]
fn ck0306_warp_layout() {
    let mut s = tile_bwd_weight();
    s.warps = ints(&[8, 1, 1]);
    s.tile = ints(&[256, 128, 32]);
    let at = span_of(&s.warps);
    fails(s, c::WARP_LAYOUT, at);
}

#[test]
fn ck0307_warp_tile() {
    let mut s = tile_bwd_weight();
    s.warp_tile = ints(&[16, 16, 8]);
    let at = span_of(&s.warp_tile);
    fails(s, c::WARP_TILE, at);
}

#[test]
fn ck0308_tile_warps_div() {
    let mut s = tile_bwd_weight();
    s.tile = ints(&[96, 128, 32]);
    let at = span_of(&s.tile);
    fails(s, c::TILE_WARPS_DIV, at);
}

#[test]
fn ck0309_wave32_tile() {
    let mut s = tile_dispatcher("tile_rdna", Op::Fwd);
    s.targets = Some(sp(vec![Arch::Gfx1201]));
    s.warps = ints(&[4, 2, 1]);
    s.warp_tile = ints(&[16, 16, 16]);
    let at = span_of(&s.warp_tile);
    fails(s, c::WAVE32_TILE, at);
}

#[test]
fn ck0310_wavelet_groups() {
    let mut s = wavelet();
    s.block = int(256);
    let at = span_of(&s.block);
    fails(s, c::WAVELET_GROUPS, at);
}

#[test]
fn ck0311_lds() {
    let mut s = tile_bwd_weight();
    s.tile = ints(&[256, 256, 128]);
    s.warps = ints(&[2, 2, 1]);
    let at = span_of(&s.tile);
    fails(s, c::LDS, at);
}

#[test]
fn ck0401_cluster_rank() {
    let mut s = xdl_v3();
    s.a.cluster = ints(&[1, 4, 4, 1]);
    let at = span_of(&s.a.cluster);
    fails(s, c::CLUSTER_RANK, at);
    // The v1-GEMM ops take only the 4-D slice: a 3-D cluster (CK prints it) is refused.
    let mut v1 = xdl_v1();
    v1.b.cluster = ints(&[4, 64, 1]);
    let at = span_of(&v1.b.cluster);
    fails(v1, c::CLUSTER_RANK, at);
}

#[test]
fn ck0402_cluster_product() {
    let mut s = wavelet();
    s.a.cluster = ints(&[4, 16, 2]);
    s.a.src_vector = int(8);
    let at = span_of(&s.a.cluster);
    fails(s, c::CLUSTER_PRODUCT, at);
}

#[test]
fn ck0403_cluster_div() {
    let mut s = xdl_v3();
    s.a.cluster = ints(&[8, 2, 1]);
    let at = span_of(&s.a.cluster);
    fails(s, c::CLUSTER_DIV, at);
}

#[test]
fn ck0404_vector_dim() {
    let mut s = xdl_v3();
    s.a.vector_dim = int(2);
    let at = span_of(&s.a.vector_dim);
    fails(s, c::VECTOR_DIM, at);
}

#[test]
fn ck0405_src_vector() {
    let mut s = wmma_v3();
    s.a.src_vector = int(8);
    let at = span_of(&s.a.src_vector);
    fails(s, c::SRC_VECTOR, at);
}

/// Two-stage ops add their C-shuffle output into an fp32 workspace, which a buffer atomic add
/// takes 4 elements at a time: 8 fp16 weights are too wide there.
#[test]
fn two_stage_c_vectors_fit_the_fp32_workspace_add() {
    let mut s = xdl_two_stage();
    cshuffle(&mut s, &[1, 16, 1, 4], 4);
    ok(s.clone());
    s.c.vector = int(8);
    let at = span_of(&s.c.vector);
    fails(s, c::C_VECTOR, at);
}

/// CK's buffer loads take 16 elements of fp16 or fp32: 8 fp32 (32 bytes) read from global
/// memory pass, where backward weight's C-shuffle atomic add stays at 16 bytes.
#[test]
fn source_vectors_reach_ck_buffer_loads() {
    let mut s = xdl_v1();
    s.dtype = Some(sp(DataType::Fp32));
    cshuffle(&mut s, &[1, 32, 1, 8], 4);
    ok(s);
}

#[test]
fn ck0407_dst_vector() {
    let mut s = xdl_v1();
    s.a.dst_vector = int(8);
    let at = span_of(&s.a.dst_vector);
    fails(s, c::DST_VECTOR, at);
}

#[test]
fn ck0408_order() {
    let mut s = xdl_v3();
    s.a.arrange = ints(&[1, 1, 2]);
    let at = span_of(&s.a.arrange);
    fails(s, c::ORDER, at);
}

#[test]
fn ck0409_shuffle() {
    let mut s = xdl_v3();
    s.c.shuffle = ints(&[1, 3]);
    let at = span_of(&s.c.shuffle);
    fails(s, c::SHUFFLE, at);
}

#[test]
fn ck0410_c_cluster() {
    let mut s = xdl_v3();
    s.c.cluster = ints(&[1, 16, 1, 8]);
    let at = span_of(&s.c.cluster);
    fails(s, c::C_CLUSTER, at);
}

#[test]
fn c_cluster_smaller_than_the_block_leaves_threads_idle() {
    // 32 of 64 threads, as CK's direct-load rows use 128 of 256.
    let mut s = xdl_v3();
    s.c.cluster = ints(&[1, 4, 1, 8]);
    let v = ok(s);
    assert_eq!(v.instances()[0].c.cluster, [1, 4, 1, 8]);
}

#[test]
fn ck0411_c_vector() {
    let mut s = xdl_v3();
    s.c.vector = int(8);
    let at = span_of(&s.c.vector);
    fails(s, c::C_VECTOR, at);
}

#[test]
fn ck0412_tile_vector() {
    let mut s = tile_bwd_weight();
    s.vector = ints(&[4, 3, 4]);
    let at = span_of(&s.vector);
    fails(s, c::TILE_VECTOR, at);
}

#[test]
fn ck0501_pipeline_version() {
    let mut s = xdl_v3();
    s.pipeline.version = Some(sp(PipelineVersion::CompV3));
    let at = span_of(&s.pipeline.version);
    fails(s, c::PIPELINE_VERSION, at);
}

#[test]
fn ck0502_compv5_backward() {
    let mut s = tile_bwd_weight();
    s.pipeline.version = Some(sp(PipelineVersion::CompV5));
    let at = span_of(&s.pipeline.version);
    fails(s, c::COMPV5_BACKWARD, at);
}

#[test]
fn ck0503_interwave() {
    let mut s = tile_bwd_weight();
    s.pipeline.scheduler = Some(sp(Scheduler::Interwave));
    let at = span_of(&s.pipeline.scheduler);
    fails(s, c::INTERWAVE, at);
}

#[test]
fn ck0504_prefetch() {
    let mut s = wavelet();
    s.pipeline.prefetch = int(3);
    let at = span_of(&s.pipeline.prefetch);
    fails(s, c::PREFETCH, at);
}

#[test]
fn ck0505_double_buffer() {
    let mut s = tile_bwd_weight();
    s.pipeline.double_buffer = Some(sp(true));
    let at = span_of(&s.pipeline.double_buffer);
    fails(s, c::DOUBLE_BUFFER, at);
}

#[test]
fn ck0506_direct_load() {
    let mut s = xdl_v3();
    s.pipeline.version = Some(sp(PipelineVersion::V1));
    s.pipeline.direct_load = Some(sp(true));
    let at = span_of(&s.pipeline.direct_load);
    fails(s, c::DIRECT_LOAD, at);
}

#[test]
fn ck0506_async_needs_gfx950() {
    let mut s = tile_streamk();
    s.targets = Some(sp(vec![Arch::Gfx942]));
    let at = span_of(&s.pipeline.version);
    fails(s, c::DIRECT_LOAD, at);
}

#[test]
fn ck0507_streamk() {
    let mut s = tile_dispatcher("fwd_streamk", Op::Fwd);
    s.streamk.reduction = Some(sp(Reduction::Linear));
    s.streamk_span = span_of(&s.streamk.reduction);
    let at = s.streamk_span;
    fails(s, c::STREAMK, at);
}

#[test]
fn ck0508_streamk_split_k() {
    let mut s = tile_streamk();
    s.split_k = Some(sp(SplitKSpec::Fixed(2)));
    let at = span_of(&s.split_k);
    fails(s, c::STREAMK_SPLIT_K, at);
}

#[test]
fn ck0509_split_k_auto() {
    let mut s = wmma_v3();
    s.split_k = Some(sp(SplitKSpec::Auto));
    let at = span_of(&s.split_k);
    fails(s, c::SPLIT_K_AUTO, at);
}

#[test]
fn ck0510_split_k_gfx11() {
    let mut s = wmma_v3();
    s.split_k = Some(sp(SplitKSpec::Fixed(4)));
    let at = span_of(&s.split_k);
    fails(s, c::SPLIT_K, at);
}

#[test]
fn ck0511_bf16_atomics() {
    let mut s = xdl_v1();
    s.dtype = Some(sp(DataType::Bf16));
    s.targets = Some(sp(vec![Arch::Gfx908]));
    s.split_k = Some(sp(SplitKSpec::Fixed(2)));
    let at = span_of(&s.split_k);
    fails(s, c::BF16_ATOMICS, at);
}

#[test]
fn ck0512_merge_groups() {
    let mut s = xdl_two_stage();
    s.merge_groups = int(12);
    let at = span_of(&s.merge_groups);
    fails(s, c::MERGE_GROUPS, at);
}

#[test]
fn ck0513_two_stage() {
    let mut s = xdl_two_stage();
    s.two_stage = Some(sp(false));
    let at = span_of(&s.two_stage);
    fails(s, c::TWO_STAGE, at);
}

#[test]
fn ck0514_large_tensor() {
    let mut s = wmma_v3();
    s.large_tensor = Some(sp(true));
    let at = span_of(&s.large_tensor);
    fails(s, c::LARGE_TENSOR, at);
}

#[test]
fn ck0515_explicit_gemm() {
    let mut s = tile_bwd_weight();
    s.explicit_gemm = Some(sp(true));
    let at = span_of(&s.explicit_gemm);
    fails(s, c::EXPLICIT_GEMM, at);
}

#[test]
fn ck0516_compv6() {
    let mut s = tile_bwd_weight();
    s.tile = ints(&[64, 16, 16]);
    s.warps = ints(&[4, 1, 1]);
    s.pipeline.version = Some(sp(PipelineVersion::CompV6));
    let at = span_of(&s.tile);
    fails(s, c::COMPV6, at);
}

#[test]
fn ck0517_merged_layout() {
    let mut s = xdl_two_stage();
    s.layout = Some(sp(Layout::Gnhwc));
    let at = span_of(&s.merge_groups);
    fails(s, c::MERGED_LAYOUT, at);
    // Scalar loads read merged groups from any layout.
    let mut scalar = xdl_two_stage();
    scalar.layout = Some(sp(Layout::Gnhwc));
    scalar.a.src_vector = int(1);
    scalar.b.src_vector = int(1);
    super::validate(std::slice::from_ref(&scalar)).expect("scalar loads are fine");
}

#[test]
fn every_code_has_a_test_fixture_and_docs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // A warning's fixture compiles: it lives in `warn/`.
    let fixtures: Vec<String> = ["fail", "warn"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join("tests/fixtures").join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let docs = std::fs::read_to_string(root.join("docs/diagnostics.md")).unwrap_or_default();
    for (code, _) in c::ALL {
        assert!(
            fixtures.iter().any(|f| f.starts_with(&format!("{code}_"))),
            "no fail fixture for {code}"
        );
        assert!(
            docs.contains(&format!("### {code}")),
            "docs/diagnostics.md lacks {code}"
        );
    }
}

#[test]
fn extreme_values_report_errors_without_overflow() {
    let mut t = tile_bwd_weight();
    t.warps = ints(&[4096, 4096, 4096]);
    assert_eq!(errors(&t).0[0].code, c::BLOCK);
    let mut s = xdl_v1();
    s.tile = ints(&[4096, 4096, 4096]);
    s.a.cluster = ints(&[4096, 4096, 4096, 4096]);
    s.c.shuffle = ints(&[4096, 4096]);
    s.c.cluster = ints(&[1, 4096, 1, 4096]);
    assert!(!errors(&s).is_empty());
    let mut big = xdl_v3();
    big.block = int(1 << 20);
    assert_eq!(errors(&big).0[0].code, c::RANGE);
}

#[test]
fn explain_reports_lds_and_occupancy() {
    let v = ok(xdl_v1());
    let e = crate::analysis::explain(&v.instances()[0]);
    assert_eq!(e.device_op, "DeviceGroupedConvBwdWeight_Xdl_CShuffle");
    // A: 32 x (256 + 1) fp16, B: 32 x (128 + 1) fp16.
    assert_eq!(e.lds_bytes, 32 * 257 * 2 + 32 * 129 * 2);
    let t = &e.targets[0];
    assert_eq!(
        (t.arch, t.waves_per_workgroup, t.lds_budget),
        (Arch::Gfx90a, 4, 64 * 1024)
    );
    assert!(t.workgroups_per_cu >= 1 && t.occupancy > 0.0 && t.occupancy <= 1.0);
    let tile = crate::analysis::explain(&ok(tile_bwd_weight()).instances()[0]);
    assert_eq!(tile.lds_bytes, 128 * 32 * 2 * 2);
}

/// `allow` turns a broken rule on the concrete instance into a warning and keeps the instance,
/// marked; it relaxes only the codes it names, and no identity rule.
#[test]
fn allowed_rule_breaks_warn_and_mark_the_instance() {
    use super::codes::RuleCode;
    let mut s = xdl_v3();
    s.block = int(128);
    s.allow = Some(sp(vec![RuleCode(c::WAVES)]));
    let v = ok(s.clone());
    assert_eq!(v.instances()[0].allow, [c::WAVES]);
    let w: Vec<_> = v
        .warnings()
        .iter()
        .map(|d| (d.code, d.is_error()))
        .collect();
    assert_eq!(w, [(c::WAVES, false)]);
    // Another code does not relax this one.
    s.allow = Some(sp(vec![RuleCode(c::TILE_DIV)]));
    assert_eq!(errors(&s).0[0].code, c::WAVES);
    // Only the rules on the concrete instance can be allowed.
    let codes: Vec<&str> = RuleCode::all().map(|c| c.0).collect();
    assert!(codes.contains(&c::WAVES) && codes.contains(&c::LDS) && codes.contains(&c::STREAMK));
    assert!(!codes.contains(&c::TARGETS) && !codes.contains(&c::CK_FORMAT));
}

/// The codes of the errors `validate_instance` reports for `inst`.
fn instance_errors(inst: crate::ir::Instance) -> Vec<&'static str> {
    match super::validate_instance(inst) {
        Ok(c) => panic!("{} should fail", c.name),
        Err(e) => e
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect(),
    }
}

#[test]
fn validated_instances_validate_again_with_the_same_format() {
    let all = super::validate(&baselines()).unwrap_or_else(|d| panic!("{:#?}", d.0));
    for checked in all.instances() {
        let again = super::validate_instance(checked.clone().into_instance())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&again, checked);
    }
}

#[test]
fn built_instances_break_the_rules_specs_do() {
    let v = ok(xdl_v3());
    let base = v.instances()[0].clone().into_instance();
    let mut i = base.clone();
    i.tile.m = 48;
    assert_eq!(instance_errors(i), [c::TILE_DIV, c::SRC_VECTOR]);
    // What reading a spec guarantees: positive sizes, the kind's own optional parts.
    let mut i = base.clone();
    i.repeat = [0, 1];
    assert_eq!(instance_errors(i), [c::RANGE]);
    let mut i = base.clone();
    i.wavelet = Some(crate::ir::Wavelet { load: 64, math: 64 });
    assert_eq!(instance_errors(i), [c::NOT_APPLICABLE]);
    let mut i = base.clone();
    i.targets.push(i.targets[0]);
    assert_eq!(instance_errors(i), [c::TARGETS]);
    let mut i = base.clone();
    i.allow = vec!["no_rule".into()];
    assert_eq!(instance_errors(i), [crate::keys::codes::UNKNOWN_WORD]);
    // A rule the instance allows is no error.
    let mut i = base;
    i.tile.m = 48;
    i.allow = vec![c::TILE_DIV.into(), c::SRC_VECTOR.into()];
    assert!(super::validate_instance(i).is_ok());
}

#[test]
fn reading_a_checked_instance_validates_it() {
    let v = ok(xdl_v3());
    let json = serde_json::to_string(&v.instances()[0]).unwrap();
    let back: crate::ir::Checked = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, &v.instances()[0]);
    let broken = json.replace("\"block\":64", "\"block\":0");
    assert_ne!(broken, json);
    let err = serde_json::from_str::<crate::ir::Checked>(&broken).unwrap_err();
    assert!(err.to_string().contains(c::RANGE), "{err}");
}
