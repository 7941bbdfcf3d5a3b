//! `scripts/compile-check.sh` on a small input: the portable kernels of two fixtures compile for
//! every AMD target with clang-19 HIP, and a broken kernel fails the check. CI runs the script
//! over the whole library, NVRTC included. Without clang-19 (`scripts/setup.sh` installs it) the
//! tests report themselves skipped, unless `CK_REQUIRE_TOOLCHAINS=1` makes that a failure.

use ck_compiler::emit::hip::{KernelConfig, kernel_text};
use ck_compiler::load::Session;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether clang-19 is there; panics when it is not but CI requires it.
fn have_clang() -> bool {
    let ok = Command::new("clang++-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let required = std::env::var("CK_REQUIRE_TOOLCHAINS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "CK_REQUIRE_TOOLCHAINS=1 but clang++-19 is missing"
        );
        eprintln!("skipped: clang++-19 is missing (scripts/setup.sh installs it)");
    }
    ok
}

/// The distinct kernel texts of the fixtures, each as `(symbol base, text)`.
fn kernels(fixtures: &[&str]) -> Vec<(String, String)> {
    let mut session = Session::new();
    for f in fixtures {
        session.add_path(&root().join("tests/fixtures/pass").join(f));
    }
    let set = ck_compiler::compile(&session).expect("the fixtures compile");
    let mut out: Vec<(String, String)> = set
        .instances()
        .iter()
        .map(|inst| {
            let k = kernel_text(&KernelConfig::new(inst).expect("a portable kernel"));
            (k.symbol_base, k.text)
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Runs the AMD half of the compile check on `sources`; returns success and the log.
fn compile_check(tag: &str, sources: &[(String, String)]) -> (bool, String) {
    let work = std::env::temp_dir().join(format!("ck-hip-{tag}-{}", std::process::id()));
    let src = work.join("src");
    std::fs::create_dir_all(&src).expect("temp dir");
    for (symbol, text) in sources {
        std::fs::write(src.join(format!("{symbol}.hip")), text).expect("write kernel");
    }
    let out = Command::new("bash")
        .arg(root().join("scripts/compile-check.sh"))
        .env("CK_WORK", &work)
        .env("CK_SRC", &src)
        .env("CK_SKIP_NVRTC", "1")
        .output()
        .expect("bash runs");
    let _ = std::fs::remove_dir_all(&work);
    let log =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), log)
}

#[test]
fn fixture_kernels_compile_for_every_amd_target() {
    if !have_clang() {
        return;
    }
    let sources = kernels(&["fwd_tile.ck", "bwd_weight_tile_streamk.ck"]);
    assert!(sources.len() >= 2, "{} kernels", sources.len());
    let (ok, log) = compile_check("ok", &sources);
    assert!(ok, "{log}");
    assert!(
        log.contains(&format!("AMD: {} kernels x 4 targets OK", sources.len())),
        "{log}"
    );
}

#[test]
fn a_broken_kernel_fails_the_check() {
    if !have_clang() {
        return;
    }
    let mut sources = kernels(&["fwd_tile.ck"]);
    sources[0]
        .1
        .push_str("\nCK_DEV int ck_broken() { return undeclared_name; }\n");
    let (ok, log) = compile_check("broken", &sources);
    assert!(!ok, "{log}");
    assert!(log.contains("AMD compile FAILED"), "{log}");
}
