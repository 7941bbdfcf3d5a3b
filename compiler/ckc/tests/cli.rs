//! The `ckc` binary: exit codes (0 ok, 1 rejected input, 2 usage), `-` for standard input,
//! `--out`, JSON output, and instance strings through `emit traits` and `import trait`.

use ck_compiler::emit::CkFormat;
use ck_compiler::import::import_trait;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `ckc args` in the workspace root with `stdin` as standard input.
fn ckc(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ckc"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ckc starts");
    let mut pipe = child.stdin.take().expect("stdin");
    // ckc may exit before reading (usage errors); a closed pipe is fine then.
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    let out = child.wait_with_output().expect("ckc ends");
    let run = Run {
        code: out.status.code().expect("exit code, not a signal"),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "ckc {args:?} panicked:\n{}",
        run.stderr
    );
    run
}

fn ok(args: &[&str], stdin: &str) -> String {
    let run = ckc(args, stdin);
    assert_eq!(run.code, 0, "ckc {args:?}:\n{}", run.stderr);
    run.stdout
}

/// `(fixture path relative to the root, expected output)` for each `.ck` with an `.expected`.
fn expected_fixtures(dir: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(root().join(dir))
        .expect("fixture folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ck"))
        .map(|p| {
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            let expected = std::fs::read_to_string(p.with_extension("expected")).expect("expected");
            (format!("{dir}/{name}"), expected)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no fixtures in {dir}");
    out
}

fn all_expected() -> Vec<(String, String)> {
    let mut all = expected_fixtures("tests/fixtures/traits");
    all.extend(expected_fixtures("tests/fixtures/formats"));
    all
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ckc-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn emit_traits_prints_the_expected_strings() {
    for (path, expected) in all_expected() {
        assert_eq!(ok(&["emit", "traits", &path], ""), expected, "{path}");
    }
}

#[test]
fn import_then_emit_gives_the_string_back() {
    for (_, expected) in all_expected() {
        let s = expected.trim_end();
        let source = ok(&["import", "trait", s], "");
        assert_eq!(ok(&["emit", "traits", "-"], &source), expected, "{s}");
    }
}

/// Every instance of the library and the fixtures, imported alone and printed in every variant
/// name; the strings printed cover every variant and come back unchanged as one list through
/// `import trait -`.
#[test]
fn every_variant_round_trips_as_a_list() {
    let mut strings = ok(&["emit", "traits", "instances"], "");
    for (_, expected) in all_expected() {
        strings.push_str(&expected);
    }
    let mut names: Vec<&str> = CkFormat::ALL.iter().map(|f| f.variant_name()).collect();
    names.sort_unstable();
    names.dedup();
    // Through the binary, one string of each op, kind and variant: `tests/traits.rs` takes every
    // library instance through every variant in process.
    let mut classes = BTreeSet::new();
    let mut lines: Vec<String> = Vec::new();
    for s in strings.lines() {
        let i = import_trait(s).expect("importable");
        if !classes.insert(format!(
            "{:?} {:?} {:?}",
            i.instance.op, i.instance.kind, i.format
        )) {
            continue;
        }
        let source = ok(&["import", "trait", s], "");
        for name in &names {
            let run = ckc(&["emit", "traits", "--ck-format", name, "-"], &source);
            // A name applies to some kinds only, and a variant may lack a feature the instance
            // uses; for the others the reason is given.
            if run.code == 0 {
                lines.push(run.stdout.trim_end().to_string());
            } else {
                assert_eq!(run.code, 1, "{}", run.stderr);
                assert!(
                    run.stderr.contains("unknown ck_format") || run.stderr.contains("cannot print"),
                    "{}",
                    run.stderr
                );
                assert!(run.stdout.is_empty());
            }
        }
    }
    let mut covered = BTreeSet::new();
    for l in &lines {
        covered.insert(import_trait(l).expect("importable").format);
    }
    assert_eq!(covered.len(), CkFormat::ALL.len(), "{covered:?}");
    let mut unique: Vec<&str> = Vec::new();
    for l in &lines {
        if !unique.contains(&l.as_str()) {
            unique.push(l);
        }
    }
    let list = format!("# every variant\n\n{}\n", lines.join("\n"));
    let source = ok(&["import", "trait", "-"], &list);
    assert_eq!(
        ok(&["emit", "traits", "-"], &source),
        unique.join("\n") + "\n"
    );
}

#[test]
fn ck_format_prints_each_instance_in_the_variant() {
    let path = "tests/fixtures/traits/bwd_weight_xdl_v3_conf.ck";
    let fields = |s: &str| s.len();
    let v43 = ok(&["emit", "traits", "--ck-format", "43", path], "");
    let v45 = ok(&["emit", "traits", path], "");
    let v46 = ok(&["emit", "traits", "--ck-format", "46", path], "");
    assert_eq!(v45, ok(&["emit", "traits", "--ck-format", "45", path], ""));
    // Each later form adds fields at the end.
    assert!(fields(&v46) > fields(&v45) && fields(&v45) > fields(&v43));
    let bad = ckc(&["emit", "traits", "--ck-format", "nope", path], "");
    assert_eq!(bad.code, 1);
    assert!(bad.stdout.is_empty());
    assert!(
        bad.stderr.contains("unknown ck_format \"nope\"") && bad.stderr.contains("\"45\""),
        "{}",
        bad.stderr
    );
}

#[test]
fn malformed_import_strings_name_the_field() {
    let good = std::fs::read_to_string(
        root().join("tests/fixtures/traits/bwd_weight_xdl_v1_256.expected"),
    )
    .expect("fixture")
    .trim_end()
    .to_string();
    let cases = [
        (good.replacen(",256,", ",-256,", 1), "field 13 (BlockSize)"),
        (good.replacen(",1,1>", ",1>", 1), "fields, found"),
        ("Foo<1,2>".to_string(), "unknown op name `Foo`"),
        ("no brackets".to_string(), "malformed instance string"),
        (String::new(), "empty instance string"),
    ];
    for (s, want) in &cases {
        let run = ckc(&["import", "trait", s], "");
        assert_eq!(run.code, 1, "{s}");
        assert!(run.stdout.is_empty());
        assert!(run.stderr.contains(want), "{s}: {}", run.stderr);
    }
    // In a list, each bad line is reported with its line number and nothing is printed.
    let list = format!("# list\n{good}\n\n{}\nFoo<1>\n", cases[0].0);
    let run = ckc(&["import", "trait", "-"], &list);
    assert_eq!(run.code, 1);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("<stdin>:4: field 13 (BlockSize)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("<stdin>:5: unknown op name"));
    let empty = ckc(&["import", "trait", "-"], "# nothing\n\n");
    assert_eq!(empty.code, 1);
    assert!(empty.stderr.contains("no instance strings"));
}

#[test]
fn repeated_import_lines_are_left_out_with_a_warning() {
    let s = all_expected()[0].1.clone();
    let run = ckc(&["import", "trait", "-"], &format!("{s}{s}"));
    assert_eq!(run.code, 0);
    assert!(run.stderr.contains("<stdin>:2: the same string as line 1"));
    assert_eq!(ok(&["emit", "traits", "-"], &run.stdout), s);
}

/// Warnings do not fail a command: `check` prints them and exits 0, JSON lists them, and the
/// commands that compile (here `list`) print them on standard error before their output.
#[test]
fn warnings_print_and_pass() {
    let fixture = "tests/fixtures/warn/CK0901_amd_kind_on_nvidia.ck";
    let run = ckc(&["check", fixture], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("warning[CK0901]"), "{}", run.stderr);
    let json = ok(&["check", "--format", "json", fixture], "");
    assert!(
        json.contains("\"CK0901\"") && json.contains("\"warning\""),
        "{json}"
    );
    let run = ckc(&["list", fixture], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("warning[CK0901]"), "{}", run.stderr);
    assert!(run.stdout.starts_with("xdl_on_hopper\t"), "{}", run.stdout);
}

#[test]
fn exit_codes() {
    let missing_key = "tests/fixtures/fail/CK0201_missing_key.ck";
    assert_eq!(ckc(&["check", "instances"], "").code, 0);
    let bad = ckc(&["--color", "never", "check", missing_key], "");
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("error[CK0201]"), "{}", bad.stderr);
    for target in ["traits", "names", "manifest", "cmake"] {
        let run = ckc(&["emit", target, missing_key], "");
        assert_eq!(run.code, 1, "emit {target}");
        assert!(run.stdout.is_empty(), "emit {target}");
        assert!(run.stderr.contains("CK0201"), "emit {target}");
    }
    for usage in [
        &["frobnicate"][..],
        &["emit"],
        &["emit", "traits"],
        &["emit", "nonsense", "instances"],
        &["emit", "ck", "instances"],
        &["import", "trait"],
        &["check", "--format", "yaml", "instances"],
    ] {
        assert_eq!(ckc(usage, "").code, 2, "{usage:?}");
    }
    // A path on the command line that does not exist is an I/O error, naming the path.
    let missing = ckc(&["emit", "traits", "no/such.ck"], "");
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("no/such.ck"), "{}", missing.stderr);
}

#[test]
fn standard_input_is_a_source() {
    let (path, expected) = &all_expected()[0];
    let text = std::fs::read_to_string(root().join(path)).expect("fixture");
    assert_eq!(ok(&["emit", "traits", "-"], &text), *expected);
    assert!(ckc(&["check", "-"], &text).stderr.contains("ok"));
    let bad = ckc(&["--color", "never", "check", "-"], "instance x { op = ; }");
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("<stdin>"), "{}", bad.stderr);
}

