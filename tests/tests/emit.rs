//! Snapshots of every emitter over the whole instance library (`instances/`): instance strings,
//! dispatcher names, the manifest, the CMake project, and the CK C++ files: every file by path
//! and content digest, and the whole text of one file of each kind.

use ck_compiler::emit::hip::cover::{code_paths, covering};
use ck_compiler::emit::hip::{fnv1a, kernel_text};
use ck_compiler::emit::{
    CkRelease, cmake::cmake_project, dispatcher_name, emit_ck, emit_ck_for, instance_string,
    manifest_json,
};
use ck_compiler::import::{RowError, import_cpp};
use ck_compiler::ir::Validated;
use ck_compiler::kernel::KernelConfig;
use ck_compiler::load::Session;
use ck_compiler::model::{Kind, Layout};
use std::collections::BTreeSet;
use std::path::Path;

/// The library, compiled from paths relative to the workspace root so output never names the
/// checkout's location.
fn library() -> Validated {
    compiled("instances")
}

/// The `.ck` files under `folder` of the workspace, compiled from the workspace root.
fn compiled(folder: &str) -> Validated {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    // Every test here sets the same folder, so running them in parallel is fine.
    std::env::set_current_dir(root).expect("the workspace root exists");
    let mut session = Session::new();
    session.add_path(Path::new(folder));
    ck_compiler::compile(&session).unwrap_or_else(|d| {
        panic!(
            "{folder} does not compile:\n{}",
            d.render(session.sources())
        )
    })
}

#[test]
fn instance_strings() {
    let lines: Vec<String> = library()
        .instances()
        .iter()
        .map(|i| format!("{}\n  {}", i.name, instance_string(i)))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}

/// The instance strings `import cpp` reads from every instance file of `set`'s CK C++ for each
/// release, against the strings of `set`'s instances that have such rows: every non-CK-Tile
/// instance (CK-Tile's are kernel sources) but the explicit GEMM's (a nested GEMM op a row),
/// less what a release leaves out.
fn cpp_read_back(set: &Validated) -> Vec<(CkRelease, BTreeSet<String>, BTreeSet<String>)> {
    let mut out = Vec::new();
    for release in CkRelease::ALL {
        let emitted = emit_ck_for(set, release).expect("emits");
        let files: std::collections::BTreeMap<&str, &str> = emitted
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.contents.as_str()))
            .collect();
        let mut imported = BTreeSet::new();
        for (path, text) in files.iter().filter(|(p, _)| p.ends_with("_instance.cpp")) {
            let mut include = |p: &str| {
                files
                    .get(format!("library/include/{p}").as_str())
                    .map(|t| t.to_string())
            };
            let rows = import_cpp(path, text, &mut include, release).expect("the file reads");
            for row in rows {
                match row.result {
                    Ok(i) => imported.insert(i.text),
                    Err(RowError::ExplicitGemm(_)) => continue,
                    Err(e) => panic!("{path}:{}: {e}", row.line),
                };
            }
        }
        let left_out: BTreeSet<&str> = emitted.left_out.iter().map(|(n, _)| n.as_str()).collect();
        let expected: BTreeSet<String> = set
            .instances()
            .iter()
            .filter(|i| !matches!(i.kind, Kind::Tile | Kind::ExplicitGemm))
            .filter(|i| !left_out.contains(i.name.as_str()))
            .map(instance_string)
            .collect();
        assert!(!expected.is_empty());
        out.push((release, imported, expected));
    }
    out
}

/// The CK C++ of the library reads back to the library's instances, and only those. (An alias
/// instantiated once a pipeline held rows of two pipelines, which made instances the library
/// does not have.)
#[test]
fn ck_cpp_imports_back_to_the_library() {
    for (release, imported, expected) in cpp_read_back(&library()) {
        assert_eq!(imported, expected, "{release:?}");
    }
}

/// `ck-port/`, CK's own instance lists as `scripts/ck-port.sh` imported them, compiles to the
/// instances its `SOURCE` counts, emits C++ for either release with none left out, and that C++
/// reads back to the same instances. The C++ for the tree it came from is snapshotted, a line a
/// file (its digest and path), so that any change to the port or its emitter shows.
#[test]
fn the_ck_port_compiles_and_its_cpp_reads_back() {
    let set = compiled("ck-port");
    let source = std::fs::read_to_string("ck-port/SOURCE").expect("ck-port/SOURCE");
    let count = format!("({} instances)", set.instances().len());
    assert!(source.contains(&count), "{source} against {count}");
    for (release, imported, expected) in cpp_read_back(&set) {
        assert_eq!(
            expected.len(),
            set.instances().len(),
            "{release:?} left some out"
        );
        assert_eq!(imported, expected, "{release:?}");
    }
    let files = emit_ck_for(&set, CkRelease::Oct2024).expect("CK C++");
    let listing: Vec<String> = files
        .files
        .iter()
        .map(|f| format!("{:016x} {}", fnv1a(&f.contents), f.path))
        .collect();
    insta::assert_snapshot!("ck_port_cpp_files", listing.join("\n"));
}

