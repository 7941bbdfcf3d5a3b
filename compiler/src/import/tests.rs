//! Round trips of instances built field by field ([`samples`]): CK's verbatim strings come out
//! of the built instances, and every format variant's sample prints, imports and prints again
//! unchanged.

use super::import_trait;
use super::samples;
use crate::emit::traits::print;
use crate::emit::{CkFormat, CkRelease};
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

/// An instance header and file in the style of CK's library: aliases for the element types and
/// specializations, comments, a variadic `S`, rows that leave trailing parameters to their
/// defaults, and two instantiations of one list.
const LIST_HEADER: &str = r#"
#pragma once
#include "ck/ck.hpp"
namespace ck { namespace tensor_operation { namespace device { namespace instance {
using F16 = ck::half_t;
using F32 = float;
template <ck::index_t... Is>
using S = ck::Sequence<Is...>;
using Empty_Tuple = ck::Tuple<>;
using namespace ck::tensor_layout::convolution;
using PassThrough = ck::tensor_operation::element_wise::PassThrough;
static constexpr auto ConvFwdDefault =
    ck::tensor_operation::device::ConvolutionForwardSpecialization::Default;
static constexpr auto ConvFwd1x1S1P0 = ConvolutionForwardSpecialization::Filter1x1Stride1Pad0;
static constexpr auto GemmMNKPadding = GemmSpecialization::MNKPadding;
template <index_t NDimSpatial, typename ALayout, typename BLayout, typename DsLayout,
          typename ELayout, ConvolutionForwardSpecialization ConvSpec>
using fwd_f16_instances = std::tuple<
    // clang-format off
    //####| a table of column names, as CK's lists have |
    DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle<NDimSpatial,ALayout,BLayout,DsLayout,ELayout, F16, F16, F32, F16, DsLayout, F16, PassThrough, PassThrough, PassThrough, ConvSpec, GemmMNKPadding, 1, 256, 256, 128, 32, 8, 8, 32, 32, 4, 2, S<4, 64, 1>, S<1, 0, 2>, S<1, 0, 2>, 2, 8, 8, 1, S<4, 64, 1>, S<1, 0, 2>, S<1, 0, 2>, 2, 8, 8, 1, 1, 1, S<1, 32, 1, 8>, 8>,
    /* the generic row */
    DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle<NDimSpatial,ALayout,BLayout,DsLayout,ELayout, F16, F16, F32, F16, DsLayout, F16, PassThrough, PassThrough, PassThrough, ConvSpec, GemmMNKPadding, 1, 64, 64, 64, 32, 8, 8, 32, 32, 2, 2, S<4, 16, 1>, S<1, 0, 2>, S<1, 0, 2>, 2, 1, 8, 1, S<4, 16, 1>, S<1, 0, 2>, S<1, 0, 2>, 2, 1, 8, 1, 1, 1, S<1, 16, 1, 4>, 1>
    // clang-format on
    >;
}}}}
"#;

const LIST_FILE: &str = r#"
#include "ck/library/tensor_operation_instance/add_device_operation_instance.hpp"
#include "lists/fwd_f16.hpp"
namespace ck { namespace tensor_operation { namespace device { namespace instance {
void add_fwd_f16_instances(std::vector<std::unique_ptr<Base>>& instances)
{
    add_device_operation_instances(instances,
        fwd_f16_instances<2, NHWGC, GKYXC, Empty_Tuple, NHWGK, ConvFwdDefault>{});
    add_device_operation_instances(instances,
        fwd_f16_instances<2, NHWGC, GKYXC, Empty_Tuple, NHWGK, ConvFwd1x1S1P0>{});
}
}}}}
"#;

fn header_only(path: &str) -> Option<String> {
    (path == "lists/fwd_f16.hpp").then(|| LIST_HEADER.to_string())
}

