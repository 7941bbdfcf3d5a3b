//! The targets. Each returns for every input; it panics (a crash to the fuzzer) only where the
//! library breaks a promise: a panic of its own, or an answer that contradicts another of its
//! answers (a round trip that comes back different, emitted C++ with a live line in a comment,
//! a chart past its bound).

use ck_compiler::emit::{CkRelease, emit_ck, instance_string, manifest_json};
use ck_compiler::import::{import_cpp, import_list, import_trait, to_ck_source};
use ck_compiler::ir::{Checked, Validated};
use ck_compiler::load::Session;
use ck_runtime::{ConvProblem, DeviceModel, Registry, workspace_size};
use ckc::bench::report;
use std::sync::OnceLock;

/// Instances of one input whose round trips are checked: each is a compilation of its own, a
/// family expands to thousands, and a fuzzer wants each run to take a millisecond.
const ROUND_TRIPS: usize = 1;

/// Inputs of more instances than this are not emitted as C++ or a manifest, for the same reason.
const EMIT_UP_TO: usize = 8;

/// Lines of an instance list imported a run.
const IMPORTS: usize = 8;

/// `.ck` source as `ckc check`, `explain` and `emit ck` take it (imports resolve against the
/// current directory). Diagnostics render as text and JSON; a library that compiles has its
/// first instance round-trip through its CK string, and a small one its manifest read back and
/// its C++ checked.
pub fn ck_source(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut session = Session::new();
    session.add_source("fuzz.ck", text);
    let set = match ck_compiler::compile(&session) {
        Ok(set) => set,
        Err(diags) => {
            diags.render(session.sources());
            serde_json::to_string(&diags.to_json(session.sources())).expect("diagnostics JSON");
            return;
        }
    };
    set.warnings().render(session.sources());
    for inst in set.instances().iter().take(ROUND_TRIPS) {
        ck_compiler::analysis::explain(inst).to_string();
        round_trip(inst);
    }
    if set.instances().len() <= EMIT_UP_TO {
        manifest_reads_back(&set);
        cpp_has_no_live_text_in_comments(&set);
    }
}

/// A problem string as `ckc run --problem` and `ckc list --problem` take it, or a JSON problem
/// (`{…}`). A problem that parses prints back to itself, its fold does the same work into the
/// same output, and every instance of the library gives a verdict.
pub fn problem(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = if text.trim_start().starts_with('{') {
        ConvProblem::from_json(text)
    } else {
        ConvProblem::parse(text)
    };
    let Ok(p) = parsed else {
        return;
    };
    assert_eq!(ConvProblem::parse(&p.to_string()).as_ref(), Ok(&p), "{p}");
    let json = serde_json::to_string(&p).expect("a problem's JSON");
    assert_eq!(ConvProblem::from_json(&json).as_ref(), Ok(&p), "{json}");
    if let Some(q) = p.folded() {
        assert_eq!(
            (q.output(), q.flops()),
            (p.output(), p.flops()),
            "{p} as {q}"
        );
    }
    let _ = p.transposed();
    let registry = library();
    for c in registry.candidates(&p) {
        if c.verdict.is_ok() {
            workspace_size(c.instance, &p, registry.device());
        }
    }
    let _ = registry.select(&p);
}

/// CK instance strings, one a line, as `ckc import trait -` reads them. An accepted string's
/// `.ck` parses; where it also compiles, its instance round-trips.
pub fn ck_string(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for entry in import_list(text).into_iter().take(IMPORTS) {
        let Ok(imported) = entry.result else {
            continue;
        };
        let source = to_ck_source(&imported);
        let mut session = Session::new();
        session.add_source("imported.ck", &source);
        assert!(
            !session.diagnostics().has_errors(),
            "the .ck of an accepted string does not parse:\n{source}\n{}",
            session.diagnostics().render(session.sources())
        );
        if let Ok(set) = ck_compiler::compile(&session) {
            let [inst] = set.instances() else {
                panic!("one instance expected from\n{source}")
            };
            round_trip(inst);
        }
    }
}

