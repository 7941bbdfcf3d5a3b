//! The device-op table: which (op, kind) pairs name a CK device op, its class name, and the
//! features and layouts it accepts (ck-facts §1–§3, instance-string-formats §2).

use crate::model::{ConvSpec, Kind, Layout, Op, PipelineVersion};
use serde::Serialize;

/// Which matrix unit the op's GEMM is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Mma {
    /// XDL (MFMA) ops; V3-family ones also build a wave32 variant that runs on WMMA.
    Xdl,
    /// WMMA ops: RDNA only, 16x16 instructions.
    Wmma,
    /// DL: plain dot products, no matrix unit.
    Dl,
    /// CK-Tile kernels: warps and warp tiles instead of instructions and repeats.
    Tile,
}

/// Which pipeline parameters the op takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PipelineFamily {
    /// Old gridwise pipeline without a version field (v1 GEMM; optional `NumGemmKPrefetchStage`).
    Gridwise,
    /// `BlkGemmPipeSched` + `BlkGemmPipelineVer` v1..v5 (V3 family).
    BlockGemm,
    /// Old WMMA `LoopScheduler` + `PipelineVersion` (v1, v2, v4, weight_only).
    OldWmma,
    /// The wavelet load/math pipeline (`NumGemmKPrefetchStage` only).
    Wavelet,
    /// CK-Tile pipelines (basic_v1, mem, compv3..compv6, basic_async_v1, comp_async, wavelet).
    Tile,
}

impl PipelineFamily {
    /// Pipeline versions the family accepts.
    pub fn versions(self) -> &'static [PipelineVersion] {
        use PipelineVersion::*;
        match self {
            PipelineFamily::Gridwise => &[V1],
            PipelineFamily::BlockGemm => &[V1, V2, V3, V4, V5],
            PipelineFamily::OldWmma => &[V1, V2, V4, WeightOnly],
            PipelineFamily::Wavelet => &[Wavelet],
            PipelineFamily::Tile => &[
                BasicV1,
                Mem,
                CompV3,
                CompV4,
                CompV5,
                CompV6,
                BasicAsyncV1,
                CompAsync,
                Wavelet,
            ],
        }
    }

    pub fn default_version(self) -> PipelineVersion {
        match self {
            PipelineFamily::Tile => PipelineVersion::CompV3,
            PipelineFamily::Wavelet => PipelineVersion::Wavelet,
            _ => PipelineVersion::V1,
        }
    }
}

/// How `split_k` may be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SplitKSupport {
    /// No k_batch: split_k must be 1.
    None,
    /// Fixed k_batch only.
    Fixed,
    /// Fixed or `auto` (split_k < 0 in CK).
    FixedOrAuto,
}

/// Whether a feature is unavailable, optional, or always on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Support {
    No,
    Optional,
    Always,
}

/// Which layout triples an op accepts, by input-layout family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LayoutSupport {
    /// `N…GC` (NHWGC/GKYXC/NHWGK); 1-D only where `nwgc_1d`.
    pub nspatial_gc: bool,
    pub nwgc_1d: bool,
    /// `GN…C` (GNHWC/GKYXC/GNHWK).
    pub g_first: bool,
    /// `NGC…` (NGCHW/(GKYXC|GKCYX)/NGKHW), 2-D and 3-D.
    pub ngc: bool,
    /// Smallest spatial dimensionality accepted.
    pub min_dims: u32,
}