#[test]
fn check_json() {
    let good: serde_json::Value =
        serde_json::from_str(&ok(&["check", "--format", "json", "instances"], "")).expect("JSON");
    assert!(
        good["instances"].as_u64().is_some_and(|n| n >= 10),
        "{good}"
    );
    assert_eq!(good["diagnostics"].as_array().map(Vec::len), Some(0));
    let run = ckc(
        &[
            "check",
            "--format",
            "json",
            "tests/fixtures/fail/CK0201_missing_key.ck",
        ],
        "",
    );
    assert_eq!(run.code, 1);
    let bad: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(bad["instances"], 0);
    let codes: Vec<&str> = bad["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.contains(&"CK0201"), "{bad}");
}

#[test]
fn out_writes_what_stdout_prints() {
    let dir = temp_dir("out");
    let d = dir.to_str().expect("UTF-8 temp path");
    for (target, file) in [
        ("traits", "traits.txt"),
        ("names", "names.txt"),
        ("manifest", "manifest.json"),
        ("cmake", "CMakeLists.txt"),
    ] {
        let printed = ok(&["emit", target, "instances"], "");
        let run = ckc(&["emit", target, "--out", d, "instances"], "");
        assert_eq!(run.code, 0, "{target}: {}", run.stderr);
        assert!(run.stdout.is_empty());
        let written = std::fs::read_to_string(dir.join(file)).expect("written");
        assert_eq!(written, printed, "{target}");
    }
    let names = std::fs::read_to_string(dir.join("names.txt")).expect("names");
    let instances = ok(&["list", "instances"], "");
    assert_eq!(names.lines().count(), instances.lines().count());
    // Without paths, `list` lists the library, as `list --problem` ranks it.
    assert_eq!(ok(&["list"], ""), instances);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn emit_ck_writes_the_whole_library() {
    let dir = temp_dir("ck");
    let d = dir.to_str().expect("UTF-8 temp path");
    let run = ckc(&["emit", "ck", "--out", d, "instances"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    let explicit = dir.join(
        "library/include/ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_explicit_xdl_instance.hpp",
    );
    let text = std::fs::read_to_string(explicit).expect("explicit-GEMM header");
    assert!(text.contains("DeviceBatchedGemmMultiD_Xdl_CShuffle_V3<"));
    let root_list = std::fs::read_to_string(dir.join("CMakeLists.txt")).expect("root list");
    assert_eq!(root_list, ok(&["emit", "cmake", "instances"], ""));
    let header = dir.join(
        "library/include/ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_v3_xdl_instance.hpp",
    );
    let text = std::fs::read_to_string(header).expect("V3 header");
    assert!(text.contains("DeviceGroupedConvBwdWeight_Xdl_CShuffleV3<"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// For CK's October 2024 tree the device ops it lacks are named and left out, and the CMake
/// project follows the same release; an unknown release is a usage error.
#[test]
fn emit_ck_for_an_older_ck_release_leaves_out_what_it_lacks() {
    let dir = temp_dir("ck-2024-10");
    let d = dir.to_str().expect("UTF-8 temp path");
    let run = ckc(
        &[
            "emit",
            "ck",
            "--ck-release",
            "2024-10",
            "--out",
            d,
            "instances",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("CK 2024-10: it has no DeviceGroupedConvBwdWeight_Xdl_CShuffleV3"),
        "{}",
        run.stderr
    );
    let gpu = dir.join("library/include/ck/library/tensor_operation_instance/gpu");
    assert!(
        !gpu.join("grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_v3_xdl_instance.hpp")
            .exists()
    );
    let xdl = std::fs::read_to_string(
        gpu.join("grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp"),
    )
    .expect("XDL header");
    assert!(!xdl.contains("using TF32") && !xdl.contains("MaxTranspose"));
    let root_list = std::fs::read_to_string(dir.join("CMakeLists.txt")).expect("root list");
    assert_eq!(
        root_list,
        ok(
            &["emit", "cmake", "--ck-release", "2024-10", "instances"],
            ""
        )
    );
    let bad = ckc(
        &[
            "emit",
            "ck",
            "--ck-release",
            "2023",
            "--out",
            d,
            "instances",
        ],
        "",
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("one of 2024-10, current"),
        "{}",
        bad.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn emit_hip_writes_each_distinct_kernel_once() {
    let dir = temp_dir("hip");
    let d = dir.to_str().expect("UTF-8 temp path");
    let run = ckc(&["emit", "hip", "--out", d, "instances"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let index = std::fs::read_to_string(dir.join("kernels.txt")).expect("index");
    let instances = ok(&["list", "instances"], "").lines().count();
    assert_eq!(index.lines().count(), instances);
    let mut symbols = BTreeSet::new();
    for line in index.lines() {
        let (name, symbol) = line.split_once('\t').expect("instance<TAB>symbol");
        let source = std::fs::read_to_string(dir.join(format!("{symbol}.hip"))).expect("kernel");
        assert!(source.contains(&format!("//   {name}\n")), "{name}");
        assert!(source.contains(&format!(" {symbol}_##e")), "{symbol}");
        symbols.insert(symbol);
    }
    let files = std::fs::read_dir(&dir).expect("out dir").count();
    assert_eq!(files, symbols.len() + 1);
    // The library has instances that differ only in what the portable kernel ignores.
    assert!(symbols.len() < instances, "{} kernels", symbols.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that closes the pipe after the first bytes (`ckc emit traits … | head -1`) ends every
/// printing command quietly with 0, never a panic.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    // Inputs whose output outgrows the pipe: every library string to import, and a saved run
    // of 3,000 shapes to report.
    let dir = temp_dir("pipe");
    std::fs::create_dir_all(&dir).unwrap();
    let strings = dir.join("strings.txt");
    std::fs::write(&strings, ok(&["emit", "traits", "instances"], "")).unwrap();
    let mut run: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("fuzz/corpus/bench_json/six_shapes.json")).unwrap(),
    )
    .unwrap();
    let shape = run["shapes"][0].clone();
    run["shapes"] = (0..3000)
        .map(|i| {
            let mut s = shape.clone();
            s["name"] = format!("shape_{i}").into();
            s
        })
        .collect();
    let saved = dir.join("run.json");
    std::fs::write(&saved, run.to_string()).unwrap();
    let saved = saved.to_str().unwrap();
    // Each command, and the file its standard input reads, if any.
    let commands: &[(&[&str], Option<&PathBuf>)] = &[
        (&["emit", "traits", "instances"], None),
        (&["emit", "names", "instances"], None),
        (&["emit", "manifest", "instances"], None),
        (&["explain", "instances"], None),
        (&["check", "--format", "json", "instances"], None),
        (&["list", "instances"], None),
        (&["import", "trait", "-"], Some(&strings)),
        (&["bench-report", saved], None),
    ];
    // Standard error goes to a file: a command that warns more than a pipe holds before its
    // first output line would otherwise wait on the test while the test waits on it.
    let errors = dir.join("stderr.txt");
    for &(args, input) in commands {
        let stdin = input.map_or_else(Stdio::null, |f| std::fs::File::open(f).unwrap().into());
        let mut child = Command::new(env!("CARGO_BIN_EXE_ckc"))
            .args(args)
            .current_dir(root())
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&errors).unwrap())
            .spawn()
            .expect("ckc starts");
        let mut stdout = child.stdout.take().expect("stdout");
        let mut first = [0u8; 16];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let out = child.wait_with_output().expect("ckc ends");
        let stderr = std::fs::read_to_string(&errors).unwrap();
        assert!(
            !stderr.contains("panicked"),
            "ckc {args:?} panicked:\n{stderr}"
        );
        assert_eq!(out.status.code(), Some(0), "ckc {args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Standard output on a full disk is an I/O error (exit 2) with a message, not a panic.
#[test]
fn a_full_disk_is_an_io_error() {
    let Ok(full) = std::fs::File::create("/dev/full") else {
        return; // not Linux
    };
    let out = Command::new(env!("CARGO_BIN_EXE_ckc"))
        .args(["emit", "traits", "instances"])
        .current_dir(root())
        .stdout(full)
        .output()
        .expect("ckc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("writing to standard output"), "{stderr}");
}

/// An import that leads out of the folders given is refused (CK0105) and the file it names is
/// never read; `--allow-outside-imports` lets a trusted library do it.
#[test]
fn imports_stay_inside_the_library_unless_allowed() {
    let dir = std::env::temp_dir().join(format!("ckc-roots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("secret.ck"), "defaults secret_first_line {}\n").unwrap();
    std::fs::write(dir.join("lib/a.ck"), "import \"../secret.ck\";\n").unwrap();
    let lib = dir.join("lib");
    let lib = lib.to_str().unwrap();
    let refused = ckc(&["--color", "never", "check", lib], "");
    assert_eq!(refused.code, 1, "{}", refused.stderr);
    assert!(refused.stderr.contains("CK0105"), "{}", refused.stderr);
    assert!(
        !refused.stderr.contains("secret_first_line"),
        "{}",
        refused.stderr
    );
    let allowed = ckc(&["check", "--allow-outside-imports", lib], "");
    assert_eq!(allowed.code, 0, "{}", allowed.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An emission that cannot be written whole writes nothing: a file where the emitter needs a
/// folder fails before any file is moved into `--out`, and no staging folder is left behind.
#[test]
fn emission_that_cannot_be_written_whole_writes_nothing() {
    let dir = temp_dir("whole");
    std::fs::create_dir_all(&dir).expect("out folder");
    // `emit ck` writes under library/…: a file named `library` blocks every header.
    std::fs::write(dir.join("library"), "in the way").expect("blocking file");
    let d = dir.to_str().expect("UTF-8 temp path");
    let run = ckc(&["emit", "ck", "--out", d, "instances"], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("is a file where a folder is needed"),
        "{}",
        run.stderr
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("out folder")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8"))
        .collect();
    assert_eq!(
        left,
        ["library"],
        "CMakeLists.txt and the rest must not be written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A string CK can print for an instance that breaks one of its rules (a block of 128 threads
/// for one wave's tile) imports with the rule allowed and a warning, checks clean, prints back
/// byte for byte, and runs nowhere; a string whose instance breaks an identity rule does not
/// import.
#[test]
fn strings_that_break_ck_rules_import_with_the_rules_allowed() {
    let s = "DeviceGroupedConvBwdWeight_Xdl_CShuffle<2,NHWGC,GKYXC,NHWGK,fp16,fp16,fp16,fp32,\
             PassThrough,PassThrough,PassThrough,Default,128,64,64,4,8,32,32,2,2,Seq(1,4,8,2),\
             Seq(0,3,1,2),Seq(0,2,1,3),2,2,4,true,Seq(1,4,8,2),Seq(0,3,1,2),Seq(0,2,1,3),2,2,4,\
             true,1,1,Seq(1,16,1,4),2,fp16,fp16,1,1>";
    let imported = ckc(&["import", "trait", s], "");
    assert_eq!(imported.code, 0, "{}", imported.stderr);
    assert!(
        imported.stdout.contains("allow = [CK0302];"),
        "{}",
        imported.stdout
    );
    assert!(
        imported.stderr.contains("warning[CK0302]"),
        "{}",
        imported.stderr
    );
    let checked = ckc(&["check", "-"], &imported.stdout);
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    assert_eq!(ok(&["emit", "traits", "-"], &imported.stdout).trim_end(), s);
    let run = ckc(
        &[
            "run",
            "--instances",
            "-",
            "--problem",
            "bwd_weight 2d N=2 K=64 C=64 filter=3 input=8 pad=1",
        ],
        &imported.stdout,
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("breaks CK's rules CK0302"),
        "{}",
        run.stderr
    );
    // Layouts of another rank break an identity rule, which `allow` does not relax.
    let identity = s.replace("NHWGC,GKYXC,NHWGK", "NDHWGC,GKZYXC,NDHWGK");
    let refused = ckc(&["import", "trait", &identity], "");
    assert_eq!(refused.code, 1, "{}", refused.stdout);
}
