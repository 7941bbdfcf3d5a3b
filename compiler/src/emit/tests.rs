//! Snapshots of the C++, dispatcher names and manifest for a small set: CK's verbatim strings,
//! imported, two of them put in one family.

use super::*;
use crate::import::{compile_allowing_breaks, import_trait};
use crate::ir::{Checked, Instance, Validated};
use crate::model::{DataType, FamilyInfo, Kind};
use crate::validate::validate_instance;

fn set() -> Validated {
    // CK's own strings break some of its rules (3-D clusters for the V1 op): each instance
    // allows the rules its compiled source breaks.
    let mut instances: Vec<Instance> = include_str!("../../tests/verbatim.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let imported = import_trait(l).unwrap();
            let compiled = compile_allowing_breaks(&imported).unwrap_or_else(|_| panic!("{l}"));
            let mut inst = imported.instance;
            inst.allow = compiled.set.instances()[0].allow.clone();
            inst
        })
        .collect();
    let family = FamilyInfo {
        name: "bwd_weight_xdl_v1".to_string(),
        doc: vec![" V1 XDL bwd-weight, f16 (CK's builder tests).".to_string()],
        axes: vec![],
        row: None,
    };
    for (i, doc) in [
        (0, " Wide tile."),
        (2, " Generic: any C and K divisible by 2."),
    ] {
        instances[i].family = Some(family.clone());
        instances[i].doc = vec![doc.to_string()];
    }
    checked(instances)
}

/// The set of `instances`, each validated.
fn checked(instances: Vec<Instance>) -> Validated {
    let checked = instances
        .into_iter()
        .map(|i| validate_instance(i).unwrap_or_else(|e| panic!("{e}")));
    Validated::new(checked.collect())
}

fn unchecked(set: &Validated) -> Vec<Instance> {
    let instances = set.instances().iter().cloned();
    instances.map(Checked::into_instance).collect()
}

#[test]
fn ck_cpp_files() {
    let files = emit_ck(&set()).unwrap();
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    insta::assert_snapshot!("ck_cpp_paths", paths.join("\n"));
    for f in &files {
        // The last two path components: unique here, and short enough for a file name.
        let parts: Vec<&str> = f.path.rsplit('/').take(2).collect();
        let dir = parts.get(1).copied().unwrap_or("root");
        let name = format!("{dir}__{}", parts[0]).replace('.', "_");
        insta::assert_snapshot!(name, f.contents);
    }
}

/// For CK's October 2024 tree: no `TF32` in the preamble, backward weight's XDL CShuffle
/// without its transpose-transfer vectors, and the device ops and types that tree lacks left
/// out and named; as CK is now, everything.
#[test]
fn a_ck_release_leaves_out_what_its_tree_lacks() {
    let mut set = set();
    let now = emit_ck_for(&set, CkRelease::Current).unwrap();
    assert!(now.left_out.is_empty());
    let old = emit_ck_for(&set, CkRelease::Oct2024).unwrap();
    let left: Vec<&str> = old.left_out.iter().map(|(n, _)| n.as_str()).collect();
    let kinds: Vec<Kind> = set.instances().iter().map(|i| i.kind).collect();
    assert_eq!(kinds[..4], [Kind::Xdl, Kind::Tile, Kind::Xdl, Kind::XdlV3]);
    let names: Vec<&str> = set.instances().iter().map(|i| i.name.as_str()).collect();
    assert_eq!(left.len(), 3, "{:?}", old.left_out);
    assert!(left.contains(&names[1]) && left.contains(&names[3]));
    assert!(
        old.left_out
            .iter()
            .all(|(_, why)| why.starts_with("CK 2024-10: it has no"))
    );
    let xdl = |files: &[OutFile]| {
        files
            .iter()
            .find(|f| {
                f.path
                    .ends_with("device_grouped_conv_bwd_weight_xdl_instance.hpp")
            })
            .unwrap()
            .contents
            .clone()
    };
    let (then, current) = (xdl(&old.files), xdl(&now.files));
    assert!(current.contains("using TF32") && current.contains("MaxTranspose"));
    assert!(!then.contains("using TF32") && !then.contains("Transpose"));
    // One fewer argument pair a row: the two trailing vectors.
    let args = |text: &str| {
        let row = text
            .lines()
            .find(|l| l.contains("DeviceGroupedConvBwdWeight_Xdl_CShuffle<"))
            .unwrap();
        row.matches(',').count()
    };
    assert_eq!(args(&current), args(&then) + 2);
    // Transpose vectors other than 1 and tf32 products have no spelling there.
    let mut instances = unchecked(&set);
    instances[0].transpose = [2, 2];
    instances[2].types.compute_a = DataType::Tf32;
    instances[2].types.compute_b = DataType::Tf32;
    set = checked(instances);
    let old = emit_ck_for(&set, CkRelease::Oct2024).unwrap();
    let why: Vec<&str> = old.left_out.iter().map(|(_, w)| w.as_str()).collect();
    assert!(
        why.iter()
            .any(|w| w.contains("no transpose-transfer vectors")),
        "{why:?}"
    );
    assert!(
        why.iter().any(|w| w.ends_with("it has no tf32 type")),
        "{why:?}"
    );
    assert_eq!(CkRelease::from_keyword("2024-10"), Some(CkRelease::Oct2024));
    assert_eq!(CkRelease::from_keyword("2023-01"), None);
}

