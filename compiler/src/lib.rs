//! The ckdsl compiler: `.ck` text → AST → resolved specs → validated IR → emitters.
//!
//! One front end, shared by the `ckc` CLI, the build.rs API and the `conv_instance!` macro.

pub mod analysis;
pub mod arch;
pub mod build_api;
pub mod codes;
pub mod emit;
pub mod import;
pub mod ir;
pub mod kernel;
pub mod keys;
pub mod load;
pub mod macro_support;
pub mod model;
pub mod ops;
pub mod resolve;
pub mod spec;
pub mod validate;

pub use validate::{validate, validate_with_sources};

use ck_dsl::Diagnostics;

/// Runs the whole front half on a loaded session: resolution, then validation and derivation.
/// Each stage reports all its errors; a stage with errors stops the pipeline.
pub fn compile(session: &load::Session) -> Result<ir::Validated, Diagnostics> {
    if session.diagnostics().has_errors() {
        return Err(session.diagnostics().clone());
    }
    let (specs, diags) = session.resolve();
    if diags.has_errors() {
        return Err(diags);
    }
    let mut warnings = session.diagnostics().clone();
    warnings.extend(diags);
    Ok(validate_with_sources(&specs, session.sources())?.with_warnings(warnings))
}
