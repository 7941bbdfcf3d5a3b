#!/usr/bin/env bash
# GPU correctness check of the portable kernels on an NVIDIA GPU: every instance of the library
# plus runtime/tests/gpu/*.ck (StreamK with atomic fix-ups and 128-deep TMA K-tiles, which the
# library lacks) and the .ck files in $CK_GPU_INSTANCES, if set, on the problems each supports.
#
# Build machine (has Rust; the GPU machine does not):
#   scripts/gpu-check.sh --stage DIR    builds gpu_check (release), compiles every distinct
#                                       kernel for sm_90a into DIR/cache with NVRTC 13.0 from the
#                                       pip wheel (the cache key includes the NVRTC version) and
#                                       copies this script. CK_STAGE_SECONDS bounds the compile;
#                                       the GPU machine compiles what is left, in parallel.
# GPU machine:
#   DIR/gpu-check.sh                    runs the check, then compute-sanitizer memcheck and
#                                       racecheck on a subset (one problem each of every 10th /
#                                       every 20th instance, plus one of each work schedule:
#                                       StreamK linear/tree/atomic, persistent or not, split-K
#                                       auto, two-stage).
# Logs go to $OUT (or DIR) as gpu_check.log, memcheck.log, racecheck.log.
set -uo pipefail

if [[ ${1:-} == --stage ]]; then
    set -e
    DIR=$(realpath -m "${2:?usage: gpu-check.sh --stage DIR}")
    cd "$(dirname "$0")/.."
    mkdir -p "$DIR/cache"
    cargo build -q --release -p ck-runtime --features cuda --example gpu_check
    mkdir -p "$DIR/instances"
    cp runtime/tests/gpu/*.ck "$DIR/instances/"
    LIB=${CK_NVRTC_SITE:-$PWD/target/nvrtc/site}/nvidia/cu13/lib
    LD_LIBRARY_PATH=$LIB timeout "${CK_STAGE_SECONDS:-3600}" \
        target/release/examples/gpu_check --precompile "$DIR/cache" --arch sm_90a \
        --instances "$DIR/instances" || true
    cp target/release/examples/gpu_check scripts/gpu-check.sh "$DIR/"
    exit 0
fi

cd "$(dirname "$0")"
LOGS=${OUT:-$PWD}
export CK_KERNEL_CACHE=$PWD/cache
# NVRTC 13 of the machine's CUDA installation.
NVRTC=$(find /usr/local /usr/lib /opt -name 'libnvrtc.so.13' 2>/dev/null | head -n 1)
[[ -n $NVRTC ]] && export LD_LIBRARY_PATH=$(dirname "$NVRTC")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "NVRTC: ${NVRTC:-not found}"
EXTRA=(--instances "$PWD/instances")
[[ -n ${CK_GPU_INSTANCES:-} ]] && EXTRA+=(--instances "$CK_GPU_INSTANCES")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
./gpu_check "${EXTRA[@]}" >"$LOGS/gpu_check.log" 2>&1 || status=1
grep -E "^FAIL" "$LOGS/gpu_check.log" | head -n 20
grep -E "^skip" "$LOGS/gpu_check.log" | head -n 5
tail -n 1 "$LOGS/gpu_check.log"
if command -v compute-sanitizer >/dev/null; then
    compute-sanitizer --tool memcheck --error-exitcode 9 ./gpu_check "${EXTRA[@]}" --quick --every 10 \
        >"$LOGS/memcheck.log" 2>&1 || status=1
    echo "memcheck: $(grep -E "ERROR SUMMARY" "$LOGS/memcheck.log" | tail -n 1) / $(tail -n 1 "$LOGS/memcheck.log")"
    compute-sanitizer --tool racecheck --error-exitcode 9 ./gpu_check "${EXTRA[@]}" --quick --every 20 \
        >"$LOGS/racecheck.log" 2>&1 || status=1
    echo "racecheck: $(grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$LOGS/racecheck.log" | tail -n 1) / $(tail -n 1 "$LOGS/racecheck.log")"
else
    echo "compute-sanitizer not found"
    status=1
fi
exit $status
