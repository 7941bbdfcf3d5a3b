//! Round trips of instances built field by field ([`samples`]): CK's verbatim strings come out
//! of the built instances, and every format variant's sample prints, imports and prints again
//! unchanged.

use super::import_trait;
use super::samples;
use crate::emit::CkFormat;
use crate::emit::traits::print;
use crate::ir::Instance;

const VERBATIM: &str = include_str!("../../tests/verbatim.txt");

fn verbatim() -> Vec<&'static str> {
    VERBATIM
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect()
}

/// The instance string of a built instance in the variant validation would resolve.
fn instance_string(inst: &Instance) -> String {
    let format = crate::validate::format::format_for(inst).unwrap();
    print(inst, format)
}

#[test]
fn verbatim_strings_come_out_of_built_instances() {
    let built = [
        samples::v1_256(),
        samples::tile_builder_test(),
        samples::v1_generic(),
        samples::v3_conf(),
        samples::two_stage_conf(),
        samples::tile_streamk_conf(),
    ];
    let expected = verbatim();
    assert_eq!(built.len(), expected.len());
    for (inst, want) in built.iter().zip(expected) {
        assert_eq!(instance_string(inst), want, "{}", inst.name);
    }
}

#[test]
fn verbatim_strings_round_trip_through_the_importer() {
    for s in verbatim() {
        let imported = import_trait(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(print(&imported.instance, imported.format), s);
        assert_eq!(instance_string(&imported.instance), s);
    }
}

#[test]
fn imported_verbatim_strings_equal_the_built_instances_where_printed() {
    let imported = import_trait(verbatim()[3]).unwrap();
    let built = samples::v3_conf();
    let i = &imported.instance;
    assert_eq!(imported.format, CkFormat::BwdWeightXdlV3Fields45);
    assert_eq!(
        (i.tile, i.k1, i.mma, i.repeat, i.waves),
        (built.tile, built.k1, built.mma, built.repeat, built.waves)
    );
    assert_eq!((&i.a, &i.b, &i.c), (&built.a, &built.b, &built.c));
    assert_eq!(i.pipeline, built.pipeline);
    assert_eq!(i.ck_format, None);
}

#[test]
fn every_variant_round_trips() {
    for &format in CkFormat::ALL {
        let s = print(&samples::sample(format), format);
        let imported = import_trait(&s).unwrap_or_else(|e| panic!("{format:?}: {s}: {e}"));
        assert_eq!(imported.format, format, "{s}");
        assert_eq!(print(&imported.instance, format), s, "{format:?}");
        assert_eq!(instance_string(&imported.instance), s, "{format:?}");
        // Samples fill every IR field, so some use features their own variant cannot print.
        let sample = samples::sample(format);
        if crate::validate::unprintable(&sample, format).is_none() {
            assert_eq!(instance_string(&sample), s, "{format:?}");
        }
    }
}

#[test]
fn tile_layouts_are_told_apart_by_position() {
    use CkFormat::*;
    for format in [
        TileBwdWeightA,
        TileBwdWeightB,
        TileBwdWeightC,
        TileBwdWeightD,
    ] {
        let mut inst = samples::sample(format);
        // Non-StreamK lines of B, C and D have the counts of A (31) and of B/D (32).
        inst.work.streamk = None;
        let s = print(&inst, format);
        assert_eq!(import_trait(&s).unwrap().format, format, "{s}");
    }
}

#[test]
fn boolean_spellings_are_kept() {
    let s = print(
        &samples::sample(CkFormat::FwdXdlZeroOne),
        CkFormat::FwdXdlZeroOne,
    );
    assert!(s.contains(",1,Seq(4,64,1)"), "{s}");
    assert_eq!(import_trait(&s).unwrap().format, CkFormat::FwdXdlZeroOne);
    let t = print(&samples::sample(CkFormat::FwdXdl), CkFormat::FwdXdl);
    assert!(t.contains(",true,Seq(4,64,1)"), "{t}");
}
