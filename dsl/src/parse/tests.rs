//! Per-rule tests of the grammar and builder, recovery, and snapshots of every parse diagnostic.

use super::*;
use crate::span::SourceMap;

/// Parses `text` as a file, returning the AST and the rendered diagnostics.
fn parse_str(text: &str) -> (File, String) {
    let mut sm = SourceMap::new();
    let id = sm.add("test.ck", text);
    let (file, diags) = parse(id, text);
    (file, diags.render(&sm))
}

fn codes(text: &str) -> Vec<&'static str> {
    parse(FileId(0), text).1.iter().map(|d| d.code).collect()
}

/// True when `rule` matches the whole of `text`.
fn accepts(rule: Rule, text: &str) -> bool {
    CkParser::parse(rule, text).is_ok_and(|p| p.as_str() == text)
}

/// The only entry of a one-instance file.
fn single_entry(text: &str) -> Entry {
    let (file, rendered) = parse_str(&format!("instance i {{ {text} }}"));
    assert_eq!(rendered, "");
    match file.items.into_iter().next() {
        Some(Item::Instance(b)) => b.entries.into_iter().next().expect("one entry"),
        other => panic!("expected an instance, got {other:?}"),
    }
}

fn value_of(text: &str) -> ValueKind {
    match single_entry(&format!("k = {text};")) {
        Entry::Assign { value, .. } => value.kind,
        other => panic!("expected an assignment, got {other:?}"),
    }
}

#[test]
fn int_rule() {
    assert!(accepts(Rule::int, "0"));
    assert!(accepts(Rule::int, "18446744073709551615"));
    assert!(!accepts(Rule::int, "-1"));
    assert!(!accepts(Rule::int, "x1"));
    assert_eq!(value_of("42"), ValueKind::Int(42));
    assert_eq!(
        codes("instance i { k = 18446744073709551616; }"),
        [codes::INTEGER_OVERFLOW]
    );
}

#[test]
fn boolean_and_auto_rules() {
    assert!(accepts(Rule::boolean, "true") && accepts(Rule::boolean, "false"));
    assert!(!accepts(Rule::boolean, "trueish"));
    assert!(accepts(Rule::auto, "auto") && !accepts(Rule::auto, "automatic"));
    assert_eq!(value_of("true"), ValueKind::Bool(true));
    assert_eq!(value_of("auto"), ValueKind::Auto);
    assert_eq!(value_of("automatic"), ValueKind::Ident("automatic".into()));
    assert_eq!(value_of("true_x"), ValueKind::Ident("true_x".into()));
}

#[test]
fn word_and_ident_rules() {
    for ok in ["fp16", "_x", "gfx942", "A_b_9"] {
        assert!(accepts(Rule::word, ok) && accepts(Rule::ident, ok), "{ok}");
    }
    for bad in ["9a", "a-b", "", "é"] {
        assert!(!accepts(Rule::ident, bad), "{bad}");
    }
}

