//! `ckc emit <target>`: runs one back end over the validated instances and prints its output, or
//! writes it under `--out DIR`.

use super::{Outcome, with_validated};
use crate::cli::{Color, EmitTarget};
use ck_compiler::emit::{
    self, CkFormat, OutFile, check_format, dispatcher_name, emit_ck, instance_string,
    instance_string_as, manifest_json, unprintable,
};
use ck_compiler::ir::Validated;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(target: EmitTarget, color: Color) -> Result<ExitCode, String> {
    let (input, out) = match &target {
        EmitTarget::Traits { args, .. }
        | EmitTarget::Names { args }
        | EmitTarget::Manifest { args }
        | EmitTarget::Cmake { args } => (&args.input, args.out.as_deref()),
        EmitTarget::Ck { input, out } => (input, Some(out.as_path())),
    };
    with_validated(input, color, |set| match render(&target, set) {
        Ok(files) => {
            deliver(&files, out)?;
            Ok(Outcome::Ok)
        }
        Err(reasons) => Ok(Outcome::Rejected(reasons)),
    })
}

/// The target's files, paths relative to the output folder; or why the set cannot be emitted.
fn render(target: &EmitTarget, set: &Validated) -> Result<Vec<OutFile>, Vec<String>> {
    match target {
        EmitTarget::Traits { ck_format, .. } => {
            Ok(vec![one("traits.txt", traits(set, ck_format.as_deref())?)])
        }
        EmitTarget::Ck { .. } => emit_ck(set).map_err(|e| vec![e]),
        EmitTarget::Names { .. } => Ok(vec![one("names.txt", names(set))]),
        EmitTarget::Manifest { .. } => {
            let json = manifest_json(set).map_err(|e| vec![e])?;
            Ok(vec![one("manifest.json", json + "\n")])
        }
        EmitTarget::Cmake { .. } => {
            let files = emit_ck(set).map_err(|e| vec![e])?;
            Ok(vec![emit::cmake::cmake_project(set, &files)])
        }
    }
}

fn one(path: &str, contents: String) -> OutFile {
    OutFile {
        path: path.to_string(),
        contents,
    }
}

/// One instance string per line, in each instance's own variant or in `ck_format` for all.
fn traits(set: &Validated, ck_format: Option<&str>) -> Result<String, Vec<String>> {
    let mut out = String::new();
    let mut errors = Vec::new();
    for inst in set.instances() {
        let line = match ck_format {
            None => instance_string(inst),
            Some(name) => check_format(inst.op, inst.kind, Some(name)).and_then(|f: CkFormat| {
                match unprintable(inst, f) {
                    Some(feature) => Err(format!("the \"{name}\" form cannot print {feature}")),
                    None => Ok(instance_string_as(inst, f)),
                }
            }),
        };
        match line {
            Ok(line) => {
                out.push_str(&line);
                out.push('\n');
            }
            Err(e) => errors.push(format!("instance `{}`: {e}", inst.name)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn names(set: &Validated) -> String {
    set.instances()
        .iter()
        .map(|inst| {
            let name = dispatcher_name(inst).unwrap_or_else(|| "-".to_string());
            format!("{}\t{name}\n", inst.name)
        })
        .collect()
}

/// Prints the one file to standard output, or writes every file under `out`.
fn deliver(files: &[OutFile], out: Option<&Path>) -> Result<(), String> {
    let Some(root) = out else {
        return match files {
            [file] => {
                print!("{}", file.contents);
                Ok(())
            }
            _ => Err("this target writes several files; give --out DIR".to_string()),
        };
    };
    for file in files {
        let path: PathBuf = root.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.contents)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    eprintln!("wrote {} file(s) under {}", files.len(), root.display());
    Ok(())
}