/// One CK device op and what it supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DeviceOp {
    pub op: Op,
    pub kind: Kind,
    /// The CK class (instance-string name).
    pub class: &'static str,
    pub mma: Mma,
    pub pipeline: PipelineFamily,
    /// Block-transfer clusters: `[KBatch, K0, M, K1]` (v1 GEMM, also written 3-D) or `[K0, M, K1]`.
    pub cluster_4d: bool,
    /// V3-family XDL ops also build a wave32 gridwise variant (RDNA via WMMA).
    pub wave32_variant: bool,
    /// Element ops must all be pass_through.
    pub pass_through_only: bool,
    /// D tensors (`ds.*`).
    pub ds: Support,
    pub split_k: SplitKSupport,
    pub two_stage: Support,
    pub merge_groups: bool,
    pub direct_load: bool,
    pub large_tensor: Support,
    pub streamk: bool,
    /// `NumGemmKPrefetchStage` is a template parameter.
    pub prefetch: bool,
    /// `MaxTransposeTransfer{Src,Dst}ScalarPerVector` are template parameters.
    pub transpose: bool,
    /// Separate AK1/BK1 (forward and backward-data ops).
    pub separate_k1: bool,
    /// GemmSpecialization is a template parameter.
    pub gemm_spec: bool,
    /// `DoPadGemmM/N` (backward data).
    pub pad_gemm: bool,
    pub layouts: LayoutSupport,
}

const OLD_BWD_W: LayoutSupport = LayoutSupport {
    nspatial_gc: true,
    nwgc_1d: false,
    g_first: true,
    ngc: true,
    min_dims: 1,
};
const V3_BWD_W: LayoutSupport = LayoutSupport {
    ngc: false,
    ..OLD_BWD_W
};
const EXPLICIT: LayoutSupport = LayoutSupport {
    nspatial_gc: true,
    nwgc_1d: false,
    g_first: false,
    ngc: false,
    min_dims: 2,
};
const TILE: LayoutSupport = LayoutSupport {
    nspatial_gc: true,
    nwgc_1d: true,
    g_first: false,
    ngc: false,
    min_dims: 1,
};
const FWD: LayoutSupport = LayoutSupport {
    nspatial_gc: true,
    nwgc_1d: true,
    g_first: true,
    ngc: true,
    min_dims: 1,
};
const BWD_D: LayoutSupport = LayoutSupport {
    nspatial_gc: true,
    nwgc_1d: true,
    g_first: true,
    ngc: true,
    min_dims: 1,
};

/// Baseline: a V3-family bwd-weight XDL op; rows below change what differs.
const BASE: DeviceOp = DeviceOp {
    op: Op::BwdWeight,
    kind: Kind::XdlV3,
    class: "DeviceGroupedConvBwdWeight_Xdl_CShuffleV3",
    mma: Mma::Xdl,
    pipeline: PipelineFamily::BlockGemm,
    cluster_4d: false,
    wave32_variant: true,
    pass_through_only: true,
    ds: Support::No,
    split_k: SplitKSupport::FixedOrAuto,
    two_stage: Support::No,
    merge_groups: true,
    direct_load: true,
    large_tensor: Support::Optional,
    streamk: false,
    prefetch: false,
    transpose: false,
    separate_k1: false,
    gemm_spec: false,
    pad_gemm: false,
    layouts: V3_BWD_W,
};

/// What the older bwd-weight ops (XDL V1, WMMA V3 and the rows built on them) change from
/// [`BASE`]: a fixed split-K, no merged groups, direct loads, large tensors or wave32 variant,
/// the transpose-transfer parameters, and the old ops' layouts.
const OLD_BASE: DeviceOp = DeviceOp {
    wave32_variant: false,
    split_k: SplitKSupport::Fixed,
    merge_groups: false,
    direct_load: false,
    large_tensor: Support::No,
    transpose: true,
    layouts: OLD_BWD_W,
    ..BASE
};

const V1: DeviceOp = DeviceOp {
    kind: Kind::Xdl,
    class: "DeviceGroupedConvBwdWeight_Xdl_CShuffle",
    pipeline: PipelineFamily::Gridwise,
    cluster_4d: true,
    pass_through_only: false,
    ..OLD_BASE
};

const WMMA_V3: DeviceOp = DeviceOp {
    kind: Kind::WmmaV3,
    class: "DeviceGroupedConvBwdWeight_Wmma_CShuffleV3",
    mma: Mma::Wmma,
    ..OLD_BASE
};

