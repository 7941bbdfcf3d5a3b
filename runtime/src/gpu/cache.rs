//! On-disk cache of compiled kernels (cubins, AMD code objects) keyed by hash(source, target,
//! compiler version). Each back end adds its own compile entry points on [`KernelCache`].

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A directory of `<sha256>.<ext>` files.
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

    /// Cache key of one compilation: `compiler` names the compiler and its version (e.g.
    /// `nvrtc 13.0`), so an upgrade never reuses stale binaries.
    pub fn key(source: &str, target: &str, compiler: &str) -> String {
        let mut h = Sha256::new();
        h.update(source.as_bytes());
        h.update([0]);
        h.update(target.as_bytes());
        h.update([0]);
        h.update(compiler.as_bytes());
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The cached binary of `key` (file extension `ext`), else `compile()`'s result, stored.
    /// A cache that cannot be read or written only costs a recompilation.
    pub fn get_or_compile<E>(
        &self,
        key: &str,
        ext: &str,
        compile: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Vec<u8>, E> {
        let path = self.dir.join(format!("{key}.{ext}"));
        if let Ok(bytes) = std::fs::read(&path) {
            return Ok(bytes);
        }
        let bytes = compile()?;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_depends_on_source_target_and_compiler() {
        let k = KernelCache::key("a", "sm_90", "nvrtc 13.0");
        assert_eq!(k.len(), 64);
        assert_ne!(k, KernelCache::key("b", "sm_90", "nvrtc 13.0"));
        assert_ne!(k, KernelCache::key("a", "sm_80", "nvrtc 13.0"));
        assert_ne!(k, KernelCache::key("a", "sm_90", "nvrtc 13.1"));
        assert_eq!(k, KernelCache::key("a", "sm_90", "nvrtc 13.0"));
    }

    #[test]
    fn compiles_once_then_reads_the_file() {
        let dir = std::env::temp_dir().join(format!("ckdsl-cache-test-{}", std::process::id()));
        let cache = KernelCache::new(&dir);
        let key = KernelCache::key("src", "t", "c");
        let first: Result<_, ()> = cache.get_or_compile(&key, "bin", || Ok(vec![1, 2, 3]));
        assert_eq!(first, Ok(vec![1, 2, 3]));
        let second: Result<_, ()> = cache.get_or_compile(&key, "bin", || Err(()));
        assert_eq!(second, Ok(vec![1, 2, 3]));
        let failed: Result<Vec<u8>, &str> =
            cache.get_or_compile(&KernelCache::key("other", "t", "c"), "bin", || Err("no"));
        assert_eq!(failed, Err("no"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
