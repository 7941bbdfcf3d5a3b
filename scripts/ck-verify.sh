#!/usr/bin/env bash
# Compiles the library's emitted CK C++ against a real CK tree, device-only, and reports each
# file. Not part of CI: a CK translation unit takes tens of seconds to minutes.
#
#   scripts/ck-verify.sh CK_TREE [RELEASE] [ARCHS]
#
# CK_TREE is a CK checkout (its include/ and library/include/); RELEASE the `ckc emit ck
# --ck-release` it is (default 2024-10); ARCHS the AMD targets (default "gfx90a gfx942").
# The library is emitted for that release; instances it lacks are left out and counted. Every
# emitted .cpp is compiled with clang-19 for each target, in parallel, its headers before CK's
# own (the emitted instance-list headers replace CK's files of the same names, which CK's other
# code includes). CK_VERIFY_MODE=syntax checks templates, static_asserts and overloads without
# generating code (about a fifth of the time); the default, `compile`, generates each target's
# device assembly at -O3 (no code object: linking would need the device libraries).
# Writes WORK/results.tsv (file, target, pass|fail, first error) and prints a summary;
# WORK is $CK_VERIFY_WORK or a temporary folder; CK_COMMIT names a tree without git metadata;
# CK_VERIFY_FILTER (an extended regex) keeps the .cpp files whose paths match;
# CK_VERIFY_LIBRARY names the .ck files or folder to emit (default: the library, instances/).
# Exit status 1 when any file fails.
set -uo pipefail
CK=$(realpath "${1:?usage: ck-verify.sh CK_TREE [RELEASE] [ARCHS]}")
RELEASE=${2:-2024-10}
ARCHS=${3:-gfx90a gfx942}
MODE=${CK_VERIFY_MODE:-compile}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${CK_VERIFY_WORK:-$(mktemp -d)}
mkdir -p "$WORK/config/ck" "$WORK/logs"
[[ -f $CK/include/ck/config.h.in ]] || { echo "no CK tree at $CK (include/ck/config.h.in)" >&2; exit 2; }

(cd "$ROOT" && cargo build -q --release -p ckc) || exit 2
rm -rf "$WORK/emitted"
"$ROOT/target/release/ckc" emit ck "${CK_VERIFY_LIBRARY:-$ROOT/instances}" --ck-release "$RELEASE" --out "$WORK/emitted" \
    2>"$WORK/left_out.txt" >/dev/null || { cat "$WORK/left_out.txt" >&2; exit 2; }
# CMake's configure step writes ck/config.h: every data type and XDL on, the rest as CMake
# leaves options it is not given.
sed -e 's/^#cmakedefine CK_ENABLE_ALL_DTYPES .*/#define CK_ENABLE_ALL_DTYPES ON/' \
    -e 's/^#cmakedefine CK_USE_XDL .*/#define CK_USE_XDL ON/' \
    -e 's|^#cmakedefine \([A-Z_0-9]*\).*|/* #undef \1 */|' \
    "$CK/include/ck/config.h.in" >"$WORK/config/ck/config.h"

case $MODE in
    syntax) OUTPUT=(-fsyntax-only) ;;
    compile) OUTPUT=(-O3 -S -o /dev/null) ;;
    *) echo "CK_VERIFY_MODE is syntax or compile" >&2; exit 2 ;;
esac
export CK WORK
export OUTPUT_FLAGS="${OUTPUT[*]}"
one() {
    local src=$1 arch=$2 log
    log=$WORK/logs/$(basename "${src%.cpp}")-$arch.log
    # shellcheck disable=SC2086
    if clang++-19 -x hip -std=c++17 --rocm-path=/usr -nogpulib --cuda-device-only \
        --offload-arch="$arch" $OUTPUT_FLAGS -I "$WORK/emitted/library/include" \
        -I "$WORK/config" -I "$CK/include" -I "$CK/library/include" "$src" >"$log" 2>&1; then
        printf '%s\t%s\tpass\t\n' "${src#"$WORK"/emitted/}" "$arch"
    else
        printf '%s\t%s\tfail\t%s\n' "${src#"$WORK"/emitted/}" "$arch" \
            "$(grep -m1 'error:' "$log" | cut -c1-300)"
    fi
}
export -f one
find "$WORK/emitted" -name '*.cpp' | sort | grep -E -- "${CK_VERIFY_FILTER:-.}" | while read -r src; do
    for arch in $ARCHS; do echo "$src $arch"; done
done | xargs -P "$(nproc)" -n 2 bash -c 'one "$0" "$1"' | sort >"$WORK/results.tsv"

# A tree unpacked from an archive has no git metadata: CK_COMMIT names it.
commit=${CK_COMMIT:-$(git -C "$CK" rev-parse HEAD 2>/dev/null || echo unknown)}
files=$(find "$WORK/emitted" -name '*.cpp' | grep -cE -- "${CK_VERIFY_FILTER:-.}")
pass=$(grep -c $'\tpass\t' "$WORK/results.tsv")
fail=$(grep -c $'\tfail\t' "$WORK/results.tsv")
echo "CK tree $CK (commit $commit), release $RELEASE, $MODE, $ARCHS"
left=$(sed -n 's/^warning: left out \([0-9]*\) instance.*/\1/p' "$WORK/left_out.txt" | awk '{s += $1} END {print s + 0}')
echo "$files emitted .cpp files; ${left:-0} instances left out (the release lacks their device op or type)"
echo "$pass passed, $fail failed (file x target); results in $WORK/results.tsv"
grep $'\tfail\t' "$WORK/results.tsv" | head -n 20
((fail == 0))
