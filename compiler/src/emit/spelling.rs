//! CK's spellings of the model's enums, in instance strings and in CK C++: one table per enum,
//! read in both directions.

use crate::model::*;

/// A value's instance-string spelling and its CK C++ spelling.
pub struct Spelled<T: 'static> {
    table: &'static [(T, &'static str, &'static str)],
}

impl<T: Copy + PartialEq> Spelled<T> {
    /// The instance-string spelling (None where CK has no such value).
    pub fn text(&self, v: T) -> Option<&'static str> {
        self.table.iter().find(|e| e.0 == v).map(|e| e.1)
    }

    /// The C++ spelling.
    pub fn cpp(&self, v: T) -> Option<&'static str> {
        self.table.iter().find(|e| e.0 == v).map(|e| e.2)
    }

    pub fn parse(&self, s: &str) -> Option<T> {
        self.table.iter().find(|e| e.1 == s).map(|e| e.0)
    }

    /// Every accepted spelling, for "expected one of" messages.
    pub fn expected(&self) -> String {
        let names: Vec<&str> = self.table.iter().map(|e| e.1).collect();
        names.join(", ")
    }
}

pub const DATA_TYPE: Spelled<DataType> = Spelled {
    table: &[
        (DataType::Fp16, "fp16", "F16"),
        (DataType::Bf16, "bf16", "BF16"),
        (DataType::Fp32, "fp32", "F32"),
        (DataType::Tf32, "tf32", "TF32"),
        (DataType::Fp8, "fp8", "F8"),
        (DataType::Bf8, "bf8", "BF8"),
        (DataType::Int8, "s8", "I8"),
        (DataType::Int32, "s32", "I32"),
        (DataType::Fp64, "fp64", "F64"),
    ],
};

pub const ELEMENT_OP: Spelled<ElementOp> = Spelled {
    table: &[
        (ElementOp::PassThrough, "PassThrough", "PassThrough"),
        (ElementOp::Scale, "Scale", "Scale"),
        (ElementOp::Bilinear, "Bilinear", "Bilinear"),
        (ElementOp::Add, "Add", "Add"),
        (ElementOp::AddRelu, "AddRelu", "AddRelu"),
        (ElementOp::Relu, "Relu", "Relu"),
        (ElementOp::ConvScale, "ConvScale", "ConvScale"),
        (ElementOp::ConvScaleRelu, "ConvScaleRelu", "ConvScaleRelu"),
        (ElementOp::ConvScaleAdd, "ConvScaleAdd", "ConvScaleAdd"),
        (ElementOp::ConvInvscale, "ConvInvscale", "ConvInvscale"),
        // CK's aliases of `UnaryCombinedOp<Scale, Scale, PassThrough|Relu>`.
        (
            ElementOp::ScaleScalePass,
            "ScaleScalePass",
            "ScaleScalePass",
        ),
        (
            ElementOp::ScaleScaleRelu,
            "ScaleScaleRelu",
            "ScaleScaleRelu",
        ),
        (ElementOp::ScaleAdd, "ScaleAdd", "ScaleAdd"),
        (
            ElementOp::ScaleAddScaleAddRelu,
            "ScaleAddScaleAddRelu",
            "ScaleAddScaleAddRelu",
        ),
    ],
};

pub const CONV_SPEC: Spelled<ConvSpec> = Spelled {
    table: &[
        (ConvSpec::Default, "Default", "Default"),
        (
            ConvSpec::Filter1x1Stride1Pad0,
            "Filter1x1Stride1Pad0",
            "Filter1x1Stride1Pad0",
        ),
        (ConvSpec::Filter1x1Pad0, "Filter1x1Pad0", "Filter1x1Pad0"),
        (ConvSpec::OddC, "OddC", "OddC"),
        (ConvSpec::Filter3x3, "Filter3x3", "Filter3x3"),
    ],
};

pub const GEMM_SPEC: Spelled<GemmSpec> = Spelled {
    table: &[
        (GemmSpec::Default, "Default", "Default"),
        (GemmSpec::MPadding, "MPadding", "MPadding"),
        (GemmSpec::NPadding, "NPadding", "NPadding"),
        (GemmSpec::KPadding, "KPadding", "KPadding"),
        (GemmSpec::MnPadding, "MNPadding", "MNPadding"),
        (GemmSpec::MkPadding, "MKPadding", "MKPadding"),
        (GemmSpec::NkPadding, "NKPadding", "NKPadding"),
        (GemmSpec::MnkPadding, "MNKPadding", "MNKPadding"),
    ],
};

