#!/usr/bin/env bash
# Imports CK's grouped-convolution instance library into ck-port/ as .ck families, one file a CK
# instance file (`ckc import cpp --families`), mirroring CK's library/src folders; the files
# `import cpp` refuses (rows of ops or element-wise ops ckdsl has no format for) are listed with
# their first reason in ck-port/refused.txt. Not part of CI: it needs a CK tree.
#
#   scripts/ck-port.sh CK_TREE [RELEASE]
#
# CK_TREE holds CK's library/include and library/src; RELEASE is the `ckc import cpp
# --ck-release` it is (default 2024-10, the newest whole tree fetchable here). CK_COMMIT names a tree without git
# metadata; it goes into ck-port/SOURCE with the count of files and instances.
set -euo pipefail
CK=$(realpath "${1:?usage: ck-port.sh CK_TREE [RELEASE]}")
RELEASE=${2:-2024-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/ck-port
SRC=$CK/library/src/tensor_operation_instance/gpu
[[ -d $SRC && -d $CK/library/include ]] || { echo "no CK library at $CK" >&2; exit 2; }
COMMIT=${CK_COMMIT:-$(git -C "$CK" rev-parse HEAD 2>/dev/null || echo unknown)}
(cd "$ROOT" && cargo build -q --release -p ckc)
CKC=$ROOT/target/release/ckc
rm -rf "$OUT" && mkdir -p "$OUT"
: >"$OUT/refused.txt"
ported=0
while IFS= read -r cpp; do
  rel=${cpp#"$SRC"/}
  dst=$OUT/${rel%.cpp}.ck
  mkdir -p "$(dirname "$dst")"
  # From the tree's root, so that the families' doc comments name the file as CK does.
  if (cd "$CK" && "$CKC" import cpp "${cpp#"$CK"/}" -I library/include --families --ck-release "$RELEASE" --color never) \
    >"$dst" 2>"$OUT/.err"; then
    ported=$((ported + 1))
  else
    rm -f "$dst"
    echo "$rel: $(grep -m1 '^error' "$OUT/.err" | sed 's/^error: [^ ]* //')" >>"$OUT/refused.txt"
  fi
done < <(find "$SRC" -path '*grouped_conv*' -name '*.cpp' | LC_ALL=C sort)
rm -f "$OUT/.err"
instances=$("$CKC" emit traits "$OUT" | wc -l)
printf 'CK tree %s (release %s): %d instance files ported (%d instances), %d refused (refused.txt)\n' \
  "$COMMIT" "$RELEASE" "$ported" "$instances" "$(wc -l <"$OUT/refused.txt")" | tee "$OUT/SOURCE"