#[test]
fn cpp_lists_import_as_the_strings_ck_prints_for_their_rows() {
    let rows =
        super::import_cpp("fwd.cpp", LIST_FILE, &mut header_only, CkRelease::Current).unwrap();
    assert_eq!(rows.len(), 4);
    let text = |i: usize| rows[i].result.as_ref().unwrap().text.clone();
    // The defaults CK's template fills in: compute types of A's type, the default loop
    // scheduler, no merged groups; the instance string spells AddExtraM/N as booleans.
    assert_eq!(
        text(0),
        "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle<2,NHWGC,GKYXC,EmptyTuple,NHWGK,fp16,fp16,\
         fp32,fp16,EmptyTuple,fp16,PassThrough,PassThrough,PassThrough,Default,MNKPadding,1,256,\
         256,128,32,8,8,32,32,4,2,Seq(4,64,1),Seq(1,0,2),Seq(1,0,2),2,8,8,true,Seq(4,64,1),\
         Seq(1,0,2),Seq(1,0,2),2,8,8,true,1,1,Seq(1,32,1,8),8,fp16,fp16,Default,1>"
    );
    assert!(text(3).contains(",Filter1x1Stride1Pad0,MNKPadding,1,64,64,64,32,"));
    // Rows are found at their lines in the header, under the list that holds them.
    assert_eq!(
        (rows[1].file.as_str(), rows[1].line, rows[1].list.as_str()),
        ("lists/fwd_f16.hpp", 23, "fwd_f16_instances")
    );
    // The strings read as `import trait` reads them.
    for r in &rows {
        let i = r.result.as_ref().unwrap();
        assert_eq!(&import_trait(&i.text).unwrap(), i);
    }
}

/// A backward-data WMMA row passes its C-shuffle type, which the string leaves out, and its
/// prefetch count before the loop scheduler, which the string prints first; a row that stops
/// after the prefetch count leaves the rest to CK's defaults.
#[test]
fn bwd_data_wmma_rows_import_in_the_string_order() {
    let head = "DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffle<2, NHWGK, GKYXC, Empty_Tuple, \
        NHWGC, F16, F16, F32, F16, Empty_Tuple, F16, PassThrough, PassThrough, PassThrough, \
        ConvBwdDataDefault, 128, 64, 64, 4, 8, 16, 16, 2, 2, S<4, 32, 1>, S<1, 0, 2>, \
        S<1, 0, 2>, 2, 8, 8, 1, S<4, 32, 1>, S<0, 2, 1>, S<0, 2, 1>, 1, 2, 8, 1, 1, 1, \
        S<1, 32, 1, 4>, 8";
    let header = format!(
        "using F16 = ck::half_t;\nusing F32 = float;\nusing Empty_Tuple = ck::Tuple<>;\n\
         static constexpr auto ConvBwdDataDefault = ConvolutionBackwardDataSpecialization::Default;\n\
         template <int N> using l = std::tuple<{head}, 2, LoopScheduler::Interwave, \
         PipelineVersion::v1>, {head}, 2>>;"
    );
    let call = "#include \"h.hpp\"\nvoid f() { add_device_operation_instances(v, l<2>{}); }";
    let rows = super::import_cpp(
        "f.cpp",
        call,
        &mut |p: &str| (p == "h.hpp").then(|| header.clone()),
        CkRelease::Oct2024,
    )
    .unwrap();
    let text = |i: usize| rows[i].result.as_ref().unwrap().text.clone();
    let fields = "DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffle<2,NHWGK,GKYXC,EmptyTuple,NHWGC,\
        fp16,fp16,fp32,EmptyTuple,fp16,PassThrough,PassThrough,PassThrough,Default,128,64,64,4,8,\
        16,16,2,2,Seq(4,32,1),Seq(1,0,2),Seq(1,0,2),2,8,8,true,Seq(4,32,1),Seq(0,2,1),Seq(0,2,1),\
        1,2,8,true,1,1,Seq(1,32,1,4),8";
    assert_eq!(text(0), format!("{fields},Interwave,2,v1>"));
    assert_eq!(text(1), format!("{fields},Default,2,v1>"));
}

