#!/usr/bin/env bash
# CI's fuzz stage: each fuzz target (fuzz/) replays its committed corpus, then random mutants of
# it for FUZZ_SECONDS (default 20) each, through the test that `cargo test --workspace` has
# already built (tests/tests/fuzz_targets.rs), so the stage compiles nothing. No AFL here:
# installing cargo-afl (it builds AFL++) and building the targets with it take minutes more than
# this stage may. The seed is the commit's, so a failure replays with the same FUZZ_SEED and
# FUZZ_SECONDS. Coverage-guided runs: docs/limits.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."

export FUZZ_SECONDS=${FUZZ_SECONDS:-20}
export FUZZ_SEED=${FUZZ_SEED:-$((16#$(git rev-parse --short=12 HEAD)))}
cargo test --workspace --test fuzz_targets -- --nocapture
