//! `ckc import trait` and `ckc import cpp`: CK instance strings, or the rows of CK's C++
//! instance lists, to `.ck` source, one `instance` item per string.
//! CK can name and print instances that break its own rules; such a string still imports,
//! its instance allowing the rules it breaks (`allow`), and the breaks print as warnings.

use super::Outcome;
use crate::cli::{Color, ImportSource};
use crate::output::print_diagnostics;
use ck_compiler::emit::CkRelease;
use ck_compiler::import::{
    ImportedInstance, Member, compile_allowing_breaks, family_source, import_cpp, import_list,
    import_trait,
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
            families,
            ck_release,
        } => {
            let form = if strings {
                CppForm::Strings
            } else if families {
                CppForm::Families
            } else {
                CppForm::Instances
            };
            return Ok(from_cpp(&file, &include, form, ck_release, color)?.report());
        }
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

/// What `import cpp` prints of the rows it reads.
enum CppForm {
    Instances,
    Strings,
    Families,
}

/// The rows of the lists `file` instantiates; an include is read from the file's folder or
/// the first `include` folder that has it.
fn from_cpp(
    file: &Path,
    include: &[PathBuf],
    form: CppForm,
    release: CkRelease,
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
    let rows = import_cpp(&file.display().to_string(), &text, &mut resolve, release)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if let Some(e) = unreadable.into_iter().next() {
        return Err(e);
    }
    // (list, where its row is, instance), the first of each string.
    let mut imported = Vec::new();
    let mut errors = Vec::new();
    let mut first: BTreeMap<String, String> = BTreeMap::new();
    for row in rows {
        let at = format!("{}:{}", row.file, row.line);
        match row.result {
            Ok(i) => match first.get(&i.text) {
                Some(before) => eprintln!(
                    "warning: {at} ({}): the same instance as {before}; left out",
                    row.list
                ),
                None => {
                    first.insert(i.text.clone(), at.clone());
                    imported.push((row.list, at, i));
                }
            },
            Err(e) => errors.push(format!("{at} ({}): {e}", row.list)),
        }
    }
    if !errors.is_empty() {
        return Ok(Outcome::Rejected(errors));
    }
    let instances: Vec<ImportedInstance> = imported.iter().map(|(_, _, i)| i.clone()).collect();
    Ok(match form {
        CppForm::Strings => {
            for i in &instances {
                crate::output::outln!("{}", i.text);
            }
            Outcome::Ok
        }
        CppForm::Instances => print(&instances, color),
        CppForm::Families => families(file, &imported, color),
    })
}

/// A family a list, named for the file (CK's instance files name their instantiation: `ck_`
/// and the file's name less `device_grouped_conv` and `_instance`) and, where the file
/// instantiates more than one list, the list (less `device_grouped_conv_` and `_instances`); a
/// list whose family would not compile back to its instances prints them one by one.
fn families(file: &Path, imported: &[(String, String, ImportedInstance)], color: Color) -> Outcome {
    let mut lists: Vec<&str> = Vec::new();
    for (list, _, _) in imported {
        if !lists.contains(&list.as_str()) {
            lists.push(list);
        }
    }
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("list");
    let stem = stem.strip_prefix("device_grouped_conv").unwrap_or(stem);
    let stem = stem.strip_suffix("_instance").unwrap_or(stem);
    let mut sources = Vec::new();
    for &list in &lists {
        let members: Vec<Member> = imported
            .iter()
            .filter(|(l, _, _)| l == list)
            .map(|(_, at, i)| Member {
                imported: i,
                origin: at.clone(),
            })
            .collect();
        let core = list.strip_prefix("device_grouped_conv_").unwrap_or(list);
        let core = core.strip_suffix("_instances").unwrap_or(core);
        let name = if lists.len() > 1 {
            format!("ck_{stem}_{core}")
        } else {
            format!("ck_{stem}")
        };
        let name: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let doc = format!("CK's `{list}`, as `{}` instantiates it.", file.display());
        match family_source(&name, &doc, &members) {
            Some(source) => sources.push(source),
            None => match instance_sources(members.iter().map(|m| m.imported), color) {
                Ok(one_by_one) => sources.extend(one_by_one),
                Err(refused) => return refused,
            },
        }
    }
    crate::output::out!("{}", sources.join("\n"));
    Outcome::Ok
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
    match instance_sources(imported.iter(), color) {
        Ok(sources) => {
            crate::output::out!("{}", sources.join("\n"));
            Outcome::Ok
        }
        Err(refused) => refused,
    }
}

/// The `.ck` source of each instance, or the refusal of the first whose breaks `allow` does
/// not relax.
fn instance_sources<'a>(
    imported: impl Iterator<Item = &'a ImportedInstance>,
    color: Color,
) -> Result<Vec<String>, Outcome> {
    imported
        .map(|i| {
            allowing_its_breaks(i, color).ok_or_else(|| {
                Outcome::Rejected(vec![format!(
                    "`{}`: its instance breaks rules that `allow` does not relax (above)",
                    i.text
                )])
            })
        })
        .collect()
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
