//! CK instance-string formats: every variant of every device op, each as one ordered field
//! list. Printing (`emit::traits`), parsing (`import::traits`) and `.ck` source generation all
//! walk these lists, so a field's position and spelling are stated once.

use crate::model::{Kind, Op};

/// How a boolean field is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    TrueFalse,
    ZeroOne,
}

/// A convolution tensor, or a GEMM role that [`Role::tensor`] resolves per op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    In,
    Wei,
    Out,
    /// GEMM A: fwd input, bwd-data output, bwd-weight output.
    A,
    /// GEMM B: fwd weight, bwd-data weight, bwd-weight input.
    B,
    /// GEMM E (the result): fwd output, bwd-data input, bwd-weight weight.
    E,
}

impl Role {
    /// The convolution tensor (`In`, `Wei` or `Out`) that plays this role in `op`.
    pub fn tensor(self, op: Op) -> Role {
        match (self, op) {
            (Role::A, Op::Fwd) | (Role::E, Op::BwdData) | (Role::B, Op::BwdWeight) => Role::In,
            (Role::B, Op::Fwd | Op::BwdData) | (Role::E, Op::BwdWeight) => Role::Wei,
            (Role::E, Op::Fwd) | (Role::A, Op::BwdData | Op::BwdWeight) => Role::Out,
            (t, _) => t,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeSlot {
    Tensor(Role),
    Acc,
    ComputeA,
    ComputeB,
    CShuffle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntField {
    Block,
    TileM,
    TileN,
    /// K per block.
    TileK,
    /// `K0PerBlock` of the ops where it is a real K0: K per block / K1.
    K0,
    /// `K1` / `ABK1`: sets AK1 and BK1 alike.
    K1,
    AK1,
    BK1,
    MmaM,
    MmaN,
    MmaK,
    RepeatM,
    RepeatN,
    WarpsM,
    WarpsN,
    WarpsK,
    VectorDim(Side),
    SrcVector(Side),
    DstVector(Side),
    ShuffleM,
    ShuffleN,
    CVector,
    Prefetch,
    MergeGroups,
    TransposeSrc,
    TransposeDst,
    /// CK-Tile vector sizes A, B, C.
    TileVector(usize),
    WaveGroups,
    WaveletLoad,
    WaveletMath,
    DlM1PerThread,
    DlN1PerThread,
    DlKPerThread,
    DlCVectorDim,
    DlCVector,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DlPart {
    Slice,
    Cluster,
    Arrange,
    Access,
    SrcVector,
    SrcOrder,
    DstVector,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeqField {
    Cluster(Side),
    Arrange(Side),
    Access(Side),
    CCluster,
    DlClusterM1,
    DlClusterN1,
    Dl(Side, DlPart),
    DlCAccessOrder,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagField {
    LdsPad(Side),
    DirectLoad,
    LargeTensor,
    PadGemmM,
    PadGemmN,
    ThreadTileTransfer,
    SplitImage,
    ExplicitGemm,
    DoubleSmemBuffer,
}

/// What one field holds and how it is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    NDim,
    Layout(Role),
    DsLayouts,
    Type(TypeSlot),
    /// A source tensor's data type, or the tuple of the several tensors a multiple-A/B op
    /// reads (`Tuple(fp16,fp16)`).
    Sources(Role),
    DsTypes,
    ElementOp(Role),
    ConvSpec,
    GemmSpec,
    Int(IntField),
    Seq(SeqField),
    Flag(FlagField, Spelling),
    Scheduler,
    /// `BlockGemmPipelineVersion` v1..v5.
    BlockGemmVersion,
    /// Old WMMA `PipelineVersion` (v1, v2, v4, weight_only).
    WmmaPipelineVersion,
    LoopScheduler,
    /// CK-Tile `GetPipelineName()`.
    TilePipeline,
    /// A repeat of NumGemmKPrefetchStage: must equal the first.
    PrefetchAgain,
    /// CK-Tile `IsStreamK`, then (only when 1) ReductionStrategy and PersistentDP.
    StreamK,
}

/// One field: CK's template-parameter name and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub value: Value,
}

const fn f(name: &'static str, value: Value) -> Field {
    Field { name, value }
}

macro_rules! formats {
    ($($variant:ident => ($op:ident, $kind:ident, $name:literal, $ck:literal, $default:literal),)*) => {
        /// Every instance-string format variant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum CkFormat { $($variant,)* }

        impl CkFormat {
            pub const ALL: &'static [CkFormat] = &[$(CkFormat::$variant,)*];

            pub fn op(self) -> Op { match self { $(CkFormat::$variant => Op::$op,)* } }
            pub fn kind(self) -> Kind { match self { $(CkFormat::$variant => Kind::$kind,)* } }
            /// The `ck_format = "..."` name (unique within the op and kind).
            pub fn variant_name(self) -> &'static str { match self { $(CkFormat::$variant => $name,)* } }
            /// The op name printed before `<`.
            pub fn ck_name(self) -> &'static str { match self { $(CkFormat::$variant => $ck,)* } }
            /// Whether this is the variant used when `ck_format` is not given.
            pub fn is_default(self) -> bool { match self { $(CkFormat::$variant => $default,)* } }
        }
    };
}

formats! {
    BwdWeightXdl => (BwdWeight, Xdl, "43", "DeviceGroupedConvBwdWeight_Xdl_CShuffle", true),
    BwdWeightXdlV3Fields43 => (BwdWeight, XdlV3, "43", "DeviceGroupedConvBwdWeight_Xdl_CShuffleV3", false),
    BwdWeightXdlV3Fields45 => (BwdWeight, XdlV3, "45", "DeviceGroupedConvBwdWeight_Xdl_CShuffleV3", true),
    BwdWeightXdlV3Fields46 => (BwdWeight, XdlV3, "46", "DeviceGroupedConvBwdWeight_Xdl_CShuffleV3", false),
    BwdWeightTwoStageXdl => (BwdWeight, XdlTwoStage, "46", "DeviceGroupedConvBwdWeightTwoStage_Xdl_CShuffle", true),
    BwdWeightWmmaV3 => (BwdWeight, WmmaV3, "45", "DeviceGroupedConvBwdWeight_Wmma_CShuffleV3", true),
    BwdWeightTwoStageWmma => (BwdWeight, WmmaTwoStage, "46", "DeviceGroupedConvBwdWeightTwoStage_Wmma_CShuffleV3", true),
    BwdWeightMultipleDXdl => (BwdWeight, XdlMultipleD, "43", "DeviceGroupedConvBwdWeightMultipleD_Xdl_CShuffle", true),
    BwdWeightMultipleDWmma => (BwdWeight, WmmaMultipleD, "45", "DeviceGroupedConvBwdWeightMultipleD_Wmma_CShuffleV3", true),
    BwdWeightWmma => (BwdWeight, Wmma, "42", "DeviceGroupedConvBwdWeight_Wmma_CShuffle", true),
    BwdWeightDl => (BwdWeight, Dl, "39", "DeviceGroupedConvBwdWeight_Dl", true),
    BwdWeightWavelet => (BwdWeight, Wavelet, "template_order", "DeviceGroupedConvBwdWeight_Xdl_WaveletModel_CShuffleV3", true),
    BwdWeightExplicit => (BwdWeight, ExplicitGemm, "template_order", "DeviceGroupedConvBwdWeight_Explicit_Xdl", true),
    TileBwdWeightA => (BwdWeight, Tile, "a", "GroupedConvolutionBackwardWeightKernel", false),
    TileBwdWeightB => (BwdWeight, Tile, "b", "GroupedConvolutionBackwardWeightKernel", true),
    TileBwdWeightC => (BwdWeight, Tile, "c", "GroupedConvolutionBackwardWeightKernel", false),
    TileBwdWeightD => (BwdWeight, Tile, "d", "GroupedConvolutionBackwardWeightKernel", false),
    FwdXdl => (Fwd, Xdl, "49", "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle", true),
    FwdXdlZeroOne => (Fwd, Xdl, "49_01", "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle", false),
    FwdXdlV3Fields50 => (Fwd, XdlV3, "50", "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle_V3", true),
    FwdXdlV3Fields49 => (Fwd, XdlV3, "49", "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle_V3", false),
    FwdLargeTensor => (Fwd, XdlLargeTensor, "48", "DeviceGroupedConvFwdMultipleD_Xdl_CShuffle_Large_Tensor", true),
    FwdLargeTensorZeroOne => (Fwd, XdlLargeTensor, "48_01", "DeviceGroupedConvFwdMultipleD_Xdl_CShuffle_Large_Tensor", false),
    FwdWmma => (Fwd, Wmma, "46", "DeviceGroupedConvFwdMultipleD_Wmma_CShuffle", true),
    FwdWmmaV3 => (Fwd, WmmaV3, "50", "DeviceGroupedConvFwdMultipleABD_Wmma_CShuffle_V3", true),
    FwdDl => (Fwd, Dl, "42", "DeviceGroupedConvFwdDlMultipleD_NHWC_KYXC_NHWK", true),
    TileFwd => (Fwd, Tile, "31", "GroupedConvolutionForwardKernel", true),
    TileFwdFields30 => (Fwd, Tile, "30", "GroupedConvolutionForwardKernel", false),
    BwdDataXdl => (BwdData, XdlMultipleD, "51", "DeviceGroupedConvBwdDataMultipleD_Xdl_CShuffle", true),
    BwdDataWmmaV3 => (BwdData, WmmaMultipleD, "50", "DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffleV3", true),
    BwdDataWmma => (BwdData, Wmma, "44", "DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffle", true),
    TileBwdData => (BwdData, Tile, "31", "GroupedConvolutionBackwardDataKernel", true),
}

/// The variants of one op and kind, default first.
pub fn variants(op: Op, kind: Kind) -> Vec<CkFormat> {
    let mut v: Vec<CkFormat> = CkFormat::ALL
        .iter()
        .copied()
        .filter(|f| f.op() == op && f.kind() == kind)
        .collect();
    v.sort_by_key(|f| !f.is_default());
    v
}

/// Why an instance has no variant to print in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("no CK device op is known for op `{op}` with kind `{kind}`")]
    NoDeviceOp { op: Op, kind: Kind },
    #[error(
        "unknown ck_format \"{name}\" for {op} {kind} (`{ck_name}`); expected one of {}",
        expected.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
    )]
    UnknownName {
        name: String,
        op: Op,
        kind: Kind,
        ck_name: &'static str,
        expected: Vec<&'static str>,
    },
    #[error("the \"{variant}\" form of `{ck_name}` cannot print {feature}")]
    Unprintable {
        variant: &'static str,
        ck_name: &'static str,
        feature: &'static str,
    },
}

/// The message, where a stage's errors are still text.
impl From<FormatError> for String {
    fn from(e: FormatError) -> String {
        e.to_string()
    }
}

/// Resolves a `ck_format` name (None = the default) for an op and kind. Validation calls this
/// so that an unknown name is a diagnostic, never an emitter failure.
pub fn check_format(op: Op, kind: Kind, name: Option<&str>) -> Result<CkFormat, FormatError> {
    let all = variants(op, kind);
    let Some(&default) = all.first() else {
        return Err(FormatError::NoDeviceOp { op, kind });
    };
    let Some(name) = name else { return Ok(default) };
    all.iter()
        .copied()
        .find(|f| f.variant_name() == name)
        .ok_or_else(|| FormatError::UnknownName {
            name: name.to_string(),
            op,
            kind,
            ck_name: default.ck_name(),
            expected: all.iter().map(|f| f.variant_name()).collect(),
        })
}

/// The formats printed under one op name (CK-Tile names cover several variants).
pub fn formats_named(ck_name: &str) -> Vec<CkFormat> {
    CkFormat::ALL
        .iter()
        .copied()
        .filter(|f| f.ck_name() == ck_name)
        .collect()
}

use FlagField as Fl;
use IntField as I;
use Role::*;
use SeqField as Sq;
use Spelling::*;
use Value as V;

/// How an op names its GEMM block parameters.
struct Gemm {
    /// `K0PerBlock` (real K0 = K / K1) or the name printed for K per block.
    k: (&'static str, IntField),
    /// `K1`, `ABK1`, or AK1 and BK1 as two fields.
    k1: &'static [&'static str],
    /// `[MPerXDL, NPerXDL, MXdlPerWave, NXdlPerWave]` or the WMMA names.
    mma: [&'static str; 4],
}

const XDL: [&str; 4] = ["MPerXDL", "NPerXDL", "MXdlPerWave", "NXdlPerWave"];
const WMMA: [&str; 4] = ["MPerWmma", "NPerWmma", "MRepeat", "NRepeat"];
/// The non-V3 WMMA ops' names.
const WMMA_V1: [&str; 4] = ["MPerWMMA", "NPerWMMA", "MRepeat", "NRepeat"];

fn gemm(with_block: bool, g: Gemm) -> Vec<Field> {
    let mut v = Vec::new();
    if with_block {
        v.push(f("BlockSize", V::Int(I::Block)));
    }
    v.push(f("MPerBlock", V::Int(I::TileM)));
    v.push(f("NPerBlock", V::Int(I::TileN)));
    v.push(f(g.k.0, V::Int(g.k.1)));
    match g.k1 {
        [one] => v.push(f(one, V::Int(I::K1))),
        _ => {
            v.push(f("AK1", V::Int(I::AK1)));
            v.push(f("BK1", V::Int(I::BK1)));
        }
    }
    v.push(f(g.mma[0], V::Int(I::MmaM)));
    v.push(f(g.mma[1], V::Int(I::MmaN)));
    v.push(f(g.mma[2], V::Int(I::RepeatM)));
    v.push(f(g.mma[3], V::Int(I::RepeatN)));
    v
}

/// The seven A or B block-transfer fields. `names` are the cluster suffix, the dst suffix and
/// the LDS flag name.
fn transfer(side: Side, names: [&'static str; 3], lds: Spelling) -> Vec<Field> {
    let n = |a: &'static str, b: &'static str| match side {
        Side::A => a,
        Side::B => b,
    };
    let [cluster, dst, flag] = names;
    vec![
        f(cluster, V::Seq(Sq::Cluster(side))),
        f(
            n(
                "ABlockTransferThreadClusterArrangeOrder",
                "BBlockTransferThreadClusterArrangeOrder",
            ),
            V::Seq(Sq::Arrange(side)),
        ),
        f(
            n(
                "ABlockTransferSrcAccessOrder",
                "BBlockTransferSrcAccessOrder",
            ),
            V::Seq(Sq::Access(side)),
        ),
        f(
            n("ABlockTransferSrcVectorDim", "BBlockTransferSrcVectorDim"),
            V::Int(I::VectorDim(side)),
        ),
        f(
            n(
                "ABlockTransferSrcScalarPerVector",
                "BBlockTransferSrcScalarPerVector",
            ),
            V::Int(I::SrcVector(side)),
        ),
        f(dst, V::Int(I::DstVector(side))),
        f(flag, V::Flag(Fl::LdsPad(side), lds)),
    ]
}

/// Both block transfers with the K0_M_K1 / K0_N_K1 names and `...LdsAddExtra...` flags.
fn transfers_k0(lds: Spelling) -> Vec<Field> {
    let mut v = transfer(
        Side::A,
        [
            "ABlockTransferThreadClusterLengths_K0_M_K1",
            "ABlockTransferDstScalarPerVector_K1",
            "ABlockLdsAddExtraM",
        ],
        lds,
    );
    v.extend(transfer(
        Side::B,
        [
            "BBlockTransferThreadClusterLengths_K0_N_K1",
            "BBlockTransferDstScalarPerVector_K1",
            "BBlockLdsAddExtraN",
        ],
        lds,
    ));
    v
}

/// Both block transfers with the AK0_M_AK1 / BK0_N_BK1 names.
fn transfers_ak0(extra: [&'static str; 2]) -> Vec<Field> {
    let mut v = transfer(
        Side::A,
        [
            "ABlockTransferThreadClusterLengths_AK0_M_AK1",
            "ABlockTransferDstScalarPerVector_AK1",
            extra[0],
        ],
        TrueFalse,
    );
    v.extend(transfer(
        Side::B,
        [
            "BBlockTransferThreadClusterLengths_BK0_N_BK1",
            "BBlockTransferDstScalarPerVector_BK1",
            extra[1],
        ],
        TrueFalse,
    ));
    v
}

/// Both block transfers of the forward ops (short cluster names, `...LdsExtra...` flags).
fn transfers_fwd(lds: Spelling) -> Vec<Field> {
    let mut v = transfer(
        Side::A,
        [
            "ABlockTransferThreadClusterLengths",
            "ABlockTransferDstScalarPerVector_AK1",
            "ABlockLdsExtraM",
        ],
        lds,
    );
    v.extend(transfer(
        Side::B,
        [
            "BBlockTransferThreadClusterLengths",
            "BBlockTransferDstScalarPerVector_BK1",
            "BBlockLdsExtraN",
        ],
        lds,
    ));
    v
}

/// The C-shuffle epilogue: two per-shuffle counts, the cluster and the vector.
fn cshuffle(names: [&'static str; 4]) -> Vec<Field> {
    vec![
        f(names[0], V::Int(I::ShuffleM)),
        f(names[1], V::Int(I::ShuffleN)),
        f(names[2], V::Seq(Sq::CCluster)),
        f(names[3], V::Int(I::CVector)),
    ]
}

const C_XDL: [&str; 4] = [
    "CShuffleMXdlPerWavePerShuffle",
    "CShuffleNXdlPerWavePerShuffle",
    "CBlockTransferClusterLengths_MBlock_MPerBlock_NBlock_NPerBlock",
    "CBlockTransferScalarPerVector_NWaveNPerXdl",
];
const C_WMMA: [&str; 4] = [
    "CShuffleMRepeatPerShuffle",
    "CShuffleNRepeatPerShuffle",
    "CShuffleBlockTransferClusterLengths_MBlock_MPerBlock_NBlock_NPerBlock",
    "CShuffleBlockTransferScalarPerVector_NPerBlock",
];
const C_BWD_DATA_WMMA: [&str; 4] = [
    "CShuffleMRepeatPerShuffle",
    "CShuffleNRepeatPerShuffle",
    "CDEShuffleBlockTransferClusterLengths_MBlock_MPerBlock_NBlock_NPerBlock",
    "CDEShuffleBlockTransferScalarPerVector_NPerBlock",
];
const C_FWD_XDL: [&str; 4] = [
    "CShuffleMXdlPerWavePerShuffle",
    "CShuffleNXdlPerWavePerShuffle",
    "CDEBlockTransferClusterLengths",
    "CDEBlockTransferScalarPerVector_NPerBlock",
];
const C_FWD_WMMA: [&str; 4] = [
    "CShuffleMRepeatPerShuffle",
    "CShuffleNRepeatPerShuffle",
    "CDEShuffleBlockTransferClusterLengths",
    "CDEShuffleBlockTransferScalarPerVector_NPerBlock",
];

/// NDimSpatial, layouts, types, element ops and spec of the old-CK bwd-weight ops.
fn bwd_weight_head(ds: bool) -> Vec<Field> {
    let mut v = vec![
        f("NDimSpatial", V::NDim),
        f("InLayout", V::Layout(In)),
        f("WeiLayout", V::Layout(Wei)),
        f("OutLayout", V::Layout(Out)),
    ];
    if ds {
        v.push(f("DsLayout", V::DsLayouts));
    }
    v.extend([
        f("InDataType", V::Type(TypeSlot::Tensor(In))),
        f("WeiDataType", V::Type(TypeSlot::Tensor(Wei))),
        f("OutDataType", V::Type(TypeSlot::Tensor(Out))),
        f("AccDataType", V::Type(TypeSlot::Acc)),
    ]);
    if ds {
        v.push(f("DsDataType", V::DsTypes));
    }
    v.extend([
        f("InElementwiseOperation", V::ElementOp(In)),
        f("WeiElementwiseOperation", V::ElementOp(Wei)),
        f("OutElementwiseOperation", V::ElementOp(Out)),
        f("ConvBackwardWeightSpecialization", V::ConvSpec),
    ]);
    v
}

/// NDimSpatial through GemmSpec of the old-CK forward ops (A/B/Ds/E order).
fn fwd_head() -> Vec<Field> {
    vec![
        f("NDimSpatial", V::NDim),
        f("ALayout", V::Layout(In)),
        f("BLayout", V::Layout(Wei)),
        f("DsLayout", V::DsLayouts),
        f("ELayout", V::Layout(Out)),
        f("ADataType", V::Sources(In)),
        f("BDataType", V::Sources(Wei)),
        f("AccDataType", V::Type(TypeSlot::Acc)),
        f("CShuffleDataType", V::Type(TypeSlot::CShuffle)),
        f("DsDataType", V::DsTypes),
        f("EDataType", V::Type(TypeSlot::Tensor(Out))),
        f("AElementwiseOperation", V::ElementOp(In)),
        f("BElementwiseOperation", V::ElementOp(Wei)),
        f("CDEElementwiseOperation", V::ElementOp(Out)),
        f("ConvForwardSpecialization", V::ConvSpec),
        f("GemmSpec", V::GemmSpec),
    ]
}

/// NDimSpatial through DoPadGemmN of the bwd-data ops (Out/Wei/Ds/In order).
fn bwd_data_head() -> Vec<Field> {
    let mut v = bwd_data_types_and_spec();
    v.extend([
        f("DoPadGemmM", V::Flag(Fl::PadGemmM, ZeroOne)),
        f("DoPadGemmN", V::Flag(Fl::PadGemmN, ZeroOne)),
    ]);
    v
}

/// NDimSpatial through the ConvSpec of the bwd-data ops.
fn bwd_data_types_and_spec() -> Vec<Field> {
    vec![
        f("NDimSpatial", V::NDim),
        f("OutLayout", V::Layout(Out)),
        f("WeiLayout", V::Layout(Wei)),
        f("DsLayout", V::DsLayouts),
        f("InLayout", V::Layout(In)),
        f("OutDataType", V::Type(TypeSlot::Tensor(Out))),
        f("WeiDataType", V::Type(TypeSlot::Tensor(Wei))),
        f("AccDataType", V::Type(TypeSlot::Acc)),
        f("DsDataType", V::DsTypes),
        f("InDataType", V::Type(TypeSlot::Tensor(In))),
        f("OutElementwiseOperation", V::ElementOp(Out)),
        f("WeiElementwiseOperation", V::ElementOp(Wei)),
        f("InElementwiseOperation", V::ElementOp(In)),
        f("ConvBackwardDataSpecialization", V::ConvSpec),
    ]
}

fn compute_types(a: &'static str, b: &'static str) -> [Field; 2] {
    [
        f(a, V::Type(TypeSlot::ComputeA)),
        f(b, V::Type(TypeSlot::ComputeB)),
    ]
}

fn sched_ver() -> [Field; 2] {
    [
        f("BlkGemmPipeSched", V::Scheduler),
        f("BlkGemmPipelineVer", V::BlockGemmVersion),
    ]
}

fn transpose(prefix: &'static str) -> [Field; 2] {
    match prefix {
        "Max" => [
            f(
                "MaxTransposeTransferSrcScalarPerVector",
                V::Int(I::TransposeSrc),
            ),
            f(
                "MaxTransposeTransferDstScalarPerVector",
                V::Int(I::TransposeDst),
            ),
        ],
        _ => [
            f(
                "TransposeTransferSrcScalarPerVector",
                V::Int(I::TransposeSrc),
            ),
            f(
                "TransposeTransferDstScalarPerVector",
                V::Int(I::TransposeDst),
            ),
        ],
    }
}

const K0: (&str, IntField) = ("K0PerBlock", I::K0);
/// V3-family ops label K per block `K0PerBlock`.
const K0_AS_K: (&str, IntField) = ("K0PerBlock", I::TileK);
const KPB: (&str, IntField) = ("KPerBlock", I::TileK);

/// The old-CK bwd-weight XDL body shared by v1, V3, two-stage and multiple-D.
fn bwd_weight_xdl(ds: bool, k: (&'static str, IntField)) -> Vec<Field> {
    let mut v = bwd_weight_head(ds);
    v.extend(gemm(
        true,
        Gemm {
            k,
            k1: &["K1"],
            mma: XDL,
        },
    ));
    v.extend(transfers_k0(TrueFalse));
    v.extend(cshuffle(C_XDL));
    v
}

/// The bwd-weight WMMA V3 body shared by WMMA V3, two-stage and multiple-D.
fn bwd_weight_wmma_v3(ds: bool) -> Vec<Field> {
    let mut v = bwd_weight_head(ds);
    v.extend(gemm(
        true,
        Gemm {
            k: KPB,
            k1: &["ABK1"],
            mma: WMMA,
        },
    ));
    v.extend(transfers_ak0(["ABlockLdsAddExtraM", "BBlockLdsAddExtraN"]));
    v.extend(cshuffle(C_WMMA));
    v
}

/// The CK-Tile field list; `split_image` and the StreamK suffix vary by layout.
fn tile(split_image: bool, streamk: bool, large_tensor: bool) -> Vec<Field> {
    let mut v = vec![
        f("NDimSpatial", V::NDim),
        f("ConvSpecialization", V::ConvSpec),
        f("InLayout", V::Layout(In)),
        f("WeiLayout", V::Layout(Wei)),
        f("DsLayout", V::DsLayouts),
        f("OutLayout", V::Layout(Out)),
        f("VectorSizeA", V::Int(I::TileVector(0))),
        f("VectorSizeB", V::Int(I::TileVector(1))),
        f("VectorSizeC", V::Int(I::TileVector(2))),
        f("NumGroupsToMerge", V::Int(I::MergeGroups)),
    ];
    if split_image {
        v.push(f("EnableSplitImage", V::Flag(Fl::SplitImage, ZeroOne)));
    }
    v.extend([
        f("ExplicitGemm", V::Flag(Fl::ExplicitGemm, ZeroOne)),
        f("MPerBlock", V::Int(I::TileM)),
        f("NPerBlock", V::Int(I::TileN)),
        f("KPerBlock", V::Int(I::TileK)),
        f("MWarp", V::Int(I::WarpsM)),
        f("NWarp", V::Int(I::WarpsN)),
        f("KWarp", V::Int(I::WarpsK)),
        f("MWarpTile", V::Int(I::MmaM)),
        f("NWarpTile", V::Int(I::MmaN)),
        f("KWarpTile", V::Int(I::MmaK)),
        f("ADataType", V::Type(TypeSlot::Tensor(A))),
        f("BDataType", V::Type(TypeSlot::Tensor(B))),
        f("BlkGemmPipelineVer", V::TilePipeline),
        f("BlkGemmPipeSched", V::Scheduler),
        f("DoubleSmemBuffer", V::Flag(Fl::DoubleSmemBuffer, ZeroOne)),
        f("NumWaveGroups", V::Int(I::WaveGroups)),
        f("AccDataType", V::Type(TypeSlot::Acc)),
        f("EDataType", V::Type(TypeSlot::Tensor(E))),
        f("DsDataType", V::DsTypes),
        f("CDEElementwiseOperation", V::ElementOp(E)),
    ]);
    if streamk {
        v.push(f("IsStreamK", V::StreamK));
    }
    if large_tensor {
        v.push(f("LargeTensors", V::Flag(Fl::LargeTensor, ZeroOne)));
    }
    v
}

fn dl_transfer(side: Side) -> Vec<Field> {
    let names: [&'static str; 7] = match side {
        Side::A => [
            "ABlockTransferThreadSliceLengths_K0_M0_M1_K1",
            "ABlockTransferThreadClusterLengths_K0_M0_M1_K1",
            "ABlockTransferThreadClusterArrangeOrder",
            "ABlockTransferSrcAccessOrder",
            "ABlockTransferSrcVectorTensorLengths_K0_M0_M1_K1",
            "ABlockTransferSrcVectorTensorContiguousDimOrder",
            "ABlockTransferDstVectorTensorLengths_K0_M0_M1_K1",
        ],
        Side::B => [
            "BBlockTransferThreadSliceLengths_K0_N0_N1_K1",
            "BBlockTransferThreadClusterLengths_K0_N0_N1_K1",
            "BBlockTransferThreadClusterArrangeOrder",
            "BBlockTransferSrcAccessOrder",
            "BBlockTransferSrcVectorTensorLengths_K0_N0_N1_K1",
            "BBlockTransferSrcVectorTensorContiguousDimOrder",
            "BBlockTransferDstVectorTensorLengths_K0_N0_N1_K1",
        ],
    };
    let parts = [
        DlPart::Slice,
        DlPart::Cluster,
        DlPart::Arrange,
        DlPart::Access,
        DlPart::SrcVector,
        DlPart::SrcOrder,
        DlPart::DstVector,
    ];
    names
        .iter()
        .zip(parts)
        .map(|(n, p)| f(n, V::Seq(Sq::Dl(side, p))))
        .collect()
}

/// The DL body after the head: block, tile, per-thread sizes, clusters and transfers.
fn dl_body() -> Vec<Field> {
    let mut v = vec![
        f("BlockSize", V::Int(I::Block)),
        f("MPerBlock", V::Int(I::TileM)),
        f("NPerBlock", V::Int(I::TileN)),
        f("K0PerBlock", V::Int(I::K0)),
        f("K1", V::Int(I::K1)),
        f("M1PerThread", V::Int(I::DlM1PerThread)),
        f("N1PerThread", V::Int(I::DlN1PerThread)),
        f("KPerThread", V::Int(I::DlKPerThread)),
        f("M1N1ThreadClusterM1Xs", V::Seq(Sq::DlClusterM1)),
        f("M1N1ThreadClusterN1Xs", V::Seq(Sq::DlClusterN1)),
    ];
    v.extend(dl_transfer(Side::A));
    v.extend(dl_transfer(Side::B));
    v.extend([
        f(
            "CThreadTransferSrcDstAccessOrder",
            V::Seq(Sq::DlCAccessOrder),
        ),
        f("CThreadTransferSrcDstVectorDim", V::Int(I::DlCVectorDim)),
        f("CThreadTransferDstScalarPerVector", V::Int(I::DlCVector)),
    ]);
    v
}

impl CkFormat {
    /// The fields in template order.
    pub fn fields(self) -> Vec<Field> {
        use CkFormat::*;
        let mut v;
        match self {
            BwdWeightXdl => {
                v = bwd_weight_xdl(false, K0);
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                v.extend(transpose("Max"));
            }
            BwdWeightXdlV3Fields43 | BwdWeightXdlV3Fields45 | BwdWeightXdlV3Fields46 => {
                v = bwd_weight_xdl(false, K0_AS_K);
                v.extend(sched_ver());
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                let spelling = if self == BwdWeightXdlV3Fields45 {
                    ZeroOne
                } else {
                    TrueFalse
                };
                if self != BwdWeightXdlV3Fields43 {
                    v.push(f("DirectLoad", V::Flag(Fl::DirectLoad, spelling)));
                    v.push(f("NumGroupsToMerge", V::Int(I::MergeGroups)));
                }
                if self == BwdWeightXdlV3Fields46 {
                    v.push(f("LargeTensors", V::Flag(Fl::LargeTensor, TrueFalse)));
                }
            }
            BwdWeightTwoStageXdl => {
                v = bwd_weight_xdl(false, KPB);
                v.extend(sched_ver());
                v.push(f("NumGroupsToMerge", V::Int(I::MergeGroups)));
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                v.extend(transpose(""));
            }
            BwdWeightWmmaV3 => {
                v = bwd_weight_wmma_v3(false);
                v.extend(sched_ver());
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                v.extend(transpose("Max"));
            }
            BwdWeightTwoStageWmma => {
                v = bwd_weight_wmma_v3(false);
                v.extend(sched_ver());
                v.push(f("NumGroupsToMerge", V::Int(I::MergeGroups)));
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                v.extend(transpose(""));
            }
            BwdWeightMultipleDXdl => {
                v = bwd_weight_xdl(true, K0);
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
            }
            BwdWeightMultipleDWmma => {
                v = bwd_weight_wmma_v3(true);
                v.extend(sched_ver());
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
            }
            BwdWeightWmma => {
                v = bwd_weight_head(false);
                v.extend(gemm(
                    true,
                    Gemm {
                        k: K0,
                        k1: &["K1"],
                        mma: WMMA_V1,
                    },
                ));
                v.extend(transfers_k0(TrueFalse));
                v.extend(cshuffle(C_WMMA));
                v.extend([
                    f("NumGemmKPrefetchStage", V::Int(I::Prefetch)),
                    f("LoopSched", V::LoopScheduler),
                    f("PipelineVer", V::WmmaPipelineVersion),
                ]);
            }
            BwdWeightDl => {
                v = bwd_weight_head(false);
                v.extend(dl_body());
            }
            BwdWeightWavelet => {
                v = bwd_weight_head(false);
                v.extend([
                    f("NumGemmKPrefetchStage", V::Int(I::Prefetch)),
                    f("TileLoadThreadGroupSize", V::Int(I::WaveletLoad)),
                    f("TileMathThreadGroupSize", V::Int(I::WaveletMath)),
                ]);
                v.extend(gemm(
                    false,
                    Gemm {
                        k: K0_AS_K,
                        k1: &["K1"],
                        mma: XDL,
                    },
                ));
                v.extend(transfers_k0(TrueFalse));
                v.extend(cshuffle(C_XDL));
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                v.push(f("NumGroupsToMerge", V::Int(I::MergeGroups)));
            }
            BwdWeightExplicit => {
                v = bwd_weight_head(false);
                v.extend(gemm(
                    true,
                    Gemm {
                        k: KPB,
                        k1: &["K1"],
                        mma: XDL,
                    },
                ));
                v.extend(transfers_ak0(["ABlockLdsExtraM", "BBlockLdsExtraN"]));
                v.extend(cshuffle(C_XDL));
                v.extend(sched_ver());
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
            }
            TileBwdWeightA => v = tile(true, false, false),
            TileBwdWeightB => v = tile(true, true, false),
            TileBwdWeightC => v = tile(false, true, false),
            TileBwdWeightD => v = tile(false, true, true),
            TileFwd | TileBwdData => v = tile(true, false, false),
            TileFwdFields30 => v = tile(false, false, false),
            FwdXdl | FwdXdlZeroOne | FwdLargeTensor | FwdLargeTensorZeroOne => {
                let lds = if matches!(self, FwdXdl | FwdLargeTensor) {
                    TrueFalse
                } else {
                    ZeroOne
                };
                v = fwd_head();
                v.push(f("NumGemmKPrefetchStage", V::Int(I::Prefetch)));
                v.extend(gemm(
                    true,
                    Gemm {
                        k: KPB,
                        k1: &["AK1", "BK1"],
                        mma: XDL,
                    },
                ));
                v.extend(transfers_fwd(lds));
                v.extend(cshuffle(C_FWD_XDL));
                v.extend(compute_types("AComputeDataType", "BComputeDataType"));
                v.push(f("LoopSched", V::LoopScheduler));
                if matches!(self, FwdXdl | FwdXdlZeroOne) {
                    v.push(f("NumGroupsToMerge", V::Int(I::MergeGroups)));
                }
            }
            FwdXdlV3Fields50 | FwdXdlV3Fields49 => {
                let lds = if self == FwdXdlV3Fields50 {
                    TrueFalse
                } else {
                    ZeroOne
                };
                v = fwd_head();
                v.extend(gemm(
                    true,
                    Gemm {
                        k: KPB,
                        k1: &["AK1", "BK1"],
                        mma: XDL,
                    },
                ));
                v.extend(transfers_fwd(lds));
                v.extend(cshuffle(C_FWD_XDL));
                v.extend(sched_ver());
                v.extend(compute_types("AComputeDataType", "BComputeDataType"));
                v.push(f("DirectLoad", V::Flag(Fl::DirectLoad, TrueFalse)));
                if self == FwdXdlV3Fields50 {
                    v.push(f("NumGroupsToMerge", V::Int(I::MergeGroups)));
                }
            }
            FwdWmma => {
                v = fwd_head();
                v.push(f("NumGemmKPrefetchStage", V::Int(I::Prefetch)));
                v.extend(gemm(
                    true,
                    Gemm {
                        k: KPB,
                        k1: &["K1"],
                        mma: WMMA,
                    },
                ));
                v.extend(transfers_fwd(TrueFalse));
                v.extend(cshuffle(C_FWD_WMMA));
                v.push(f("LoopSched", V::LoopScheduler));
                v.push(f("PipelineVer", V::WmmaPipelineVersion));
            }
            FwdWmmaV3 => {
                v = fwd_head();
                v.extend(gemm(
                    true,
                    Gemm {
                        k: KPB,
                        k1: &["AK1", "BK1"],
                        mma: WMMA,
                    },
                ));
                v.extend(transfers_fwd(TrueFalse));
                let mut c = C_FWD_XDL;
                c[0] = C_WMMA[0];
                c[1] = C_WMMA[1];
                v.extend(cshuffle(c));
                v.extend(sched_ver());
                v.push(f(
                    "UseThreadTileTransfer",
                    V::Flag(Fl::ThreadTileTransfer, TrueFalse),
                ));
                v.extend(compute_types("AComputeDataType", "BComputeDataType"));
                v.push(f("NumGroupsToMerge", V::Int(I::MergeGroups)));
            }
            FwdDl => {
                v = vec![
                    f("NDimSpatial", V::NDim),
                    f("ADataType", V::Type(TypeSlot::Tensor(In))),
                    f("BDataType", V::Type(TypeSlot::Tensor(Wei))),
                    f("DsDataType", V::DsTypes),
                    f("EDataType", V::Type(TypeSlot::Tensor(Out))),
                    f("AccDataType", V::Type(TypeSlot::Acc)),
                    f("ALayout", V::Layout(In)),
                    f("BLayout", V::Layout(Wei)),
                    f("DsLayout", V::DsLayouts),
                    f("ELayout", V::Layout(Out)),
                    f("AElementwiseOperation", V::ElementOp(In)),
                    f("BElementwiseOperation", V::ElementOp(Wei)),
                    f("CDEElementwiseOperation", V::ElementOp(Out)),
                    f("ConvForwardSpecialization", V::ConvSpec),
                    f("GemmSpec", V::GemmSpec),
                ];
                v.extend(dl_body());
            }
            BwdDataXdl => {
                v = bwd_data_head();
                v.push(f("NumGemmKPrefetchStage", V::Int(I::Prefetch)));
                v.extend(gemm(
                    true,
                    Gemm {
                        k: K0_AS_K,
                        k1: &["AK1", "BK1"],
                        mma: XDL,
                    },
                ));
                v.extend(transfers_k0_ab());
                v.extend(cshuffle(C_XDL));
                v.push(f("NumGemmKPrefetchStage", V::PrefetchAgain));
                v.push(f("LoopSched", V::LoopScheduler));
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                v.extend(transpose("Max"));
            }
            BwdDataWmmaV3 => {
                v = bwd_data_head();
                v.extend(gemm(
                    true,
                    Gemm {
                        k: K0_AS_K,
                        k1: &["AK1", "BK1"],
                        mma: WMMA,
                    },
                ));
                v.extend(transfers_ak0(["ABlockLdsExtraM", "BBlockLdsExtraN"]));
                v.extend(cshuffle(C_BWD_DATA_WMMA));
                v.extend(sched_ver());
                v.extend(compute_types("ComputeTypeA", "ComputeTypeB"));
                v.extend(transpose("Max"));
            }
            BwdDataWmma => {
                v = bwd_data_types_and_spec();
                v.extend(gemm(
                    true,
                    Gemm {
                        k: K0,
                        k1: &["K1"],
                        mma: WMMA_V1,
                    },
                ));
                v.extend(transfers_ak0(["ABlockLdsExtraM", "BBlockLdsExtraN"]));
                v.extend(cshuffle(C_BWD_DATA_WMMA));
                // The string prints the loop scheduler before the prefetch count; the template
                // takes them the other way round (`ck_cpp::template_order`).
                v.extend([
                    f("LoopSched", V::LoopScheduler),
                    f("NumGemmKPrefetchStage", V::Int(I::Prefetch)),
                    f("PipelineVer", V::WmmaPipelineVersion),
                ]);
            }
        }
        v
    }
}

/// Bwd-data XDL transfers: K0_M_K1 cluster names with `_AK1` / `_BK1` destinations.
fn transfers_k0_ab() -> Vec<Field> {
    let mut v = transfer(
        Side::A,
        [
            "ABlockTransferThreadClusterLengths_K0_M_K1",
            "ABlockTransferDstScalarPerVector_AK1",
            "ABlockLdsAddExtraM",
        ],
        TrueFalse,
    );
    v.extend(transfer(
        Side::B,
        [
            "BBlockTransferThreadClusterLengths_K0_N_K1",
            "BBlockTransferDstScalarPerVector_BK1",
            "BBlockLdsAddExtraN",
        ],
        TrueFalse,
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Field counts as documented per variant (CK-Tile counted without the StreamK tail).
    #[test]
    fn field_counts_match_the_documented_formats() {
        use CkFormat::*;
        let expected = [
            (BwdWeightXdl, 43),
            (BwdWeightXdlV3Fields43, 43),
            (BwdWeightXdlV3Fields45, 45),
            (BwdWeightXdlV3Fields46, 46),
            (BwdWeightTwoStageXdl, 46),
            (BwdWeightWmmaV3, 45),
            (BwdWeightTwoStageWmma, 46),
            (BwdWeightMultipleDXdl, 43),
            (BwdWeightMultipleDWmma, 45),
            (BwdWeightWmma, 42),
            (BwdWeightDl, 39),
            (TileBwdWeightA, 31),
            (TileBwdWeightB, 32),
            (TileBwdWeightC, 31),
            (TileBwdWeightD, 32),
            (FwdXdl, 49),
            (FwdXdlZeroOne, 49),
            (FwdXdlV3Fields50, 50),
            (FwdXdlV3Fields49, 49),
            (FwdLargeTensor, 48),
            (FwdLargeTensorZeroOne, 48),
            (FwdWmma, 46),
            (FwdWmmaV3, 50),
            (FwdDl, 42),
            (TileFwd, 31),
            (TileFwdFields30, 30),
            (BwdDataXdl, 51),
            (BwdDataWmmaV3, 50),
            (BwdDataWmma, 44),
            (TileBwdData, 31),
        ];
        for (format, count) in expected {
            assert_eq!(format.fields().len(), count, "{format:?}");
        }
    }

    #[test]
    fn every_op_and_kind_has_exactly_one_default() {
        for &format in CkFormat::ALL {
            let defaults = variants(format.op(), format.kind())
                .iter()
                .filter(|f| f.is_default())
                .count();
            assert_eq!(defaults, 1, "{format:?}");
        }
    }

    #[test]
    fn variant_names_are_unique_per_op_and_kind() {
        for &format in CkFormat::ALL {
            let same = variants(format.op(), format.kind())
                .iter()
                .filter(|f| f.variant_name() == format.variant_name())
                .count();
            assert_eq!(same, 1, "{format:?}");
        }
    }

    #[test]
    fn check_format_resolves_defaults_and_rejects_unknown_names() {
        assert_eq!(
            check_format(Op::BwdWeight, Kind::XdlV3, None),
            Ok(CkFormat::BwdWeightXdlV3Fields45)
        );
        assert_eq!(
            check_format(Op::BwdWeight, Kind::XdlV3, Some("46")),
            Ok(CkFormat::BwdWeightXdlV3Fields46)
        );
        assert_eq!(
            check_format(Op::BwdWeight, Kind::Tile, None),
            Ok(CkFormat::TileBwdWeightB)
        );
        let err = check_format(Op::BwdWeight, Kind::XdlV3, Some("44"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("\"43\", \"45\", \"46\"") || err.contains("\"45\", \"43\", \"46\""),
            "{err}"
        );
        assert!(check_format(Op::BwdData, Kind::XdlV3, None).is_err());
    }
}
