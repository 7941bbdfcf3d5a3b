//! Instance strings: the importer on CK's verbatim strings and on malformed input (the round
//! trips of built instances are the importer's unit tests, `compiler/src/import/tests.rs`).

use ck_compiler::import::{
    ImportError, compile_allowing_breaks, import_list, import_trait, to_ck_source,
};

const VERBATIM: &str = include_str!("verbatim.txt");

fn verbatim() -> Vec<&'static str> {
    VERBATIM
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect()
}

fn field_error(s: &str) -> String {
    match import_trait(s) {
        Err(e) => e.to_string(),
        Ok(i) => panic!("accepted {s} as {:?}", i.format),
    }
}

#[test]
fn malformed_strings_are_errors_that_name_the_field() {
    let good = verbatim()[0];
    let bad_seq = good.replacen("Seq(1,0,2)", "foo", 1);
    assert_eq!(
        field_error(&bad_seq),
        "field 23 (ABlockTransferThreadClusterArrangeOrder): expected Seq(...), found `foo`"
    );
    let bad_int = good.replacen(",256,", ",-256,", 1);
    assert_eq!(
        field_error(&bad_int),
        "field 13 (BlockSize): expected an integer, found `-256`"
    );
    let bad_bool = good.replacen("false", "0", 1);
    assert_eq!(
        field_error(&bad_bool),
        "field 28 (ABlockLdsAddExtraM): expected true or false, found `0`"
    );
    let short = good.replacen(",1,1>", ",1>", 1);
    assert_eq!(
        field_error(&short),
        "`DeviceGroupedConvBwdWeight_Xdl_CShuffle` has 43 fields, found 42"
    );
    let v3 = verbatim()[3].replacen(",0,1>", ",1>", 1);
    assert_eq!(
        field_error(&v3),
        "`DeviceGroupedConvBwdWeight_Xdl_CShuffleV3` has 43 or 45 or 46 fields, found 44"
    );
}

#[test]
fn names_match_whole_not_by_prefix() {
    let s = verbatim()[0].replacen("CShuffle<", "CShuffleV<", 1);
    assert_eq!(
        field_error(&s),
        "unknown op name `DeviceGroupedConvBwdWeight_Xdl_CShuffleV`"
    );
    let s = verbatim()[0].replacen("CShuffle<", "CShuffleV3<", 1);
    // 43 fields fit the oldest V3 form, whose field 40 is the scheduler.
    assert_eq!(
        field_error(&s),
        "field 40 (BlkGemmPipeSched): expected a scheduler (Intrawave, Interwave), found `fp16`"
    );
}

#[test]
fn garbage_never_panics() {
    let good = verbatim()[5];
    let mut inputs: Vec<String> = [
        "", "   ", "<", ">", "<>", "Name<", "Name<>", "Name<<>>", "Seq(", "a,b,c", "Ä<ö>",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Every prefix, and every single-character deletion of a real string.
    inputs.extend(
        (0..good.len())
            .filter(|&i| good.is_char_boundary(i))
            .map(|i| good[..i].to_string()),
    );
    inputs.extend((0..good.len()).map(|i| format!("{}{}", &good[..i], &good[i + 1..])));
    for s in &inputs {
        let _ = import_trait(s);
    }
    assert_eq!(import_trait(""), Err(ImportError::Empty));
    assert!(matches!(import_trait("Seq("), Err(ImportError::Syntax(_))));
    assert!(matches!(
        import_trait("Foo<1,2>"),
        Err(ImportError::UnknownName(_))
    ));
    let unbalanced = good.replacen("EmptyTuple", "Seq(1", 1);
    assert!(matches!(
        import_trait(&unbalanced),
        Err(ImportError::Syntax(_))
    ));
    let streamk = good.replacen(",1,2,0>", ",1,7,0>", 1);
    assert_eq!(
        field_error(&streamk),
        "field 33 (ReductionStrategy): expected a reduction strategy (0, 1, 2), found `7`"
    );
}

/// A CK-Tile string's wave counts multiply into the block size; at u32's edge the product
/// saturates (found by the `ck_string` fuzz target: it overflowed) and validation refuses it.
#[test]
fn huge_tile_wave_counts_import_and_are_refused() {
    let s = "GroupedConvolutionForwardKernel<2,Default,NHWGC,GKYXC,EmptyTuple,NHWGK,4,8,8,1,0,0,\
             32,64,64,4294967295,2,1,16,16,16,fp16,fp16,COMPUTE_V3,Intrawave,0,1,fp32,fp16,\
             EmptyTuple,PassThrough>";
    let imported = import_trait(s).unwrap();
    assert_eq!(imported.instance.block, u32::MAX);
    let mut session = ck_compiler::load::Session::new();
    session.add_source("imported.ck", &to_ck_source(&imported));
    assert!(ck_compiler::compile(&session).is_err());
}

#[test]
fn config_lines_that_are_not_instance_strings_are_recognised() {
    let lines = [
        "DeviceGroupedConvBwdWeight_Explicit_Xdl<DeviceBatchedGemmXdlUniversal<...>, BlkSize: 256>",
        "DeviceGroupedConvBwdDataMultipleD_Xdl_CShuffle_v1<256, 128, 128, 32, Default>",
        "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle_V3<256, 128, BlkGemmPipelineScheduler: Intrawave>",
        "GroupedConvolutionForwardDepthwise<16,16,3,1,1,1,1,1,4,4,8,8>",
    ];
    for l in lines {
        let e = import_trait(l).unwrap_err();
        assert!(matches!(e, ImportError::NotInstance(_)), "{l}: {e}");
        assert!(e.to_string().starts_with("not an instance string: "), "{e}");
    }
}

#[test]
fn lists_skip_comments_and_blank_lines() {
    let text = format!(
        "# Format: native CK Tile instance string\n\n{}\n  # off\nnonsense\n",
        verbatim()[5]
    );
    let entries = import_list(&text);
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0].line, 3);
    assert!(entries[0].result.is_ok());
    assert_eq!(entries[1].line, 5);
    assert!(entries[1].result.is_err());
}

