//! Back ends: where instances run. The CPU back end is always available; GPU back ends live
//! behind features.

use crate::device::DeviceModel;
use crate::exec::{self, Buffers, RunError, RunStats};
use crate::problem::ConvProblem;
use ck_compiler::ir::Checked;
use ck_compiler::model::Arch;

/// What a device's measured times depend on besides the problem and the instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceId {
    /// The card's name, e.g. "NVIDIA H100 80GB HBM3".
    pub card: String,
    /// The driver's version.
    pub driver: String,
    /// The kernel compiler, its version and target, e.g. "NVRTC 13.0 sm_90a".
    pub compiler: String,
}

pub trait Backend {
    /// A short name (`cpu`, `cuda`, `hip`).
    fn name(&self) -> &str;

    /// Whether this back end can run the instance at all (for any problem it supports).
    fn accepts(&self, inst: &Checked) -> Result<(), RunError>;

    /// The device's architecture where the library names it. Instances that target it rank
    /// ahead of those tuned for other devices ([`crate::Registry::candidates_for`]), which stay
    /// supported: a GPU back end runs every instance's portable kernel.
    fn target(&self) -> Option<Arch> {
        None
    }

    /// The device's identity, which measured times depend on (the tuning database keys its
    /// results by it); None where the back end keeps no tuning results.
    fn device_id(&self) -> Option<DeviceId> {
        None
    }

    /// Whether the back end can plan a run of `inst` on `p`, a problem the support rules let it
    /// take. The GPU back ends' launch plans refuse a few more (a StreamK tile whose workgroups
    /// would each sum more GEMM-K products than the accumulation bound); selection passes over
    /// candidates a back end refuses here.
    fn plans(&self, _inst: &Checked, _p: &ConvProblem) -> Result<(), RunError> {
        Ok(())
    }

    /// Workspace bytes `run` needs for this instance and problem.
    fn workspace_size(&self, inst: &Checked, p: &ConvProblem) -> u64;

    /// Runs the instance on host buffers.
    fn run(
        &self,
        inst: &Checked,
        p: &ConvProblem,
        bufs: &mut Buffers<'_>,
    ) -> Result<RunStats, RunError>;
}

/// Runs instances on the CPU as a device of the given shape would ([`exec`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuBackend {
    pub device: DeviceModel,
    /// The architecture of the device it stands in for, if any: selection for it ranks as a
    /// back end on that device would (its learned model, its own instances first).
    pub target: Option<Arch>,
}

impl Backend for CpuBackend {
    fn name(&self) -> &str {
        "cpu"
    }

    fn target(&self) -> Option<Arch> {
        self.target
    }

    fn accepts(&self, inst: &Checked) -> Result<(), RunError> {
        exec::cpu_types(inst)
    }

    fn workspace_size(&self, inst: &Checked, p: &ConvProblem) -> u64 {
        exec::workspace_size(inst, p, &self.device)
    }

    fn run(
        &self,
        inst: &Checked,
        p: &ConvProblem,
        bufs: &mut Buffers<'_>,
    ) -> Result<RunStats, RunError> {
        exec::run(inst, p, bufs, &self.device)
    }
}