const TILE_BASE: DeviceOp = DeviceOp {
    kind: Kind::Tile,
    class: "GroupedConvolutionBackwardWeightKernel",
    mma: Mma::Tile,
    pipeline: PipelineFamily::Tile,
    wave32_variant: false,
    pass_through_only: false,
    ds: Support::Optional,
    two_stage: Support::Optional,
    direct_load: false,
    streamk: true,
    layouts: TILE,
    ..BASE
};

/// Forward and backward-data old-CK ops share this shape.
const FWD_BASE: DeviceOp = DeviceOp {
    op: Op::Fwd,
    kind: Kind::Xdl,
    class: "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle",
    pipeline: PipelineFamily::Gridwise,
    wave32_variant: false,
    pass_through_only: false,
    ds: Support::Optional,
    split_k: SplitKSupport::None,
    direct_load: false,
    large_tensor: Support::No,
    prefetch: true,
    separate_k1: true,
    gemm_spec: true,
    layouts: FWD,
    ..BASE
};

const BWD_DATA_XDL: DeviceOp = DeviceOp {
    op: Op::BwdData,
    kind: Kind::XdlMultipleD,
    class: "DeviceGroupedConvBwdDataMultipleD_Xdl_CShuffle",
    merge_groups: false,
    transpose: true,
    pad_gemm: true,
    layouts: BWD_D,
    ..FWD_BASE
};

