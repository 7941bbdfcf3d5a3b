//! Validation: checks every instance-only rule of CK's device ops and of each target (one
//! stable code per rule, see [`codes`]), derives omitted parameters and builds the
//! [`Validated`] set. Problem-dependent rules (C/K divisibility, k_batch limits, 2 GB) are the
//! runtime's.
//!
//! Each instance goes through three stages; a stage that reports errors stops that instance
//! (later rules would only repeat them), but every instance is validated:
//! 1. identity (`basics`): op, kind, dims, layouts, types, element ops, ConvSpec, targets, keys;
//! 2. reading and derivation (`derive`): integers, lists, defaults, derived parameters;
//! 3. rules on the concrete instance: `shape`, `transfer`, `pipeline`, `work`, `lds`, and the
//!    format variant it prints in (`format`).
//!
//! [`validate_instance`] checks an instance built another way (a test builder, an instance
//! read back from JSON) by the same rules: its identity (stage 1), the ranges that reading
//! guarantees (stage 2), and stage 3.

mod basics;
pub use crate::codes;
pub mod derive;
pub(crate) mod format;
pub mod lds;
mod pipeline;
pub(crate) mod report;
mod shape;
mod transfer;
mod work;

pub(crate) use basics::{Basics, missing};
pub use format::unprintable;

use crate::codes::RuleCode;
use crate::emit::format::CkFormat;
use crate::ir::{Checked, Instance, Validated};
use crate::spec::{InstanceSpec, Origin, Sp};
use ck_dsl::{Diagnostic, Diagnostics, FileId, SourceMap, Span};
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
        if let Some(format) = concrete(&mut r, &b, &inst) {
            if let Some(sources) = sources
                && (spec.origin.file.0 as usize) < sources.len()
            {
                inst.source = sources.name(spec.origin.file).to_string();
            }
            instances.push(Checked::new(inst, format));
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

/// Stage 3: the rules on the concrete instance, then the variant it prints in (asked only of an
/// instance that keeps them, so that emitters never meet one they cannot express). None when
/// any reports an error.
fn concrete(r: &mut Report, b: &Basics, inst: &Instance) -> Option<CkFormat> {
    let before = r.count();
    r.relaxable = true;
    shape::check(r, b, inst);
    transfer::check(r, b, inst);
    pipeline::check(r, b, inst);
    work::check(r, b, inst);
    lds::check(r, inst);
    r.relaxable = false;
    if r.count() != before {
        return None;
    }
    match format::format_for(inst) {
        Ok(format) => Some(format),
        Err(why) => {
            r.error(
                codes::CK_FORMAT,
                r.spec.ck_format.as_ref().map(|v| v.span),
                why,
                "cannot print this instance",
                "remove `ck_format` to use the default, or pick a variant from docs/instance-strings.md",
            );
            None
        }
    }
}

/// Validates an instance built without the front end (a test builder, a changed copy of a
/// checked instance, JSON read back) by the rules [`validate`] applies to a spec: its identity,
/// the ranges reading a spec guarantees, and the rules on the concrete instance. Diagnostics
/// have no source to point into: each is labelled at an empty span of file 0. Warnings (rules
/// the instance `allow`s) are dropped with the spec-free labels.
pub fn validate_instance(inst: Instance) -> Result<Checked, Invalid> {
    let mut diags = Diagnostics::new();
    let at = Span::new(FileId(0), 0, 0);
    let mut spec = InstanceSpec::new(
        Sp::new(inst.name.clone(), at),
        Origin {
            file: FileId(0),
            span: at,
            family: inst.family.clone(),
        },
    );
    let mut allow = Vec::new();
    for code in &inst.allow {
        match RuleCode::all().find(|c| c.0 == code) {
            Some(c) => allow.push(c),
            None => diags.push(
                Diagnostic::error(
                    crate::keys::codes::UNKNOWN_WORD,
                    format!("`allow` names `{code}`, which is not a rule code `allow` takes"),
                )
                .at(at, "in this instance"),
            ),
        }
    }
    spec.allow = Some(Sp::new(allow, at));
    let mut r = Report {
        spec: &spec,
        diags: &mut diags,
        errors: 0,
        relaxable: false,
    };
    let format = basics::of_instance(&mut r, &inst)
        .filter(|b| derive::form(&mut r, b, &inst))
        .and_then(|b| concrete(&mut r, &b, &inst));
    match format {
        Some(format) if !diags.has_errors() => Ok(Checked::new(inst, format)),
        _ => {
            diags.dedup();
            Err(Invalid {
                name: inst.name,
                diagnostics: diags,
            })
        }
    }
}

/// Test support alone (this crate's tests, and the `testing` feature that the runtime's test
/// builders enable): `inst` as checked without validating it, in the variant it would print in
/// where it has one. The kernel model's and the runtime's tests set parameter combinations no CK
/// device op takes (StreamK on XDL kinds, 1-D backward weight, vectors wider than a thread's
/// slice) to reach corners of the launch plans and the support rules.
#[cfg(any(test, feature = "testing"))]
pub fn unvalidated(inst: Instance) -> Checked {
    let format = format::format_for(&inst).unwrap_or(CkFormat::ALL[0]);
    Checked::new(inst, format)
}

/// Why [`validate_instance`] refused an instance: what validation reported.
#[derive(Clone, Debug, thiserror::Error)]
#[error("instance `{name}` is not valid: {}", errors(diagnostics))]
pub struct Invalid {
    pub name: String,
    pub diagnostics: Diagnostics,
}

/// The codes and messages of the errors, for a one-line message.
fn errors(diags: &Diagnostics) -> String {
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    errors.join("; ")
}

/// Reading a checked instance validates it ([`validate_instance`]): JSON that does not hold a
/// valid instance is an error, never a [`Checked`].
impl<'de> serde::Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        validate_instance(Instance::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}
