//! Mangled input never panics or hangs: every `.ck` file of the instance library is mutated many
//! ways, and each mutation that must be invalid is reported with at least one error diagnostic.

use ck_compiler::load::Session;
use std::path::{Path, PathBuf};

/// The instance library's folder.
fn library_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .join("instances")
}

fn library_files() -> Vec<(PathBuf, String)> {
    let root = library_root();
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "the instance library has no .ck files");
    files
        .into_iter()
        .map(|p| (p.clone(), std::fs::read_to_string(&p).expect("readable")))
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "ck") {
            out.push(p);
        }
    }
}

/// Compiles `text` in place of the library file at `path`, so its imports still resolve.
fn compile(path: &Path, text: &str) -> Result<(), ck_dsl::Diagnostics> {
    let mut session = Session::new();
    session.add_source_at(path, text);
    ck_compiler::compile(&session).map(|_| ())
}

fn must_fail(path: &Path, what: &str, text: &str) {
    match compile(path, text) {
        Ok(()) => panic!("{what}: accepted, but it must be rejected:\n{text}"),
        Err(d) => assert!(d.has_errors(), "{what}: failed without an error diagnostic"),
    }
}

fn may_pass(path: &Path, text: &str) {
    if let Err(d) = compile(path, text) {
        assert!(d.has_errors(), "failed without an error diagnostic");
    }
}

/// Where the first integer literal starts: a digit outside `//` comment lines that does not
/// continue an identifier (digits in comments and in names like `gfx942` stay valid when grown).
fn first_integer(text: &str) -> Option<usize> {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim_start().starts_with("//") {
            let b = line.as_bytes();
            let found = (0..b.len()).find(|&i| {
                b[i].is_ascii_digit()
                    && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            });
            if let Some(i) = found {
                return Some(start + i);
            }
        }
        start += line.len();
    }
    None
}

/// A small deterministic generator, so failures reproduce.
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn library_files_compile_on_their_own_terms() {
    for (path, text) in library_files() {
        // Each file alone, as part of the library folder its imports may reach into.
        let mut session = Session::new();
        session.add_roots(&[library_root()]);
        session.add_path(&path);
        if let Err(d) = ck_compiler::compile(&session) {
            panic!(
                "{} does not compile:\n{}",
                path.display(),
                d.render(session.sources())
            );
        }
        let _ = text;
    }
}

#[test]
fn truncations_inside_an_item_are_errors() {
    for (path, text) in library_files() {
        let bytes = text.as_bytes();
        let mut depth = 0i32;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            // Cutting while a block is open can never leave a valid file.
            if depth > 0 && i % 7 == 0 && text.is_char_boundary(i + 1) {
                must_fail(
                    &path,
                    &format!("{} cut at {}", path.display(), i + 1),
                    &text[..i + 1],
                );
            }
        }
    }
}

#[test]
fn doubled_assignments_are_duplicate_keys() {
    for (path, text) in library_files() {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim();
            let simple =
                t.contains('=') && t.ends_with(';') && !t.starts_with("over") && !t.contains('(');
            if simple {
                let mut m = lines.clone();
                m.insert(i, line);
                must_fail(
                    &path,
                    &format!("{} line {} doubled", path.display(), i + 1),
                    &m.join("\n"),
                );
            }
        }
    }
}

#[test]
fn deleted_lines_and_byte_noise_never_panic() {
    let mut rng = SplitMix(0x5eed);
    for (path, text) in library_files() {
        let lines: Vec<&str> = text.lines().collect();
        for i in 0..lines.len() {
            let mut m = lines.clone();
            m.remove(i);
            may_pass(&path, &m.join("\n"));
        }
        for _ in 0..200 {
            let mut bytes = text.clone().into_bytes();
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[at] = rng.below(256) as u8,
                1 => bytes.insert(at, rng.below(256) as u8),
                _ => {
                    bytes.remove(at);
                }
            }
            // Invalid UTF-8 is the loader's business; here only text reaches the compiler.
            may_pass(&path, &String::from_utf8_lossy(&bytes));
        }
    }
}

#[test]
fn injected_errors_are_reported() {
    for (path, text) in library_files() {
        let name = path.display();
        // A character the language has no use for.
        if let Some(at) = text.find('{') {
            must_fail(
                &path,
                &format!("{name}: stray @"),
                &format!("{}@{}", &text[..at + 1], &text[at + 1..]),
            );
            must_fail(
                &path,
                &format!("{name}: unknown key"),
                &format!(
                    "{}\n    no_such_key = 1;\n{}",
                    &text[..at + 1],
                    &text[at + 1..]
                ),
            );
            let deep = format!("    block = {}1{};\n", "[".repeat(5000), "]".repeat(5000));
            must_fail(
                &path,
                &format!("{name}: deep nesting"),
                &format!("{}\n{deep}{}", &text[..at + 1], &text[at + 1..]),
            );
        }
        // A number far past u64, in front of the first integer literal.
        if let Some(at) = first_integer(&text) {
            must_fail(
                &path,
                &format!("{name}: huge number"),
                &format!("{}99999999999999999999999{}", &text[..at], &text[at..]),
            );
        }
        // The same items twice: duplicate names.
        must_fail(
            &path,
            &format!("{name}: duplicated"),
            &format!("{text}\n{text}"),
        );
    }
}

#[test]
fn file_system_problems_are_reported() {
    let dir = std::env::temp_dir().join(format!("ckdsl-mangled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // (what, [(file name, contents)])
    type Case<'a> = (&'a str, Vec<(&'a str, Vec<u8>)>);
    let cases: Vec<Case> = vec![
        (
            "non-UTF-8",
            vec![("a.ck", b"instance x { op = \xff; }".to_vec())],
        ),
        (
            "missing import",
            vec![("a.ck", b"import \"nope.ck\";".to_vec())],
        ),
        (
            "import cycle",
            vec![
                ("a.ck", b"import \"b.ck\";".to_vec()),
                ("b.ck", b"import \"a.ck\";".to_vec()),
            ],
        ),
    ];
    for (what, files) in cases {
        let case = dir.join(what.replace(' ', "_"));
        std::fs::create_dir_all(&case).expect("case dir");
        for (name, bytes) in &files {
            std::fs::write(case.join(name), bytes).expect("write");
        }
        let mut session = Session::new();
        session.add_path(&case.join("a.ck"));
        match ck_compiler::compile(&session) {
            Ok(_) => panic!("{what}: accepted"),
            Err(d) => assert!(d.has_errors(), "{what}: no error diagnostic"),
        }
    }
    let mut session = Session::new();
    session.add_path(&dir.join("does_not_exist.ck"));
    assert!(
        ck_compiler::compile(&session).is_err(),
        "missing file accepted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
