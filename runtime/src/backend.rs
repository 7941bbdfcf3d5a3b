//! Back ends: where instances run. The CPU back end is always available; GPU back ends live
//! behind features.

use crate::device::DeviceModel;
use crate::exec::{self, Buffers, RunError, RunStats};
use crate::problem::ConvProblem;
use ck_compiler::ir::Instance;
use ck_compiler::model::Arch;

pub trait Backend {
    /// A short name (`cpu`, `cuda`, `hip`).
    fn name(&self) -> &str;

    /// Whether this back end can run the instance at all (for any problem it supports).
    fn accepts(&self, inst: &Instance) -> Result<(), RunError>;

    /// The device's architecture where the library names it. Instances that target it rank
    /// ahead of those tuned for other devices ([`crate::Registry::candidates_for`]), which stay
    /// supported: a GPU back end runs every instance's portable kernel.
    fn target(&self) -> Option<Arch> {
        None
    }

    /// Workspace bytes `run` needs for this instance and problem.
    fn workspace_size(&self, inst: &Instance, p: &ConvProblem) -> u64;

    /// Runs the instance on host buffers.
    fn run(
        &self,
        inst: &Instance,
        p: &ConvProblem,
        bufs: &mut Buffers<'_>,
    ) -> Result<RunStats, RunError>;
}

/// Runs instances on the CPU as a device of the given shape would ([`exec`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuBackend {
    pub device: DeviceModel,
}

impl Backend for CpuBackend {
    fn name(&self) -> &str {
        "cpu"
    }

    fn accepts(&self, inst: &Instance) -> Result<(), RunError> {
        exec::cpu_types(inst)
    }

    fn workspace_size(&self, inst: &Instance, p: &ConvProblem) -> u64 {
        exec::workspace_size(inst, p, &self.device)
    }

    fn run(
        &self,
        inst: &Instance,
        p: &ConvProblem,
        bufs: &mut Buffers<'_>,
    ) -> Result<RunStats, RunError> {
        exec::run(inst, p, bufs, &self.device)
    }
}
