//! Test support: one small instance per kind, for tests of the runtime and its back ends.
//! Each is built in the IR and validated ([`validate_instance`]) like any instance a back end
//! takes, and [`changed`] validates a changed copy again, panicking with what validation
//! reported. Instances retargeted to a problem ([`for_problem`]: CK's device ops need not take
//! it) and tests of the runtime's own rules on parameters CK's rules refuse ([`forced`]) go
//! without validation (`ck_compiler::validate::unvalidated`).
//!
//! Every instance is 2D NHWGC/GKYXC/NHWGK fp16 with a 16×16×8 block tile (16×16×16 for the
//! CK-Tile kinds, whose fp16 warp tiles on gfx942 are 16 deep; small, so tiny problems still
//! span several tiles and K steps); [`for_problem`] retargets one to a problem's rank, layouts
//! and types.

use crate::problem::ConvProblem;
use ck_compiler::ir::*;
use ck_compiler::model::*;
use ck_compiler::validate::{unvalidated, validate_instance};

/// The instances [`instance`] builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Variant {
    /// bwd_weight XDL CShuffle (v1), 4-D clusters.
    XdlV1,
    /// bwd_weight XDL CShuffle V3, split-K 2.
    XdlV3,
    /// bwd_weight two-stage XDL, split-K 3 into an fp32 workspace.
    XdlTwoStage,
    /// bwd_weight WMMA CShuffle V3 (gfx11/12).
    WmmaV3,
    /// bwd_weight wavelet XDL V3 with auto split-K.
    Wavelet,
    /// bwd_weight CK-Tile, StreamK with linear fixup.
    TileStreamKLinear,
    /// bwd_weight CK-Tile, StreamK with tree fixup, persistent.
    TileStreamKTree,
    /// fwd XDL (old CK).
    FwdXdl,
    /// fwd CK-Tile.
    FwdTile,
    /// bwd_data multiple-D XDL (no D tensors).
    BwdDataXdl,
    /// bwd_data CK-Tile.
    BwdDataTile,
}

impl Variant {
    pub const ALL: &'static [Variant] = &[
        Variant::XdlV1,
        Variant::XdlV3,
        Variant::XdlTwoStage,
        Variant::WmmaV3,
        Variant::Wavelet,
        Variant::TileStreamKLinear,
        Variant::TileStreamKTree,
        Variant::FwdXdl,
        Variant::FwdTile,
        Variant::BwdDataXdl,
        Variant::BwdDataTile,
    ];
}

/// A transfer of 2-element vectors over the `[K0, rows, K1] = [2, 16, 4]` tile (a KBatch of 1
/// ahead where `rank4`) by 64 threads: along K1 (CK's dimension 2), or along the rows, where
/// each thread's K1 slice is one element and so is each LDS write.
fn transfer(rank4: bool, along_k1: bool) -> Transfer {
    let (cluster, vector_dim, dst_vector) = if along_k1 {
        (vec![2, 16, 2], 2, 2)
    } else {
        (vec![2, 8, 4], 1, 1)
    };
    let (cluster, arrange, access, vector_dim) = if rank4 {
        (
            [vec![1], cluster].concat(),
            vec![0, 3, 1, 2],
            vec![0, 2, 1, 3],
            vector_dim + 1,
        )
    } else {
        (cluster, vec![2, 0, 1], vec![1, 0, 2], vector_dim)
    };
    Transfer {
        cluster,
        arrange,
        access,
        vector_dim,
        src_vector: 2,
        dst_vector,
        lds_pad: false,
    }
}

