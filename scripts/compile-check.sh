#!/usr/bin/env bash
# Compiles the portable kernel of every reference instance for AMD (clang-19 HIP: gfx90a, gfx942,
# gfx1100, gfx1201) and NVIDIA (NVRTC 13.0 to an sm_90 cubin). Any compile error fails.
#
# Setup, once per machine (Debian bookworm; what CI repeats):
#   apt-get install -y --no-install-recommends clang-19 lld-19 libamdhip64-dev rocm-device-libs
#   pip download --no-deps -d target/nvrtc/wheels "nvidia-cuda-nvrtc==13.0.*"
#   pip install --no-deps --target target/nvrtc/site target/nvrtc/wheels/nvidia_cuda_nvrtc-13.0.*.whl
# CK_SETUP=1 runs these steps. CK_SKIP_AMD=1 / CK_SKIP_NVRTC=1 skip one side.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=${CK_WORK:-$ROOT/target/compile-check}
NVRTC_SITE=${CK_NVRTC_SITE:-$ROOT/target/nvrtc/site}
AMD_ARCHS=(gfx90a gfx942 gfx1100 gfx1201)

if [[ ${CK_SETUP:-0} == 1 ]]; then
    apt-get install -y --no-install-recommends clang-19 lld-19 libamdhip64-dev rocm-device-libs
    pip download --no-deps -d target/nvrtc/wheels "nvidia-cuda-nvrtc==13.0.*"
    pip install --no-deps --upgrade --target "$NVRTC_SITE" target/nvrtc/wheels/nvidia_cuda_nvrtc-13.0.*.whl
fi

rm -rf "$WORK/src" && mkdir -p "$WORK/src" "$WORK/amd"
cargo run -q -p ck-compiler --example emit_hip_samples -- "$WORK/src"
count=$(ls "$WORK/src" | wc -l)
echo "emitted $count kernels"

if [[ ${CK_SKIP_AMD:-0} != 1 ]]; then
    # Debian ships oclc_isa_version bitcode only up to gfx940 / gfx1036: synthesise the missing ones
    # (each defines one constant) next to symlinks of the shipped files.
    DEVLIBS=$WORK/devlibs
    mkdir -p "$DEVLIBS"
    ln -sf /usr/lib/x86_64-linux-gnu/amdgcn/bitcode/*.bc "$DEVLIBS/"
    for v in 9402:942 11000:1100 12001:1201; do
        isa=${v%%:*} name=${v##*:}
        [[ -e $DEVLIBS/oclc_isa_version_$name.bc ]] && continue
        printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' "$isa" >"$WORK/isa$name.ll"
        clang-19 -target amdgcn-amd-amdhsa -nogpulib -c -emit-llvm "$WORK/isa$name.ll" -o "$DEVLIBS/oclc_isa_version_$name.bc"
    done
    # One raw code object per (kernel, target); Debian's clang-19 has no offload bundler.
    export WORK DEVLIBS
    jobs=()
    for src in "$WORK"/src/*.hip; do
        for a in "${AMD_ARCHS[@]}"; do jobs+=("$src $a"); done
    done
    printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -L 1 bash -c '
        out=$WORK/amd/$(basename "${0%.hip}")-$1.o
        clang++-19 -x hip -std=c++17 --rocm-path=/usr --hip-device-lib-path="$DEVLIBS" --cuda-device-only \
            -O3 --offload-arch="$1" --no-gpu-bundle-output -c "$0" -o "$out" \
            || { echo "AMD compile FAILED: $0 for $1" >&2; exit 255; }' \
        || exit 1
    echo "AMD: $count kernels x ${#AMD_ARCHS[@]} targets OK"
fi

if [[ ${CK_SKIP_NVRTC:-0} != 1 ]]; then
    LIB=$NVRTC_SITE/nvidia/cu13/lib
    [[ -e $LIB/libnvrtc.so.13 ]] || { echo "NVRTC 13 not found under $LIB (run with CK_SETUP=1)" >&2; exit 1; }
    LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        cargo run -q -p ck-runtime --features cuda --example nvrtc_check -- sm_90 "$WORK"/src/*.hip
fi
