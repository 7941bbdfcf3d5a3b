//! Fixtures by outcome: every `fixtures/pass/*.ck` compiles and its validated IR is snapshotted;
//! every `fixtures/fail/CKxxxx_*.ck` fails with the code its name starts with, and every
//! `fixtures/warn/CKxxxx_*.ck` compiles with that warning; the rendered diagnostics are
//! snapshotted.

use ck_compiler::load::Session;
use std::path::Path;

fn session_for(path: &Path) -> Session {
    // Relative names keep the rendered diagnostics independent of where the checkout lives.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = path.strip_prefix(root).unwrap_or(path);
    std::env::set_current_dir(root).expect("the test crate's folder exists");
    let mut session = Session::new();
    session.add_path(rel);
    session
}

/// A fixture's file name and the code it starts with (`CK0301_tile_div.ck`: `CK0301`).
fn name_and_code(path: &Path) -> (&str, &str) {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    (name, name.split('_').next().unwrap_or_default())
}

#[test]
fn pass_fixtures_compile() {
    insta::glob!("../fixtures/pass", "*.ck", |path| {
        let session = session_for(path);
        match ck_compiler::compile(&session) {
            Ok(validated) => insta::assert_json_snapshot!(validated.instances()),
            Err(d) => panic!(
                "{} should compile:\n{}",
                path.display(),
                d.render(session.sources())
            ),
        }
    });
}

#[test]
fn fail_fixtures_report_their_code() {
    insta::glob!("../fixtures/fail", "*.ck", |path| {
        let session = session_for(path);
        let (name, code) = name_and_code(path);
        let diags = match ck_compiler::compile(&session) {
            Ok(_) => panic!("{name} should fail with {code}"),
            Err(d) => d,
        };
        assert!(
            diags.iter().any(|d| d.code == code),
            "{name}: expected {code}, got {:?}",
            diags.iter().map(|d| d.code).collect::<Vec<_>>()
        );
        insta::assert_snapshot!(diags.render(session.sources()));
    });
}

#[test]
fn warn_fixtures_compile_and_warn_with_their_code() {
    insta::glob!("../fixtures/warn", "*.ck", |path| {
        let session = session_for(path);
        let (name, code) = name_and_code(path);
        let validated = match ck_compiler::compile(&session) {
            Ok(v) => v,
            Err(d) => panic!("{name} should compile:\n{}", d.render(session.sources())),
        };
        let warnings = validated.warnings();
        assert!(
            warnings
                .iter()
                .any(|d| d.code == code && d.severity == ck_dsl::Severity::Warning),
            "{name}: expected warning {code}, got {:?}",
            warnings.iter().map(|d| d.code).collect::<Vec<_>>()
        );
        insta::assert_snapshot!(warnings.render(session.sources()));
    });
}

/// Every diagnostic code used in the compiler has a section in docs/diagnostics.md and a failing
/// fixture (a warning: a fixture that compiles with it), so no rule goes untested or undocumented.
#[test]
fn every_code_is_documented_and_has_a_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let mut used = std::collections::BTreeSet::new();
    for dir in ["dsl/src", "compiler/src"] {
        collect_codes(&root.join(dir), &mut used);
    }
    assert!(!used.is_empty(), "no diagnostic codes found in the sources");
    let docs =
        std::fs::read_to_string(root.join("docs/diagnostics.md")).expect("docs/diagnostics.md");
    // Errors fail a `fail` fixture; warnings (CK09xx) come out of a `warn` fixture that compiles.
    let fixtures: Vec<String> = ["fail", "warn"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join("tests/fixtures").join(d)).expect("fixtures"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    let mut missing = Vec::new();
    for code in &used {
        if !docs.contains(&format!("## {code}")) {
            missing.push(format!(
                "{code}: no `## {code}` section in docs/diagnostics.md"
            ));
        }
        if !fixtures.iter().any(|f| f.starts_with(&format!("{code}_"))) {
            missing.push(format!(
                "{code}: no tests/fixtures/fail/{code}_*.ck (warn/ for a warning)"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

fn collect_codes(dir: &Path, out: &mut std::collections::BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_codes(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let bytes = text.as_bytes();
            for (i, _) in text.match_indices("\"CK") {
                let code = &bytes[i + 1..(i + 7).min(bytes.len())];
                if code.len() == 6
                    && code[2..].iter().all(u8::is_ascii_digit)
                    && bytes.get(i + 7) == Some(&b'"')
                {
                    out.insert(String::from_utf8_lossy(code).into_owned());
                }
            }
        }
    }
}