fn base(name: &str, op: Op, kind: Kind) -> Instance {
    let v1 = kind == Kind::Xdl && op == Op::BwdWeight;
    // Backward weight reads both operands along M and N, backward data its weights along N,
    // forward both along K.
    let (a_k1, b_k1) = match op {
        Op::Fwd => (true, true),
        Op::BwdData => (true, false),
        Op::BwdWeight => (false, false),
    };
    let mut i = Instance::blank(op, kind);
    i.name = name.into();
    i.source = "testing".into();
    i.gemm_spec = GemmSpec::MnkPadding;
    i.targets = vec![Arch::Gfx90a, Arch::Gfx942];
    i.block = 64;
    i.tile = Tile { m: 16, n: 16, k: 8 };
    i.k1 = [4, 4];
    i.mma = [16, 16, 0];
    i.repeat = [1, 1];
    i.waves = [1, 1, 1];
    i.a = transfer(v1, a_k1);
    i.b = transfer(v1, b_k1);
    i.c = CShuffle {
        m_per_shuffle: 1,
        n_per_shuffle: 1,
        cluster: vec![1, 16, 1, 4],
        vector: 2,
    };
    if kind == Kind::Tile {
        // CK-Tile's fp16 warp tiles are 16 deep, and of the AMD targets gfx942 takes one warp.
        i.tile.k = 16;
        i.mma[2] = 16;
        i.targets = vec![Arch::Gfx942];
        i.pipeline.version = PipelineVersion::CompV3;
        i.tile_kernel = Some(TileKernel {
            vector: [2, 2, 2],
            wave_groups: 1,
            epilogue: Epilogue::Cshuffle,
            explicit_gemm: false,
            split_image: false,
            pad: [true; 3],
        });
    }
    i.pad_gemm = [true, true];
    i
}

/// The instance of the variant (2D, NHWGC family, fp16), validated.
pub fn instance(v: Variant) -> Checked {
    checked(built(v))
}

/// An H200 (or H100: 132 compute units) as selection sees it.
pub fn h200() -> crate::DeviceModel {
    crate::DeviceModel {
        arch: None,
        compute_units: 132,
        occupancy: 2,
    }
}

/// `inst`, validated.
pub fn checked(inst: Instance) -> Checked {
    validate_instance(inst).unwrap_or_else(|e| panic!("{e}"))
}

/// A copy of `inst` that `change` changed, validated again.
pub fn changed(inst: &Checked, change: impl FnOnce(&mut Instance)) -> Checked {
    checked(edited(inst, change))
}

/// A copy of `inst` that `change` changed in a way CK's rules refuse (a vector wider than a
/// thread's slice, an element op the device op lacks), for tests of the runtime's own rules.
pub fn forced(inst: &Checked, change: impl FnOnce(&mut Instance)) -> Checked {
    unvalidated(edited(inst, change))
}

fn edited(inst: &Checked, change: impl FnOnce(&mut Instance)) -> Instance {
    let mut inst = Instance::clone(inst);
    change(&mut inst);
    inst
}

fn built(v: Variant) -> Instance {
    match v {
        Variant::XdlV1 => base("test_xdl_v1", Op::BwdWeight, Kind::Xdl),
        Variant::XdlV3 => {
            let mut i = base("test_xdl_v3", Op::BwdWeight, Kind::XdlV3);
            i.work.split_k = SplitK::Fixed(2);
            i
        }
        Variant::XdlTwoStage => {
            let mut i = base("test_xdl_two_stage", Op::BwdWeight, Kind::XdlTwoStage);
            i.work.split_k = SplitK::Fixed(3);
            i.work.two_stage = true;
            i
        }
        Variant::WmmaV3 => {
            let mut i = base("test_wmma_v3", Op::BwdWeight, Kind::WmmaV3);
            // One wave of 32: each transfer thread reads two rows of one K1 element.
            i.block = 32;
            for t in [&mut i.a, &mut i.b] {
                t.cluster = vec![1, 8, 4];
            }
            i.c.cluster = vec![1, 8, 1, 4];
            i.targets = vec![Arch::Gfx1100, Arch::Gfx1201];
            i
        }
        Variant::Wavelet => {
            let mut i = base("test_wavelet", Op::BwdWeight, Kind::Wavelet);
            i.pipeline.version = PipelineVersion::Wavelet;
            i.block = 128;
            i.wavelet = Some(Wavelet { load: 64, math: 64 });
            i.work.split_k = SplitK::Auto;
            i
        }
        Variant::TileStreamKLinear | Variant::TileStreamKTree => {
            let tree = v == Variant::TileStreamKTree;
            let name = if tree {
                "test_tile_streamk_tree"
            } else {
                "test_tile_streamk_linear"
            };
            let mut i = base(name, Op::BwdWeight, Kind::Tile);
            let reduction = if tree {
                Reduction::Tree
            } else {
                Reduction::Linear
            };
            i.work.streamk = Some(StreamK {
                reduction,
                persistent: tree,
            });
            i
        }
        Variant::FwdXdl => base("test_fwd_xdl", Op::Fwd, Kind::Xdl),
        Variant::FwdTile => base("test_fwd_tile", Op::Fwd, Kind::Tile),
        Variant::BwdDataXdl => base("test_bwd_data_xdl", Op::BwdData, Kind::XdlMultipleD),
        Variant::BwdDataTile => base("test_bwd_data_tile", Op::BwdData, Kind::Tile),
    }
}

