//! Resolution: precedence, expansion order, naming, and each error.

use super::*;
use crate::model::{DataType, Kind};

fn resolve(text: &str) -> (Vec<InstanceSpec>, Vec<&'static str>) {
    let mut s = Session::new();
    s.add_source("test.ck", text);
    assert!(
        s.diagnostics().is_empty(),
        "{}",
        s.diagnostics().render(s.sources())
    );
    let (specs, diags) = s.resolve();
    (specs, diags.iter().map(|d| d.code).collect())
}

fn names(specs: &[InstanceSpec]) -> Vec<&str> {
    specs.iter().map(|s| s.name.value.as_str()).collect()
}

#[test]
fn instance_takes_bases_in_order_then_own_entries() {
    let (specs, codes) = resolve(
        "defaults a { block = 64; tile = [1, 2, 3]; }\n\
         defaults b : a { block = 128; k1 = 4; }\n\
         /// doc line\n\
         instance i : b { k1 = 8; pipeline { version = v3; } }",
    );
    assert!(codes.is_empty(), "{codes:?}");
    let i = &specs[0];
    assert_eq!(i.name.value, "i");
    assert_eq!(i.doc, ["doc line"]);
    assert_eq!(i.block.as_ref().unwrap().value, 128);
    assert_eq!(i.tile.as_ref().unwrap().value, [1, 2, 3]);
    assert_eq!(
        (i.ak1.as_ref().unwrap().value, i.bk1.as_ref().unwrap().value),
        (8, 8)
    );
    assert!(i.pipeline.version.is_some());
    assert!(i.origin.family.is_none());
    assert_eq!(i.dims, None, "resolution applies no defaults");
}

#[test]
fn later_bases_override_earlier_ones() {
    let (specs, _) = resolve(
        "defaults a { block = 1; } defaults b { block = 2; } instance i : a, b {} instance j : b, a {}",
    );
    assert_eq!(specs[0].block.as_ref().unwrap().value, 2);
    assert_eq!(specs[1].block.as_ref().unwrap().value, 1);
}

#[test]
fn family_expands_axes_in_order_times_rows_with_precedence() {
    let text = "defaults d { block = 1; kind = xdl; }\n\
        /// fam doc\n\
        family f : d {\n\
            block = 2; dtype = fp32;\n\
            over dims = [2, 3];\n\
            over dtype = [fp16, bf16];\n\
            rows (block, tile) {\n\
                /// row doc\n\
                r1 = (64, [32, 32, 32]);\n\
                r2 = (128, [64, 64, 32]);\n\
            }\n\
        }";
    let (specs, codes) = resolve(text);
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(
        names(&specs),
        [
            "f_2d_fp16_r1",
            "f_2d_fp16_r2",
            "f_2d_bf16_r1",
            "f_2d_bf16_r2",
            "f_3d_fp16_r1",
            "f_3d_fp16_r2",
            "f_3d_bf16_r1",
            "f_3d_bf16_r2",
        ]
    );
    let s = &specs[1];
    assert_eq!(s.kind.as_ref().unwrap().value, Kind::Xdl);
    assert_eq!(
        s.block.as_ref().unwrap().value,
        128,
        "row beats family entry and base"
    );
    assert_eq!(
        s.dtype.as_ref().unwrap().value,
        DataType::Fp16,
        "axis beats family entry"
    );
    assert_eq!(specs[0].doc, ["row doc"]);
    let origin = specs[2].origin.family.as_ref().unwrap();
    assert_eq!(origin.name, "f");
    assert_eq!(origin.doc, ["fam doc"]);
    assert_eq!(
        origin.axes,
        [
            ("dims".to_string(), "2".to_string()),
            ("dtype".to_string(), "bf16".to_string())
        ]
    );
    assert_eq!(origin.row.as_deref(), Some("r1"));
}

#[test]
fn family_without_axes_or_rows_is_one_instance() {
    let (specs, codes) = resolve("/// d\nfamily f { block = 1; }");
    assert!(codes.is_empty());
    assert_eq!(names(&specs), ["f"]);
    assert_eq!(specs[0].doc, ["d"]);
}

#[test]
fn names_join_list_values_and_follow_patterns() {
    let (specs, _) = resolve("family f { over tile = [[32, 64, 8]]; over split_k = [auto, 2]; }");
    assert_eq!(names(&specs), ["f_32x64x8_auto", "f_32x64x8_2"]);
    let (specs, codes) = resolve(
        "family f { name = \"x_{dims}_{family}_{row}\"; over dims = [1]; over dtype = [fp16]; rows (block) { r = (64); } }",
    );
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(names(&specs), ["x_1d_f_r"]);
}

#[test]
fn streamk_span_is_recorded() {
    let (specs, _) = resolve("instance i { streamk { persistent = true; reduction = tree; } }");
    let persistent = specs[0].streamk.persistent.as_ref().unwrap().span;
    assert_eq!(specs[0].streamk_span, Some(persistent));
}

