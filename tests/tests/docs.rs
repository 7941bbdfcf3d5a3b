//! The documentation names only files a clone has: every backticked path into the repository's
//! folders exists, and nothing points outside it.

use std::path::Path;

/// Top-level folders of the repository; a backticked path that starts with one names a file
/// or folder of the clone.
const FOLDERS: &[&str] = &[
    "bench/",
    "compiler/",
    "docs/",
    "dsl/",
    "fuzz/",
    "instances/",
    "runtime/",
    "scripts/",
    "tests/",
    ".ci/",
];

/// Folders the tools write into (ignored by git), which a clone has only after running them.
const OUTPUTS: &[&str] = &["fuzz/out/", "fuzz/artifacts/"];

/// The backticked spans of `text`.
fn spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

#[test]
fn documented_paths_exist_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("root");
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("a docs entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut missing = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("a readable page");
        let name = page
            .strip_prefix(root)
            .unwrap_or(page)
            .display()
            .to_string();
        for span in spans(&text) {
            // A command's first word, or the span itself.
            let word = span.split_whitespace().next().unwrap_or("");
            let word = word.trim_end_matches([',', '.', ':', ')']);
            let outside = word.starts_with("../") || word.starts_with("shared/");
            let inside = FOLDERS.iter().any(|f| word.starts_with(f));
            // Patterns (`docs/*.md`, `<op>_selection.json`, `{name}`) name no single file.
            let pattern = word.contains(['*', '<', '{', '…', '|']);
            let output = OUTPUTS.iter().any(|o| word.starts_with(o));
            // From the root, or (a link's text) from the page's folder.
            let file = word.split(':').next().unwrap_or(word);
            let here = page.parent().unwrap_or(root);
            let found = root.join(file).exists() || here.join(file).exists();
            let line = || format!("{name}: `{span}`");
            if outside {
                missing.push(format!("{} points outside the repository", line()));
            } else if inside && !pattern && !output && !found {
                missing.push(format!("{} names no file of the repository", line()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
