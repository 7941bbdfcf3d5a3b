#!/usr/bin/env bash
# Coverage-guided runs of the fuzz targets with AFL++ on stable Rust (cargo-afl):
#
#   scripts/fuzz-afl.sh SECONDS [TARGET[:JOBS]]...
#
# runs each target named (all four when none is) in JOBS afl-fuzz processes (default 1: one main,
# the rest secondaries syncing through fuzz/out/TARGET), all targets at once, for SECONDS; then
# prints each target's executions, crashes and hangs summed over its processes, and exits 1 if
# any crashed or hung. A run over 5 s is a hang; 2 GB of memory is the most a run may take.
# Installs cargo-afl (which builds AFL++) when missing and builds the targets with it.
# AFL_FUZZ=path/to/afl-fuzz FUZZ_BIN=folder-of-built-targets skips both (a machine without Rust).
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:?usage: scripts/fuzz-afl.sh SECONDS [TARGET[:JOBS]]...}
shift
specs=("$@")
((${#specs[@]})) || specs=(ck_source problem ck_string bench_json)

if [[ -z ${AFL_FUZZ:-} ]]; then
    command -v cargo-afl >/dev/null || cargo install --locked cargo-afl
    cargo afl build --release --features afl --manifest-path fuzz/Cargo.toml
    FUZZ_BIN=${CARGO_TARGET_DIR:-fuzz/target}/release
    fuzz=(cargo afl fuzz)
else
    : "${FUZZ_BIN:?AFL_FUZZ needs FUZZ_BIN, the folder of the built targets}"
    fuzz=("$AFL_FUZZ")
fi

export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_TRY_AFFINITY=1
pids=()
for spec in "${specs[@]}"; do
    t=${spec%%:*}
    jobs=1
    [[ $spec == *:* ]] && jobs=${spec#*:}
    mkdir -p "fuzz/out/$t"
    for ((j = 0; j < jobs; j++)); do
        role=(-S "${t}_$j")
        ((j)) || role=(-M "${t}_0")
        # A queue left by an earlier run is resumed.
        AFL_AUTORESUME=1 "${fuzz[@]}" "${role[@]}" -i "fuzz/corpus/$t" -o "fuzz/out/$t" \
            -x "fuzz/dict/$t.dict" -t 5000 -m 2048 -V "$secs" -- "$FUZZ_BIN/$t" \
            >"fuzz/out/$t/${t}_$j.log" 2>&1 &
        pids+=($!)
    done
done
wait "${pids[@]}" || true

failed=0
printf '%-12s %6s %14s %10s %8s %6s\n' target jobs executions seconds crashes hangs
for spec in "${specs[@]}"; do
    t=${spec%%:*}
    read -r jobs execs time crashes hangs < <(awk -F' *: *' '
        FNR == 1 { n++ }
        $1 == "execs_done" { e += $2 } $1 == "run_time" && $2 > r { r = $2 }
        $1 == "saved_crashes" { c += $2 } $1 == "saved_hangs" { h += $2 }
        END { print n + 0, e + 0, r + 0, c + 0, h + 0 }' "fuzz/out/$t"/*/fuzzer_stats)
    printf '%-12s %6s %14s %10s %8s %6s\n' "$t" "$jobs" "$execs" "$time" "$crashes" "$hangs"
    ((crashes + hangs == 0)) || failed=1
done
exit "$failed"