/// A `.cpp` of CK's instance library and one header, as `ckc import cpp` reads them: the text
/// before a line `//--- header` is the file, the rest the header every include names. Every row
/// it reads spells a string that `import trait` reads back to the same instance, whose `.ck`
/// source parses.
pub fn ck_cpp(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (main, header) = text.split_once("//--- header\n").unwrap_or((text, ""));
    let include = &mut |_: &str| Some(header.to_string());
    let Ok(rows) = import_cpp("fuzz.cpp", main, include, CkRelease::Current) else {
        return;
    };
    for row in rows.into_iter().take(IMPORTS) {
        let Ok(imported) = row.result else {
            continue;
        };
        assert_eq!(
            import_trait(&imported.text).as_ref(),
            Ok(&imported),
            "{}",
            imported.text
        );
        let mut session = Session::new();
        session.add_source("imported.ck", &to_ck_source(&imported));
        assert!(!session.diagnostics().has_errors(), "{}", imported.text);
    }
}

/// A saved benchmark run as `ckc bench-report` reads it. A run it takes renders, writes JSON
/// that reads back as the same run, and merges with itself; its chart stays small.
pub fn bench_json(data: &[u8]) {
    let Ok(value) = serde_json::from_slice(data) else {
        return;
    };
    let Ok(run) = report::from_json(&value) else {
        return;
    };
    report::table(&run);
    let lines = report::svg(&run, report::Bars::Shapes).lines().count();
    // Header, title, at most 21 ticks, two reference lines, the axes, the end; two a shape.
    assert!(lines <= 28 + 2 * run.shapes.len(), "{lines} chart lines");
    // By model: two a model the shapes name.
    let models: std::collections::BTreeSet<&String> =
        run.shapes.iter().flat_map(|s| &s.models).collect();
    let lines = report::svg(&run, report::Bars::Models).lines().count();
    assert!(
        lines <= 28 + 2 * models.len(),
        "{lines} chart lines by model"
    );
    let back = report::from_json(&report::to_json(&run)).expect("a run's own JSON reads back");
    assert_eq!(back, run);
    report::merge(vec![run, back]).expect("a run merges with itself");
}

/// `.ck` → IR → CK string → `.ck` → IR prints the same string.
fn round_trip(inst: &Checked) {
    let s = instance_string(inst);
    let imported = import_trait(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
    let source = to_ck_source(&imported);
    let mut session = Session::new();
    session.add_source("imported.ck", &source);
    let set = ck_compiler::compile(&session)
        .unwrap_or_else(|d| panic!("{s}:\n{source}\n{}", d.render(session.sources())));
    let [back] = set.instances() else {
        panic!("{s}: one instance expected")
    };
    assert_eq!(instance_string(back), s);
}

/// Every manifest entry's parameters, key and string are its instance's (public: the
/// workspace tests check the same promise of the shipped library and of generated sources).
pub fn manifest_reads_back(set: &Validated) {
    let json: serde_json::Value =
        serde_json::from_str(&manifest_json(set).expect("a valid set has a manifest"))
            .expect("the manifest is JSON");
    let entries = json["instances"].as_array().expect("manifest entries");
    assert_eq!(entries.len(), set.instances().len());
    for (inst, entry) in set.instances().iter().zip(entries) {
        let params: Checked =
            serde_json::from_value(entry["params"].clone()).expect("parameters read back");
        assert_eq!(&params, inst);
        assert_eq!(entry["key"].as_str(), Some(inst.name.as_str()));
        let s = instance_string(inst);
        assert_eq!(entry["instance_string"].as_str(), Some(s.as_str()));
    }
}

/// User text (names, doc comments) reaches the C++: no control character a compiler takes as a
/// line break, and no comment that a final backslash continues onto the next line.
fn cpp_has_no_live_text_in_comments(set: &Validated) {
    for file in emit_ck(set).expect("a valid set emits") {
        for line in file.contents.lines() {
            assert!(
                !line.chars().any(|c| c.is_control() && c != '\t')
                    && !line.contains(['\u{2028}', '\u{2029}']),
                "{}: a control character in `{line:?}`",
                file.path
            );
            assert!(
                !(line.contains("//") && line.ends_with('\\')),
                "{}: a comment continued by `{line}`",
                file.path
            );
        }
    }
}

/// The instance library, as `ckc run` and `ckc list` choose from, on the default device.
fn library() -> &'static Registry {
    static LIBRARY: OnceLock<Registry> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        let mut r = Registry::new(DeviceModel::default());
        r.extend(ck_instances::all().iter().cloned(), 0)
            .expect("the library's names are unique");
        r
    })
}
