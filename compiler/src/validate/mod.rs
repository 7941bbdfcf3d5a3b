//! Validation: checks every instance-only rule of CK's device ops and of each target (one
//! stable code per rule, see [`codes`]), derives omitted parameters and builds the
//! [`Validated`] set. Problem-dependent rules (C/K divisibility, k_batch limits, 2 GB) are the
//! runtime's.
//!
//! Each instance goes through three stages; a stage that reports errors stops that instance
//! (later rules would only repeat them), but every instance is validated:
//! 1. identity (`basics`): op, kind, dims, layouts, types, element ops, ConvSpec, targets, keys;
//! 2. reading and derivation (`derive`): integers, lists, defaults, derived parameters;
//! 3. rules on the concrete instance: `shape`, `transfer`, `pipeline`, `work`, `lds`.

mod basics;
pub use crate::codes;
pub mod derive;
pub mod lds;
mod pipeline;
pub(crate) mod report;
mod shape;
mod transfer;
mod work;

pub(crate) use basics::{Basics, missing};

use crate::ir::Validated;
use crate::spec::InstanceSpec;
use ck_dsl::{Diagnostic, Diagnostics, SourceMap};
use report::Report;
use std::collections::BTreeMap;

/// Validates `specs`; every error of every instance is reported. `Instance::source` stays
/// empty (use [`validate_with_sources`] to fill it).
pub fn validate(specs: &[InstanceSpec]) -> Result<Validated, Diagnostics> {
    run(specs, None)
}

/// Like [`validate`], naming each instance's source file from `sources`.
pub fn validate_with_sources(
    specs: &[InstanceSpec],
    sources: &SourceMap,
) -> Result<Validated, Diagnostics> {
    run(specs, Some(sources))
}

fn run(specs: &[InstanceSpec], sources: Option<&SourceMap>) -> Result<Validated, Diagnostics> {
    let mut diags = Diagnostics::new();
    let mut instances = Vec::new();
    let mut first_by_name = BTreeMap::new();
    for spec in specs {
        // Resolution guarantees unique names; specs built by hand get the same check and code.
        if let Some(&first) = first_by_name.get(spec.name.value.as_str()) {
            diags.push(
                Diagnostic::error(
                    crate::resolve::codes::DUPLICATE_NAME,
                    format!("instance `{}` is declared twice", spec.name.value),
                )
                .at(spec.name.span, "second declaration")
                .with(first, "first declared here")
                .help("rename one of the instances (family rows expand to `family_axes_row`)"),
            );
            continue;
        }
        first_by_name.insert(spec.name.value.as_str(), spec.name.span);
        let mut r = Report {
            spec,
            diags: &mut diags,
            errors: 0,
            relaxable: false,
        };
        let Some(b) = basics::resolve(&mut r) else {
            continue;
        };
        let Some(mut inst) = derive::build(&mut r, &b) else {
            continue;
        };
        let before = r.count();
        r.relaxable = true;
        shape::check(&mut r, &b, &inst);
        transfer::check(&mut r, &b, &inst);
        pipeline::check(&mut r, &b, &inst);
        work::check(&mut r, &b, &inst);
        lds::check(&mut r, &inst);
        r.relaxable = false;
        // Only a valid instance can be asked whether some variant prints it.
        if r.count() == before {
            ck_format(&mut r, &inst);
        }
        if r.count() == before {
            if let Some(sources) = sources
                && (spec.origin.file.0 as usize) < sources.len()
            {
                inst.source = sources.name(spec.origin.file).to_string();
            }
            instances.push(inst);
        }
    }
    diags.dedup();
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok(Validated::new(instances).with_warnings(diags))
    }
}

#[cfg(test)]
mod tests;

/// The instance must print in its `ck_format` (or some variant, by default): emitters never
/// meet an instance they cannot express.
fn ck_format(r: &mut Report, inst: &crate::ir::Instance) {
    if let Err(why) = crate::emit::format::format_for(inst) {
        r.error(
            codes::CK_FORMAT,
            r.spec.ck_format.as_ref().map(|v| v.span),
            why,
            "cannot print this instance",
            "remove `ck_format` to use the default, or pick a variant from docs/instance-strings.md",
        );
    }
}