#[test]
fn a_family_shares_one_alias_and_each_instantiation_one_source() {
    let files = emit_ck(&set()).unwrap();
    let header = files
        .iter()
        .find(|f| {
            f.path
                .ends_with("device_grouped_conv_bwd_weight_xdl_instance.hpp")
        })
        .unwrap();
    assert_eq!(
        header
            .contents
            .matches("using device_grouped_conv_bwd_weight_xdl_")
            .count(),
        1
    );
    assert_eq!(
        header
            .contents
            .matches("DeviceGroupedConvBwdWeight_Xdl_CShuffle<")
            .count(),
        2
    );
    let sources = files
        .iter()
        .filter(|f| f.path.contains("bwd_weight_xdl_gnhwc"))
        .count();
    assert_eq!(sources, 1);
}

#[test]
fn dispatcher_names() {
    let names: Vec<String> = set()
        .instances()
        .iter()
        .map(|i| format!("{} {}", i.name, dispatcher_name(i).unwrap_or_default()))
        .collect();
    insta::assert_snapshot!(names.join("\n"));
}

#[test]
fn manifest_json_snapshot() {
    insta::assert_snapshot!(manifest_json(&set()).unwrap());
}

#[test]
fn doc_text_cannot_break_out_of_its_cpp_comment() {
    // IR can come from JSON, past the lexer: line breaks and a trailing backslash in a doc
    // must still leave every row of the tuple in place and no line outside a comment.
    let mut set = set();
    let hostile = [
        " a\r#error x",
        " b\\",
        " c\u{2028}#error y",
        " d??/",
        " e\n#error z",
    ];
    let mut instances = unchecked(&set);
    for inst in &mut instances {
        inst.doc = hostile.iter().map(|d| d.to_string()).collect();
        if let Some(f) = &mut inst.family {
            f.doc = inst.doc.clone();
        }
    }
    set = checked(instances);
    // The lexer check below tells a live directive or a swallowed line from a comment.
    if let Some(bad) = clang_tokens("// a\r#error x\nint y; // b\\\nint z;\n") {
        let good = clang_tokens("// a #error x\nint y; // b\nint z;\n").unwrap();
        assert_ne!(bad, good);
        assert!(bad.contains(&"hash '#'".to_string()), "{bad:?}");
    }
    let clean = emit_ck(&self::set()).unwrap();
    for (f, c) in emit_ck(&set).unwrap().iter().zip(&clean) {
        for line in f.contents.split(['\n', '\r', '\u{2028}']) {
            assert!(
                !line.trim_start().starts_with("#error"),
                "{}: {line}",
                f.path
            );
            assert!(
                !line.ends_with('\\') && !line.ends_with("??/"),
                "{}",
                f.path
            );
        }
        // The same code, only the comments differ.
        let code = |s: &str| -> Vec<String> {
            s.lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(code(&f.contents), code(&c.contents), "{}", f.path);
        // And as clang's lexer reads them: the same tokens outside comments.
        if let Some(tokens) = clang_tokens(&f.contents) {
            assert_eq!(tokens, clang_tokens(&c.contents).unwrap(), "{}", f.path);
        }
    }
}

/// The tokens clang-19's raw lexer reads in C++ `text` (no preprocessing, so CK's headers need
/// not be there), without comments, white space or locations: a live `#error` line or a
/// comment that swallowed the next line would change them. None where clang++-19 is missing
/// (CI sets `CK_REQUIRE_TOOLCHAINS=1`, which makes that a failure).
fn clang_tokens(text: &str) -> Option<Vec<String>> {
    use std::process::Command;
    let file = std::env::temp_dir().join(format!(
        "ck-lex-{}-{:016x}.cpp",
        std::process::id(),
        fnv(text)
    ));
    std::fs::write(&file, text).unwrap();
    let out = Command::new("clang++-19")
        .args(["-cc1", "-dump-raw-tokens", "-x", "c++"])
        .arg(&file)
        .output();
    std::fs::remove_file(&file).ok();
    let out = match out {
        Ok(out) => out,
        Err(_) if std::env::var_os("CK_REQUIRE_TOOLCHAINS").is_none() => return None,
        Err(e) => panic!("CK_REQUIRE_TOOLCHAINS=1 but clang++-19 does not run: {e}"),
    };
    // The dump goes to standard error, a token a line: `kind 'spelling' [flags] Loc=<…>`,
    // where a spelling may span lines (comments, newlines).
    let dump = String::from_utf8_lossy(&out.stderr);
    let tokens = dump
        .split("Loc=<")
        .filter_map(|t| {
            let t = t.split_once('>').map_or(t, |(_, rest)| rest).trim_start();
            let (kind, rest) = t.split_once(' ')?;
            let spelling = rest.split('\t').next().unwrap_or(rest);
            (!matches!(kind, "comment" | "unknown")).then(|| format!("{kind} {spelling}"))
        })
        .collect();
    Some(tokens)
}

/// FNV-1a of `text`, to name its file.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