#[test]
fn cpp_lists_report_what_they_cannot_read() {
    use super::{CppError, RowError};
    let import = |main: &str, header: &str| {
        let header = header.to_string();
        super::import_cpp(
            "f.cpp",
            main,
            &mut |p: &str| (p == "h.hpp").then(|| header.clone()),
            CkRelease::Current,
        )
    };
    let call = "#include \"h.hpp\"\nvoid f() { add_device_operation_instances(v, l<2>{}); }";
    // No instantiation, a list the files do not define, the wrong number of arguments.
    assert_eq!(import("int x;", ""), Err(CppError::NoInstances));
    assert_eq!(
        import(call, ""),
        Err(CppError::UnknownList("l".to_string()))
    );
    let two = "template <int A, int B> using l = std::tuple<Op<A, B>>;";
    assert!(matches!(
        import(call, two),
        Err(CppError::Arity {
            expected: 2,
            given: 1,
            ..
        })
    ));
    // A row of an op CK's strings do not name, one whose argument cannot be a field, and an
    // alias cycle: row errors, in bounded time.
    let row = |h: &str| import(call, h).unwrap().remove(0).result.unwrap_err();
    let unknown = "template <int N> using l = std::tuple<NotAnOp<N>>;";
    assert_eq!(row(unknown), RowError::UnknownOp("NotAnOp".to_string()));
    let odd_type = LIST_HEADER.replacen("F16, F16, F32", "Unknown_t, F16, F32", 1);
    let main = LIST_FILE.replace("lists/fwd_f16.hpp", "h.hpp");
    let rows = import(&main, &odd_type).unwrap();
    assert!(matches!(
        &rows[0].result,
        Err(RowError::Field { field: "ADataType", text }) if text == "Unknown_t"
    ));
    assert!(rows[1].result.is_ok());
    let cycle = "using A = B;\nusing B = A;\ntemplate <int N> using l = std::tuple<Op<A>>;";
    assert!(matches!(row(cycle), RowError::TooDeep(_)));
    // An unterminated list is a syntax error at its line.
    let broken = "\n\ntemplate <int N> using l = std::tuple<Op<N>, ;";
    assert!(matches!(
        import(call, broken),
        Err(CppError::Syntax { line: 3, .. })
    ));
    // Includes are bounded: a file that includes itself is read once.
    let looping = "#include \"h.hpp\"\ntemplate <int N> using l = std::tuple<>;";
    assert_eq!(import(call, looping).unwrap(), Vec::new());
}

#[test]
fn a_list_imports_as_one_family_with_its_instantiations_as_axes() {
    let rows =
        super::import_cpp("fwd.cpp", LIST_FILE, &mut header_only, CkRelease::Current).unwrap();
    let members: Vec<super::Member> = rows
        .iter()
        .map(|r| super::Member {
            imported: r.result.as_ref().unwrap(),
            origin: format!("{}:{}", r.file, r.line),
        })
        .collect();
    let source = super::family_source("fwd_f16", "The list.", &members).unwrap();
    // Two rows under two ConvSpecs: one axis, a table of the keys the rows differ in.
    assert!(
        source.contains("    over spec = [default, filter1x1_stride1_pad0];\n"),
        "{source}"
    );
    assert!(source.contains("rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector)"), "{source}");
    assert!(
        source.contains("/// lists/fwd_f16.hpp:23\n        r1 = (64, [64, 64, 32]"),
        "{source}"
    );
    assert_eq!(source.matches(" = (").count(), 2);
    // Members of two ops cannot share one family.
    let other = import_trait(&samples_string(CkFormat::BwdWeightXdl)).unwrap();
    let mixed = [
        super::Member {
            imported: &other,
            origin: String::new(),
        },
        super::Member {
            imported: members[0].imported,
            origin: String::new(),
        },
    ];
    assert_eq!(super::family_source("mixed", "", &mixed), None);
}

fn samples_string(format: CkFormat) -> String {
    print(&samples::sample(format), format)
}
