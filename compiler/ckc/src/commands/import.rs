//! `ckc import trait`: CK instance strings to `.ck` source, one `instance` item per string.
//! CK can name and print instances that break its own rules; such a string still imports,
//! its instance allowing the rules it breaks (`allow`), and the breaks print as warnings.

use super::Outcome;
use crate::cli::{Color, ImportSource};
use crate::output::print_diagnostics;
use ck_compiler::import::{ImportedInstance, compile_allowing_breaks, import_list, import_trait};
use std::collections::BTreeMap;
use std::io::Read;
use std::process::ExitCode;

pub fn run(source: ImportSource, color: Color) -> Result<ExitCode, String> {
    let ImportSource::Trait { string } = source;
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
