//! What the user wrote for one expanded instance, after resolution (imports, defaults, families)
//! and before validation: every setting optional, every value with the span it came from.
//!
//! Validation (`validate`) checks a spec against the rules of its device op and targets, derives
//! what was omitted, and produces the concrete [`crate::ir::Instance`].

use crate::codes::RuleCode;
use crate::model::*;
use ck_dsl::{FileId, Span};
use serde::Serialize;

/// A value and the span of the source text it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Sp<T> {
    pub fn new(value: T, span: Span) -> Self {
        Sp { value, span }
    }
}

impl<T: Copy> Sp<T> {
    pub fn get(&self) -> T {
        self.value
    }
}

/// Integers stay `u64` here; validation checks their ranges before narrowing.
pub type Int = Sp<u64>;
pub type Ints = Sp<Vec<u64>>;

/// Where an expanded instance came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Origin {
    pub file: FileId,
    /// Span of the `instance` item, or of the family row (or family, without rows).
    pub span: Span,
    pub family: Option<FamilyInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SplitKSpec {
    Fixed(u64),
    Auto,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TransferSpec {
    /// Thread cluster lengths: `[K0, M|N, K1]` (V3 family) or `[KBatch, K0, M|N, K1]` (v1).
    pub cluster: Option<Ints>,
    pub arrange: Option<Ints>,
    pub access: Option<Ints>,
    pub vector_dim: Option<Int>,
    /// Global-memory read vector width (`SrcScalarPerVector`).
    pub src_vector: Option<Int>,
    /// LDS write vector width along K1 (`DstScalarPerVector_K1`).
    pub dst_vector: Option<Int>,
    /// `ABlockLdsAddExtraM` / `BBlockLdsAddExtraN`.
    pub lds_pad: Option<Sp<bool>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CShuffleSpec {
    /// `[CShuffleMXdlPerWavePerShuffle, CShuffleNXdlPerWavePerShuffle]`
    pub shuffle: Option<Ints>,
    /// `[MBlock, MPerBlock, NBlock, NPerBlock]` cluster lengths.
    pub cluster: Option<Ints>,
    pub vector: Option<Int>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PipelineSpec {
    pub scheduler: Option<Sp<Scheduler>>,
    pub version: Option<Sp<PipelineVersion>>,
    /// `NumGemmKPrefetchStage`.
    pub prefetch: Option<Int>,
    pub double_buffer: Option<Sp<bool>>,
    pub direct_load: Option<Sp<bool>>,
    pub loop_scheduler: Option<Sp<LoopScheduler>>,
    /// `pipeline.thread_tile_transfer`: forward WMMA V3 `UseThreadTileTransfer`.
    pub thread_tile_transfer: Option<Sp<bool>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StreamKSpec {
    pub reduction: Option<Sp<Reduction>>,
    pub persistent: Option<Sp<bool>>,
}

/// DL (non-MMA) op parameters; all required when `kind = dl`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DlSpec {
    pub m1_per_thread: Option<Int>,
    pub n1_per_thread: Option<Int>,
    pub k_per_thread: Option<Int>,
    pub cluster_m1: Option<Ints>,
    pub cluster_n1: Option<Ints>,
    pub a: DlTransferSpec,
    pub b: DlTransferSpec,
    pub c_access_order: Option<Ints>,
    pub c_vector_dim: Option<Int>,
    pub c_vector: Option<Int>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DlTransferSpec {
    pub slice: Option<Ints>,
    pub cluster: Option<Ints>,
    pub arrange: Option<Ints>,
    pub access: Option<Ints>,
    pub src_vector: Option<Ints>,
    pub src_order: Option<Ints>,
    pub dst_vector: Option<Ints>,
}

/// One expanded instance as written. Field names follow the `.ck` keys (see `docs/language.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InstanceSpec {
    pub name: Sp<String>,
    pub doc: Vec<String>,
    pub origin: Origin,

    pub op: Option<Sp<Op>>,
    pub dims: Option<Int>,
    pub kind: Option<Sp<Kind>>,

    /// `layout`: the input layout word (its family decides weight and output unless given).
    pub layout: Option<Sp<Layout>>,
    pub weight_layout: Option<Sp<Layout>>,
    pub output_layout: Option<Sp<Layout>>,
    /// `ds.layouts` / `ds.types`: D tensors of multiple-D ops.
    pub ds_layouts: Option<Sp<Vec<Layout>>>,
    pub ds_types: Option<Sp<Vec<DataType>>>,
    /// `sources.in` / `sources.wei`: the data types of a multiple-A/B forward op's input or
    /// weight tensors.
    pub in_sources: Option<Sp<Vec<DataType>>>,
    pub wei_sources: Option<Sp<Vec<DataType>>>,

    /// `dtype`: shorthand for in, wei and out.
    pub dtype: Option<Sp<DataType>>,
    pub in_type: Option<Sp<DataType>>,
    pub wei_type: Option<Sp<DataType>>,
    pub out_type: Option<Sp<DataType>>,
    pub acc_type: Option<Sp<DataType>>,
    pub compute_a: Option<Sp<DataType>>,
    pub compute_b: Option<Sp<DataType>>,
    pub cshuffle_type: Option<Sp<DataType>>,

    pub in_op: Option<Sp<ElementOp>>,
    pub wei_op: Option<Sp<ElementOp>>,
    pub out_op: Option<Sp<ElementOp>>,

    pub spec: Option<Sp<ConvSpec>>,
    pub gemm_spec: Option<Sp<GemmSpec>>,

    pub block: Option<Int>,
    /// `[M, N, K]` per block; K is the GEMM-K per block (CK's V1 K0PerBlock is K / K1).
    pub tile: Option<Ints>,
    /// `k1` sets both; `ak1`/`bk1` (forward ops) set one.
    pub ak1: Option<Int>,
    pub bk1: Option<Int>,
    /// `[M, N]` per XDL/WMMA instruction (`MPerXdl`, `NPerXdl`).
    pub instr: Option<Ints>,
    /// `[M, N]` instruction repeats per wave (`MXdlPerWave`, `NXdlPerWave`).
    pub repeat: Option<Ints>,
    /// CK-Tile: `[M, N, K]` warps per block and warp tile.
    pub warps: Option<Ints>,
    pub warp_tile: Option<Ints>,
    /// CK-Tile: `[A, B, C]` vector sizes.
    pub vector: Option<Ints>,
    pub wave_groups: Option<Int>,
    pub epilogue: Option<Sp<Epilogue>>,
    pub explicit_gemm: Option<Sp<bool>>,
    pub split_image: Option<Sp<bool>>,
    /// CK-Tile `pad = [m, n, k]`; bwd-data `DoPadGemmM/N` use the first two.
    pub pad: Option<Sp<Vec<bool>>>,

    pub a: TransferSpec,
    pub b: TransferSpec,
    pub c: CShuffleSpec,
    pub pipeline: PipelineSpec,

    /// `wavelet.load` / `wavelet.math`: thread-group sizes of the load and math waves.
    pub wavelet_load: Option<Int>,
    pub wavelet_math: Option<Int>,

    pub split_k: Option<Sp<SplitKSpec>>,
    pub two_stage: Option<Sp<bool>>,
    pub streamk: StreamKSpec,
    /// Set when any `streamk.*` key is given: the span of the first.
    pub streamk_span: Option<Span>,
    pub merge_groups: Option<Int>,
    pub large_tensor: Option<Sp<bool>>,
    /// `[src, dst]` MaxTransposeTransfer scalar-per-vector.
    pub transpose: Option<Ints>,

    pub dl: DlSpec,

    pub targets: Option<Sp<Vec<Arch>>>,
    /// Instance-string format variant name (see `docs/instance-strings.md`).
    pub ck_format: Option<Sp<String>>,
    /// Rule codes the instance knowingly breaks (`allow`): reported as warnings.
    pub allow: Option<Sp<Vec<RuleCode>>>,
}

impl InstanceSpec {
    /// An empty spec named `name`; resolution fills it key by key.
    pub fn new(name: Sp<String>, origin: Origin) -> Self {
        InstanceSpec {
            name,
            doc: Vec::new(),
            origin,
            op: None,
            dims: None,
            kind: None,
            layout: None,
            weight_layout: None,
            output_layout: None,
            ds_layouts: None,
            ds_types: None,
            in_sources: None,
            wei_sources: None,
            dtype: None,
            in_type: None,
            wei_type: None,
            out_type: None,
            acc_type: None,
            compute_a: None,
            compute_b: None,
            cshuffle_type: None,
            in_op: None,
            wei_op: None,
            out_op: None,
            spec: None,
            gemm_spec: None,
            block: None,
            tile: None,
            ak1: None,
            bk1: None,
            instr: None,
            repeat: None,
            warps: None,
            warp_tile: None,
            vector: None,
            wave_groups: None,
            epilogue: None,
            explicit_gemm: None,
            split_image: None,
            pad: None,
            a: TransferSpec::default(),
            b: TransferSpec::default(),
            c: CShuffleSpec::default(),
            pipeline: PipelineSpec::default(),
            wavelet_load: None,
            wavelet_math: None,
            split_k: None,
            two_stage: None,
            streamk: StreamKSpec::default(),
            streamk_span: None,
            merge_groups: None,
            large_tensor: None,
            transpose: None,
            dl: DlSpec::default(),
            targets: None,
            ck_format: None,
            allow: None,
        }
    }
}
