//! The `ck` examples of `docs/language.md` parse, and use only known keys and values.

use ck_compiler::keys::codes;
use ck_compiler::load::Session;

#[test]
fn language_examples_are_valid() {
    let doc = include_str!("../../docs/language.md");
    let blocks: Vec<&str> = doc
        .split("```ck\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    assert!(blocks.len() >= 5);
    for block in blocks {
        let mut session = Session::new();
        // Imports and bases may refer to other examples; only parsing and key typing are checked.
        session.add_source("example.ck", &block.replace("import \"common.ck\";", ""));
        let (_, diags) = session.resolve();
        let rendered = session.diagnostics().render(session.sources());
        assert!(session.diagnostics().is_empty(), "{rendered}");
        let typing = [codes::UNKNOWN_KEY, codes::WRONG_SHAPE, codes::UNKNOWN_WORD];
        assert!(
            !diags.iter().any(|d| typing.contains(&d.code)),
            "{}",
            diags.render(session.sources())
        );
    }
}
