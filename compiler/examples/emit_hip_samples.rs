//! Writes the portable kernel of every reference instance to `<dir>/<name>.hip`, for the
//! compile checks (`scripts/compile-check.sh`).

use ck_compiler::emit::hip::{emit_hip, samples};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: emit_hip_samples <output-dir>");
        return ExitCode::FAILURE;
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {dir}: {e}");
        return ExitCode::FAILURE;
    }
    for inst in samples::instances() {
        let kernel = match emit_hip(&inst) {
            Ok(k) => k,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let path = format!("{dir}/{}.hip", kernel.name);
        if let Err(e) = std::fs::write(&path, &kernel.source) {
            eprintln!("cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