#[test]
fn string_rule() {
    assert!(accepts(Rule::string, r#""a b""#));
    assert!(accepts(Rule::string, r#""q\"uote\\""#));
    assert!(!accepts(Rule::string, "\"a\nb\""));
    assert!(!accepts(Rule::string, r#""a\n""#));
    assert_eq!(
        value_of(r#""say \"hi\" \\ ü""#),
        ValueKind::Str(r#"say "hi" \ ü"#.into())
    );
}

#[test]
fn list_rule() {
    assert!(accepts(Rule::list, "[]"));
    assert!(accepts(Rule::list, "[1, 2, 3,]"));
    assert!(accepts(Rule::list, "[[1, 2], [a, \"s\"], auto]"));
    assert!(!accepts(Rule::list, "[,]"));
    assert!(!accepts(Rule::list, "[1 2]"));
    let ValueKind::List(items) = value_of("[1, [fp16], ]") else {
        panic!("a list")
    };
    assert_eq!(items.len(), 2);
    let ValueKind::List(inner) = &items[1].kind else {
        panic!("a nested list")
    };
    assert_eq!(inner[0].kind, ValueKind::Ident("fp16".into()));
}

#[test]
fn key_rule_and_spans() {
    assert!(accepts(Rule::key, "a") && accepts(Rule::key, "a.b.c"));
    assert!(!accepts(Rule::key, "a..b") && !accepts(Rule::key, ".a"));
    let text = "pipeline.version = v3;";
    let Entry::Assign { key, value, span } = single_entry(text) else {
        panic!("an assignment")
    };
    assert_eq!(key.dotted(), "pipeline.version");
    assert_eq!(key.segments[1].name, "version");
    // `instance i { ` is 13 bytes.
    assert_eq!((key.span.start, key.span.end), (13, 29));
    assert_eq!((value.span.start, value.span.end), (32, 34));
    assert_eq!((span.start, span.end), (13, 35));
}

#[test]
fn section_rule() {
    assert!(accepts(Rule::section, "a { b = 1; c { d = 2; } }"));
    assert!(accepts(Rule::section, "a.b {}"));
    assert!(!accepts(Rule::section, "a { b = 1 }"));
    let Entry::Section { name, entries, .. } =
        single_entry("a { cluster = [4, 8, 1]; x.y { z = 1; } }")
    else {
        panic!("a section")
    };
    assert_eq!(name.dotted(), "a");
    assert!(matches!(&entries[1], Entry::Section { name, .. } if name.dotted() == "x.y"));
}

#[test]
fn assign_rule() {
    assert!(accepts(Rule::assign, "a = 1;"));
    assert!(!accepts(Rule::assign, "a = 1"));
    assert!(!accepts(Rule::assign, "a = ;"));
    assert!(!accepts(Rule::assign, "= 1;"));
}

#[test]
fn comments_are_trivia() {
    let (file, rendered) =
        parse_str("// c\n/* a\nb */ instance /* x */ i { // y\n k = 1; //// not doc\n }");
    assert_eq!(rendered, "");
    assert_eq!(file.items.len(), 1);
}

#[test]
fn import_rule() {
    assert!(accepts(Rule::import, "import \"a/b.ck\";"));
    assert!(!accepts(Rule::import, "import a;"));
    assert!(!accepts(Rule::import, "importx \"a\";"));
    let (file, _) = parse_str("import \"x.ck\";");
    let Some(Item::Import(i)) = file.items.first() else {
        panic!("an import")
    };
    assert_eq!(i.path, "x.ck");
    assert_eq!((i.path_span.start, i.path_span.end), (7, 13));
    assert_eq!(codes("/// doc\nimport \"x.ck\";"), [codes::MISPLACED_DOC]);
}

#[test]
fn defaults_and_instance_rules() {
    assert!(accepts(Rule::defaults, "defaults d {}"));
    assert!(accepts(
        Rule::instance,
        "/// doc\ninstance i : a, b { k = 1; }"
    ));
    assert!(!accepts(Rule::instance, "instance i : { }"));
    assert!(!accepts(Rule::instance, "instance { }"));
    assert!(!accepts(Rule::instance, "instancei { }"));
    let (file, _) =
        parse_str("///  two spaces\n/// one\ninstance i : a, b { k = 1; s { t = 2; } }");
    let Some(Item::Instance(b)) = file.items.first() else {
        panic!("an instance")
    };
    assert_eq!(b.doc, [" two spaces", "one"]);
    assert_eq!(b.name.name, "i");
    assert_eq!(
        b.bases.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(b.entries.len(), 2);
}

#[test]
fn family_rule() {
    assert!(accepts(Rule::family, "family f {}"));
    assert!(accepts(Rule::axis, "over dims = [2, 3];"));
    assert!(!accepts(Rule::axis, "over dims = 2;"));
    assert!(accepts(
        Rule::rows,
        "rows (a, b.c,) { /// d\n r = (1, [2],); s = (); }"
    ));
    assert!(!accepts(Rule::rows, "rows () {}"));
    assert!(!accepts(Rule::row, "r = (1, 2)"));
    let text = "/// fam\nfamily f : d { k = 1; over x = [1, 2]; rows (a, b) { /// row doc\n r = (1, 2); } over y = [z]; }";
    let (file, rendered) = parse_str(text);
    assert_eq!(rendered, "");
    let Some(Item::Family(f)) = file.items.first() else {
        panic!("a family")
    };
    assert_eq!(f.doc, ["fam"]);
    assert_eq!(f.entries.len(), 1);
    assert_eq!(
        f.axes.iter().map(|a| a.key.dotted()).collect::<Vec<_>>(),
        ["x", "y"]
    );
    let rows = f.rows.as_ref().expect("rows");
    assert_eq!(rows.columns.len(), 2);
    assert_eq!(rows.rows[0].doc, ["row doc"]);
    assert_eq!(rows.rows[0].values.len(), 2);
    assert_eq!(
        codes("family f { rows (a) {} rows (b) {} }"),
        [codes::SECOND_ROWS]
    );
}

#[test]
fn keywords_work_as_keys() {
    let (file, rendered) = parse_str("family f { rows = 1; over = 2; import { x = 1; } }");
    assert_eq!(rendered, "");
    let Some(Item::Family(f)) = file.items.first() else {
        panic!("a family")
    };
    assert_eq!(f.entries.len(), 3);
}

#[test]
fn recovers_at_item_boundaries() {
    let text = "instance a { k = ; }\ninstance good1 { k = 1; }\nfamily b { over x = 1; }\n/// doc\ninstance good2 {}\ndefaults c { k = 1 }\n";
    let (file, diags) = parse(FileId(0), text);
    assert_eq!(diags.len(), 3, "{diags:?}");
    let names: Vec<_> = file
        .items
        .iter()
        .map(|i| match i {
            Item::Instance(b) => b.name.name.as_str(),
            other => panic!("unexpected item {other:?}"),
        })
        .collect();
    assert_eq!(names, ["good1", "good2"]);
}

#[test]
fn missing_brace_recovers_at_the_next_item() {
    let (file, diags) = parse(FileId(0), "instance a {\n k = 1;\ninstance b { k = 2; }\n");
    assert_eq!(
        diags.iter().map(|d| d.code).collect::<Vec<_>>(),
        [codes::UNEXPECTED_TOKEN]
    );
    assert_eq!(file.items.len(), 1);
}

#[test]
fn lexical_errors_inside_items() {
    assert_eq!(
        codes("instance a { s = \"abc; }\ninstance b {}"),
        [codes::UNTERMINATED_STRING]
    );
    assert_eq!(codes("instance a { s = \"a\\tb\"; }"), [codes::BAD_ESCAPE]);
    assert_eq!(
        codes("instance a {} /* never closed"),
        [codes::UNTERMINATED_COMMENT]
    );
    assert_eq!(
        codes("instance a { k = 1 @ 2; }"),
        [codes::INVALID_CHARACTER]
    );
    assert_eq!(codes("@"), [codes::INVALID_CHARACTER]);
    let deep = format!(
        "instance a {{ k = {}1{}; }}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert_eq!(codes(&deep), [codes::NESTING_TOO_DEEP]);
}

#[test]
fn empty_and_trivia_files_parse() {
    for text in ["", "  \n", "// only a comment", "/* block */\n"] {
        let (file, diags) = parse(FileId(0), text);
        assert!(file.items.is_empty() && diags.is_empty(), "{text:?}");
    }
}

/// One snapshot per parse-error kind: the rendered diagnostic is what users see.
#[test]
fn diagnostics_snapshots() {
    let cases = [
        ("unexpected_token", "instance a {\n    block = 64\n}\n"),
        ("expected_value", "instance a { tile = ; }\n"),
        ("unexpected_eof", "instance a {\n    block = 64;\n"),
        (
            "unterminated_string",
            "family f {\n    name = \"{family}_{row};\n}\n",
        ),
        ("bad_escape", "family f { name = \"a\\nb\"; }\n"),
        ("unterminated_comment", "instance a {}\n/* start\n"),
        ("invalid_character", "instance a { block = -64; }\n"),
        (
            "integer_overflow",
            "instance a { block = 99999999999999999999; }\n",
        ),
        (
            "nesting_too_deep",
            &format!("instance a {{ tile = {}; }}\n", "[".repeat(40)),
        ),
        (
            "misplaced_doc",
            "instance a {\n    /// the block size\n    block = 64;\n}\n",
        ),
        (
            "second_rows",
            "family f {\n    rows (block) { a = (64); }\n    rows (tile) { b = ([1, 2, 3]); }\n}\n",
        ),
        ("not_an_item", "instanc a {}\n"),
        ("axis_needs_list", "family f { over dims = 2; }\n"),
    ];
    for (name, text) in cases {
        let (_, rendered) = parse_str(text);
        insta::assert_snapshot!(name, rendered, text);
    }
}