static OPS: &[DeviceOp] = &[
    // Backward weight.
    V1,
    BASE,
    DeviceOp {
        kind: Kind::XdlTwoStage,
        class: "DeviceGroupedConvBwdWeightTwoStage_Xdl_CShuffle",
        two_stage: Support::Always,
        direct_load: false,
        large_tensor: Support::No,
        split_k: SplitKSupport::Fixed,
        transpose: true,
        layouts: OLD_BWD_W,
        ..BASE
    },
    DeviceOp {
        kind: Kind::XdlMultipleD,
        class: "DeviceGroupedConvBwdWeightMultipleD_Xdl_CShuffle",
        ds: Support::Always,
        transpose: false,
        layouts: V3_BWD_W,
        ..V1
    },
    DeviceOp {
        kind: Kind::Wmma,
        class: "DeviceGroupedConvBwdWeight_Wmma_CShuffle",
        mma: Mma::Wmma,
        pipeline: PipelineFamily::OldWmma,
        cluster_4d: false,
        prefetch: true,
        transpose: false,
        layouts: LayoutSupport {
            min_dims: 3,
            ..OLD_BWD_W
        },
        ..V1
    },
    WMMA_V3,
    DeviceOp {
        kind: Kind::WmmaTwoStage,
        class: "DeviceGroupedConvBwdWeightTwoStage_Wmma_CShuffleV3",
        two_stage: Support::Always,
        merge_groups: true,
        ..WMMA_V3
    },
    DeviceOp {
        kind: Kind::WmmaMultipleD,
        class: "DeviceGroupedConvBwdWeightMultipleD_Wmma_CShuffleV3",
        ds: Support::Always,
        pass_through_only: false,
        transpose: false,
        layouts: V3_BWD_W,
        ..WMMA_V3
    },
    DeviceOp {
        kind: Kind::Dl,
        class: "DeviceGroupedConvBwdWeight_Dl",
        mma: Mma::Dl,
        cluster_4d: false,
        transpose: false,
        // `IsSupportedArgument` takes N…GC at 1-D too (CK ships 1-D NWGC lists), and no NGC…
        // layout.
        layouts: LayoutSupport {
            nwgc_1d: true,
            ngc: false,
            ..OLD_BWD_W
        },
        ..V1
    },
    DeviceOp {
        kind: Kind::ExplicitGemm,
        class: "DeviceGroupedConvBwdWeight_Explicit_Xdl",
        split_k: SplitKSupport::Fixed,
        two_stage: Support::Optional,
        merge_groups: false,
        direct_load: false,
        large_tensor: Support::No,
        layouts: EXPLICIT,
        ..BASE
    },
    DeviceOp {
        kind: Kind::Wavelet,
        class: "DeviceGroupedConvBwdWeight_Xdl_WaveletModel_CShuffleV3",
        pipeline: PipelineFamily::Wavelet,
        direct_load: false,
        large_tensor: Support::No,
        prefetch: true,
        ..BASE
    },
    TILE_BASE,
    // Forward.
    FWD_BASE,
    DeviceOp {
        kind: Kind::XdlV3,
        class: "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle_V3",
        pipeline: PipelineFamily::BlockGemm,
        wave32_variant: true,
        direct_load: true,
        prefetch: false,
        ..FWD_BASE
    },
    DeviceOp {
        kind: Kind::XdlLargeTensor,
        class: "DeviceGroupedConvFwdMultipleD_Xdl_CShuffle_Large_Tensor",
        merge_groups: false,
        large_tensor: Support::Always,
        ..FWD_BASE
    },
    DeviceOp {
        kind: Kind::Wmma,
        class: "DeviceGroupedConvFwdMultipleD_Wmma_CShuffle",
        mma: Mma::Wmma,
        pipeline: PipelineFamily::OldWmma,
        merge_groups: false,
        separate_k1: false,
        ..FWD_BASE
    },
    DeviceOp {
        kind: Kind::WmmaV3,
        class: "DeviceGroupedConvFwdMultipleABD_Wmma_CShuffle_V3",
        mma: Mma::Wmma,
        pipeline: PipelineFamily::BlockGemm,
        prefetch: false,
        ..FWD_BASE
    },
    DeviceOp {
        kind: Kind::Dl,
        class: "DeviceGroupedConvFwdDlMultipleD_NHWC_KYXC_NHWK",
        mma: Mma::Dl,
        merge_groups: false,
        prefetch: false,
        separate_k1: false,
        // CK ships its DL forward instances in NHWGC and GNHWC layouts, none channels-first.
        layouts: LayoutSupport { ngc: false, ..FWD },
        ..FWD_BASE
    },
    DeviceOp {
        op: Op::Fwd,
        class: "GroupedConvolutionForwardKernel",
        two_stage: Support::No,
        streamk: false,
        ..TILE_BASE
    },
    // Backward data.
    BWD_DATA_XDL,
    DeviceOp {
        kind: Kind::WmmaMultipleD,
        class: "DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffleV3",
        mma: Mma::Wmma,
        pipeline: PipelineFamily::BlockGemm,
        prefetch: false,
        ..BWD_DATA_XDL
    },
    // The WMMA v1 template pads the GEMM always and has no GemmSpecialization; its
    // `static_assert` and `IsSupportedArgument` take 2-D and 3-D N…GK and GN…K gradients only.
    DeviceOp {
        kind: Kind::Wmma,
        class: "DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffle",
        mma: Mma::Wmma,
        pipeline: PipelineFamily::OldWmma,
        transpose: false,
        separate_k1: false,
        gemm_spec: false,
        pad_gemm: false,
        layouts: LayoutSupport {
            nwgc_1d: false,
            ngc: false,
            min_dims: 2,
            ..BWD_D
        },
        ..BWD_DATA_XDL
    },
    DeviceOp {
        op: Op::BwdData,
        class: "GroupedConvolutionBackwardDataKernel",
        two_stage: Support::No,
        streamk: false,
        ..TILE_BASE
    },
];

/// The device op `(op, kind)` names, if CK has one.
pub fn device_op(op: Op, kind: Kind) -> Option<&'static DeviceOp> {
    OPS.iter().find(|d| d.op == op && d.kind == kind)
}

