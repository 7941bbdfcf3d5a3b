//! Snapshots of every emitter over the whole instance library (`instances/`): instance strings,
//! CK C++ files (one snapshot per file), dispatcher names, the manifest and the CMake project.

use ck_compiler::emit::{
    cmake::cmake_project, dispatcher_name, emit_ck, instance_string, manifest_json,
};
use ck_compiler::ir::Validated;
use ck_compiler::load::Session;
use std::collections::BTreeSet;
use std::path::Path;

/// The library, compiled from paths relative to the workspace root so output never names the
/// checkout's location.
fn library() -> Validated {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    // Every test here sets the same folder, so running them in parallel is fine.
    std::env::set_current_dir(root).expect("the workspace root exists");
    let mut session = Session::new();
    session.add_path(Path::new("instances"));
    ck_compiler::compile(&session).unwrap_or_else(|d| {
        panic!(
            "the library does not compile:\n{}",
            d.render(session.sources())
        )
    })
}

#[test]
fn instance_strings() {
    let lines: Vec<String> = library()
        .instances()
        .iter()
        .map(|i| format!("{}\n  {}", i.name, instance_string(i).expect("printable")))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
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

#[test]
fn ck_cpp_files() {
    let files = emit_ck(&library()).expect("CK C++");
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    insta::assert_snapshot!("ck_cpp_paths", paths.join("\n"));
    let mut names = BTreeSet::new();
    for f in &files {
        // The file name with its folder: unique in the library, short enough for a file name.
        let parts: Vec<&str> = f.path.rsplit('/').take(2).collect();
        let dir = parts.get(1).copied().unwrap_or("root");
        let name = format!("ck_cpp__{dir}__{}", parts[0]).replace('.', "_");
        assert!(names.insert(name.clone()), "two files snapshot as {name}");
        insta::assert_snapshot!(name, f.contents);
    }
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
