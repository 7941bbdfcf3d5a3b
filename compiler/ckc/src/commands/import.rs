//! `ckc import trait`: CK instance strings to `.ck` source, one `instance` item per string.
//! CK can name and print instances that break its own rules; such a string still imports,
//! its instance allowing the rules it breaks (`allow`), and the breaks print as warnings.

use super::Outcome;
use crate::cli::{Color, ImportSource};
use crate::output::print_diagnostics;
use ck_compiler::import::{ImportedInstance, import_list, import_trait, to_ck_source};
use ck_compiler::load::Session;
use std::collections::{BTreeMap, BTreeSet};
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

/// The `.ck` source of `imported`, compiled: where its instance breaks rules (those on the
/// concrete instance, which `allow` relaxes), the source allows every rule it breaks and the
/// breaks print as warnings; errors that `allow` does not relax print, and give `None`.
fn allowing_its_breaks(imported: &ImportedInstance, color: Color) -> Option<String> {
    let compile = |text: &str| {
        let mut session = Session::new();
        session.add_source("<import>", text);
        let result = ck_compiler::compile(&session);
        (result, session)
    };
    let text = to_ck_source(imported);
    let (result, session) = compile(&text);
    let errors = match result {
        Ok(set) => {
            print_diagnostics(set.warnings(), session.sources(), color);
            return Some(text);
        }
        Err(d) => d,
    };
    let broken: BTreeSet<String> = errors
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code.to_string())
        .collect();
    let mut allowing = imported.clone();
    allowing.instance.allow = broken.into_iter().collect();
    let relaxed = to_ck_source(&allowing);
    match compile(&relaxed) {
        (Ok(set), session) => {
            print_diagnostics(set.warnings(), session.sources(), color);
            Some(relaxed)
        }
        (Err(_), _) => {
            print_diagnostics(&errors, session.sources(), color);
            None
        }
    }
}
