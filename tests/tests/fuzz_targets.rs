//! The fuzz targets (`fuzz/`) on their committed corpora: every file once, so an input that once
//! crashed, added to its corpus, stays fixed. With `FUZZ_SECONDS=S` (CI's fuzz stage,
//! `scripts/fuzz-smoke.sh`) each target then runs random mutants of its corpus for S seconds,
//! from `FUZZ_SEED`; a failing mutant is saved under `fuzz/artifacts/`.

use ck_fuzz::TARGETS;
use ck_fuzz::replay::{Bounds, fuzz, read, report};
use std::path::Path;
use std::time::Duration;

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

#[test]
fn fuzz_targets_pass_their_corpora() {
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let bounds = Bounds {
        seconds: env("FUZZ_SECONDS").map_or(0.0, |s| s.parse().expect("FUZZ_SECONDS")),
        seed: env("FUZZ_SEED").map_or(0, |s| s.parse().expect("FUZZ_SEED")),
        // The 5 s that AFL's runs allow, with room for this unoptimised build.
        max: Duration::from_secs(20),
    };
    let mut failed = Vec::new();
    for t in &TARGETS {
        let corpus = read(&[corpora.join(t.name)]).expect("a readable corpus");
        assert!(corpus.len() >= 3, "{}: {} files", t.name, corpus.len());
        let run = fuzz(t.run, &corpus, t.dict, &bounds);
        let line = report(t.name, &run, bounds.seed);
        println!("{line}");
        if !run.failures.is_empty() {
            failed.push(line);
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