#[test]
fn errors_are_reported_each_once() {
    let cases: &[(&str, &[&str])] = &[
        (
            "instance i { block = 1; block = 2; }",
            &[codes::DUPLICATE_KEY],
        ),
        (
            "instance i { a { cluster = [1]; } a.cluster = [2]; }",
            &[codes::DUPLICATE_KEY],
        ),
        ("instance i {} instance i {}", &[codes::DUPLICATE_NAME]),
        ("defaults i {} family i {}", &[codes::DUPLICATE_NAME]),
        (
            "instance f_1 {} family f { over block = [1]; }",
            &[codes::DUPLICATE_NAME],
        ),
        (
            "family f { name = \"{family}\"; over block = [1, 2]; }",
            &[codes::DUPLICATE_NAME],
        ),
        ("instance i : nope {}", &[codes::UNKNOWN_BASE]),
        (
            "instance j {} instance i : j {}",
            &[codes::BASE_NOT_DEFAULTS],
        ),
        (
            "defaults a : b {} defaults b : a {} instance i : a {}",
            &[codes::BASE_CYCLE],
        ),
        ("defaults a : a {}", &[codes::BASE_CYCLE]),
        (
            "family f { rows (block, tile) { r = (1); } }",
            &[codes::ROW_ARITY],
        ),
        (
            "family f { rows (blocks) { r = (1); } }",
            &[keys::codes::UNKNOWN_KEY],
        ),
        ("family f { over block = []; }", &[codes::EMPTY_AXIS]),
        (
            "family f { over block = [1]; over block = [2]; }",
            &[codes::DUPLICATE_KEY],
        ),
        (
            "family f { over block = [1]; rows (block) { r = (1); } }",
            &[codes::AXIS_IS_COLUMN],
        ),
        (
            "family f { rows (block, block) { r = (1, 1); } }",
            &[codes::DUPLICATE_KEY],
        ),
        (
            "instance i { name = \"x\"; }",
            &[codes::NAME_OUTSIDE_FAMILY],
        ),
        (
            "defaults d { name = \"x\"; }",
            &[codes::NAME_OUTSIDE_FAMILY],
        ),
        (
            "family f { over name = [\"x\"]; }",
            &[codes::NAME_OUTSIDE_FAMILY],
        ),
        (
            "family f { name = \"{nope}\"; }",
            &[codes::BAD_NAME_PATTERN],
        ),
        ("family f { name = \"{row}\"; }", &[codes::BAD_NAME_PATTERN]),
        (
            "family f { name = \"{family\"; }",
            &[codes::BAD_NAME_PATTERN],
        ),
        (
            "family f { name = \"{family}-x\"; }",
            &[codes::BAD_INSTANCE_NAME],
        ),
        ("instance i { blocks = 1; }", &[keys::codes::UNKNOWN_KEY]),
        ("instance i { tile = x; }", &[keys::codes::WRONG_SHAPE]),
        ("instance i { dtype = fp61; }", &[keys::codes::UNKNOWN_WORD]),
        (
            "family f { over dtype = [fp16, fp61]; }",
            &[keys::codes::UNKNOWN_WORD],
        ),
        (
            "family f { rows (dtype) { r = (3); } }",
            &[keys::codes::WRONG_SHAPE],
        ),
        // Every error of the stage, not just the first.
        (
            "instance i { blocks = 1; tile = x; } instance j : nope {}",
            &[
                keys::codes::UNKNOWN_KEY,
                keys::codes::WRONG_SHAPE,
                codes::UNKNOWN_BASE,
            ],
        ),
    ];
    for (text, expected) in cases {
        let (_, codes) = resolve(text);
        assert_eq!(&codes, expected, "{text}");
    }
}

#[test]
fn duplicate_names_label_both() {
    let mut s = Session::new();
    s.add_source("a.ck", "instance i {}\n");
    s.add_source("b.ck", "defaults x {}\ninstance i {}\n");
    let (_, diags) = s.resolve();
    insta::assert_snapshot!(diags.render(s.sources()));
}

#[test]
fn resolution_diagnostics_render() {
    let text = "defaults base { blok = 64; }\n\
        instance i : base, missing {\n    dtype = fp61;\n    tile = cdna;\n    block = 1;\n    block = 2;\n}\n\
        family f {\n    over dims = [2];\n    rows (dims, block) {\n        r = (2);\n    }\n}\n";
    let mut s = Session::new();
    s.add_source("test.ck", text);
    let (_, diags) = s.resolve();
    insta::assert_snapshot!(diags.render(s.sources()));
}

#[test]
fn ten_thousand_instances_resolve_quickly() {
    let values = |n: usize| (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
    let rows: String = (0..100)
        .map(|i| format!("r{i} = ({i}, [1, 2, 3], [4, 8, 1]);\n"))
        .collect();
    let text = format!(
        "defaults d {{ op = bwd_weight; targets = [gfx942]; }}\n\
         family f : d {{ kind = xdl_v3; over block = [{}]; over k1 = [{}]; rows (merge_groups, tile, a.cluster) {{ {rows} }} }}",
        values(10),
        values(10)
    );
    let mut s = Session::new();
    s.add_source("big.ck", &text);
    let start = std::time::Instant::now();
    let (specs, diags) = s.resolve();
    let elapsed = start.elapsed();
    assert!(diags.is_empty());
    assert_eq!(specs.len(), 10_000);
    // Generous for unoptimized test builds; release is far below 100 ms.
    assert!(elapsed < std::time::Duration::from_secs(2), "{elapsed:?}");
}