#[test]
fn dispatcher_names() {
    let lines: Vec<String> = library()
        .instances()
        .iter()
        .map(|i| format!("{} {}", i.name, dispatcher_name(i).unwrap_or_default()))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn manifest() {
    insta::assert_snapshot!(manifest_json(&library()).expect("manifest"));
}

/// What kind of CK C++ file `path` is: its folder with the rank and the layout folder left
/// out, its extension, and the words of its name that name no size, type or layout (the
/// device op, the pipeline options, the family).
fn file_kind(path: &str) -> String {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let layout = |w: &str| Layout::from_keyword(w).is_some();
    let dir: Vec<String> = dir
        .split('/')
        .map(|part| {
            if part.split('_').all(layout) {
                "LAYOUT".to_string()
            } else {
                ["1d", "2d", "3d"]
                    .iter()
                    .fold(part.to_string(), |p, r| p.replace(r, "Nd"))
            }
        })
        .collect();
    let words: Vec<&str> = stem
        .split('_')
        .filter(|w| !w.bytes().any(|b| b.is_ascii_digit()) && !layout(w))
        .collect();
    format!("{} {ext} {}", dir.join("/"), words.join("_"))
}

#[test]
fn ck_cpp_files() {
    let files = emit_ck(&library()).expect("CK C++");
    // Every file: a change anywhere in the library's output shows as its line.
    let listing: Vec<String> = files
        .iter()
        .map(|f| format!("{:016x} {}", fnv1a(&f.contents), f.path))
        .collect();
    insta::assert_snapshot!("ck_cpp_files", listing.join("\n"));
    // The whole text of the first file of each kind.
    let mut kinds = BTreeSet::new();
    let mut names = BTreeSet::new();
    for f in files.iter().filter(|f| kinds.insert(file_kind(&f.path))) {
        // The file name with its folder: unique in the library, short enough for a file name.
        let parts: Vec<&str> = f.path.rsplit('/').take(2).collect();
        let dir = parts.get(1).copied().unwrap_or("root");
        let name = format!("ck_cpp__{dir}__{}", parts[0]).replace('.', "_");
        assert!(names.insert(name.clone()), "two files snapshot as {name}");
        insta::assert_snapshot!(name, f.contents);
    }
    assert!(kinds.len() >= 40, "{} kinds of file", kinds.len());
}

/// `emit_ck` writes the top-level project among its files; it is the CMake emitter's output.
#[test]
fn cmake_project_is_the_root_list_of_the_ck_files() {
    let set = library();
    let files = emit_ck(&set).expect("CK C++");
    let project = cmake_project(&set, &files);
    let root = files
        .iter()
        .find(|f| f.path == "CMakeLists.txt")
        .expect("root CMakeLists.txt");
    assert_eq!(root, &project);
    assert!(project.contents.contains("add_subdirectory("));
}

/// The CK C++ rows of a fixture of `tests/fixtures/formats` for `release`: each row of the
/// device-op tuple, one string.
fn rows_for(fixture: &str, op: &str, release: CkRelease) -> Vec<String> {
    lines_for(fixture, &format!("{op}<"), release)
}

/// The lines of `fixture`'s CK C++ for `release` that hold `needle`.
fn lines_for(fixture: &str, needle: &str, release: CkRelease) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    std::env::set_current_dir(root).expect("the workspace root exists");
    let mut session = Session::new();
    session.add_path(&Path::new("tests/fixtures/formats").join(fixture));
    let set = ck_compiler::compile(&session).expect("the fixture compiles");
    let out = emit_ck_for(&set, release).expect("emits");
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    out.files
        .iter()
        .flat_map(|f| f.contents.lines())
        .filter(|l| l.contains(needle))
        .map(str::to_string)
        .collect()
}

/// Template arguments of a row, split at the top level.
fn args(row: &str) -> Vec<String> {
    let inner = &row[row.find('<').unwrap() + 1..row.rfind('>').unwrap()];
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for ch in inner.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur.trim().to_string());
    out
}

/// Backward-data WMMA rows take the template's arguments in its order in either release (45):
/// the C-shuffle type after the accumulator type, and the prefetch count before the loop
/// scheduler, which the instance string prints first.
#[test]
fn bwd_data_wmma_rows_follow_the_template_order() {
    for release in CkRelease::ALL {
        let types_and_pipeline: Vec<String> = ["bwd_data_wmma.ck", "bwd_data_wmma_i8.ck"]
            .iter()
            .flat_map(|f| {
                rows_for(
                    f,
                    "DeviceGroupedConvBwdDataMultipleD_Wmma_CShuffle",
                    release,
                )
            })
            .map(|row| {
                let a = args(&row);
                assert_eq!(a.len(), 45, "{release:?}: {row}");
                format!("{} | {}", a[5..11].join(", "), a[42..].join(", "))
            })
            .collect();
        assert_eq!(
            types_and_pipeline,
            [
                "F16, F16, F32, F16, Empty_Tuple, F16 | 1, LoopScheduler::Default, PipelineVersion::v1",
                "I8, I8, I32, I8, Empty_Tuple, I8 | 2, LoopScheduler::Interwave, PipelineVersion::v1",
            ],
            "{release:?}"
        );
    }
}

