//! `ckc import trait` and `ckc import cpp`: CK instance strings, or the rows of CK's C++
//! instance lists, to `.ck` source, one `instance` item per string.
//! CK can name and print instances that break its own rules; such a string still imports,
//! its instance allowing the rules it breaks (`allow`), and the breaks print as warnings.

use super::Outcome;
use crate::cli::{Color, ImportSource};
use crate::output::print_diagnostics;
use ck_compiler::import::{
    ImportedInstance, compile_allowing_breaks, import_cpp, import_list, import_trait,
};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Largest file `ckc import cpp` reads (CK's biggest instance headers are a few hundred KB).
const MAX_FILE_BYTES: u64 = 4 << 20;

pub fn run(source: ImportSource, color: Color) -> Result<ExitCode, String> {
    let string = match source {
        ImportSource::Trait { string } => string,
        ImportSource::Cpp {
            file,
            include,
            strings,
        } => return Ok(from_cpp(&file, &include, strings, color)?.report()),
    };
    let outcome = if string == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        let text =
            String::from_utf8(bytes).map_err(|e| format!("standard input is not UTF-8: {e}"))?;
        from_list(&text, color)
    } else {
        match import_trait(&string) {
            Ok(imported) => print(&[imported], color),
            Err(e) => Outcome::Rejected(vec![e.to_string()]),
        }
    };
    Ok(outcome.report())
}

fn read_text(path: &Path) -> Result<String, String> {
    let len = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(format!(
            "{}: {len} bytes, more than the {MAX_FILE_BYTES} an instance file may have",
            path.display()
        ));
    }
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The rows of the lists `file` instantiates; an include is read from the file's folder or
/// the first `include` folder that has it.
fn from_cpp(
    file: &Path,
    include: &[PathBuf],
    strings: bool,
    color: Color,
) -> Result<Outcome, String> {
    let text = read_text(file)?;
    let mut dirs: Vec<PathBuf> = file.parent().map(Path::to_path_buf).into_iter().collect();
    dirs.extend(include.iter().cloned());
    let mut unreadable = Vec::new();
    let mut resolve = |path: &str| {
        let found = dirs.iter().map(|d| d.join(path)).find(|p| p.is_file())?;
        read_text(&found).map_err(|e| unreadable.push(e)).ok()
    };
    let rows = import_cpp(&file.display().to_string(), &text, &mut resolve)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if let Some(e) = unreadable.into_iter().next() {
        return Err(e);
    }
    let mut imported = Vec::new();
    let mut errors = Vec::new();
    let mut first: BTreeMap<String, String> = BTreeMap::new();
    for row in rows {
        let at = format!("{}:{} ({})", row.file, row.line, row.list);
        match row.result {
            Ok(i) => match first.get(&i.text) {
                Some(before) => eprintln!("warning: {at}: the same instance as {before}; left out"),
                None => {
                    first.insert(i.text.clone(), at);
                    imported.push(i);
                }
            },
            Err(e) => errors.push(format!("{at}: {e}")),
        }
    }
    Ok(if !errors.is_empty() {
        Outcome::Rejected(errors)
    } else if strings {
        for i in &imported {
            crate::output::outln!("{}", i.text);
        }
        Outcome::Ok
    } else {
        print(&imported, color)
    })
}

/// Every line must import; a string repeated on a later line is left out (with a warning), since
/// its instance would be declared twice under the same name.
fn from_list(text: &str, color: Color) -> Outcome {
    let mut imported = Vec::new();
    let mut errors = Vec::new();
    let mut first_line: BTreeMap<String, usize> = BTreeMap::new();
    for entry in import_list(text) {
        match entry.result {
            Ok(i) => match first_line.get(&i.text) {
                Some(first) => eprintln!(
                    "warning: <stdin>:{}: the same string as line {first}; left out",
                    entry.line
                ),
                None => {
                    first_line.insert(i.text.clone(), entry.line);
                    imported.push(i);
                }
            },
            Err(e) => errors.push(format!("<stdin>:{}: {e}", entry.line)),
        }
    }
    if !errors.is_empty() {
        Outcome::Rejected(errors)
    } else if imported.is_empty() {
        Outcome::Rejected(vec!["<stdin>: no instance strings".to_string()])
    } else {
        print(&imported, color)
    }
}

fn print(imported: &[ImportedInstance], color: Color) -> Outcome {
    let mut sources = Vec::new();
    for i in imported {
        match allowing_its_breaks(i, color) {
            Some(text) => sources.push(text),
            None => {
                return Outcome::Rejected(vec![format!(
                    "`{}`: its instance breaks rules that `allow` does not relax (above)",
                    i.text
                )]);
            }
        }
    }
    crate::output::out!("{}", sources.join("\n"));
    Outcome::Ok
}

/// The `.ck` source of `imported` as it compiles (allowing the rules it breaks, which print as
/// warnings); errors that `allow` does not relax print, and give `None`.
fn allowing_its_breaks(imported: &ImportedInstance, color: Color) -> Option<String> {
    match compile_allowing_breaks(imported) {
        Ok(c) => {
            print_diagnostics(c.set.warnings(), c.session.sources(), color);
            Some(c.source)
        }
        Err(refused) => {
            print_diagnostics(&refused.errors, refused.session.sources(), color);
            None
        }
    }
}
