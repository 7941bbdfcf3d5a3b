//! The vocabulary shared by the language, the IR, the emitters and the runtime: one enum per
//! concept, each value with its `.ck` keyword.

use serde::{Deserialize, Serialize};

/// Declares an enum whose values are spelled in `.ck` source by the given keywords.
macro_rules! keyword_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $kw:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $kw)] $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The `.ck` keyword.
            pub fn keyword(self) -> &'static str {
                match self { $($name::$variant => $kw,)* }
            }

            pub fn from_keyword(word: &str) -> Option<Self> {
                match word { $($kw => Some($name::$variant),)* _ => None }
            }

            /// Every keyword, for "expected one of" messages and the language reference.
            pub fn keywords() -> impl Iterator<Item = &'static str> {
                Self::ALL.iter().map(|v| v.keyword())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.keyword())
            }
        }
    };
}

keyword_enum! {
    /// The convolution direction.
    Op {
        Fwd = "fwd",
        BwdData = "bwd_data",
        BwdWeight = "bwd_weight",
    }
}

keyword_enum! {
    /// The device-op family. Together with [`Op`] it names one CK device op (see `ops.rs`).
    Kind {
        /// `..._Xdl_CShuffle` (bwd-weight v1, fwd MultipleABD XDL)
        Xdl = "xdl",
        /// `..._Xdl_CShuffleV3` / `_Xdl_CShuffle_V3`
        XdlV3 = "xdl_v3",
        /// `DeviceGroupedConvBwdWeightTwoStage_Xdl_CShuffle`
        XdlTwoStage = "xdl_two_stage",
        /// `...MultipleD_Xdl_CShuffle` (bwd-weight, bwd-data)
        XdlMultipleD = "xdl_multiple_d",
        /// `DeviceGroupedConvFwdMultipleD_Xdl_CShuffle_Large_Tensor`
        XdlLargeTensor = "xdl_large_tensor",
        /// `..._Wmma_CShuffle` (non-V3)
        Wmma = "wmma",
        /// `..._Wmma_CShuffleV3` / `_Wmma_CShuffle_V3`
        WmmaV3 = "wmma_v3",
        /// `DeviceGroupedConvBwdWeightTwoStage_Wmma_CShuffleV3`
        WmmaTwoStage = "wmma_two_stage",
        /// `...MultipleD_Wmma_CShuffleV3`
        WmmaMultipleD = "wmma_multiple_d",
        /// `..._Dl` / `DeviceGroupedConvFwdDlMultipleD_NHWC_KYXC_NHWK`
        Dl = "dl",
        /// `DeviceGroupedConvBwdWeight_Explicit_Xdl`: a batched GEMM over 1x1 convolutions
        ExplicitGemm = "explicit_gemm",
        /// `DeviceGroupedConvBwdWeight_Xdl_WaveletModel_CShuffleV3`: load/math wave specialization
        Wavelet = "wavelet",
        /// CK-Tile `GroupedConvolution{Forward,BackwardData,BackwardWeight}Kernel`
        Tile = "tile",
    }
}

keyword_enum! {
    /// Tensor layouts, CK's names. Input, weight and output layouts of every dimensionality.
    Layout {
        Nwgc = "nwgc", Nhwgc = "nhwgc", Ndhwgc = "ndhwgc",
        Gnwc = "gnwc", Gnhwc = "gnhwc", Gndhwc = "gndhwc",
        Ngcw = "ngcw", Ngchw = "ngchw", Ngcdhw = "ngcdhw",
        Gkxc = "gkxc", Gkyxc = "gkyxc", Gkzyxc = "gkzyxc",
        Gkcx = "gkcx", Gkcyx = "gkcyx", Gkczyx = "gkczyx",
        Nwgk = "nwgk", Nhwgk = "nhwgk", Ndhwgk = "ndhwgk",
        Gnwk = "gnwk", Gnhwk = "gnhwk", Gndhwk = "gndhwk",
        Ngkw = "ngkw", Ngkhw = "ngkhw", Ngkdhw = "ngkdhw",
        /// Bias-style D tensor: one value per group and channel.
        Gc = "gc",
        /// D tensor of one value per group and output channel, broadcast over the batch and the
        /// output positions (CK's `G_K`).
        GK = "g_k",
    }
}

