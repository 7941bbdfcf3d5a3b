//! Instance strings through the whole front end: `.ck` source → validated IR → string must give
//! CK's verbatim strings byte for byte, and every instance of the library and of the per-variant
//! fixtures must survive string → import → `.ck` → compile → string unchanged, in every format
//! variant of its op and kind.

use ck_compiler::emit::format::variants;
use ck_compiler::emit::{CkFormat, instance_string, instance_string_as};
use ck_compiler::import::{compile_allowing_breaks, import_trait};
use ck_compiler::ir::{Checked, Validated};
use ck_compiler::load::Session;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}

fn ck_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ck") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(!files.is_empty(), "no .ck files under {}", dir.display());
    files
}

/// Compiles `paths` as part of the instance library, whose folder their imports may reach into.
fn compile_paths(paths: &[PathBuf]) -> Validated {
    let mut session = Session::new();
    session.add_roots(&[root().join("instances")]);
    for p in paths {
        session.add_path(p);
    }
    ck_compiler::compile(&session)
        .unwrap_or_else(|d| panic!("does not compile:\n{}", d.render(session.sources())))
}

/// CK's verbatim strings (ck-facts section 5), as the compiler's own tests keep them.
fn verbatim() -> Vec<&'static str> {
    include_str!("../../compiler/tests/verbatim.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect()
}

/// `(fixture, expected string)` for every `.ck` with an `.expected` beside it.
fn expected_fixtures(dir: &str) -> Vec<(PathBuf, String)> {
    ck_files(&root().join(dir))
        .into_iter()
        .map(|p| {
            let expected = std::fs::read_to_string(p.with_extension("expected"))
                .unwrap_or_else(|e| panic!("{}: no .expected: {e}", p.display()));
            (p, expected)
        })
        .collect()
}

#[test]
fn verbatim_strings_come_out_of_ck_source() {
    let fixtures = expected_fixtures("tests/fixtures/traits");
    let mut seen = BTreeSet::new();
    for (path, expected) in &fixtures {
        let set = compile_paths(std::slice::from_ref(path));
        let lines: Vec<String> = set
            .instances()
            .iter()
            .map(|i| instance_string(i) + "\n")
            .collect();
        assert_eq!(&lines.concat(), expected, "{}", path.display());
        seen.insert(expected.trim_end().to_string());
    }
    for s in verbatim() {
        assert!(seen.contains(s), "no .ck fixture prints CK's string {s}");
    }
}

#[test]
fn format_fixtures_print_their_expected_strings() {
    for (path, expected) in expected_fixtures("tests/fixtures/formats") {
        let set = compile_paths(std::slice::from_ref(&path));
        let lines: Vec<String> = set
            .instances()
            .iter()
            .map(|i| instance_string(i) + "\n")
            .collect();
        assert_eq!(lines.concat(), expected, "{}", path.display());
    }
}

/// string → import → `.ck` (allowing the rules the instance breaks) → compile → string, which
/// must be `s` again.
fn round_trip(s: &str, format: CkFormat) {
    let imported = import_trait(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    let compiled = compile_allowing_breaks(&imported)
        .unwrap_or_else(|r| panic!("{s}: refused: {:?}", r.errors));
    let [inst] = compiled.set.instances() else {
        panic!("one instance expected from\n{}", compiled.source)
    };
    assert_eq!(instance_string(inst), s, "{format:?}");
    assert_eq!(instance_string_as(inst, format), s, "{format:?}");
}

fn library() -> Vec<Checked> {
    compile_paths(&ck_files(&root().join("instances"))).into_instances()
}

fn format_fixtures() -> Vec<Checked> {
    compile_paths(&ck_files(&root().join("tests/fixtures/formats"))).into_instances()
}

#[test]
fn every_library_instance_round_trips() {
    let library = library();
    assert!(library.len() >= 10, "{} instances", library.len());
    for inst in &library {
        let s = instance_string(inst);
        round_trip(&s, inst.format());
    }
}

/// The library's manifest reads back: every entry's parameters are its instance, under its name
/// and with its instance string.
#[test]
fn the_library_manifest_reads_back() {
    ck_fuzz::targets::manifest_reads_back(&compile_paths(&ck_files(&root().join("instances"))));
}

/// Each instance in each variant of its op and kind that can print it; together they cover
/// every variant. A variant that cannot print a feature the instance uses is never chosen.
#[test]
fn every_variant_round_trips_through_the_front_end() {
    let mut covered = BTreeSet::new();
    for inst in library().iter().chain(&format_fixtures()) {
        for format in variants(inst.op, inst.kind) {
            if ck_compiler::validate::unprintable(inst, format).is_some() {
                assert_ne!(inst.format(), format, "{}", inst.name);
                continue;
            }
            round_trip(&instance_string_as(inst, format), format);
            covered.insert(format);
        }
    }
    let missing: Vec<_> = CkFormat::ALL
        .iter()
        .filter(|f| !covered.contains(*f))
        .collect();
    assert!(missing.is_empty(), "variants with no instance: {missing:?}");
}
