//! `ckc run` and `ckc list --problem` as a user runs them: output, exit codes, reasons.

use std::process::{Command, Output};

fn ckc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ckc"))
        .args(args)
        .output()
        .expect("ckc runs")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SMALL: &str = "bwd_weight 2d N=2 K=64 C=64 filter=3 input=6 pad=1 dtype=fp16";

#[test]
fn run_selects_runs_and_verifies_on_the_library() {
    let out = ckc(&["run", "--problem", SMALL, "--verify", "--seed", "7"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    for field in [
        "problem:",
        "instance:",
        "instance string:",
        "cpu back end",
        "seed 7",
    ] {
        assert!(stdout.contains(field), "{field}: {stdout}");
    }
    assert!(stdout.contains("DeviceGroupedConvBwdWeight"), "{stdout}");
    assert!(stdout.trim_end().ends_with(": pass"), "{stdout}");
}

#[test]
fn no_supporting_instance_lists_every_reason() {
    // The library reads K=63 with scalar rows; these two instances cannot, not even on padded
    // copies (those would take the input past the 2 GB limit).
    let odd = "bwd_weight 2d N=2 K=63 C=63 filter=3 input=4096x4096 pad=1 dtype=fp16";
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/pass/");
    let wide = format!("{fixtures}bwd_weight_xdl_v3.ck");
    let fwd = format!("{fixtures}fwd_tile.ck");
    let out = ckc(&[
        "run",
        "--problem",
        odd,
        "--instances",
        &wide,
        &fwd,
        "--verbose",
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no instance supports"), "{stderr}");
    assert!(
        stderr.contains("K=63 is not divisible by the A vector width"),
        "{stderr}"
    );
    assert!(
        stderr.contains("with C and K padded to 8 and 8, 2 GB limit"),
        "{stderr}"
    );
    assert!(stderr.contains("op: instance computes fwd"), "{stderr}");
}

#[test]
fn a_refusal_summarises_by_rule_and_names_what_no_instance_has() {
    // No 1-D forward instance among these: every reason is the op or the rank.
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/pass/");
    let wide = format!("{fixtures}bwd_weight_xdl_v3.ck");
    let fwd = format!("{fixtures}fwd_tile.ck");
    let one_d = "fwd 1d N=2 K=64 C=64 filter=3 input=32 pad=1 dtype=fp16";
    let out = ckc(&["run", "--problem", one_d, "--instances", &wide, &fwd]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no instance of its op has its spatial rank"),
        "{stderr}"
    );
    assert!(stderr.contains("1 by op: e.g. "), "{stderr}");
    assert!(stderr.contains("--verbose"), "{stderr}");
    // A summary, not a line per instance.
    assert!(stderr.lines().count() <= 5, "{stderr}");
}

#[test]
fn a_named_instance_must_exist_and_support_the_problem() {
    let out = ckc(&["run", "--problem", SMALL, "--instance", "no_such_instance"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out)
            .1
            .contains("no instance named `no_such_instance`")
    );
    let fwd = ck_instances_fwd();
    let out = ckc(&["run", "--problem", SMALL, "--instance", &fwd]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("op: instance computes fwd"),
        "{:?}",
        text(&out)
    );
}

/// A forward instance of the library, found through `ckc list`.
fn ck_instances_fwd() -> String {
    let out = ckc(&["list", "--problem", "fwd 2d N=1 K=64 C=64 filter=1 input=4"]);
    let (stdout, _) = text(&out);
    stdout
        .lines()
        .find(|l| l.contains("\tok\t"))
        .and_then(|l| l.split('\t').next())
        .expect("the library has a forward instance")
        .to_string()
}

#[test]
fn list_with_a_problem_gives_verdicts_best_first() {
    let out = ckc(&["list", "--problem", SMALL]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let verdicts: Vec<&str> = stdout
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert!(verdicts.first() == Some(&"ok"), "{stdout}");
    let first_rejected = verdicts.iter().position(|v| *v == "rejected").unwrap();
    assert!(
        verdicts[first_rejected..].iter().all(|v| *v == "rejected"),
        "{stdout}"
    );
}

#[test]
fn instances_from_paths_and_their_errors() {
    let dir = std::env::temp_dir().join(format!("ckc-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ck");
    std::fs::write(&bad, "instance a { tiel = 1; }\n").unwrap();
    let out = ckc(&[
        "run",
        "--problem",
        SMALL,
        "--instances",
        bad.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).expect("clean up");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("CK0110"), "{:?}", text(&out));
    let out = ckc(&["run", "--problem", "fwd 2d N=1 K=0 C=1 filter=1 input=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("K must be at least 1"),
        "{:?}",
        text(&out)
    );
}

#[test]
fn the_cuda_back_end_says_why_it_cannot_run() {
    let out = ckc(&["run", "--problem", SMALL, "--backend", "cuda", "--verify"]);
    let (stdout, stderr) = text(&out);
    if cfg!(feature = "cuda") && out.status.success() {
        // A machine with a CUDA device: the run must have verified.
        assert!(stdout.contains("cuda back end") && stdout.trim_end().ends_with(": pass"));
        return;
    }
    assert!(!out.status.success(), "{stdout}{stderr}");
    // Without the feature, or without a driver, NVRTC or device: a reason, never a panic.
    let reason = if cfg!(feature = "cuda") {
        "the CUDA back end: "
    } else {
        "this ckc was built without CUDA support (cargo feature `cuda`)"
    };
    assert!(stderr.contains(reason), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_hip_back_end_says_why_it_cannot_run() {
    let out = ckc(&["run", "--problem", SMALL, "--backend", "hip", "--verify"]);
    let (stdout, stderr) = text(&out);
    if cfg!(feature = "hip") && out.status.success() {
        // A machine with an AMD GPU: the run must have verified.
        assert!(stdout.contains("hip back end") && stdout.trim_end().ends_with(": pass"));
        return;
    }
    assert!(!out.status.success(), "{stdout}{stderr}");
    // Without the feature, or without libamdhip64 or a device: a reason, never a panic.
    let reason = if cfg!(feature = "hip") {
        "the HIP back end: "
    } else {
        "this ckc was built without HIP support (cargo feature `hip`)"
    };
    assert!(stderr.contains(reason), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn k36_backward_weight_runs_as_its_transpose_and_says_so() {
    let k36 = "bwd_weight 2d N=1 K=12 C=16 filter=3 input=7 pad=1 dtype=fp16";
    let inst = "nv_bwd_weight_k4t_2d_fp16_t64x128x32";
    let out = ckc(&[
        "run",
        "--problem",
        k36,
        "--instance",
        inst,
        "--verify",
        "--seed",
        "3",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("as transpose:    bwd_weight 2d G=1 N=1 K=16 C=12"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with(": pass"), "{stdout}");
    let out = ckc(&["list", "--problem", k36]);
    let (stdout, _) = text(&out);
    let line = stdout.lines().find(|l| l.starts_with(inst)).unwrap_or("");
    assert!(line.ends_with("\tas its transpose"), "{line}");
}

#[test]
fn tuning_times_on_the_cuda_back_end_only() {
    let out = ckc(&["run", "--problem", SMALL, "--tune"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("give --backend cuda"),
        "{:?}",
        text(&out)
    );
    let out = ckc(&["run", "--problem", SMALL, "--tune", "--instance", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("cannot be used with"),
        "{:?}",
        text(&out)
    );
}

/// A problem whose tensors cannot fit in host memory is refused before anything is allocated,
/// naming the bytes it needs: no allocation failure, no abort.
#[test]
fn a_problem_too_large_for_host_memory_is_refused_before_allocating() {
    let out = ckc(&[
        "run",
        "--problem",
        "bwd_weight 2d N=4 K=2147483648 C=64 filter=3 input=14",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("bytes of host memory"), "{stderr}");
}

#[test]
fn list_for_a_card_ranks_by_its_learned_model_without_the_card() {
    let p = "fwd 2d N=32 K=64 C=64 filter=1 input=56 dtype=fp16";
    let out = ckc(&["list", "--problem", p, "--device", "h100"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("learned run-time model of sm_90"),
        "{stderr}"
    );
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.contains("\tok\tpredicted=") && first.ends_with("µs"),
        "{first}"
    );
    // A target architecture: its support rules and, on sm_90, its learned model.
    let out = ckc(&["list", "--problem", p, "--target", "gfx942"]);
    let (stdout, stderr) = text(&out);
    assert!(
        stderr.contains("analytic cost model for gfx942"),
        "{stderr}"
    );
    assert!(
        stdout.contains("rejected\ttarget: instance targets [sm_90], not gfx942"),
        "{stdout}"
    );
    let out = ckc(&["list", "--problem", p, "--target", "sm_90"]);
    assert!(text(&out).1.contains("learned run-time model of sm_90"));
    let out = ckc(&["list", "--problem", p, "--target", "gfx9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("expected one of gfx908"));
    // Without a card: the analytic model, as before.
    let out = ckc(&["list", "--problem", p]);
    let (stdout, stderr) = text(&out);
    assert!(stderr.contains("analytic cost model"), "{stderr}");
    assert!(
        stdout
            .lines()
            .next()
            .unwrap_or_default()
            .contains("\tok\tcost=")
    );
}

#[test]
fn run_selects_for_a_named_device_and_says_how() {
    let p = "fwd 2d N=2 K=64 C=64 filter=3 input=8 pad=1";
    for (flags, says) in [
        (&["--device", "h100"][..], "learned run-time model of sm_90"),
        (
            &["--target", "gfx942"][..],
            "analytic cost model for gfx942",
        ),
        (&[][..], "compute units (--device or --target rank for one)"),
    ] {
        let mut args = vec!["run", "--problem", p, "--verify", "--seed", "3"];
        args.extend_from_slice(flags);
        let out = ckc(&args);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{flags:?}: {stdout}{stderr}");
        let line = stdout.lines().find(|l| l.starts_with("selected by:"));
        assert!(
            line.is_some_and(|l| l.contains(says)),
            "{flags:?}: {stdout}"
        );
        assert!(stdout.trim_end().ends_with(": pass"), "{stdout}");
    }
    // A named device is selected for, not run on: the GPU back ends have their own.
    let out = ckc(&[
        "run",
        "--problem",
        p,
        "--backend",
        "cuda",
        "--device",
        "h100",
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("use them with the CPU back end"),
        "{stderr}"
    );
    let out = ckc(&["run", "--problem", p, "--target", "sm_99"]);
    assert_eq!(out.status.code(), Some(2));
}

/// CK's fused forward ops that read extra source tensors or round between steps run on the CPU
/// on random data, as instances with D tensors do.
#[test]
fn fused_sources_and_combined_scales_run_on_the_cpu() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/pass/fwd_xdl_fused.ck"
    );
    let dir = std::env::temp_dir().join(format!("ckc-run-fused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let relu_f16 = dir.join("relu_f16.ck");
    std::fs::write(
        &relu_f16,
        "instance fwd_xdl_scale_scale_relu_f16 {
    op = fwd; kind = xdl; dims = 3; layout = ndhwgc; dtype = fp16; targets = [gfx942];
    gemm_spec = mnk_padding; block = 64; tile = [64, 64, 32]; k1 = 8; instr = [32, 32];
    repeat = [2, 2]; c { cluster = [1, 16, 1, 4]; vector = 1; }
    elementwise.out = scale_scale_relu;
}
",
    )
    .unwrap();
    let problem = "fwd 3d G=2 N=2 K=16 C=16 filter=3 input=4 pad=1 dtype=fp16";
    let runs = [
        (fixture, "fwd_xdl_scale_add_sources_f16"),
        (relu_f16.to_str().unwrap(), "fwd_xdl_scale_scale_relu_f16"),
    ];
    let outs: Vec<_> = runs
        .iter()
        .map(|(path, name)| {
            let args = [
                "run",
                "--problem",
                problem,
                "--instances",
                path,
                "--instance",
                name,
                "--verify",
                "--seed",
                "11",
            ];
            (name, ckc(&args))
        })
        .collect();
    std::fs::remove_dir_all(&dir).expect("clean up");
    for (name, out) in outs {
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{name}: {stdout}{stderr}");
        assert!(stdout.contains(name), "{stdout}");
        assert!(stdout.trim_end().ends_with(": pass"), "{name}: {stdout}");
    }
}
