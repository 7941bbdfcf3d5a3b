//! The build.rs API: compile a folder of `.ck` files into `OUT_DIR`, to `include!` from a crate.
//!
//! ```no_run
//! // In build.rs's `main`:
//! if let Err(e) = ck_compiler::build_api::Config::new().compile(&["ck"]) {
//!     eprintln!("{e}");
//!     std::process::exit(1);
//! }
//! // In lib.rs: include!(concat!(env!("OUT_DIR"), "/ckdsl_instances.rs"));
//! ```

// The example is a build script, so its `main` is the point.
#![allow(clippy::needless_doctest_main)]

use crate::ir::Validated;
use crate::load::Session;
use std::path::{Path, PathBuf};

/// Where and how to write the compiled library.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Config {
    out_dir: Option<PathBuf>,
    cargo_directives: bool,
    imports_anywhere: bool,
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

/// A compile that failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The front end's or validation's diagnostics, rendered against their sources.
    #[error("{0}")]
    Diagnostics(String),
    #[error("no .ck files under {0}: a library needs at least one")]
    NoSources(String),
    #[error("OUT_DIR is not set: call from a build script or set out_dir")]
    NoOutDir,
    #[error("cannot serialize the instances: {0}")]
    Serialize(#[source] serde_json::Error),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

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
            imports_anywhere: false,
        }
    }

    /// Writes to `dir` instead of `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Lets imports lead outside the paths given (trusted sources only; see
    /// [`Session::allow_imports_anywhere`]).
    pub fn allow_imports_anywhere(mut self, on: bool) -> Self {
        self.imports_anywhere = on;
        self
    }

    /// Whether to print `cargo:` directives (off outside build scripts).
    pub fn cargo_directives(mut self, on: bool) -> Self {
        self.cargo_directives = on;
        self
    }

    /// Compiles every `.ck` file under `paths` (files or folders, imports followed) and writes
    /// `ckdsl_instances.json` (the validated IR) and `ckdsl_instances.rs`, which defines
    /// `pub const INSTANCES_JSON: &str` for the crate to deserialize. Warnings go to Cargo as
    /// `cargo:warning` lines (with `cargo_directives`) and are in [`Output::instances`].
    pub fn compile(&self, paths: &[impl AsRef<Path>]) -> Result<Output, Error> {
        let mut session = Session::new();
        if self.imports_anywhere {
            session = session.allow_imports_anywhere();
        }
        session.add_paths(paths);
        for p in paths {
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
        if inputs.is_empty() && !session.diagnostics().has_errors() {
            let names: Vec<String> = paths
                .iter()
                .map(|p| p.as_ref().display().to_string())
                .collect();
            return Err(Error::NoSources(names.join(", ")));
        }
        let instances = crate::compile(&session)
            .map_err(|d| Error::Diagnostics(d.render(session.sources())))?;
        if self.cargo_directives && !instances.warnings().is_empty() {
            // Cargo shows each `cargo:warning` line; the rendered diagnostic spans several.
            for line in instances.warnings().render(session.sources()).lines() {
                println!("cargo:warning={line}");
            }
        }
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        std::fs::create_dir_all(&out_dir).map_err(|e| io_error(&out_dir, e))?;
        let json = serde_json::to_string(instances.instances()).map_err(Error::Serialize)?;
        let ir_path = out_dir.join(IR_FILE);
        write_if_changed(&ir_path, &json)?;
        let rust_file = out_dir.join(RUST_FILE);
        let rust = format!(
            "/// The validated instances as JSON (`ck_compiler::ir::Checked` array; reading one validates it).\n\
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
    Error::Write {
        path: path.to_path_buf(),
        source: e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Checked;

    fn folder(test: &str, files: &[(&str, &str)]) -> crate::load::TestFolder {
        crate::load::test_folder("ck-build-api", test, files)
    }

    const VALID: &str = "instance a {\n op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc;\n dtype = fp16; targets = [gfx942]; block = 64; tile = [32, 128, 32]; k1 = 8;\n instr = [32, 32]; repeat = [1, 4];\n a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }\n b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }\n c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }\n}\n";

    #[test]
    fn writes_the_ir_and_a_rust_file_that_includes_it() {
        let dir = folder("ok", &[("lib/x.ck", VALID)]);
        let out = Config::new()
            .cargo_directives(false)
            .out_dir(dir.join("out"))
            .compile(&[dir.join("lib")])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.inputs, [dir.join("lib/x.ck")]);
        let json = std::fs::read_to_string(dir.join("out").join(IR_FILE)).unwrap();
        let back: Vec<Checked> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, out.instances.instances());
        let rust = std::fs::read_to_string(&out.rust_file).unwrap();
        assert!(
            rust.contains("pub const INSTANCES_JSON: &str = include_str!("),
            "{rust}"
        );
        assert!(rust.contains(IR_FILE), "{rust}");
    }

    #[test]
    fn errors_are_rendered_and_empty_libraries_rejected() {
        let dir = folder(
            "bad",
            &[
                ("lib/x.ck", "instance a { tile = ; }\n"),
                ("empty/notes.txt", ""),
            ],
        );
        let config = Config::new()
            .cargo_directives(false)
            .out_dir(dir.join("out"));
        let err = config.compile(&[dir.join("lib")]).unwrap_err();
        assert!(
            matches!(&err, Error::Diagnostics(text) if text.contains("CK0") && text.contains("x.ck")),
            "{err}"
        );
        let err = config.compile(&[dir.join("empty")]).unwrap_err();
        assert!(matches!(err, Error::NoSources(_)), "{err}");
        let err = config.compile(&[dir.join("missing")]).unwrap_err();
        assert!(err.to_string().contains("not found"), "{err}");
    }
}
