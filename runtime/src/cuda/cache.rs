//! NVRTC compilation through the shared [`KernelCache`]: cubins keyed by hash(source,
//! architecture, NVRTC version), many kernels in parallel.

use super::{CudaError, nvrtc};
use crate::gpu::KernelCache;
use rayon::prelude::*;

impl KernelCache {
    /// The cache key of the cubin of `source` for `arch` with the loaded NVRTC.
    pub fn cubin_key(source: &str, arch: &str) -> Result<String, CudaError> {
        let (major, minor) = nvrtc::version()?;
        Ok(Self::key(source, arch, &format!("nvrtc {major}.{minor}")))
    }

    /// The cubin of `source` for `arch`, compiled now unless cached.
    pub fn cubin(&self, name: &str, source: &str, arch: &str) -> Result<Vec<u8>, CudaError> {
        let key = Self::cubin_key(source, arch)?;
        self.get_or_compile(&key, "cubin", || nvrtc::compile_cubin(name, source, arch))
    }

    /// Compiles `(name, source)` pairs in parallel; results in input order. `done` is called
    /// once per kernel as it finishes (a progress bar's tick).
    pub fn cubins(
        &self,
        kernels: &[(&str, &str)],
        arch: &str,
        done: &(dyn Fn() + Sync),
    ) -> Vec<Result<Vec<u8>, CudaError>> {
        kernels
            .par_iter()
            .map(|(name, source)| {
                let cubin = self.cubin(name, source, arch);
                done();
                cubin
            })
            .collect()
    }
}
