//! [`Backend`](crate::Backend) for the CUDA back end: host tensors in, host tensors out (through the shared
//! [`run_on_host`]). Each instance's portable kernel is compiled once (through the cubin cache)
//! and kept loaded.

use super::{CudaBackend, CudaError, LoadedKernel};
use crate::exec::RunError;
use crate::gpu::HostDevice;
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::kernel::DeviceInfo;
use ck_compiler::model::Arch;
use cudarc::driver::CudaSlice;
use std::sync::Arc;

impl From<CudaError> for RunError {
    fn from(e: CudaError) -> Self {
        RunError::Backend {
            backend: "cuda".into(),
            message: e.to_string(),
        }
    }
}

impl HostDevice for CudaBackend {
    type Buf = CudaSlice<u8>;
    type Kernel = LoadedKernel;
    type Error = CudaError;

    fn backend(&self) -> &'static str {
        "cuda"
    }

    /// `sm_90` for `sm_90a` and the like; none where the library has no such target.
    fn target(&self) -> Option<Arch> {
        Arch::from_keyword(self.arch().trim_end_matches('a'))
    }

    fn device_id(&self) -> Option<crate::backend::DeviceId> {
        CudaBackend::device_id(self).ok()
    }

    fn device_info(&self) -> DeviceInfo {
        self.device
    }

    /// The loaded kernel of `k`, compiled (or read from the cubin cache) on first use.
    fn loaded(&self, k: HipKernel) -> Result<Arc<LoadedKernel>, CudaError> {
        // The kernel is copied only when it is loaded: a lookup borrows its source.
        self.loaded.get_or_load(
            &k.source,
            || CudaError::Nvrtc("kernel table poisoned by an earlier panic".into()),
            || {
                let cubin = self.cache.cubin(&k.name, &k.source, &self.arch)?;
                self.load(k.clone(), cubin)
            },
        )
    }

    crate::gpu::forward_to_inherent!();
}

crate::gpu::device_backend!(CudaBackend, "cuda");
