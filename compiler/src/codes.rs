//! The stable validation codes, one per rule (docs/diagnostics.md explains each), shared by
//! resolution (`allow` lists) and validation.

/// A code an instance may name in `allow`: a rule on the concrete instance (tile and LDS
/// CK03xx, transfer CK04xx, pipeline and work CK05xx), which CK's reflection can print past.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RuleCode(pub &'static str);

impl RuleCode {
    /// The codes `allow` takes, in code order.
    pub fn all() -> impl Iterator<Item = RuleCode> {
        ALL.iter()
            .map(|&(c, _)| c)
            .filter(|c| ["CK03", "CK04", "CK05"].iter().any(|p| c.starts_with(p)))
            .map(RuleCode)
    }
}

/// `(code, what it reports)`, in code order.
pub const ALL: &[(&str, &str)] = &[
    (MISSING_KEY, "a required key is missing"),
    (
        CK_FORMAT,
        "ck_format names no instance-string variant of the op",
    ),
    (NO_DEVICE_OP, "the op/kind pair names no CK device op"),
    (DIMS, "dims is not 1, 2 or 3"),
    (LAYOUT_DIMS, "a layout's dimensionality differs from dims"),
    (LAYOUT_TRIPLE, "the layout triple is not accepted by the op"),
    (TYPES_OP, "the data types are not a combination the op has"),
    (
        TYPE_TARGET,
        "a target has no matrix instruction for the compute type",
    ),
    (ELEMENT_OP, "an element-wise op the device op cannot apply"),
    (CONV_SPEC, "the ConvSpec does not exist for the op"),
    (DS, "D tensors missing, unexpected, or inconsistent"),
    (NOT_APPLICABLE, "a key the kind does not have"),
    (RANGE, "an integer out of range"),
    (TARGET_KIND, "a target the kind cannot run on"),
    (LIST_LEN, "a list with the wrong number of elements"),
    (TARGETS, "an empty or repeated target list"),
    (
        SOURCES,
        "multiple input or weight tensors the op cannot read",
    ),
    (
        TILE_DIV,
        "the block tile is not divisible by instruction x repeat x waves",
    ),
    (WAVES, "waves x wave size differs from the block size"),
    (INSTR, "the instruction shape is not available on a target"),
    (K1_DIV, "K per block is not divisible by K1"),
    (
        BLOCK,
        "the block size is not a multiple of 32 or exceeds what CK's kernels are compiled for",
    ),
    (
        WARP_LAYOUT,
        "the CK-Tile warp layout is not in a target's warp configs",
    ),
    (
        WARP_TILE,
        "the CK-Tile warp tile is not available on a target",
    ),
    (
        TILE_WARPS_DIV,
        "the CK-Tile block tile is not divisible by warps x warp tile",
    ),
    (WAVE32_TILE, "a CK-Tile wave32 rule is broken"),
    (
        WAVELET_GROUPS,
        "wavelet group sizes are not multiples of the wave size or block differs",
    ),
    (LDS, "the LDS budget of a target is exceeded"),
    (
        CLUSTER_RANK,
        "a thread cluster has the wrong rank for the kind",
    ),
    (
        CLUSTER_PRODUCT,
        "a thread cluster does not match the thread count",
    ),
    (
        CLUSTER_DIV,
        "a thread cluster extent does not divide the tile extent",
    ),
    (
        VECTOR_DIM,
        "the source vector dimension is wrong for the kind",
    ),
    (
        SRC_VECTOR,
        "the source vector does not divide the per-thread contiguous extent",
    ),
    (
        VECTOR_BYTES,
        "a vector is wider than CK's loads or LDS writes take",
    ),
    (
        DST_VECTOR,
        "the LDS write vector does not divide the per-thread K1 extent",
    ),
    (
        ORDER,
        "an arrange or access order is not a permutation of the cluster dimensions",
    ),
    (
        SHUFFLE,
        "C-shuffle repeats do not divide the per-wave repeats",
    ),
    (
        C_CLUSTER,
        "the C-shuffle cluster exceeds the block or does not fit the shuffle tile",
    ),
    (
        C_VECTOR,
        "the C-shuffle vector does not divide the shuffle tile or is wider than its store takes",
    ),
    (TILE_VECTOR, "a CK-Tile vector size is not 1 or even"),
    (
        PIPELINE_VERSION,
        "the pipeline version does not exist for the kind",
    ),
    (COMPV5_BACKWARD, "compv5 is not available for backward ops"),
    (
        INTERWAVE,
        "the interwave scheduler is not supported with this pipeline",
    ),
    (PREFETCH, "prefetch stages out of range for the op"),
    (
        DOUBLE_BUFFER,
        "double LDS buffer does not match the pipeline",
    ),
    (
        DIRECT_LOAD,
        "direct load / async pipeline without gfx950 or the right op",
    ),
    (
        STREAMK,
        "StreamK on an op, kind, target or with D tensors it does not support",
    ),
    (STREAMK_SPLIT_K, "StreamK combined with split-K"),
    (SPLIT_K_AUTO, "split_k = auto where CK cannot deduce it"),
    (SPLIT_K, "split_k > 1 where the op or a target forbids it"),
    (
        BF16_ATOMICS,
        "split-K into bf16 on a target without bf16 atomics",
    ),
    (
        MERGE_GROUPS,
        "groups to merge not a power of two <= 64, or not supported",
    ),
    (TWO_STAGE, "two_stage contradicts the kind"),
    (LARGE_TENSOR, "large_tensor contradicts the kind"),
    (
        EXPLICIT_GEMM,
        "explicit GEMM needs merge 1 and filter1x1_stride1_pad0",
    ),
    (
        COMPV6,
        "a compv6 tile too small for the block and vector size",
    ),
    (
        MERGED_LAYOUT,
        "merged two-stage groups read with vectors outside the channels-last grouped layout",
    ),
    (
        KIND_ON_NVIDIA,
        "warning: an AMD kernel kind names an NVIDIA target",
    ),
    (SCALAR_LOADS, "warning: derived global loads of one element"),
];

