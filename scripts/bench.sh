#!/usr/bin/env bash
# Times the portable kernels against cuDNN on an NVIDIA GPU over a shapes file: the benchmark
# suite (bench/shapes.json, the default) or the network corpus (bench/networks/*.json).
#
# Build machine (has Rust; the GPU machine does not):
#   scripts/bench.sh --stage DIR [SHAPES_FILE]
#       builds ckc (release, feature cuda); compiles for sm_90a, with NVRTC 13.0 from the pip wheel
#       (the cache key includes the NVRTC version), the kernels of every instance that supports a
#       shape, for the ops in $CK_BENCH_OPS and the types in $CK_BENCH_DTYPES (comma-separated;
#       default all), into target/bench-cache, kept between stages; packs the ones needed into
#       DIR/cache.tar.gz and copies ckc, this script, bench/cudnn_baseline.py and the shapes file
#       (as DIR/shapes.json) into DIR. CK_STAGE_SECONDS bounds
#       the compile; the GPU machine compiles what is missing, in parallel. DIR must stay under
#       the 64 MiB transfer limit: all six op/type pairs pack to about 35 MB.
# GPU machine:
#   DIR/bench.sh [--op OP] [--dtype DT] [--only NAMES] [ckc bench options...]
#       (default bwd_weight fp16) runs cudnn_baseline.py, then `ckc bench` with its numbers;
#       writes cudnn_OP_DT.json, bench_OP_DT.json, bench_OP_DT.svg and the logs to $OUT (or DIR)
#       and prints the table last.
set -uo pipefail

if [[ ${1:-} == --stage ]]; then
    set -e
    DIR=$(realpath -m "${2:?usage: bench.sh --stage DIR [SHAPES_FILE]}")
    SHAPES=$(realpath "${3:-$(dirname "$0")/../bench/shapes.json}")
    cd "$(dirname "$0")/.."
    mkdir -p "$DIR" target/bench-cache
    cargo build -q --release -p ckc --features cuda
    LIB=${CK_NVRTC_SITE:-$PWD/target/nvrtc/site}/nvidia/cu13/lib
    SEL=()
    [[ -n ${CK_BENCH_OPS:-} ]] && SEL+=(--op "$CK_BENCH_OPS")
    [[ -n ${CK_BENCH_DTYPES:-} ]] && SEL+=(--dtype "$CK_BENCH_DTYPES")
    LD_LIBRARY_PATH=$LIB timeout "${CK_STAGE_SECONDS:-3600}" target/release/ckc bench \
        --shapes "$SHAPES" "${SEL[@]}" --precompile target/bench-cache --arch sm_90a \
        >"$DIR/kernels.txt" || true
    # Only the files this selection needs (the cache keeps older kernels too), and those compiled.
    (cd target/bench-cache && while read -r f; do if [[ -f $f ]]; then echo "$f"; fi; done <"$DIR/kernels.txt") \
        | tar czf "$DIR/cache.tar.gz" -C target/bench-cache -T -
    echo "$(tar tzf "$DIR/cache.tar.gz" | wc -l) of $(wc -l <"$DIR/kernels.txt") kernels staged"
    cp target/release/ckc scripts/bench.sh bench/cudnn_baseline.py "$DIR/"
    cp "$SHAPES" "$DIR/shapes.json"
    du -sh "$DIR"
    exit 0
fi

cd "$(dirname "$0")"
OP=bwd_weight
DT=fp16
ONLY=()
EXTRA=()
while (($#)); do
    case $1 in
        --op) OP=${2:?--op needs a value}; shift 2 ;;
        --dtype) DT=${2:?--dtype needs a value}; shift 2 ;;
        --only) ONLY=(--only "${2:?--only needs a value}"); shift 2 ;;
        *) EXTRA+=("$1"); shift ;;
    esac
done
RES=${OUT:-$PWD}
mkdir -p cache
[[ -f cache.tar.gz ]] && tar xzf cache.tar.gz -C cache
export CK_KERNEL_CACHE=$PWD/cache
# NVRTC 13 of the machine's CUDA installation, for kernels not staged.
NVRTC=$(find /usr/local /usr/lib /opt -name 'libnvrtc.so.13' 2>/dev/null | head -n 1)
[[ -n $NVRTC ]] && export LD_LIBRARY_PATH=$(dirname "$NVRTC")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "NVRTC: ${NVRTC:-not found}; $(find cache -name '*.cubin' | wc -l) kernels cached"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
TAG=${OP}_${DT}
CUDNN=()
if python3 cudnn_baseline.py --shapes shapes.json --op "$OP" --dtype "$DT" "${ONLY[@]}" \
    --out "$RES/cudnn_$TAG.json" >"$RES/cudnn_$TAG.log" 2>&1; then
    CUDNN=(--cudnn "$RES/cudnn_$TAG.json")
else
    echo "cuDNN baseline failed (no ratios); the end of $RES/cudnn_$TAG.log:"
    tail -n 5 "$RES/cudnn_$TAG.log"
fi
./ckc bench --shapes shapes.json --op "$OP" --dtype "$DT" "${ONLY[@]}" "${CUDNN[@]}" \
    --json "$RES/bench_$TAG.json" --svg "$RES/bench_$TAG.svg" "${EXTRA[@]}" \
    >"$RES/bench_$TAG.txt" 2>"$RES/bench_$TAG.log"
status=$?
tail -n 20 "$RES/bench_$TAG.log"
cat "$RES/bench_$TAG.txt"
exit $status
