//! [`Backend`](crate::Backend) for the HIP back end: host tensors in, host tensors out (through the shared
//! [`run_on_host`]). Each instance's portable kernel is compiled once (through the code-object cache)
//! and kept loaded.

use super::{DeviceBuffer, DeviceTensors, HipBackend, HipError, LoadedKernel};
use crate::device::DeviceModel;
use crate::exec::RunError;
use crate::gpu::HostDevice;
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::kernel::{DeviceInfo, LaunchPlan};
use ck_compiler::model::Arch;
use std::sync::Arc;

impl From<HipError> for RunError {
    fn from(e: HipError) -> Self {
        RunError::Backend {
            backend: "hip".into(),
            message: e.to_string(),
        }
    }
}

impl HostDevice for HipBackend {
    type Buf = DeviceBuffer;
    type Kernel = LoadedKernel;
    type Error = HipError;

    fn backend(&self) -> &'static str {
        "hip"
    }

    /// The target without its features: `gfx90a` for `gfx90a:sramecc+:xnack-`.
    fn target(&self) -> Option<Arch> {
        Arch::from_keyword(self.arch().split(':').next().unwrap_or_default())
    }

    fn device_model(&self) -> DeviceModel {
        HipBackend::device_model(self)
    }

    fn device_info(&self) -> DeviceInfo {
        self.device
    }

    /// The loaded kernel of `k`, compiled (or read from the code-object cache) on first use.
    fn loaded(&self, k: HipKernel) -> Result<Arc<LoadedKernel>, HipError> {
        // The kernel is copied only when it is loaded: a lookup borrows its source.
        self.loaded.get_or_load(
            &k.source,
            || HipError::Device("kernel table poisoned by an earlier panic".into()),
            || {
                let code = self.cache.code_object(&k.name, &k.source, &self.arch)?;
                self.load(k.clone(), code)
            },
        )
    }

    fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, HipError> {
        HipBackend::alloc(self, bytes)
    }

    fn upload(&self, bytes: &[u8]) -> Result<DeviceBuffer, HipError> {
        HipBackend::upload(self, bytes)
    }

    fn download(&self, buf: &DeviceBuffer) -> Result<Vec<u8>, HipError> {
        HipBackend::download(self, buf)
    }

    fn launch(
        &self,
        k: &LoadedKernel,
        plan: &LaunchPlan,
        t: &mut DeviceTensors,
        workspace: Option<&mut DeviceBuffer>,
        alpha: f64,
        beta: f64,
    ) -> Result<(), HipError> {
        HipBackend::launch(self, k, plan, t, workspace, alpha, beta)
    }

    fn synchronize(&self) -> Result<(), HipError> {
        HipBackend::synchronize(self)
    }
}

crate::gpu::device_backend!(HipBackend, "hip");