pub const MISSING_KEY: &str = "CK0201";
pub const NO_DEVICE_OP: &str = "CK0202";
pub const DIMS: &str = "CK0203";
pub const LAYOUT_DIMS: &str = "CK0204";
pub const LAYOUT_TRIPLE: &str = "CK0205";
pub const TYPES_OP: &str = "CK0206";
pub const TYPE_TARGET: &str = "CK0207";
pub const ELEMENT_OP: &str = "CK0208";
pub const CONV_SPEC: &str = "CK0209";
pub const DS: &str = "CK0210";
pub const NOT_APPLICABLE: &str = "CK0211";
pub const RANGE: &str = "CK0212";
pub const TARGET_KIND: &str = "CK0213";
pub const LIST_LEN: &str = "CK0215";
pub const TARGETS: &str = "CK0216";
pub const CK_FORMAT: &str = "CK0217";
pub const SOURCES: &str = "CK0218";

pub const TILE_DIV: &str = "CK0301";
pub const WAVES: &str = "CK0302";
pub const INSTR: &str = "CK0303";
pub const K1_DIV: &str = "CK0304";
pub const BLOCK: &str = "CK0305";
pub const WARP_LAYOUT: &str = "CK0306";
pub const WARP_TILE: &str = "CK0307";
pub const TILE_WARPS_DIV: &str = "CK0308";
pub const WAVE32_TILE: &str = "CK0309";
pub const WAVELET_GROUPS: &str = "CK0310";
pub const LDS: &str = "CK0311";

pub const CLUSTER_RANK: &str = "CK0401";
pub const CLUSTER_PRODUCT: &str = "CK0402";
pub const CLUSTER_DIV: &str = "CK0403";
pub const VECTOR_DIM: &str = "CK0404";
pub const SRC_VECTOR: &str = "CK0405";
pub const VECTOR_BYTES: &str = "CK0406";
pub const DST_VECTOR: &str = "CK0407";
pub const ORDER: &str = "CK0408";
pub const SHUFFLE: &str = "CK0409";
pub const C_CLUSTER: &str = "CK0410";
pub const C_VECTOR: &str = "CK0411";
pub const TILE_VECTOR: &str = "CK0412";

pub const PIPELINE_VERSION: &str = "CK0501";
pub const COMPV5_BACKWARD: &str = "CK0502";
pub const INTERWAVE: &str = "CK0503";
pub const PREFETCH: &str = "CK0504";
pub const DOUBLE_BUFFER: &str = "CK0505";
pub const DIRECT_LOAD: &str = "CK0506";
pub const STREAMK: &str = "CK0507";
pub const STREAMK_SPLIT_K: &str = "CK0508";
pub const SPLIT_K_AUTO: &str = "CK0509";
pub const SPLIT_K: &str = "CK0510";
pub const BF16_ATOMICS: &str = "CK0511";
pub const MERGE_GROUPS: &str = "CK0512";
pub const TWO_STAGE: &str = "CK0513";
pub const LARGE_TENSOR: &str = "CK0514";
pub const EXPLICIT_GEMM: &str = "CK0515";
pub const COMPV6: &str = "CK0516";
pub const MERGED_LAYOUT: &str = "CK0517";

/// Warnings (the instance builds): CK09xx.
pub const KIND_ON_NVIDIA: &str = "CK0901";
pub const SCALAR_LOADS: &str = "CK0902";