keyword_enum! {
    DataType {
        Fp32 = "fp32",
        Tf32 = "tf32",
        Fp16 = "fp16",
        Bf16 = "bf16",
        Fp8 = "fp8",
        Bf8 = "bf8",
        Int8 = "int8",
        Int32 = "int32",
        Fp64 = "fp64",
    }
}

impl DataType {
    /// Storage size of one element in bytes (tf32 is stored as fp32).
    pub fn bytes(self) -> u32 {
        match self {
            DataType::Fp64 => 8,
            DataType::Fp32 | DataType::Tf32 | DataType::Int32 => 4,
            DataType::Fp16 | DataType::Bf16 => 2,
            DataType::Fp8 | DataType::Bf8 | DataType::Int8 => 1,
        }
    }

    /// The type of its elements in memory: tf32 data is fp32 whose products may be rounded to
    /// tf32's 10 mantissa bits; every other type is its own.
    pub fn storage(self) -> DataType {
        match self {
            DataType::Tf32 => DataType::Fp32,
            t => t,
        }
    }
}

keyword_enum! {
    /// Element-wise operations applied to a tensor on load or store (CK's
    /// `ck::tensor_operation::element_wise`; `runtime/src/elementwise.rs` computes each).
    ElementOp {
        PassThrough = "pass_through",
        Scale = "scale",
        Bilinear = "bilinear",
        Add = "add",
        AddRelu = "add_relu",
        Relu = "relu",
        /// `ConvScale`: `e = fp8(c · scale_in · scale_wei · scale_out)`.
        ConvScale = "conv_scale",
        /// `ConvScaleRelu`: `e = fp8(relu(c · scale_in · scale_wei) · scale_out)`.
        ConvScaleRelu = "conv_scale_relu",
        /// `ConvScaleAdd`: `e = fp8((c · scale_in · scale_wei + d) · scale_out)`, one D tensor.
        ConvScaleAdd = "conv_scale_add",
        /// `ConvInvscale`: `e = fp8(c / scale_in / scale_wei / scale_out)`.
        ConvInvscale = "conv_invscale",
        /// `ScaleScalePass` = `UnaryCombinedOp<Scale, Scale, PassThrough>`: two scales in turn.
        ScaleScalePass = "scale_scale_pass",
        /// `ScaleScaleRelu` = `UnaryCombinedOp<Scale, Scale, Relu>`: two scales, then relu.
        ScaleScaleRelu = "scale_scale_relu",
        /// `ScaleAdd`: `y = scale · x0 + x1`; combines two tensors (the sources of a
        /// multiple-A/B op, or the result and one D tensor).
        ScaleAdd = "scale_add",
        /// `ScaleAddScaleAddRelu`: `e = relu(alpha1 · c + alpha2 · d0 + d1)`, two D tensors.
        ScaleAddScaleAddRelu = "scale_add_scale_add_relu",
    }
}

impl ElementOp {
    /// How many values the op combines: 1 for unary ops, 2 for the binary ones (the result and
    /// one D tensor, or two source tensors), 3 for `ScaleAddScaleAddRelu`.
    pub fn operands(self) -> usize {
        match self {
            ElementOp::PassThrough
            | ElementOp::Scale
            | ElementOp::Relu
            | ElementOp::ConvScale
            | ElementOp::ConvScaleRelu
            | ElementOp::ConvInvscale
            | ElementOp::ScaleScalePass
            | ElementOp::ScaleScaleRelu => 1,
            ElementOp::Bilinear
            | ElementOp::Add
            | ElementOp::AddRelu
            | ElementOp::ConvScaleAdd
            | ElementOp::ScaleAdd => 2,
            ElementOp::ScaleAddScaleAddRelu => 3,
        }
    }

    /// The D tensors the op takes as a GEMM result's op.
    pub fn d_tensors(self) -> usize {
        self.operands() - 1
    }

