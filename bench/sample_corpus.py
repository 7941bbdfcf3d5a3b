#!/usr/bin/env python3
"""Picks a benchmark sample of the network corpus: up to `--per-class` layers of each layer
class (stems and other inputs of at most 4 channels, outputs of at most 4, channel counts not a
multiple of 8, patch embeddings, 1-D, depthwise, grouped, 3-D, 1x1, the rest), each from another
model where the class has several, in corpus order. Deterministic: the same corpus gives the
same sample.

    python3 bench/sample_corpus.py bench/networks/corpus.json --out bench/networks/sample.json
"""
import argparse
import json
from collections import OrderedDict



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-class", type=int, default=5)
    a = ap.parse_args()
    corpus = json.load(open(a.corpus))
    by_class = OrderedDict()
    for s in corpus["shapes"]:
        by_class.setdefault(s["class"], []).append(s)
    sample = []
    for cls, shapes in by_class.items():
        # One layer per model first, then the rest, in corpus order.
        seen, first, rest = set(), [], []
        for s in shapes:
            (rest if s["models"][0] in seen else first).append(s)
            seen.add(s["models"][0])
        for s in (first + rest)[: a.per_class]:
            sample.append(s)
    body = ",\n".join("  " + json.dumps(s, separators=(",", ":")) for s in sample)
    about = f"{a.per_class} layers a class of {a.corpus}, picked by bench/sample_corpus.py."
    with open(a.out, "w") as fh:
        fh.write(f'{{\n "about": {json.dumps(about)},\n "shapes": [\n{body}\n ]\n}}\n')
    print(f"{len(sample)} layers in {len(by_class)} classes")


if __name__ == "__main__":
    main()
