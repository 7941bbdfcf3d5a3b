//! `ckc emit <target>`: runs one back end over the validated instances and prints its output, or
//! writes it under `--out DIR`.

use super::{Outcome, with_validated};
use crate::cli::{Color, EmitTarget};
use ck_compiler::emit::hip::cover::covering;
use ck_compiler::emit::hip::kernel_text;
use ck_compiler::emit::{
    self, CkFormat, CkRelease, FormatError, OutFile, check_format, dispatcher_name, emit_ck_for,
    instance_string, instance_string_as, manifest_json,
};
use ck_compiler::ir::Validated;
use ck_compiler::kernel::KernelConfig;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(target: EmitTarget, color: Color) -> Result<ExitCode, String> {
    let (input, out) = match &target {
        EmitTarget::Traits { args, .. }
        | EmitTarget::Names { args }
        | EmitTarget::Manifest { args }
        | EmitTarget::Cmake { args, .. } => (&args.input, args.out.as_deref()),
        EmitTarget::Ck { input, out, .. } | EmitTarget::Hip { input, out, .. } => {
            (input, Some(out.as_path()))
        }
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
        EmitTarget::Ck { ck_release, .. } => ck_sources(set, *ck_release),
        EmitTarget::Hip { cover, .. } => Ok(hip(set, *cover)),
        EmitTarget::Names { .. } => Ok(vec![one("names.txt", names(set))]),
        EmitTarget::Manifest { .. } => {
            let json = manifest_json(set).map_err(|e| vec![e.to_string()])?;
            Ok(vec![one("manifest.json", json + "\n")])
        }
        EmitTarget::Cmake { ck_release, .. } => {
            let files = ck_sources(set, *ck_release)?;
            Ok(vec![emit::cmake::cmake_project(set, &files)])
        }
    }
}

/// The CK C++ sources for `release`, naming on standard error the instances it leaves out: a
/// line a reason, with the count and the first few.
fn ck_sources(set: &Validated, release: CkRelease) -> Result<Vec<OutFile>, Vec<String>> {
    const SHOWN: usize = 3;
    let sources = emit_ck_for(set, release).map_err(|e| vec![e.to_string()])?;
    let mut by_reason: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (instance, why) in &sources.left_out {
        by_reason.entry(why).or_default().push(instance);
    }
    for (why, names) in by_reason {
        let shown: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
        let more = if names.len() > SHOWN { ", …" } else { "" };
        eprintln!(
            "warning: left out {} instance(s) ({}{more}): {why}",
            names.len(),
            shown.join(", ")
        );
    }
    Ok(sources.files)
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
            None => Ok(instance_string(inst)),
            Some(name) => check_format(inst.op, inst.kind, Some(name))
                .and_then(
                    |f: CkFormat| match ck_compiler::validate::unprintable(inst, f) {
                        Some(feature) => Err(FormatError::Unprintable {
                            variant: f.variant_name(),
                            ck_name: f.ck_name(),
                            feature,
                        }),
                        None => Ok(instance_string_as(inst, f)),
                    },
                )
                .map_err(String::from),
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

/// One file per distinct portable kernel, named by its symbol and headed by the instances that
/// share it, plus the instance-to-kernel index; with `cover`, only the kernels that take every
/// code path ([`covering`]) and their instances.
fn hip(set: &Validated, cover: bool) -> Vec<OutFile> {
    let mut kernels: BTreeMap<String, (Vec<&str>, String)> = BTreeMap::new();
    let mut index = String::new();
    for inst in set.instances() {
        let config = match KernelConfig::new(inst) {
            Ok(config) => config,
            Err(why) => {
                eprintln!("warning: left out {why}");
                continue;
            }
        };
        let kernel = kernel_text(&config);
        index.push_str(&format!("{}\t{}\n", inst.name, kernel.symbol_base));
        kernels
            .entry(kernel.symbol_base)
            .or_insert_with(|| (Vec::new(), kernel.text))
            .0
            .push(&inst.name);
    }
    if cover {
        let kept: BTreeSet<String> =
            covering(kernels.iter().map(|(k, (_, t))| (k.as_str(), t.as_str())))
                .into_iter()
                .map(str::to_string)
                .collect();
        kernels.retain(|symbol, _| kept.contains(symbol));
        index = index
            .lines()
            .filter(|l| l.split('\t').nth(1).is_some_and(|k| kept.contains(k)))
            .map(|l| format!("{l}\n"))
            .collect();
    }
    let mut files: Vec<OutFile> = kernels
        .into_iter()
        .map(|(symbol, (names, text))| {
            let mut contents = format!(
                "// Generated by ckdsl. Do not edit. The portable kernel of {} instance(s):\n",
                names.len()
            );
            for name in names {
                contents.push_str(&format!("//   {name}\n"));
            }
            contents.push_str(&text);
            one(&format!("{symbol}.hip"), contents)
        })
        .collect();
    files.push(one("kernels.txt", index));
    files
}

/// Prints the one file to standard output, or writes every file under `out`.
fn deliver(files: &[OutFile], out: Option<&Path>) -> Result<(), String> {
    let Some(root) = out else {
        return match files {
            [file] => {
                crate::output::out!("{}", file.contents);
                Ok(())
            }
            _ => Err("this target writes several files; give --out DIR".to_string()),
        };
    };
    // Everything is written to a staging folder first and every destination checked, so a
    // failure (a full disk, a file where a folder is needed) leaves `out` as it was rather than
    // half written; then the files are moved into place.
    let staging = root.join(format!(".ckc-staging-{}", std::process::id()));
    let result = stage(files, &staging)
        .and_then(|()| files.iter().try_for_each(|f| destination_ok(root, &f.path)));
    let result = result.and_then(|()| move_into_place(files, &staging, root));
    let _ = std::fs::remove_dir_all(&staging);
    result?;
    eprintln!("wrote {} file(s) under {}", files.len(), root.display());
    Ok(())
}

/// Writes every file under `dir`.
fn stage(files: &[OutFile], dir: &Path) -> Result<(), String> {
    for file in files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.contents)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Whether `rel` can be written under `root`: no folder on its way is a file, and it is not a
/// folder itself.
fn destination_ok(root: &Path, rel: &str) -> Result<(), String> {
    let mut at = root.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        let last = i + 1 == parts.len();
        match std::fs::metadata(&at) {
            Ok(m) if !last && !m.is_dir() => {
                return Err(format!(
                    "cannot write {}: {} is a file where a folder is needed",
                    root.join(rel).display(),
                    at.display()
                ));
            }
            Ok(m) if last && m.is_dir() => {
                return Err(format!("cannot write {}: it is a folder", at.display()));
            }
            // Missing: created when moved.
            _ => {}
        }
    }
    Ok(())
}

/// Moves every staged file to its place under `root`.
fn move_into_place(files: &[OutFile], staging: &Path, root: &Path) -> Result<(), String> {
    for file in files {
        let path: PathBuf = root.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::rename(staging.join(&file.path), &path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