/// The instance with the problem's spatial rank, layouts and types (op and tuning unchanged),
/// not validated: the runtime's rules are tested on problems CK's device ops need not take
/// (1-D backward weight, say).
pub fn for_problem(inst: Checked, p: &ConvProblem) -> Checked {
    let mut inst = inst.into_instance();
    inst.ndim = p.ndim;
    inst.layout.input = p.layout.input;
    inst.layout.weight = p.layout.weight;
    inst.layout.output = p.layout.output;
    inst.types.input = p.dtype.input;
    inst.types.weight = p.dtype.weight;
    inst.types.output = p.dtype.output;
    inst.types.compute_a = p.dtype.input;
    inst.types.compute_b = p.dtype.input;
    inst.types.cshuffle = p.dtype.output;
    unvalidated(inst)
}

/// The CPU back end reporting a device: the target architecture and identity a GPU back end
/// would, for tests of what depends on them (ranking for a target, tuning results), and
/// counting the instances it is asked to accept (what selection remembers).
#[derive(Default)]
pub struct FakeDevice {
    pub cpu: crate::CpuBackend,
    pub target: Option<Arch>,
    pub id: Option<crate::DeviceId>,
    pub asked: std::cell::Cell<usize>,
    /// An instance whose runs the device cannot plan ([`crate::Backend::plans`]).
    pub unplanned: Option<String>,
}

impl crate::Backend for FakeDevice {
    fn name(&self) -> &str {
        "fake"
    }
    fn accepts(&self, inst: &Checked) -> Result<(), crate::RunError> {
        self.asked.set(self.asked.get() + 1);
        self.cpu.accepts(inst)
    }
    fn plans(&self, inst: &Checked, _p: &ConvProblem) -> Result<(), crate::RunError> {
        match &self.unplanned {
            Some(name) if *name == inst.name => Err(crate::RunError::Internal(format!(
                "{name} cannot be planned"
            ))),
            _ => Ok(()),
        }
    }
    fn target(&self) -> Option<Arch> {
        self.target
    }
    fn device_id(&self) -> Option<crate::DeviceId> {
        self.id.clone()
    }
    fn workspace_size(&self, inst: &Checked, p: &ConvProblem) -> u64 {
        self.cpu.workspace_size(inst, p)
    }
    fn run(
        &self,
        inst: &Checked,
        p: &ConvProblem,
        bufs: &mut crate::Buffers<'_>,
    ) -> Result<crate::RunStats, crate::RunError> {
        self.cpu.run(inst, p, bufs)
    }
}

/// A back end that only selects, as one targeting `target` would without its device: it
/// accepts the instances `check` accepts and runs none.
pub struct Selecting {
    pub target: Arch,
    pub check: fn(&Checked) -> Result<(), crate::RunError>,
}

impl crate::Backend for Selecting {
    fn name(&self) -> &str {
        "selection only"
    }
    fn accepts(&self, inst: &Checked) -> Result<(), crate::RunError> {
        (self.check)(inst)
    }
    fn target(&self) -> Option<Arch> {
        Some(self.target)
    }
    fn workspace_size(&self, _inst: &Checked, _p: &ConvProblem) -> u64 {
        0
    }
    fn run(
        &self,
        inst: &Checked,
        _p: &ConvProblem,
        _bufs: &mut crate::Buffers<'_>,
    ) -> Result<crate::RunStats, crate::RunError> {
        Err(crate::RunError::Internal(format!(
            "{} is only selected",
            inst.name
        )))
    }
}
