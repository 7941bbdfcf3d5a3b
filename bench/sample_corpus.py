#!/usr/bin/env python3
"""Picks a benchmark sample of the network corpus: up to `--per-class` layers of each layer
class (stems and other inputs of at most 4 channels, outputs of at most 4, channel counts not a
multiple of 8, patch embeddings, 1-D, depthwise, grouped, 3-D, 1x1, the rest), each from another
model where the class has several, in corpus order; or, with `--per-model N`, up to N layers
of each model drawn at random (seeded), for per-model figures: every model's share of the
sample is its own layers, not those of its classes. Deterministic: the same corpus gives the
same sample.

    python3 bench/sample_corpus.py bench/networks/corpus.json --out bench/networks/sample.json
    python3 bench/sample_corpus.py bench/networks/corpus.json --per-model 12 --out models.json
"""
import argparse
import json
import random
from collections import OrderedDict


def per_class(shapes, n):
    by_class = OrderedDict()
    for s in shapes:
        by_class.setdefault(s["class"], []).append(s)
    sample = []
    for cls, group in by_class.items():
        # One layer per model first, then the rest, in corpus order.
        seen, first, rest = set(), [], []
        for s in group:
            (rest if s["models"][0] in seen else first).append(s)
            seen.add(s["models"][0])
        sample.extend((first + rest)[:n])
    return sample


def per_model(shapes, n, seed):
    by_model = OrderedDict()
    for s in shapes:
        for m in s["models"]:
            by_model.setdefault(m, []).append(s)
    rng = random.Random(seed)
    names = set()
    for layers in by_model.values():
        names.update(s["name"] for s in rng.sample(layers, min(n, len(layers))))
    # Corpus order, each layer once however many models drew it.
    return [s for s in shapes if s["name"] in names]



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-class", type=int, default=5)
    ap.add_argument("--per-model", type=int, help="up to N random layers of each model instead")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    corpus = json.load(open(a.corpus))
    shapes = corpus["shapes"]
    if a.per_model:
        sample = per_model(shapes, a.per_model, a.seed)
        about = f"{a.per_model} random layers a model (seed {a.seed}) of {a.corpus}, picked by bench/sample_corpus.py."
    else:
        sample = per_class(shapes, a.per_class)
        about = f"{a.per_class} layers a class of {a.corpus}, picked by bench/sample_corpus.py."
    body = ",\n".join("  " + json.dumps(s, separators=(",", ":")) for s in sample)
    with open(a.out, "w") as fh:
        fh.write(f'{{\n "about": {json.dumps(about)},\n "shapes": [\n{body}\n ]\n}}\n')
    models = {m for s in sample for m in s["models"]}
    print(f"{len(sample)} layers of {len(models)} models")


if __name__ == "__main__":
    main()