/// Every kind that exists for `op`, in table order (for hints).
pub fn kinds_for(op: Op) -> Vec<Kind> {
    OPS.iter().filter(|d| d.op == op).map(|d| d.kind).collect()
}

/// Every op that has `kind`, in table order (for hints).
pub fn ops_for(kind: Kind) -> Vec<Op> {
    OPS.iter()
        .filter(|d| d.kind == kind)
        .map(|d| d.op)
        .collect()
}

impl DeviceOp {
    /// ConvSpecs the op's specialization enum has (ck-facts §2).
    pub fn specs(&self) -> &'static [ConvSpec] {
        use ConvSpec::*;
        match (self.op, self.kind) {
            (_, Kind::ExplicitGemm) => &[Filter1x1Stride1Pad0],
            (_, Kind::Tile) => &[Default, Filter1x1Pad0, Filter1x1Stride1Pad0, Filter3x3],
            (Op::Fwd, _) => &[
                Default,
                Filter1x1Pad0,
                Filter1x1Stride1Pad0,
                OddC,
                Filter3x3,
            ],
            (Op::BwdData, _) => &[Default, Filter1x1Stride1Pad0],
            (Op::BwdWeight, _) => &[Default, Filter1x1Stride1Pad0, Filter1x1Pad0, OddC],
        }
    }

    /// Whether the op reads `k` per block as K0 (v1 gridwise GEMM) rather than K per block;
    /// the IR always stores K per block.
    pub fn k_is_k0(&self) -> bool {
        self.cluster_4d || matches!(self.kind, Kind::Dl)
    }

    /// Whether a layout triple is accepted.
    pub fn accepts(&self, ndim: u32, layout: LayoutTriple) -> bool {
        let s = &self.layouts;
        let (input, weight, output) = (
            layout_info(layout.0),
            layout_info(layout.1),
            layout_info(layout.2),
        );
        if ndim < s.min_dims || [input.dims, weight.dims, output.dims] != [ndim; 3] {
            return false;
        }
        let family_ok = match input.family {
            LayoutFamily::NSpatialGC => s.nspatial_gc && (ndim > 1 || s.nwgc_1d),
            LayoutFamily::GNSpatialC => s.g_first,
            LayoutFamily::NGCSpatial => s.ngc && ndim > 1,
            _ => false,
        };
        let weight_ok = weight.family == LayoutFamily::GKSpatialC
            || (weight.family == LayoutFamily::GKCSpatial
                && input.family == LayoutFamily::NGCSpatial);
        family_ok && weight_ok && output.family == input.family.output()
    }
}

/// `(input, weight, output)` layouts.
pub type LayoutTriple = (Layout, Layout, Layout);

/// How a layout orders its dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum LayoutFamily {
    NSpatialGC,
    GNSpatialC,
    NGCSpatial,
    GKSpatialC,
    GKCSpatial,
    NSpatialGK,
    GNSpatialK,
    NGKSpatial,
    Bias,
}

impl LayoutFamily {
    /// The output family of an input family.
    pub fn output(self) -> LayoutFamily {
        match self {
            LayoutFamily::NSpatialGC => LayoutFamily::NSpatialGK,
            LayoutFamily::GNSpatialC => LayoutFamily::GNSpatialK,
            LayoutFamily::NGCSpatial => LayoutFamily::NGKSpatial,
            other => other,
        }
    }

