//! [`Backend`](crate::Backend) for the HIP back end: host tensors in, host tensors out (through the shared
//! [`run_on_host`]). Each instance's portable kernel is compiled once (through the code-object cache)
//! and kept loaded.

use super::{DeviceBuffer, HipBackend, HipError, LoadedKernel};
use crate::exec::RunError;
use crate::gpu::HostDevice;
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::kernel::DeviceInfo;
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

    crate::gpu::forward_to_inherent!();
}

crate::gpu::device_backend!(HipBackend, "hip");
