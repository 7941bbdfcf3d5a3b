#!/usr/bin/env bash
# Compiles every distinct portable kernel of the given `.ck` inputs (default: the instance
# library and tests/fixtures/kernels) for AMD (clang-19 HIP: gfx90a, gfx942, gfx1100, gfx1201)
# and NVIDIA (NVRTC 13.0 to sm_90a cubins: sm_90 with the warpgroup MMAs the H100 and H200 run). Any compile error fails.
#
#   scripts/compile-check.sh [--update-ledger | --all] [PATH...]
#
# The ledger (scripts/compile-ledger.txt) lists the SHA-256 of every library kernel text that
# compiled for all five targets, under a stamp of the toolchains and of the scripts that drive
# them. By default a kernel in the ledger is compiled again only if it falls in the day's
# sample (the CK_LEDGER_SAMPLE listed kernels, default 40, whose hashes with the date or
# CK_LEDGER_SEED come first: a fixed count, so the check's cost does not grow with the
# library); every other kernel is compiled. With another stamp nothing is skipped.
# Kernels this machine compiled under the same stamp are remembered outside the clone
# ($CK_COMPILE_CACHE, default ~/.cache/ckdsl/compile-check) and skipped like the ledger's.
# --update-ledger compiles every kernel and, when all compile, rewrites the ledger; --all
# compiles every kernel and uses neither.
#
# CK_SRC=DIR compiles the `.hip` files of DIR instead (no cargo: tests run it while cargo holds
# its build lock; no ledger).
# scripts/setup.sh installs the toolchains. CK_SKIP_AMD=1 / CK_SKIP_NVRTC=1 skip one side;
# CK_JOBS sets the parallelism (default: the core count); CK_BATCH the kernels per AMD
# translation unit. Instances that derive the same constants share one kernel, so each distinct
# kernel is compiled once per target; AMD compiles them in batches (one namespace per kernel)
# so that <hip/hip_runtime.h> is parsed once per batch, and the first kernel also on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=${CK_WORK:-$ROOT/target/compile-check}
NVRTC_SITE=${CK_NVRTC_SITE:-$ROOT/target/nvrtc/site}
JOBS=${CK_JOBS:-$(nproc)}
BATCH=${CK_BATCH:-12}
AMD_ARCHS=(gfx90a gfx942 gfx1100 gfx1201)

MODE=ledger
case ${1:-} in
    --update-ledger) MODE=update; shift ;;
    --all) MODE=all; shift ;;