    pub fn is_input(self) -> bool {
        matches!(
            self,
            LayoutFamily::NSpatialGC | LayoutFamily::GNSpatialC | LayoutFamily::NGCSpatial
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LayoutInfo {
    pub family: LayoutFamily,
    /// Spatial dimensions (0 for the bias layout).
    pub dims: u32,
}

pub fn layout_info(l: Layout) -> LayoutInfo {
    use Layout::*;
    use LayoutFamily as F;
    let (family, dims) = match l {
        Nwgc => (F::NSpatialGC, 1),
        Nhwgc => (F::NSpatialGC, 2),
        Ndhwgc => (F::NSpatialGC, 3),
        Gnwc => (F::GNSpatialC, 1),
        Gnhwc => (F::GNSpatialC, 2),
        Gndhwc => (F::GNSpatialC, 3),
        Ngcw => (F::NGCSpatial, 1),
        Ngchw => (F::NGCSpatial, 2),
        Ngcdhw => (F::NGCSpatial, 3),
        Gkxc => (F::GKSpatialC, 1),
        Gkyxc => (F::GKSpatialC, 2),
        Gkzyxc => (F::GKSpatialC, 3),
        Gkcx => (F::GKCSpatial, 1),
        Gkcyx => (F::GKCSpatial, 2),
        Gkczyx => (F::GKCSpatial, 3),
        Nwgk => (F::NSpatialGK, 1),
        Nhwgk => (F::NSpatialGK, 2),
        Ndhwgk => (F::NSpatialGK, 3),
        Gnwk => (F::GNSpatialK, 1),
        Gnhwk => (F::GNSpatialK, 2),
        Gndhwk => (F::GNSpatialK, 3),
        Ngkw => (F::NGKSpatial, 1),
        Ngkhw => (F::NGKSpatial, 2),
        Ngkdhw => (F::NGKSpatial, 3),
        Gc | GK => (F::Bias, 0),
    };
    LayoutInfo { family, dims }
}

/// The layout of `family` with `dims` spatial dimensions.
pub fn layout_of(family: LayoutFamily, dims: u32) -> Option<Layout> {
    Layout::ALL
        .iter()
        .copied()
        .find(|&l| layout_info(l) == LayoutInfo { family, dims })
}

/// The weight and output layouts that go with an input layout (weight `GK…C`).
pub fn companions(input: Layout) -> Option<(Layout, Layout)> {
    let info = layout_info(input);
    if !info.family.is_input() {
        return None;
    }
    Some((
        layout_of(LayoutFamily::GKSpatialC, info.dims)?,
        layout_of(info.family.output(), info.dims)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_exist() {
        assert_eq!(
            device_op(Op::BwdWeight, Kind::XdlV3).map(|d| d.class),
            Some("DeviceGroupedConvBwdWeight_Xdl_CShuffleV3")
        );
        assert!(device_op(Op::Fwd, Kind::Wavelet).is_none());
        assert!(kinds_for(Op::BwdData).contains(&Kind::Tile));
        assert_eq!(
            device_op(Op::BwdData, Kind::Wmma).map(|d| d.class),
            Some("DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffle")
        );
        assert_eq!(
            ops_for(Kind::Tile),
            vec![Op::BwdWeight, Op::Fwd, Op::BwdData]
        );
    }

    #[test]
    fn layouts() {
        let v3 = device_op(Op::BwdWeight, Kind::XdlV3).unwrap();
        let v1 = device_op(Op::BwdWeight, Kind::Xdl).unwrap();
        let ngc = (Layout::Ngchw, Layout::Gkcyx, Layout::Ngkhw);
        assert!(v1.accepts(2, ngc));
        assert!(!v3.accepts(2, ngc));
        assert!(v3.accepts(2, (Layout::Nhwgc, Layout::Gkyxc, Layout::Nhwgk)));
        assert!(!v3.accepts(3, (Layout::Nhwgc, Layout::Gkyxc, Layout::Nhwgk)));
        let wmma = device_op(Op::BwdData, Kind::Wmma).unwrap();
        assert!(wmma.accepts(2, (Layout::Gnhwc, Layout::Gkyxc, Layout::Gnhwk)));
        assert!(!wmma.accepts(1, (Layout::Nwgc, Layout::Gkxc, Layout::Nwgk)));
        assert!(!wmma.accepts(2, ngc));
        assert_eq!(
            companions(Layout::Gndhwc),
            Some((Layout::Gkzyxc, Layout::Gndhwk))
        );
    }
}