    /// The fp8 output ops of CK's `ConvScale` family, defined only from an fp32 result into
    /// fp8 (`operator()<f8_t, float>` in `unary_element_wise_operation.hpp`,
    /// `binary_element_wise_operation.hpp`).
    pub fn fp8_output(self) -> bool {
        matches!(
            self,
            ElementOp::ConvScale
                | ElementOp::ConvScaleRelu
                | ElementOp::ConvScaleAdd
                | ElementOp::ConvInvscale
        )
    }
}

keyword_enum! {
    /// Convolution specialization (CK's ConvolutionForward/BackwardData/BackwardWeightSpecialization).
    ConvSpec {
        Default = "default",
        Filter1x1Stride1Pad0 = "filter1x1_stride1_pad0",
        Filter1x1Pad0 = "filter1x1_pad0",
        OddC = "odd_c",
        Filter3x3 = "filter3x3",
    }
}

keyword_enum! {
    /// GEMM padding specialization of the old-CK forward and backward-data ops.
    GemmSpec {
        Default = "default",
        MPadding = "m_padding",
        NPadding = "n_padding",
        KPadding = "k_padding",
        MnPadding = "mn_padding",
        MkPadding = "mk_padding",
        NkPadding = "nk_padding",
        MnkPadding = "mnk_padding",
    }
}

keyword_enum! {
    /// Block-GEMM pipeline scheduler.
    Scheduler {
        Intrawave = "intrawave",
        Interwave = "interwave",
    }
}

keyword_enum! {
    /// Loop scheduler of the old non-V3 ops (`LoopScheduler`).
    LoopScheduler {
        Default = "default",
        Interwave = "interwave",
    }
}

keyword_enum! {
    /// Pipeline version: old-CK block-GEMM versions, old-WMMA versions and CK-Tile pipelines.
    PipelineVersion {
        V1 = "v1",
        V2 = "v2",
        V3 = "v3",
        V4 = "v4",
        V5 = "v5",
        /// Old WMMA `PipelineVersion::weight_only`.
        WeightOnly = "weight_only",
        BasicV1 = "basic_v1",
        Mem = "mem",
        CompV3 = "compv3",
        CompV4 = "compv4",
        CompV5 = "compv5",
        CompV6 = "compv6",
        BasicAsyncV1 = "basic_async_v1",
        CompAsync = "comp_async",
        Wavelet = "wavelet",
    }
}

impl PipelineVersion {
    /// CK-Tile pipelines (the others are old-CK block-GEMM pipeline versions).
    pub fn is_tile(self) -> bool {
        use PipelineVersion::*;
        matches!(
            self,
            BasicV1 | Mem | CompV3 | CompV4 | CompV5 | CompV6 | BasicAsyncV1 | CompAsync | Wavelet
        )
    }
}

keyword_enum! {
    /// Target architectures: AMD (CDNA wave64 MFMA, RDNA wave32 WMMA) and NVIDIA for portable kernels.
    Arch {
        Gfx908 = "gfx908",
        Gfx90a = "gfx90a",
        Gfx942 = "gfx942",
        Gfx950 = "gfx950",
        Gfx1100 = "gfx1100",
        Gfx1101 = "gfx1101",
        Gfx1200 = "gfx1200",
        Gfx1201 = "gfx1201",
        Sm80 = "sm_80",
        Sm90 = "sm_90",
    }
}

keyword_enum! {
    /// StreamK fix-up strategy (CK-Tile `StreamKReductionStrategy`).
    Reduction {
        Atomic = "atomic",
        Linear = "linear",
        Tree = "tree",
    }
}

keyword_enum! {
    /// CK-Tile epilogue.
    Epilogue {
        Cshuffle = "cshuffle",
        Default = "default",
    }
}

/// The family an instance was expanded from, carried from the resolved spec into the validated
/// IR: its name and doc comment, the value of each `over` axis, and the row's name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyInfo {
    pub name: String,
    pub doc: Vec<String>,
    /// `(axis key, value as written)` for each `over` axis, in declaration order.
    pub axes: Vec<(String, String)>,
    pub row: Option<String>,
}
