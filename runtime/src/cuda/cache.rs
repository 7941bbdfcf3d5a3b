//! On-disk cubin cache keyed by hash(source, architecture, NVRTC version), and parallel
//! compilation of many kernels.

use super::{CudaError, nvrtc};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A directory of `<sha256>.cubin` files.
#[derive(Clone, Debug)]
pub struct KernelCache {
    dir: PathBuf,
}

impl KernelCache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        KernelCache { dir: dir.into() }
    }

    /// `$CK_KERNEL_CACHE`, else `$XDG_CACHE_HOME/ckdsl/kernels`, else `~/.cache/ckdsl/kernels`,
    /// else a folder under the system temporary directory.
    pub fn default_dir() -> PathBuf {
        let env = |k| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        env("CK_KERNEL_CACHE")
            .or_else(|| env("XDG_CACHE_HOME").map(|p| p.join("ckdsl/kernels")))
            .or_else(|| env("HOME").map(|p| p.join(".cache/ckdsl/kernels")))
            .unwrap_or_else(|| std::env::temp_dir().join("ckdsl-kernels"))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Cache key of one compilation.
    pub fn key(source: &str, arch: &str, nvrtc: (i32, i32)) -> String {
        let mut h = Sha256::new();
        h.update(source.as_bytes());
        h.update([0]);
        h.update(arch.as_bytes());
        h.update([0]);
        h.update(format!("nvrtc {}.{}", nvrtc.0, nvrtc.1).as_bytes());
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The cubin of `source` for `arch`, compiled now unless cached. A cache that cannot be
    /// read or written only costs a recompilation.
    pub fn cubin(&self, name: &str, source: &str, arch: &str) -> Result<Vec<u8>, CudaError> {
        let path = self.dir.join(format!(
            "{}.cubin",
            Self::key(source, arch, nvrtc::version()?)
        ));
        if let Ok(bytes) = std::fs::read(&path) {
            return Ok(bytes);
        }
        let bytes = nvrtc::compile_cubin(name, source, arch)?;
        // Write to a unique temporary name, then rename: concurrent writers never expose a
        // partial file.
        if std::fs::create_dir_all(&self.dir).is_ok() {
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            if std::fs::write(&tmp, &bytes).is_ok() && std::fs::rename(&tmp, &path).is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
        }
        Ok(bytes)
    }

    /// Compiles `(name, source)` pairs in parallel; results in input order.
    pub fn cubins(&self, kernels: &[(&str, &str)], arch: &str) -> Vec<Result<Vec<u8>, CudaError>> {
        kernels
            .par_iter()
            .map(|(name, source)| self.cubin(name, source, arch))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_depends_on_source_arch_and_version() {
        let k = KernelCache::key("a", "sm_90", (13, 0));
        assert_eq!(k.len(), 64);
        assert_ne!(k, KernelCache::key("b", "sm_90", (13, 0)));
        assert_ne!(k, KernelCache::key("a", "sm_80", (13, 0)));
        assert_ne!(k, KernelCache::key("a", "sm_90", (13, 1)));
        assert_eq!(k, KernelCache::key("a", "sm_90", (13, 0)));
    }
}