/// The instance header declares `TF32` only for CK releases that have `ck::tf32_t`.
#[test]
fn the_preamble_declares_tf32_where_ck_has_it() {
    for release in CkRelease::ALL {
        let tf32 = lines_for("bwd_data_xdl.ck", "using TF32", release);
        let want: &[&str] = match release {
            CkRelease::Oct2024 => &[],
            CkRelease::Current => &["using TF32 = ck::tf32_t;"],
        };
        assert_eq!(tf32, want, "{release:?}");
    }
}

/// Backward-data XDL rows carry the template's C-shuffle type (the instance string has none)
/// after the accumulator type, as CK's own rows do (`F16, F16, F32, F16, Empty_Tuple, F16`);
/// for CK's October 2024 tree they end before the transpose vectors (49 arguments).
#[test]
fn ck_cpp_rows_have_each_release_template_arguments() {
    let op = "DeviceGroupedConvBwdDataMultipleD_Xdl_CShuffle_v1";
    for release in CkRelease::ALL {
        let rows = rows_for("bwd_data_xdl.ck", op, release);
        assert!(!rows.is_empty());
        for row in &rows {
            let a = args(row);
            assert_eq!(
                a[5..11],
                ["F16", "F16", "F32", "F16", "Empty_Tuple", "F16"],
                "{row}"
            );
            let want = if release == CkRelease::Oct2024 {
                49
            } else {
                51
            };
            assert_eq!(a.len(), want, "{release:?}: {row}");
        }
    }
}

/// CK's fused forward ops in C++ (`tests/fixtures/pass/fwd_xdl_fused.ck`): the combined ops'
/// header and an alias of each fused op the header uses, tuple types of several input and
/// weight tensors, `G_K` among the D layouts, and the tuples in the `add_` functions' base
/// class; the whole header and one source, for the October 2024 tree.
#[test]
fn fused_ops_cpp() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    std::env::set_current_dir(root).expect("the workspace root exists");
    let mut session = Session::new();
    session.add_path(Path::new("tests/fixtures/pass/fwd_xdl_fused.ck"));
    let set = ck_compiler::compile(&session).expect("the fixture compiles");
    let out = emit_ck_for(&set, CkRelease::Oct2024).expect("emits");
    assert!(out.left_out.is_empty(), "{:?}", out.left_out);
    let header = out
        .files
        .iter()
        .find(|f| f.path.ends_with("device_grouped_conv_fwd_xdl_instance.hpp"))
        .expect("the forward XDL header");
    insta::assert_snapshot!("fused_ops_header", header.contents);
    let source = out
        .files
        .iter()
        .find(|f| f.path.ends_with(".cpp") && f.path.contains("scale_add_sources"))
        .expect("the sources' .cpp");
    insta::assert_snapshot!("fused_ops_sources_cpp", source.contents);
}

/// The kernels `ckc emit hip --cover` keeps (CI compiles them on every run) take every code path
/// of the library's and `ck-port/`'s portable kernels, in a small fraction of them.
#[test]
fn the_compile_cover_takes_every_code_path() {
    let mut texts = std::collections::BTreeMap::new();
    for set in [library(), compiled("ck-port")] {
        for inst in set.instances() {
            if let Ok(config) = KernelConfig::new(inst) {
                let k = kernel_text(&config);
                texts.entry(k.symbol_base).or_insert(k.text);
            }
        }
    }
    let cover = covering(texts.iter().map(|(k, t)| (k.as_str(), t.as_str())));
    let all: BTreeSet<String> = texts.values().flat_map(|t| code_paths(t)).collect();
    let taken: BTreeSet<String> = cover.iter().flat_map(|k| code_paths(&texts[*k])).collect();
    assert_eq!(taken, all);
    assert!(
        cover.len() * 20 < texts.len(),
        "{} of {} kernels",
        cover.len(),
        texts.len()
    );
    // Every kind of path is there: operations, math paths, types, entries.
    for kind in [
        "CK_OP = CK_BWD_WEIGHT",
        "path CK_TMA_TILE",
        "OT = float",
        "AT = ck_i8",
        "AT = ck_f8",
        "BT = ck_bf8",
        "entry persistent of CK_FWD",
    ] {
        assert!(all.contains(kind), "{kind}");
    }
}
