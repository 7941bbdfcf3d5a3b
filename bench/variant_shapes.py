#!/usr/bin/env python3
"""Random layers around the network corpus, for the selection models' training data.

A development tool, not needed by the build, the tests or CI. Each variant takes a corpus layer
and moves what a network designer would: batch size, image size (odd sizes too), channel counts
(odd ones too; inputs and outputs of at most 4 channels stay small), group counts, stride 1 or 2,
dilation 2 on 3x3 filters. Patch embeddings keep filter = stride. A variant keeps its parent's
models and ops, so the validation split (whole networks held out) keeps it on its parent's side.
Deterministic for a seed.

    python3 bench/variant_shapes.py bench/networks/corpus.json --per-layer 2 \\
        --out bench/networks/variants.json
"""
import argparse
import json
import math
import random

from corpus_shapes import layer_class, out_sizes

ELEMENT_BYTES = 2
# The runtime refuses tensors of 2 GB or more; the reference of a larger problem also costs the
# measuring run more than its instances' timings.
MAX_TENSOR_BYTES = 1 << 30
MAX_FLOPS = 25e9


def scaled(x, rng, odd_chance=0.15):
    """A channel or group count near `x`: mostly multiples of 8, sometimes odd."""
    if x <= 4:
        return x
    y = max(1, round(x * rng.choice([0.5, 0.75, 1, 1, 1.5, 2])))
    if rng.random() < odd_chance:
        return max(1, y + rng.choice([-3, -1, 1, 3, 5]))
    return max(8, (y + 4) // 8 * 8) if x >= 8 else y


def variant(s, rng):
    v = {k: (list(x) if isinstance(x, list) else x) for k, x in s.items()}
    v["N"] = max(1, min(256, round(s["N"] * rng.choice([0.25, 0.5, 1, 1, 2, 4]))))
    depthwise = s["G"] > 1 and s["C"] == 1 and s["K"] == 1
    if depthwise:
        v["G"] = scaled(s["G"], rng)
    elif s["G"] > 1:
        v["G"] = max(2, round(s["G"] * rng.choice([0.5, 1, 1, 2])))
        v["K"], v["C"] = scaled(s["K"], rng, 0.05), scaled(s["C"], rng, 0.05)
    else:
        v["K"], v["C"] = scaled(s["K"], rng), scaled(s["C"], rng)
    patch = s["filter"] == s["stride"] and s["filter"][0] > 1
    odd_filter = all(f % 2 == 1 and f > 1 for f in s["filter"])
    if odd_filter and rng.random() < 0.2:
        v["stride"] = [3 - s["stride"][0]] * len(s["stride"])
    if odd_filter and s["filter"][0] == 3 and rng.random() < 0.1:
        v["dilation"] = [2] * len(s["dilation"])
    if odd_filter:
        # "Same" padding for the filter and dilation.
        v["left_pad"] = v["right_pad"] = [(f - 1) * d // 2 for f, d in zip(s["filter"], v["dilation"])]
    scale = rng.choice([0.5, 0.75, 1, 1, 1.25, 1.5, 2])
    shift = rng.choice([0, 0, 0, 1, -1, 3])
    span = [(f - 1) * d + 1 for f, d in zip(s["filter"], v["dilation"])]
    v["input"] = [max(e, round(i * scale) + shift) for i, e in zip(s["input"], span)]
    if patch:
        v["input"] = [max(f, i // f * f) for i, f in zip(v["input"], s["filter"])]
    v["class"] = layer_class(v)
    return v


def fits(v):
    out = out_sizes(v["input"], v["filter"], v["stride"], v["dilation"], v["left_pad"], v["right_pad"])
    if min(out) < 1:
        return False
    flops = 2 * v["N"] * v["G"] * v["K"] * v["C"] * math.prod(out) * math.prod(v["filter"])
    tensors = [v["N"] * v["G"] * v["C"] * math.prod(v["input"]), v["G"] * v["K"] * v["C"] * math.prod(v["filter"]),
               v["N"] * v["G"] * v["K"] * math.prod(out)]
    return flops <= MAX_FLOPS and max(tensors) * ELEMENT_BYTES <= MAX_TENSOR_BYTES


def name(v, parent):
    dims = lambda xs: "x".join(map(str, xs))
    d = "" if all(x == 1 for x in v["dilation"]) else f"d{dims(v['dilation'])}"
    return (f"{parent.split('_g')[0]}_var_g{v['G']}k{v['K']}c{v['C']}_f{dims(v['filter'])}"
            f"s{dims(v['stride'])}{d}_i{dims(v['input'])}_n{v['N']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-layer", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    corpus = json.load(open(args.corpus))
    known = {s["name"] for s in corpus["shapes"]}
    rng = random.Random(args.seed)
    shapes = []
    for s in corpus["shapes"]:
        for _ in range(args.per_layer):
            for _attempt in range(8):
                v = variant(s, rng)
                v["name"] = name(v, s["name"])
                if fits(v) and v["name"] not in known:
                    known.add(v["name"])
                    shapes.append(v)
                    break
    about = (f"Random layers around bench/networks/corpus.json ({args.per_layer} a layer, seed "
             f"{args.seed}) by bench/variant_shapes.py; each keeps its parent's models and ops.")
    with open(args.out, "w") as f:
        f.write('{"about": %s,\n"shapes": [\n' % json.dumps(about))
        f.write(",\n".join(json.dumps(v, separators=(",", ":")) for v in shapes))
        f.write("\n]}\n")
    print(f"{len(shapes)} variants of {len(corpus['shapes'])} layers")


if __name__ == "__main__":
    main()
