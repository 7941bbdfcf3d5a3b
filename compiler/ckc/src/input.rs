//! Loading the command's inputs into a compilation session.

use crate::cli::{Color, Input};
use crate::output::print_diagnostics;
use ck_compiler::load::Session;
use ck_runtime::{DeviceModel, Registry};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Loads every path (`-` is standard input) into a new session. A path given on the command line
/// that cannot be opened is an I/O error (exit 2); problems with the files it leads to (imports
/// that are missing, unreadable or not UTF-8) become the session's diagnostics.
pub fn load(input: &Input) -> Result<Session, String> {
    let mut session = Session::new();
    if input.allow_outside_imports {
        session = session.allow_imports_anywhere();
    }
    let files: Vec<&Path> = input
        .paths
        .iter()
        .map(PathBuf::as_path)
        .filter(|p| *p != Path::new("-"))
        .collect();
    for path in &files {
        std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    session.add_roots(&files);
    for path in &input.paths {
        if path != Path::new("-") {
            session.add_path(path);
        } else {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            let text = String::from_utf8(bytes)
                .map_err(|e| format!("standard input is not UTF-8: {e}"))?;
            session.add_source("<stdin>", &text);
        }
    }
    Ok(session)
}

/// The instances of `paths` compiled now, or the instance library when there are none. `None`
/// when the paths have errors (already printed).
pub fn registry(
    paths: &[PathBuf],
    color: Color,
    device: DeviceModel,
) -> Result<Option<Registry>, String> {
    let mut registry = Registry::new(device);
    let instances = if paths.is_empty() {
        ck_instances::all().to_vec()
    } else {
        let session = load(&Input {
            paths: paths.to_vec(),
            allow_outside_imports: false,
        })?;
        match ck_compiler::compile(&session) {
            Ok(v) => v.into_instances(),
            Err(d) => {
                print_diagnostics(&d, session.sources(), color);
                return Ok(None);
            }
        }
    };
    registry.extend(instances, 0).map_err(|e| e.to_string())?;
    Ok(Some(registry))
}
