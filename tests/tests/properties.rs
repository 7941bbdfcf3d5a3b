//! Property tests of the front ends against careless and hostile input: `.ck` sources and CK
//! instance strings of the library with random edits (deleted runs, inserted tokens a compiler
//! or a C preprocessor treats specially, replaced characters) and arbitrary problem strings
//! give a result or diagnostics, never a panic; the first instances of an edited source that
//! still compiles round-trip through the manifest (its parameters read back equal) and through
//! their CK instance string (imported, compiled, printed again); a problem that parses prints
//! back to itself; library instances with integer parameters set to other values that still
//! validate round-trip `.ck` → IR → CK string → `.ck` → IR to the same instance, and through the
//! manifest.
//! `PROPTEST_CASES=100000 cargo test --release -p ck-tests --test properties` runs longer.

use ck_compiler::emit::access::int_slot;
use ck_compiler::emit::format::Value;
use ck_compiler::emit::{instance_string, manifest_json};
use ck_compiler::import::{import_trait, instance_source, to_ck_source};
use ck_compiler::ir::{Checked, Instance};
use ck_compiler::load::Session;
use ck_runtime::ConvProblem;
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}

/// The `.ck` files the edits start from: the passing fixtures and the library's smaller files.
fn sources() -> &'static [String] {
    static SOURCES: OnceLock<Vec<String>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        let mut out = Vec::new();
        for dir in ["tests/fixtures/pass", "tests/fixtures/formats", "instances"] {
            let mut files: Vec<_> = std::fs::read_dir(root().join(dir))
                .expect("a fixture folder")
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "ck"))
                .collect();
            files.sort();
            for f in files {
                let text = std::fs::read_to_string(&f).expect("readable");
                // Whole families expand to hundreds of instances: keep the edits cheap.
                if text.len() <= 8_000 {
                    out.push(text);
                }
            }
        }
        assert!(out.len() >= 10, "{} sources", out.len());
        out
    })
}

/// CK instance strings of the format fixtures, as the emitter prints them.
fn strings() -> &'static [String] {
    static STRINGS: OnceLock<Vec<String>> = OnceLock::new();
    STRINGS.get_or_init(|| {
        let mut session = Session::new();
        session.add_path(&root().join("tests/fixtures/formats"));
        let set = ck_compiler::compile(&session).expect("the format fixtures compile");
        let out: Vec<String> = set.instances().iter().map(instance_string).collect();
        assert!(out.len() >= 10, "{} strings", out.len());
        out
    })
}

/// Text a lexer, a C++ preprocessor or a file system treats specially.
const TOKENS: &[&str] = &[
    "\r",
    "\\",
    "\n#error x\n",
    "\u{2028}",
    "\0",
    "{",
    "}",
    ";",
    "=",
    "[",
    "]",
    ",",
    "<",
    ">",
    "(",
    ")",
    "///",
    "/*",
    "\"",
    "Seq(",
    "EmptyTuple",
    "-1",
    "+4",
    "0x10",
    "99999999999999999999",
    "1e9",
    " ",
    "import \"/dev/zero\";",
    "family f { }",
    "instance",
    "\u{a0}",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete { at: usize, len: usize },
    Insert { at: usize, token: usize },
    Replace { at: usize, with: char },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..12).prop_map(|(at, len)| Edit::Delete { at, len }),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, token)| Edit::Insert { at, token }),
        (any::<usize>(), any::<char>()).prop_map(|(at, with)| Edit::Replace { at, with }),
    ]
}

