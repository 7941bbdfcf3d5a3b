//! What the GPU back ends (CUDA, HIP) share: the kernel cache, problem → kernel dimensions,
//! planning with type checks, buffer checks, host tensor bytes, run statistics, and the
//! host-tensor run of [`Backend::run`](crate::Backend::run) over any device.

mod cache;
mod host;
mod loaded;

pub use crate::dims::conv_dims;
pub use cache::KernelCache;
#[cfg(feature = "cuda")]
pub(crate) use host::to_bytes;
pub use host::{
    ArgImage, DeviceTensors, Enqueue, PlanWork, TensorMapBytes, check_buffers, entry_function,
    plan, portable_checks, portable_kernel, zero_fills,
};
pub(crate) use host::{
    HostDevice, device_backend, forward_to_inherent, plan_on, plans_on, run_on_host,
};
pub use loaded::LoadedKernels;

use ck_compiler::kernel::PlanError;

/// Why a kernel cannot be planned or launched on the buffers given.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("{0}")]
    Plan(#[from] PlanError),
    #[error("unsupported problem: {0}")]
    Problem(String),
    #[error("{tensor} buffer has {have} bytes, the problem needs {need}")]
    BufferSize {
        tensor: &'static str,
        have: usize,
        need: u64,
    },
}

impl From<crate::dims::DimsError> for LaunchError {
    fn from(e: crate::dims::DimsError) -> Self {
        LaunchError::Problem(e.to_string())
    }
}

/// A GPU as support checks and selection see it: each SM or CU is a compute unit with two
/// workgroup slots (what CK's auto split-K rule divides among the tiles).
pub(crate) fn device_model_of(d: &ck_compiler::kernel::DeviceInfo) -> crate::device::DeviceModel {
    crate::device::DeviceModel {
        arch: None,
        compute_units: d.compute_units,
        occupancy: 2,
    }
}