pub const SCHEDULER: Spelled<Scheduler> = Spelled {
    table: &[
        (
            Scheduler::Intrawave,
            "Intrawave",
            "BlockGemmPipelineScheduler::Intrawave",
        ),
        (
            Scheduler::Interwave,
            "Interwave",
            "BlockGemmPipelineScheduler::Interwave",
        ),
    ],
};

pub const LOOP_SCHEDULER: Spelled<LoopScheduler> = Spelled {
    table: &[
        (LoopScheduler::Default, "Default", "LoopScheduler::Default"),
        (
            LoopScheduler::Interwave,
            "Interwave",
            "LoopScheduler::Interwave",
        ),
    ],
};

/// `ck::BlockGemmPipelineVersion`.
pub const BLOCK_GEMM_VERSION: Spelled<PipelineVersion> = Spelled {
    table: &[
        (PipelineVersion::V1, "v1", "BlockGemmPipelineVersion::v1"),
        (PipelineVersion::V2, "v2", "BlockGemmPipelineVersion::v2"),
        (PipelineVersion::V3, "v3", "BlockGemmPipelineVersion::v3"),
        (PipelineVersion::V4, "v4", "BlockGemmPipelineVersion::v4"),
        (PipelineVersion::V5, "v5", "BlockGemmPipelineVersion::v5"),
    ],
};

/// The old WMMA ops' `ck::PipelineVersion`.
pub const WMMA_PIPELINE_VERSION: Spelled<PipelineVersion> = Spelled {
    table: &[
        (PipelineVersion::V1, "v1", "PipelineVersion::v1"),
        (PipelineVersion::V2, "v2", "PipelineVersion::v2"),
        (PipelineVersion::V4, "v4", "PipelineVersion::v4"),
        (
            PipelineVersion::WeightOnly,
            "weight_only",
            "PipelineVersion::weight_only",
        ),
    ],
};

/// CK-Tile `GetPipelineName()`, with the dispatcher's lower-case pipeline name as second text.
pub const TILE_PIPELINE: Spelled<PipelineVersion> = Spelled {
    table: &[
        (PipelineVersion::BasicV1, "BASIC_V1", "basic_v1"),
        (PipelineVersion::Mem, "MEMORY", "mem"),
        (PipelineVersion::CompV3, "COMPUTE_V3", "compv3"),
        (PipelineVersion::CompV4, "COMPUTE_V4", "compv4"),
        (PipelineVersion::CompV5, "COMPUTE_V5", "compv5"),
        (PipelineVersion::CompV6, "COMPUTE_V6", "compv6"),
        (
            PipelineVersion::BasicAsyncV1,
            "BASIC_ASYNC_V1",
            "basic_async_v1",
        ),
        (PipelineVersion::CompAsync, "COMPUTE_ASYNC", "comp_async"),
        (PipelineVersion::Wavelet, "WAVELET", "wavelet"),
    ],
};

/// CK-Tile `StreamKReductionStrategy` printed as its integer.
pub const REDUCTION: Spelled<Reduction> = Spelled {
    table: &[
        (Reduction::Atomic, "0", "Atomic"),
        (Reduction::Linear, "1", "Linear"),
        (Reduction::Tree, "2", "Tree"),
    ],
};

/// CK's layout names are the keywords in upper case (`nhwgc` is `NHWGC`).
pub fn layout_text(l: Layout) -> String {
    l.keyword().to_ascii_uppercase()
}

pub fn parse_layout(s: &str) -> Option<Layout> {
    if s.bytes().any(|b| b.is_ascii_lowercase()) {
        return None;
    }
    Layout::from_keyword(&s.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_type_and_layout_round_trips() {
        for &t in DataType::ALL {
            let s = DATA_TYPE.text(t).unwrap();
            assert_eq!(DATA_TYPE.parse(s), Some(t));
        }
        for &l in Layout::ALL {
            assert_eq!(parse_layout(&layout_text(l)), Some(l));
        }
        assert_eq!(parse_layout("nhwgc"), None);
    }

    #[test]
    fn every_element_op_has_both_spellings() {
        for &op in ElementOp::ALL {
            let s = ELEMENT_OP.text(op).unwrap();
            assert_eq!(ELEMENT_OP.parse(s), Some(op));
            assert!(ELEMENT_OP.cpp(op).is_some(), "{op:?}");
        }
    }

    #[test]
    fn every_tile_pipeline_has_a_name() {
        for &p in PipelineVersion::ALL.iter().filter(|p| p.is_tile()) {
            assert!(TILE_PIPELINE.text(p).is_some(), "{p:?}");
        }
    }
}