esac
LEDGER=${CK_LEDGER:-$ROOT/scripts/compile-ledger.txt}
inputs=("$@")
# The ledger speaks for the library alone.
((${#inputs[@]} == 0)) || [[ $MODE != update ]] || { echo "--update-ledger takes no paths" >&2; exit 2; }
((${#inputs[@]} == 0)) || MODE=all
if ((${#inputs[@]} == 0)); then
    inputs=(instances)
    [[ -d tests/fixtures/kernels ]] && inputs+=(tests/fixtures/kernels)
fi

rm -rf "$WORK/batch" "$WORK/amd"
mkdir -p "$WORK/batch" "$WORK/amd"
if [[ -n ${CK_SRC:-} ]]; then
    srcs=("$CK_SRC"/*.hip)
    MODE=all
else
    rm -rf "$WORK/src"
    cargo run -q -p ckc -- emit hip "${inputs[@]}" --out "$WORK/src"
    srcs=("$WORK"/src/*.hip)
    echo "$(wc -l <"$WORK/src/kernels.txt") instances, ${#srcs[@]} distinct kernels"
fi

# What a ledger entry vouches for: the toolchains, and the files that set their flags.
stamp() {
    local nvrtc
    nvrtc=$(cd "$NVRTC_SITE" 2>/dev/null && ls -d nvidia_cuda_nvrtc-*.dist-info 2>/dev/null | head -n 1)
    echo "# $(clang++-19 --version | head -n 1)" \
        "| $(dpkg-query -W -f='${Package} ${Version} ' libamdhip64-dev rocm-device-libs 2>/dev/null)" \
        "| ${nvrtc:-no NVRTC}" \
        "| $(cat "$ROOT/scripts/compile-check.sh" "$ROOT/runtime/examples/nvrtc_check.rs" \
            "$ROOT/runtime/src/cuda/nvrtc.rs" | sha256sum | cut -c1-16)"
}
declare -A hash_of
for src in "${srcs[@]}"; do
    hash_of[$src]=$(sha256sum "$src" | cut -c1-64)
done
# Kernels this machine compiled before under the same stamp, kept outside the clone.
CACHE=${CK_COMPILE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/ckdsl/compile-check}
STAMP=$(stamp)
SEEN=$CACHE/$(echo "$STAMP" | sha256sum | cut -c1-16).txt
declare -A known
ledger_ok=0
if [[ -f $LEDGER && $(head -n 1 "$LEDGER") == "$STAMP" ]]; then
    ledger_ok=1
    while read -r h; do known[$h]=1; done < <(tail -n +2 "$LEDGER")
fi
if [[ -f $SEEN ]]; then
    while read -r h; do known[$h]=1; done <"$SEEN"
fi
if [[ $MODE == ledger && ${#known[@]} -gt 0 ]]; then
    seed=${CK_LEDGER_SEED:-$(date -u +%F)}
    sample=${CK_LEDGER_SAMPLE:-40}
    # Listed kernels ranked by their hash with the seed; the first `sample` are compiled again.
    declare -A resample
    while read -r _ h; do
        resample[$h]=1
    done < <(for src in "${srcs[@]}"; do
        h=${hash_of[$src]}
        [[ -n ${known[$h]:-} ]] && echo "$(printf '%s %s' "$h" "$seed" | sha256sum | cut -c1-16) $h"
    done | sort | head -n "$sample")
    chosen=()
    skipped=0
    for src in "${srcs[@]}"; do
        h=${hash_of[$src]}
        if [[ -n ${known[$h]:-} && -z ${resample[$h]:-} ]]; then
            skipped=$((skipped + 1))
        else
            chosen+=("$src")
        fi
    done
    echo "ledger: ${#srcs[@]} kernels, $skipped compiled before (ledger $LEDGER: $( ((ledger_ok)) && echo "this stamp" || echo "another stamp"); $SEEN) and skipped, ${#chosen[@]} to compile (new, changed, or in the day's sample of $sample, seed '$seed')"
    srcs=("${chosen[@]}")
elif [[ $MODE == ledger ]]; then
    echo "ledger: none for these toolchains ($LEDGER); compiling every kernel"
fi
if ((${#srcs[@]} == 0)); then
    echo "nothing to compile"
    exit 0
fi

amd() {
    # Debian ships oclc_isa_version bitcode only up to gfx940 / gfx1036: synthesise the missing ones
    # (each defines one constant) next to symlinks of the shipped files.
    local devlibs=$WORK/devlibs
    mkdir -p "$devlibs"
    ln -sf /usr/lib/x86_64-linux-gnu/amdgcn/bitcode/*.bc "$devlibs/"
    for v in 9402:942 11000:1100 12001:1201; do
        local isa=${v%%:*} name=${v##*:}
        [[ -e $devlibs/oclc_isa_version_$name.bc ]] && continue
        printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' "$isa" >"$WORK/isa$name.ll"
        clang-19 -target amdgcn-amd-amdhsa -nogpulib -c -emit-llvm "$WORK/isa$name.ll" -o "$devlibs/oclc_isa_version_$name.bc"
    done
    # Batches: the runtime header first (its include guard makes each kernel's own include a no-op),
    # then every kernel in its own namespace; its extern "C" entry points keep their names.
    local i=0 b
    for src in "${srcs[@]}"; do
        b=$WORK/batch/b$(printf %03d $((i / BATCH))).hip
        [[ -e $b ]] || echo '#include <hip/hip_runtime.h>' >"$b"
        printf 'namespace k%d {\n#include "%s"\n}\n#undef CK_ENTRY\n#undef CK_ENTRY_THREADS\n' "$i" "$src" >>"$b"
        i=$((i + 1))
    done
    export WORK devlibs
    # The first kernel alone too: the namespaces would hide a clash with a global name.
    for unit in "${srcs[0]}" "$WORK"/batch/*.hip; do
        for a in "${AMD_ARCHS[@]}"; do echo "$unit $a"; done
    done | xargs -P "$JOBS" -L 1 bash -c '
        clang++-19 -x hip -std=c++17 --rocm-path=/usr --hip-device-lib-path="$devlibs" --cuda-device-only \
            -O3 --offload-arch="$1" --no-gpu-bundle-output -c "$0" \
            -o "$WORK/amd/$(basename "${0%.hip}")-$1.o" \
            || { echo "AMD compile FAILED: $0 for $1" >&2; exit 255; }'
    echo "AMD: ${#srcs[@]} kernels x ${#AMD_ARCHS[@]} targets OK"
}

nvrtc() {
    local lib=$NVRTC_SITE/nvidia/cu13/lib
    [[ -e $lib/libnvrtc.so.13 ]] || { echo "NVRTC 13 not found under $lib (run scripts/setup.sh)" >&2; return 1; }
    LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} RAYON_NUM_THREADS=$JOBS \
        cargo run -q -p ck-runtime --features cuda --example nvrtc_check -- sm_90a "${srcs[@]}"
}

# Both sides at once: each keeps the cores busy while the other finishes its last jobs.
pids=()
[[ ${CK_SKIP_AMD:-0} == 1 ]] || { amd & pids+=($!); }
[[ ${CK_SKIP_NVRTC:-0} == 1 ]] || { nvrtc & pids+=($!); }
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
if [[ $MODE != all && $status == 0 && ${CK_SKIP_AMD:-0} != 1 && ${CK_SKIP_NVRTC:-0} != 1 ]]; then
    # Remembered on this machine, for the next run's skip list.
    if mkdir -p "$CACHE" 2>/dev/null; then
        { [[ -f $SEEN ]] && cat "$SEEN"; for src in "${srcs[@]}"; do echo "${hash_of[$src]}"; done; } \
            | sort -u >"$SEEN.$$" && mv "$SEEN.$$" "$SEEN"
    fi
    if [[ $MODE == update ]]; then
        { echo "$STAMP"; for src in "${srcs[@]}"; do echo "${hash_of[$src]}"; done | sort -u; } >"$LEDGER"
        echo "ledger: $(($(wc -l <"$LEDGER") - 1)) kernels recorded in $LEDGER"
    fi
fi
exit $status
