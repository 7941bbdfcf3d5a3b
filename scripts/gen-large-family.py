#!/usr/bin/env python3
"""Writes a .ck file with one bwd-weight V3 XDL family that expands to at least N instances
(default 10,000): axes over ConvSpec, dtype, scheduler, pipeline version and groups to merge,
times rows of two tiles (transfers and C shuffle derived) at many split-K values.

Usage: scripts/gen-large-family.py [N] > large.ck; then `ckc check large.ck`.
"""

import itertools
import sys

AXES = [
    ("spec", ["default", "filter1x1_stride1_pad0", "filter1x1_pad0", "odd_c"]),
    ("dtype", ["fp16", "bf16"]),
    ("pipeline.scheduler", ["intrawave", "interwave"]),
    ("pipeline.version", ["v1", "v2"]),
    ("merge_groups", [1, 2, 4, 8]),
]
# (name, block, tile, instr, repeat)
TILES = [
    ("generic", 64, [32, 32, 32], [32, 32], [1, 1]),
    ("wide", 64, [32, 128, 32], [32, 32], [1, 4]),
]


def main() -> None:
    want = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    combos = 1
    for _, values in AXES:
        combos *= len(values)
    per_tile = -(-want // (combos * len(TILES)))  # ceiling division
    out = [
        f"/// A generated family of {combos * len(TILES) * per_tile} instances for timing `ckc check`.",
        "family large {",
        "    op = bwd_weight;",
        "    kind = xdl_v3;",
        "    dims = 2;",
        "    layout = nhwgc;",
        "    targets = [gfx90a, gfx942];",
        "    k1 = 8;",
    ]
    for key, values in AXES:
        out.append(f"    over {key} = [{', '.join(str(v) for v in values)}];")
    out.append("    rows (block, tile, instr, repeat, split_k) {")
    for (name, block, tile, instr, repeat), k in itertools.product(TILES, range(1, per_tile + 1)):
        out.append(f"        {name}_k{k} = ({block}, {tile}, {instr}, {repeat}, {k});")
    out.append("    }")
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
