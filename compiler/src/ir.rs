//! The validated IR. [`Instance`] is one concrete instance, every parameter known (given or
//! derived); anyone may build or change one, and nothing downstream takes it. [`Checked`] is an
//! instance that passed validation, with the CK format variant validation resolved for it: only
//! validation constructs one ([`crate::validate::validate`] for specs,
//! [`crate::validate::validate_instance`] for a built instance, and deserialising, which
//! validates), and it derefs to the instance for reading but never for writing. A
//! [`Validated`] set holds checked instances; emitters, the kernel model and the runtime's back
//! ends take `&Checked` or `&Validated`.

use crate::emit::format::CkFormat;
use crate::model::*;
use ck_dsl::Diagnostics;
use serde::{Deserialize, Serialize};
use std::ops::Deref;

/// An instance that passed validation, and the format variant its instance string takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    inst: Instance,
    format: CkFormat,
}

impl Checked {
    /// Only validation may call this: it vouches that `inst` obeys every rule and prints in
    /// `format`.
    pub(crate) fn new(inst: Instance, format: CkFormat) -> Self {
        Checked { inst, format }
    }

    /// The variant the instance prints in: its `ck_format`, or the default variant of its op
    /// (another where the default cannot print a feature it uses).
    pub fn format(&self) -> CkFormat {
        self.format
    }

    /// The instance, to change and validate again.
    pub fn into_instance(self) -> Instance {
        self.inst
    }
}

impl Deref for Checked {
    type Target = Instance;

    fn deref(&self) -> &Instance {
        &self.inst
    }
}

/// As the instance; reading it back validates it again.
impl Serialize for Checked {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.inst.serialize(s)
    }
}

/// A set of instances that passed validation, in declaration order with unique names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Validated {
    instances: Vec<Checked>,
    /// What the front end warned about on the way (no errors).
    #[serde(skip)]
    warnings: Diagnostics,
}

impl Validated {
    /// Only validation may call this: it vouches that names are unique.
    pub(crate) fn new(instances: Vec<Checked>) -> Self {
        Validated {
            instances,
            warnings: Diagnostics::new(),
        }
    }

    /// The set with `warnings` added to its own.
    pub(crate) fn with_warnings(mut self, warnings: Diagnostics) -> Self {
        self.warnings.extend(warnings);
        self
    }

    /// Warnings of loading, resolution and validation: the instances build, but may not be
    /// what was meant (`docs/diagnostics.md`, CK09xx).
    pub fn warnings(&self) -> &Diagnostics {
        &self.warnings
    }

    pub fn instances(&self) -> &[Checked] {
        &self.instances
    }

    pub fn get(&self, name: &str) -> Option<&Checked> {
        self.instances.iter().find(|i| i.name == name)
    }

    /// The instances `keep` accepts, in order. Still a validated set: every instance was validated
    /// on its own, and a subset keeps names unique (the warnings stay with the whole set).
    pub fn subset(&self, keep: impl Fn(&Checked) -> bool) -> Validated {
        Validated::new(self.instances.iter().filter(|i| keep(i)).cloned().collect())
    }

