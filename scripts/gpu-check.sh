#!/usr/bin/env bash
# GPU correctness check of the portable kernels on an NVIDIA GPU.
#
# Build machine (has Rust; the GPU machine does not):
#   scripts/gpu-check.sh --stage DIR    builds gpu_check (release), precompiles every reference
#                                       kernel for sm_90 into DIR/cache with NVRTC 13.0 (the
#                                       cache key includes the NVRTC version) and copies this script.
# GPU machine:
#   DIR/gpu-check.sh                    runs every instance on every problem, then
#                                       compute-sanitizer memcheck and racecheck on a subset.
# Logs go to $OUT (or DIR) as gpu_check.log, memcheck.log, racecheck.log.
set -uo pipefail

if [[ ${1:-} == --stage ]]; then
    set -e
    DIR=$(realpath -m "${2:?usage: gpu-check.sh --stage DIR}")
    cd "$(dirname "$0")/.."
    mkdir -p "$DIR/cache" "$DIR/src"
    cargo build -q --release -p ck-runtime --features cuda --example gpu_check
    cargo run -q -p ck-compiler --example emit_hip_samples -- "$DIR/src"
    LIB=${CK_NVRTC_SITE:-$PWD/target/nvrtc/site}/nvidia/cu13/lib
    LD_LIBRARY_PATH=$LIB cargo run -q --release -p ck-runtime --features cuda --example nvrtc_check -- \
        --cache "$DIR/cache" sm_90 "$DIR"/src/*.hip
    cp target/release/examples/gpu_check scripts/gpu-check.sh "$DIR/"
    exit 0
fi

cd "$(dirname "$0")"
LOGS=${OUT:-$PWD}
export CK_KERNEL_CACHE=$PWD/cache
status=0
./gpu_check >"$LOGS/gpu_check.log" 2>&1 || status=1
grep -E "^FAIL" "$LOGS/gpu_check.log" | head -n 20
tail -n 1 "$LOGS/gpu_check.log"
if command -v compute-sanitizer >/dev/null; then
    compute-sanitizer --tool memcheck --error-exitcode 9 ./gpu_check --quick --filter bwd_weight \
        >"$LOGS/memcheck.log" 2>&1 || status=1
    echo "memcheck: $(grep -E "ERROR SUMMARY" "$LOGS/memcheck.log" | tail -n 1) / $(tail -n 1 "$LOGS/memcheck.log")"
    compute-sanitizer --tool racecheck --error-exitcode 9 ./gpu_check --quick --filter f16_ \
        >"$LOGS/racecheck.log" 2>&1 || status=1
    echo "racecheck: $(grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$LOGS/racecheck.log" | tail -n 1) / $(tail -n 1 "$LOGS/racecheck.log")"
else
    echo "compute-sanitizer not found"
    status=1
fi
exit $status
