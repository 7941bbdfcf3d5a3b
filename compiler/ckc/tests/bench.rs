//! `ckc bench` where it cannot time: built without the `cuda` feature, or without a GPU. Either
//! way a clear error and a non-zero exit, never a panic.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ckc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ckc"))
        .args(args)
        .output()
        .expect("ckc runs")
}

/// A one-shape shapes file in a fresh temporary folder.
fn shapes_file(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ckc-bench-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let path = dir.join("shapes.json");
    let text = r#"{"shapes": [{"name": "s", "ndim": 2, "G": 1, "N": 2, "K": 64, "C": 64,
        "filter": [3, 3], "input": [8, 8], "stride": [1, 1], "dilation": [1, 1],
        "left_pad": [1, 1], "right_pad": [1, 1]}]}"#;
    std::fs::write(&path, text).expect("shapes file");
    path
}

fn bench(tag: &str, extra: &[&str]) -> (Output, String) {
    let file = shapes_file(tag);
    let shapes = file.to_str().expect("UTF-8 path");
    let mut args = vec![
        "bench",
        "--shapes",
        shapes,
        "--op",
        "bwd_weight",
        "--dtype",
        "fp16",
    ];
    args.extend(extra);
    let out = ckc(&args);
    std::fs::remove_dir_all(file.parent().expect("the shapes file's folder")).expect("clean up");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out, stderr)
}

#[cfg(not(feature = "cuda"))]
#[test]
fn without_the_cuda_feature_bench_says_so() {
    let (out, stderr) = bench("nocuda", &[]);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("built without CUDA support"), "{stderr}");
}

#[cfg(feature = "cuda")]
#[test]
fn without_a_gpu_bench_says_so() {
    let (out, stderr) = bench("nogpu", &[]);
    if !out.status.success() {
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("no CUDA device: "), "{stderr}");
    }
    // Shapes are checked before the device is opened.
    let (out, stderr) = bench("only", &["--only", "nosuch"]);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no shape named `nosuch`"), "{stderr}");
}

#[test]
fn bad_arguments_are_usage_errors() {
    let (out, stderr) = bench("usage", &["--reps", "0"]);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let out = ckc(&["bench", "--shapes", "x.json", "--op", "bwd-weight"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bwd_weight"));
}

/// `ckc features` turns records of `ckc bench --records` into the training table: a header of
/// the feature names, a row per verified record of a library instance; other records are
/// counted, a malformed line is an error naming it.
#[test]
fn features_tabulate_the_verified_records_of_library_instances() {
    let dir = std::env::temp_dir().join(format!("ckc-features-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    let records = dir.join("records.jsonl");
    let line = |instance: &str, verified: bool| {
        format!(
            r#"{{"card": "NVIDIA H100 80GB HBM3", "target": "sm_90", "arch": null, "compute_units": 132, "occupancy": 2, "date": "2026-11-28", "library": "0", "shape": "s", "problem": "fwd 2d N=32 K=64 C=64 filter=1 input=56 dtype=fp16", "instance": "{instance}", "us": 11.2, "verified": {verified}}}"#
        )
    };
    let text = [
        line("nv_fwd_bwd_data_2d_fwd_fp16_compv3_t128x64x64", true),
        line("nv_fwd_bwd_data_2d_fwd_fp16_compv3_t128x64x32", false),
        line("no_such_instance", true),
        line("nv_pointwise_2d_fwd_fp16_t128x64x64", true),
    ]
    .join("\n");
    std::fs::write(&records, text).expect("records");
    let out = ckc(&["features", records.to_str().expect("UTF-8 path")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        rows[0].starts_with("shape,problem,instance,card,us,op=fwd,"),
        "{}",
        rows[0]
    );
    assert!(
        rows[0].ends_with(",streamed,log2_entry_us,log2_copies_us"),
        "{}",
        rows[0]
    );
    assert_eq!(rows[0].split(',').count(), rows[1].split(',').count());
    assert!(
        rows[1].contains("t128x64x64,NVIDIA H100 80GB HBM3,11.2,1,0,"),
        "{}",
        rows[1]
    );
    // The GEMM tile's run has no entry estimate; the pointwise entry streams its run, and its
    // estimate is a feature (neither runs on copies).
    let entry = |row: &str| -> Vec<String> { row.rsplit(',').take(3).map(String::from).collect() };
    assert_eq!(entry(rows[1]), ["0", "0", "0"], "{}", rows[1]);
    let streamed = entry(rows[2]);
    assert_eq!(
        (streamed[0].as_str(), streamed[2].as_str()),
        ("0", "1"),
        "{}",
        rows[2]
    );
    assert!(
        streamed[1].parse::<f64>().is_ok_and(|l| l > 0.0),
        "{}",
        rows[2]
    );
    assert!(
        stderr.contains("2 rows") && stderr.contains("2 left out"),
        "{stderr}"
    );
    std::fs::write(&records, "{ not json\n").expect("records");
    let out = ckc(&["features", records.to_str().expect("UTF-8 path")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
    std::fs::remove_dir_all(&dir).expect("clean up");
}