    pub fn into_instances(self) -> Vec<Checked> {
        self.instances
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConvLayout {
    pub input: Layout,
    pub weight: Layout,
    pub output: Layout,
    pub ds: Vec<Layout>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Types {
    pub input: DataType,
    pub weight: DataType,
    pub output: DataType,
    pub acc: DataType,
    pub compute_a: DataType,
    pub compute_b: DataType,
    /// Forward ops' CShuffle staging type (defaults to the output type).
    pub cshuffle: DataType,
    pub ds: Vec<DataType>,
    /// The data types of the input tensors a multiple-A forward op reads and combines with its
    /// input element op into the GEMM's A (CK's `ADataType` tuple; `input` is the first); empty
    /// for one input tensor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_sources: Vec<DataType>,
    /// As `input_sources`, for the weight tensors (CK's `BDataType` tuple).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weight_sources: Vec<DataType>,
}

impl Types {
    /// Whether products are rounded to tf32: fp32 data computed in tf32 (validation keeps the
    /// two compute types equal, and they default to the input type, so tf32 data counts too).
    pub fn tf32_products(&self) -> bool {
        [self.compute_a, self.compute_b].contains(&DataType::Tf32)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementOps {
    pub input: ElementOp,
    pub weight: ElementOp,
    pub output: ElementOp,
}

/// Per-block GEMM tile. `k` is the GEMM-K per block for every kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

/// A/B global→LDS block transfer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transfer {
    pub cluster: Vec<u32>,
    pub arrange: Vec<u32>,
    pub access: Vec<u32>,
    pub vector_dim: u32,
    pub src_vector: u32,
    pub dst_vector: u32,
    pub lds_pad: bool,
}

/// C-shuffle epilogue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CShuffle {
    pub m_per_shuffle: u32,
    pub n_per_shuffle: u32,
    /// `[MBlock, MPerBlock, NBlock, NPerBlock]`
    pub cluster: Vec<u32>,
    pub vector: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pipeline {
    pub scheduler: Scheduler,
    pub version: PipelineVersion,
    pub prefetch: u32,
    pub double_buffer: bool,
    pub direct_load: bool,
    pub loop_scheduler: LoopScheduler,
    /// Forward WMMA V3 `UseThreadTileTransfer`: thread-tile (true) or wave-tile A/B transfer.
    pub thread_tile_transfer: bool,
}

/// Wave specialization: load waves move tiles global→LDS, math waves run the MMA and epilogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wavelet {
    pub load: u32,
    pub math: u32,
}

/// CK-Tile kernel settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileKernel {
    /// Vector sizes of A, B, C.
    pub vector: [u32; 3],
    pub wave_groups: u32,
    pub epilogue: Epilogue,
    pub explicit_gemm: bool,
    pub split_image: bool,
    pub pad: [bool; 3],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitK {
    Fixed(u32),
    /// Chosen at run time from an occupancy model.
    Auto,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamK {
    pub reduction: Reduction,
    pub persistent: bool,
}

/// How the GEMM-K loop is distributed over workgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Work {
    pub split_k: SplitK,
    /// Split-K partials go to an fp32 workspace, then a second kernel converts.
    pub two_stage: bool,
    pub streamk: Option<StreamK>,
    pub merge_groups: u32,
    pub large_tensor: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DlTransfer {
    pub slice: Vec<u32>,
    pub cluster: Vec<u32>,
    pub arrange: Vec<u32>,
    pub access: Vec<u32>,
    pub src_vector: Vec<u32>,
    pub src_order: Vec<u32>,
    pub dst_vector: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dl {
    pub m1_per_thread: u32,
    pub n1_per_thread: u32,
    pub k_per_thread: u32,
    pub cluster_m1: Vec<u32>,
    pub cluster_n1: Vec<u32>,
    pub a: DlTransfer,
    pub b: DlTransfer,
    pub c_access_order: Vec<u32>,
    pub c_vector_dim: u32,
    pub c_vector: u32,
}

/// One concrete instance, every parameter known; validation checks it into a [`Checked`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instance {
    pub name: String,
    pub doc: Vec<String>,
    /// Display name of the source file.
    pub source: String,
    pub family: Option<FamilyInfo>,

    pub op: Op,
    pub ndim: u32,
    pub kind: Kind,
    pub layout: ConvLayout,
    pub types: Types,
    pub elementwise: ElementOps,
    pub spec: ConvSpec,
    pub gemm_spec: GemmSpec,

    /// Threads per workgroup as launched (wavelet: load + math; CK-Tile: warps × wave size of
    /// the first target).
    pub block: u32,
    pub tile: Tile,
    /// `[AK1, BK1]` (equal except for forward ops that set them apart).
    pub k1: [u32; 2],
    /// Instruction (XDL/WMMA) or CK-Tile warp-tile shape `[M, N, K]`; K is 0 where the
    /// instruction's K depends on the target and data type.
    pub mma: [u32; 3],
    /// Instruction repeats per wave `[M, N]`.
    pub repeat: [u32; 2],
    /// Waves per block `[M, N, K]`.
    pub waves: [u32; 3],
    pub a: Transfer,
    pub b: Transfer,
    pub c: CShuffle,
    pub pipeline: Pipeline,
    pub wavelet: Option<Wavelet>,
    pub tile_kernel: Option<TileKernel>,
    pub work: Work,
    /// `[src, dst]` MaxTransposeTransfer scalar-per-vector.
    pub transpose: [u32; 2],
    /// `DoPadGemmM`, `DoPadGemmN` of backward-data ops.
    pub pad_gemm: [bool; 2],
    pub dl: Option<Dl>,
    pub targets: Vec<Arch>,
    /// Instance-string format variant, when not the default for the op.
    pub ck_format: Option<String>,
    /// Codes of the rules on the concrete instance that it knowingly breaks (`allow`): CK can
    /// name and print it, but no back end runs it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
}

impl Instance {
    /// An instance of `op` and `kind` with every parameter neutral (zero sizes, fp16 NHWGC,
    /// pass-through ops, no optional parts): the starting point of importers and test builders,
    /// which then set what they know. It is not valid until they do.
    pub fn blank(op: Op, kind: Kind) -> Instance {
        let transfer = Transfer {
            cluster: Vec::new(),
            arrange: Vec::new(),
            access: Vec::new(),
            vector_dim: 0,
            src_vector: 0,
            dst_vector: 0,
            lds_pad: false,
        };
        Instance {
            name: String::new(),
            doc: Vec::new(),
            source: String::new(),
            family: None,
            op,
            ndim: 2,
            kind,
            layout: ConvLayout {
                input: Layout::Nhwgc,
                weight: Layout::Gkyxc,
                output: Layout::Nhwgk,
                ds: Vec::new(),
            },
            types: Types {
                input: DataType::Fp16,
                weight: DataType::Fp16,
                output: DataType::Fp16,
                acc: DataType::Fp32,
                compute_a: DataType::Fp16,
                compute_b: DataType::Fp16,
                cshuffle: DataType::Fp16,
                ds: Vec::new(),
                input_sources: Vec::new(),
                weight_sources: Vec::new(),
            },
            elementwise: ElementOps {
                input: ElementOp::PassThrough,
                weight: ElementOp::PassThrough,
                output: ElementOp::PassThrough,
            },
            spec: ConvSpec::Default,
            gemm_spec: GemmSpec::Default,
            block: 0,
            tile: Tile { m: 0, n: 0, k: 0 },
            k1: [0, 0],
            mma: [0, 0, 0],
            repeat: [0, 0],
            waves: [0, 0, 0],
            a: transfer.clone(),
            b: transfer,
            c: CShuffle {
                m_per_shuffle: 0,
                n_per_shuffle: 0,
                cluster: Vec::new(),
                vector: 0,
            },
            pipeline: Pipeline {
                scheduler: Scheduler::Intrawave,
                version: PipelineVersion::V1,
                prefetch: 1,
                double_buffer: false,
                direct_load: false,
                loop_scheduler: LoopScheduler::Default,
                thread_tile_transfer: true,
            },
            wavelet: None,
            tile_kernel: None,
            work: Work {
                split_k: SplitK::Fixed(1),
                two_stage: false,
                streamk: None,
                merge_groups: 1,
                large_tensor: false,
            },
            transpose: [1, 1],
            pad_gemm: [false, false],
            dl: None,
            targets: Vec::new(),
            ck_format: None,
            allow: Vec::new(),
        }
    }
}
