//! Mutates valid sample files many ways and checks that parsing and resolution never panic or
//! hang, that an error-free parse accounts for every token of the file, and that mutations known
//! to break a file are reported.

use ck_compiler::load::Session;
use ck_dsl::ast::Item;

const SAMPLES: [&str; 2] = [
    include_str!("samples/common.ck"),
    include_str!("samples/bwd_weight.ck"),
];

/// A small deterministic generator (xorshift64) so every run tries the same mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `text` with comments and whitespace removed: what the items must account for.
fn tokens_only(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        // Doc comments are tokens of their items, so they count as text here.
        let doc = rest.starts_with("///") && !rest.starts_with("////");
        if rest.starts_with("//") && !doc {
            rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
        } else if let Some(body) = rest.strip_prefix("/*") {
            rest = body.find("*/").map_or("", |n| &body[n + 2..]);
        } else {
            if !c.is_whitespace() {
                out.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Parses and resolves `text`; returns whether any error was reported.
fn check(text: &str) -> bool {
    let mut session = Session::new();
    session.add_source("mutant.ck", text);
    // Load errors (the samples' import is not found from here) do not count as parse errors.
    let parse_errors = session
        .diagnostics()
        .iter()
        .any(|d| d.is_error() && d.code.starts_with("CK00"));
    if !parse_errors {
        // No error means no text was skipped: the gaps between items are only trivia.
        let mut covered = 0;
        let mut gaps = String::new();
        for item in &session.files()[0].items {
            let span = match item {
                Item::Import(i) => i.span,
                Item::Defaults(b) | Item::Instance(b) => b.span,
                Item::Family(f) => f.span,
            };
            gaps.push_str(&text[covered..span.start as usize]);
            covered = span.end as usize;
        }
        gaps.push_str(&text[covered..]);
        assert_eq!(
            tokens_only(&gaps),
            "",
            "text outside items was accepted silently:\n{text}"
        );
    }
    let (_, resolve_diags) = session.resolve();
    // Rendering must not panic either, whatever the spans.
    let _ = session.diagnostics().render(session.sources());
    let _ = resolve_diags.render(session.sources());
    parse_errors || resolve_diags.has_errors()
}

fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

#[test]
fn samples_are_valid() {
    let mut session = Session::new();
    session.add_path(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/samples/bwd_weight.ck"
    )));
    let (specs, diags) = session.resolve();
    assert!(
        session.diagnostics().is_empty() && diags.is_empty(),
        "{}",
        diags.render(session.sources())
    );
    assert_eq!(specs.len(), 1 + 16 + 4);
}

#[test]
fn truncations() {
    for text in SAMPLES {
        // Every third byte: cheap enough for debug builds, and every token kind is still cut.
        for end in (0..text.len())
            .step_by(3)
            .filter(|&i| text.is_char_boundary(i))
        {
            check(&text[..end]);
        }
    }
}

#[test]
fn deleted_and_doubled_lines() {
    for text in SAMPLES {
        let lines = lines(text);
        for i in 0..lines.len() {
            let mut deleted = lines.clone();
            deleted.remove(i);
            check(&deleted.concat());
            let mut doubled = lines.clone();
            doubled.insert(i, lines[i]);
            check(&doubled.concat());
        }
    }
}

#[test]
fn byte_flips_and_inserted_bytes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for text in SAMPLES {
        for _ in 0..150 {
            let mut bytes = text.as_bytes().to_vec();
            let at = rng.below(bytes.len());
            bytes[at] ^= 1 << rng.below(8);
            check(&String::from_utf8_lossy(&bytes));

            let mut bytes = text.as_bytes().to_vec();
            let at = rng.below(bytes.len() + 1);
            let inserted: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.next() as u8).collect();
            bytes.splice(at..at, inserted);
            check(&String::from_utf8_lossy(&bytes));
        }
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng(42);
    for _ in 0..300 {
        let bytes: Vec<u8> = (0..rng.below(200)).map(|_| rng.next() as u8).collect();
        check(&String::from_utf8_lossy(&bytes));
        // Random text from the language's own characters exercises the grammar harder.
        let alphabet = b"ab1 ;={}[](),.:\"/*\n_";
        let text: String = (0..rng.below(200))
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect();
        check(&text);
    }
}

#[test]
fn huge_numbers_and_deep_nesting_are_reported() {
    for text in SAMPLES {
        for (i, _) in text.match_indices(|c: char| c.is_ascii_digit()).step_by(3) {
            let huge = format!("{}99999999999999999999999{}", &text[..i], &text[i..]);
            assert!(check(&huge), "huge number at {i} not reported");
        }
        for (i, _) in text.match_indices('[').step_by(2) {
            for depth in [40, 5_000] {
                let deep = format!("{}{}{}", &text[..i], "[".repeat(depth), &text[i..]);
                assert!(check(&deep), "nesting at {i} not reported");
                let deep_braces = format!("{}{}{}", &text[..i], "a {".repeat(depth), &text[i..]);
                assert!(check(&deep_braces), "section nesting at {i} not reported");
            }
        }
    }
}
