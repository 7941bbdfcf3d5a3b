//! The build.rs API: compile a folder of `.ck` files into `OUT_DIR`, to `include!` from a crate.
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     ck_compiler::build_api::Config::new()
//!         .compile(&["ck"])
//!         .unwrap_or_else(|e| {
//!             eprintln!("{e}");
//!             std::process::exit(1)
//!         });
//! }
//! // lib.rs: include!(concat!(env!("OUT_DIR"), "/ckdsl_instances.rs"));
//! ```

// The example is a build script, so its `main` is the point.
#![allow(clippy::needless_doctest_main)]

use crate::ir::Validated;
use crate::load::Session;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where and how to write the compiled library.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Config {
    out_dir: Option<PathBuf>,
    cargo_directives: bool,
}

/// What a successful compile wrote.
#[derive(Debug)]
pub struct Output {
    pub instances: Validated,
    /// The Rust file to `include!`.
    pub rust_file: PathBuf,
    /// Every `.ck` file read.
    pub inputs: Vec<PathBuf>,
}

/// A compile that failed: the rendered diagnostics, or an I/O problem writing the output.
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Name of the generated Rust file in the output folder.
pub const RUST_FILE: &str = "ckdsl_instances.rs";
/// Name of the generated JSON file (the validated IR) in the output folder.
pub const IR_FILE: &str = "ckdsl_instances.json";

impl Config {
    /// Writes to `$OUT_DIR` and prints `cargo:rerun-if-changed` lines, as a build script should.
    pub fn new() -> Self {
        Config {
            out_dir: None,
            cargo_directives: true,
        }
    }

    /// Writes to `dir` instead of `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Whether to print `cargo:` directives (off outside build scripts).
    pub fn cargo_directives(mut self, on: bool) -> Self {
        self.cargo_directives = on;
        self
    }

    /// Compiles every `.ck` file under `paths` (files or folders, imports followed) and writes
    /// `ckdsl_instances.json` (the validated IR) and `ckdsl_instances.rs`, which defines
    /// `pub const INSTANCES_JSON: &str` for the crate to deserialize.
    pub fn compile(&self, paths: &[impl AsRef<Path>]) -> Result<Output, Error> {
        let mut session = Session::new();
        for p in paths {
            session.add_path(p.as_ref());
            if self.cargo_directives {
                // Folders too, so that added files trigger a rebuild.
                println!("cargo:rerun-if-changed={}", p.as_ref().display());
            }
        }
        let inputs: Vec<PathBuf> = session
            .sources()
            .files()
            .map(|(_, f)| PathBuf::from(&f.name))
            .collect();
        if self.cargo_directives {
            for f in &inputs {
                println!("cargo:rerun-if-changed={}", f.display());
            }
        }
        let instances = crate::compile(&session).map_err(|d| Error(d.render(session.sources())))?;
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    Error("OUT_DIR is not set: call from a build script or set out_dir".into())
                })?,
        };
        std::fs::create_dir_all(&out_dir).map_err(|e| io_error(&out_dir, e))?;
        let json = serde_json::to_string(instances.instances())
            .map_err(|e| Error(format!("cannot serialize the instances: {e}")))?;
        let ir_path = out_dir.join(IR_FILE);
        write_if_changed(&ir_path, &json)?;
        let rust_file = out_dir.join(RUST_FILE);
        let rust = format!(
            "/// The validated instances as JSON (`ck_compiler::ir::Instance` array).\n\
             pub const INSTANCES_JSON: &str = include_str!({:?});\n",
            ir_path.display().to_string()
        );
        write_if_changed(&rust_file, &rust)?;
        Ok(Output {
            instances,
            rust_file,
            inputs,
        })
    }
}

/// Leaves the file untouched when its contents are already right, so dependents don't rebuild.
fn write_if_changed(path: &Path, contents: &str) -> Result<(), Error> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    std::fs::write(path, contents).map_err(|e| io_error(path, e))
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error(format!("cannot write {}: {e}", path.display()))
}