/// `text` with the edits applied in order, positions taken modulo its length in characters.
fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len().max(1);
        match *e {
            Edit::Delete { at, len } => {
                let at = at % n;
                let end = (at + len).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            Edit::Insert { at, token } => {
                let at = at % (chars.len() + 1);
                chars.splice(at..at, TOKENS[token].chars());
            }
            Edit::Replace { at, with } => {
                if !chars.is_empty() {
                    chars[at % n] = with;
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn compile_text(text: &str) -> Option<ck_compiler::ir::Validated> {
    let mut session = Session::new();
    session.add_source("edited.ck", text);
    // Diagnostics or a library: either is an answer.
    ck_compiler::compile(&session).ok()
}

/// Instances of an edited library that round-trip, at most this many a case (families expand
/// to hundreds).
const ROUND_TRIPS: usize = 3;

/// The manifest's parameters read back as the instances, and each instance's CK string imported
/// and compiled prints the same string.
fn round_trips(set: &ck_compiler::ir::Validated) {
    let json: serde_json::Value =
        serde_json::from_str(&manifest_json(set).expect("a valid set has a manifest"))
            .expect("the manifest is JSON");
    let entries = json["instances"].as_array().expect("manifest entries");
    for (inst, entry) in set.instances().iter().zip(entries).take(ROUND_TRIPS) {
        let params: Checked =
            serde_json::from_value(entry["params"].clone()).expect("parameters read back");
        assert_eq!(&params, inst);
        let s = instance_string(inst);
        assert_eq!(entry["instance_string"].as_str(), Some(s.as_str()));
        let imported = import_trait(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let again = compile_text(&to_ck_source(&imported))
            .unwrap_or_else(|| panic!("{s}: its import does not compile"));
        let [back] = again.instances() else {
            panic!("{s}: one instance expected")
        };
        assert_eq!(instance_string(back), s);
    }
}

/// `default` cases a property unless `PROPTEST_CASES` says how many.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    // 512 cases a test unless PROPTEST_CASES says how many.
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn edited_ck_sources_compile_or_give_diagnostics(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let all = sources();
        if let Some(set) = compile_text(&apply(&all[file.index(all.len())], &edits)) {
            round_trips(&set);
        }
    }

    #[test]
    fn edited_ck_strings_import_or_are_refused(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..3),
    ) {
        let all = strings();
        let s = apply(&all[which.index(all.len())], &edits);
        if let Ok(imported) = import_trait(&s) {
            compile_text(&to_ck_source(&imported));
        }
    }

    #[test]
    fn arbitrary_problem_text_parses_or_is_refused(s in "\\PC{0,120}") {
        if let Ok(p) = ConvProblem::parse(&s) {
            prop_assert_eq!(ConvProblem::parse(&p.to_string()), Ok(p));
        }
    }

    #[test]
    fn problems_print_back_to_themselves(
        op in prop::sample::select(vec!["fwd", "bwd_data", "bwd_weight"]),
        ndim in 1usize..=3,
        (g, n, k, c) in (1u64..5, 1u64..9, 1u64..70, 1u64..70),
        (f, i, s, d) in (1u64..6, 1u64..40, 1u64..4, 1u64..3),
        (lp, rp) in (0u64..4, 0u64..4),
        layout in prop::sample::select(vec!["nhwgc", "gnhwc", "ngchw"]),
        dtype in prop::sample::select(vec!["fp16", "bf16", "fp32"]),
    ) {
        let dims = |v: u64| vec![v.to_string(); ndim].join("x");
        let text = format!(
            "{op} {ndim}d G={g} N={n} K={k} C={c} filter={} input={} stride={} dilation={} lpad={} rpad={} layout={layout} dtype={dtype}",
            dims(f), dims(i), dims(s), dims(d), dims(lp), dims(rp)
        );
        // Impossible problems (a filter past the padded input) are refused with a reason.
        if let Ok(p) = ConvProblem::parse(&text) {
            prop_assert_eq!(ConvProblem::parse(&p.to_string()), Ok(p.clone()));
            if let Some(q) = p.folded() {
                // The same work into the same output.
                prop_assert_eq!(q.output(), p.output());
                prop_assert_eq!(q.flops(), p.flops());
            }
        }
    }
}

/// Values an integer parameter is set to: the sizes, vectors and counts the library uses.
const VALUES: &[u32] = &[0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512];

/// The one instance of `source`, if it compiles.
fn compile_one(source: &str) -> Option<Checked> {
    let set = compile_text(source)?;
    ck_fuzz::targets::manifest_reads_back(&set);
    let [inst] = set.instances() else {
        panic!("one instance expected from\n{source}")
    };
    Some(inst.clone())
}

proptest! {
    // Two compilations a case: 128 cases unless PROPTEST_CASES says how many.
    #![proptest_config(ProptestConfig::with_cases(cases(128)))]

    #[test]
    fn varied_library_instances_round_trip(
        which in any::<prop::sample::Index>(),
        changes in prop::collection::vec(
            (any::<prop::sample::Index>(), prop::sample::select(VALUES)),
            1..4,
        ),
    ) {
        let library = ck_instances::all();
        let picked = &library[which.index(library.len())];
        let format = picked.format();
        let mut varied = Instance::clone(picked);
        let ints: Vec<_> = format
            .fields()
            .into_iter()
            .filter_map(|f| match f.value {
                Value::Int(i) => Some(i),
                _ => None,
            })
            .collect();
        prop_assume!(!ints.is_empty());
        for (field, value) in &changes {
            if let Some(slot) = int_slot(&mut varied, ints[field.index(ints.len())]) {
                *slot = *value;
            }
        }
        // Only what the string prints is written, so the string fixes the instance.
        let Some(a) = compile_one(&instance_source(&varied, format, "varied")) else {
            return Ok(());
        };
        let s = instance_string(&a);
        let imported = import_trait(&s).unwrap_or_else(|e| panic!("{s}: {e}"));
        // A CK string names no target, and the import picks one: where the first `.ck` had it,
        // the imported `.ck` compiles and prints the same string.
        if imported.instance.targets.iter().all(|t| a.targets.contains(t)) {
            let b = compile_one(&to_ck_source(&imported))
                .unwrap_or_else(|| panic!("{s}: its import does not compile"));
            prop_assert_eq!(instance_string(&b), s.clone());
        }
        // Written back with the first `.ck`'s targets, it is the same instance but for its
        // name, doc and file, and the variant it names where the first left the choice to
        // validation.
        let mut back = imported.instance;
        back.targets = a.targets.clone();
        let b = compile_one(&instance_source(&back, imported.format, "varied"))
            .unwrap_or_else(|| panic!("{s}: its import on {:?} does not compile", a.targets));
        prop_assert_eq!(b.format(), a.format());
        let b = Instance {
            name: a.name.clone(),
            doc: a.doc.clone(),
            source: a.source.clone(),
            ck_format: a.ck_format.clone(),
            ..b.into_instance()
        };
        prop_assert_eq!(&b, &*a);
    }
}
