//! Compiles portable kernel sources to cubins with NVRTC, without a GPU:
//! `nvrtc_check [--cache DIR] <arch> <file.hip>...`. Every file must compile; errors show the
//! source line. With `--cache` the cubins go to a kernel cache the CUDA back end reads.

use ck_runtime::cuda::{KernelCache, nvrtc};
use rayon::prelude::*;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let cache = match args.iter().position(|a| a == "--cache") {
        Some(i) if i + 1 < args.len() => {
            let dir = args.remove(i + 1);
            args.remove(i);
            Some(KernelCache::new(dir))
        }
        Some(_) => {
            eprintln!("--cache needs a directory");
            return ExitCode::FAILURE;
        }
        None => None,
    };
    let Some((arch, files)) = args.split_first() else {
        eprintln!("usage: nvrtc_check [--cache DIR] <arch> <file.hip>...");
        return ExitCode::FAILURE;
    };
    let version = match nvrtc::version() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let failures: Vec<String> = files
        .par_iter()
        .filter_map(|path| {
            let name = std::path::Path::new(path)
                .file_stem()
                .map_or(path.clone(), |s| s.to_string_lossy().into_owned());
            let result = std::fs::read_to_string(path)
                .map_err(|e| format!("{path}: {e}"))
                .and_then(|src| {
                    match &cache {
                        Some(c) => c.cubin(&name, &src, arch),
                        None => nvrtc::compile_cubin(&name, &src, arch),
                    }
                    .map_err(|e| e.to_string())
                });
            match result {
                Ok(cubin) if cubin.starts_with(b"\x7fELF") => None,
                Ok(_) => Some(format!(
                    "{name}: NVRTC returned something that is not an ELF cubin"
                )),
                Err(e) => Some(e),
            }
        })
        .collect();
    for f in &failures {
        eprintln!("{f}");
    }
    println!(
        "NVRTC {}.{}: {} of {} kernels compiled to {arch} cubins",
        version.0,
        version.1,
        files.len() - failures.len(),
        files.len()
    );
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
