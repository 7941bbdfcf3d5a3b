//! `ckc import trait`: CK instance strings to `.ck` source, one `instance` item per string.

use super::Outcome;
use crate::cli::ImportSource;
use ck_compiler::import::{ImportedInstance, import_list, import_trait, to_ck_source};
use std::collections::BTreeMap;
use std::io::Read;
use std::process::ExitCode;

pub fn run(source: ImportSource) -> Result<ExitCode, String> {
    let ImportSource::Trait { string } = source;
    let outcome = if string == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        let text =
            String::from_utf8(bytes).map_err(|e| format!("standard input is not UTF-8: {e}"))?;
        from_list(&text)
    } else {
        match import_trait(&string) {
            Ok(imported) => print(&[imported]),
            Err(e) => Outcome::Rejected(vec![e.to_string()]),
        }
    };
    Ok(outcome.report())
}

/// Every line must import; a string repeated on a later line is left out (with a warning), since
/// its instance would be declared twice under the same name.
fn from_list(text: &str) -> Outcome {
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
        print(&imported)
    }
}

fn print(imported: &[ImportedInstance]) -> Outcome {
    let sources: Vec<String> = imported.iter().map(to_ck_source).collect();
    crate::output::out!("{}", sources.join("\n"));
    Outcome::Ok
}