#[test]
fn imported_names_are_deterministic_and_distinct() {
    let names: Vec<String> = verbatim()
        .iter()
        .map(|s| import_trait(s).unwrap().instance.name)
        .collect();
    let again: Vec<String> = verbatim()
        .iter()
        .map(|s| import_trait(s).unwrap().instance.name)
        .collect();
    assert_eq!(names, again);
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len());
}

#[test]
fn ck_source_of_the_verbatim_strings() {
    let sources: Vec<String> = verbatim()
        .iter()
        .map(|s| to_ck_source(&import_trait(s).unwrap()))
        .collect();
    insta::assert_snapshot!(sources.join("\n"));
}

/// The `.ck` fixtures (for the front end) are the importer's output for their expected strings,
/// allowing the rules their instances break.
#[test]
fn fixtures_are_the_imported_sources_of_their_strings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/traits");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "expected") {
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap();
        let mut imported = import_trait(expected.trim_end()).unwrap();
        imported.instance.name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(path.with_extension("ck")).unwrap();
        let compiled = compile_allowing_breaks(&imported)
            .unwrap_or_else(|r| panic!("{}: refused: {:?}", path.display(), r.errors));
        assert_eq!(source, compiled.source, "{}", path.display());
        count += 1;
    }
    assert_eq!(count, verbatim().len());
}

/// A lost comma runs two fields together. Every such mutant of a StreamK string is refused (a
/// leading zero as in `1` and `064`, a field count no variant has, a value out of place) or is
/// an instance that breaks a rule (`8,8,8,1` and `0` read as merge_groups = 10 in the variant one
/// field shorter), which `ckc import trait` prints as a warning: none is taken silently.
#[test]
fn a_lost_comma_is_refused_or_breaks_a_rule() {
    let s = "GroupedConvolutionBackwardWeightKernel<2,Default,NHWGC,GKYXC,EmptyTuple,NHWGK,8,8,8,\
             1,0,0,64,64,64,2,2,1,16,16,16,fp16,fp16,BASIC_ASYNC_V1,Intrawave,0,1,fp32,fp16,\
             EmptyTuple,PassThrough,1,2,0>";
    assert!(import_trait(s).is_ok());
    assert!(import_trait(&s.replace(",0,0,64,", ",0,064,")).is_err());
    for (i, _) in s.match_indices(',') {
        let cut = format!("{}{}", &s[..i], &s[i + 1..]);
        if let Ok(imported) = import_trait(&cut) {
            let mut session = ck_compiler::load::Session::new();
            session.add_source("imported.ck", &to_ck_source(&imported));
            assert!(ck_compiler::compile(&session).is_err(), "{cut}");
        }
    }
}

/// Zero tiles and empty `Seq()` import (the string's shape is right) but break rules, so
/// `ckc import trait` refuses them: CK0212 for a zero block or tile, CK0215 for an empty
/// cluster.
#[test]
fn zero_tiles_and_empty_sequences_break_rules() {
    let s = "DeviceGroupedConvBwdWeight_Xdl_CShuffle<2,GNHWC,GKYXC,GNHWK,fp16,fp16,fp16,fp32,\
             PassThrough,PassThrough,PassThrough,Default,256,128,128,4,8,32,32,2,2,Seq(4,64,1),\
             Seq(1,0,2),Seq(1,0,2),2,8,8,false,Seq(4,64,1),Seq(1,0,2),Seq(1,0,2),2,8,8,false,1,1,\
             Seq(1,32,1,8),8,fp16,fp16,1,1>";
    let codes = |text: &str| -> Vec<String> {
        let imported = import_trait(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut session = ck_compiler::load::Session::new();
        session.add_source("imported.ck", &to_ck_source(&imported));
        let errors = ck_compiler::compile(&session).expect_err(text);
        errors.iter().map(|d| d.code.to_string()).collect()
    };
    assert!(import_trait(s).is_ok());
    let zero_block = s.replacen(",Default,256,", ",Default,0,", 1);
    assert!(codes(&zero_block).contains(&"CK0212".to_string()));
    let zero_tile = s.replacen(",256,128,128,", ",256,0,128,", 1);
    assert!(codes(&zero_tile).contains(&"CK0212".to_string()));
    let empty = s.replacen("Seq(1,32,1,8)", "Seq()", 1);
    assert!(
        codes(&empty).contains(&"CK0215".to_string()),
        "{:?}",
        codes(&empty)
    );
}
