#!/usr/bin/env python3
"""Where the library lags cuDNN over the network corpus, by layer class: a development tool.

Joins a saved cuDNN sweep of the corpus (`cudnn_baseline.py --no-check`, saved as
`{"meta": ..., "median_us": {op: {layer: µs}}}`) with the fastest verified run of each layer in
the selection measurements (`bench/selection/*.jsonl.gz`, `ckc bench --records`), and prints per
op the geometric mean of cuDNN µs / ours by class, the layers below a ratio, and the worst ones.
The two sides come from different runs (and the records from library versions that may since
have gained faster paths), so the ratios are a map of where to look, not benchmark figures:
those are measured side by side in one call (`docs/performance.md`).

  python3 bench/corpus_gaps.py bench/networks/cudnn_fp16_h200_2026-11-29.json.gz --dtype fp16
"""
import argparse, glob, gzip, json, math
from collections import defaultdict


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


def fastest(op, dtype, pattern):
    best = {}
    for path in glob.glob(pattern.format(op=op, dtype=dtype)):
        for line in gzip.open(path, "rt"):
            r = json.loads(line)
            if r["verified"] and r["us"] < best.get(r["shape"], (math.inf,))[0]:
                best[r["shape"]] = (r["us"], r["instance"])
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cudnn", help="the saved cuDNN sweep (.json or .json.gz)")
    ap.add_argument("--corpus", default="bench/networks/corpus.json")
    ap.add_argument("--records", default="bench/selection/{op}_{dtype}_*.jsonl.gz")
    ap.add_argument("--dtype", default="fp16")
    ap.add_argument("--below", type=float, default=0.5)
    ap.add_argument("--worst", type=int, default=10)
    a = ap.parse_args()
    opener = gzip.open if a.cudnn.endswith(".gz") else open
    with opener(a.cudnn, "rt") as f:
        sweep = json.load(f)["median_us"]
    classes = {s["name"]: s["class"] for s in json.load(open(a.corpus))["shapes"]}
    for op, cudnn in sweep.items():
        ours = fastest(op, a.dtype, a.records)
        rows = sorted((cudnn[s] / ours[s][0], s, ours[s][0], cudnn[s], ours[s][1])
                      for s in cudnn if s in ours and s in classes)
        if not rows:
            continue
        print(f"{op}: {len(rows)} layers with both (cuDNN {len(cudnn)}), geometric mean "
              f"{geomean([r[0] for r in rows]):.2f}x, {sum(r[0] < a.below for r in rows)} below {a.below}x")
        by = defaultdict(list)
        for r in rows:
            by[classes[r[1]]].append(r[0])
        for c, v in sorted(by.items(), key=lambda kv: -len(kv[1])):
            print(f"  {c:10s} {len(v):4d} {geomean(v):5.2f}x  below {a.below}x: {sum(x < a.below for x in v)}")
        for r in rows[:a.worst]:
            print(f"  {r[0]:5.2f}x {r[1]:58s} {r[2]:9.1f} {r[3]:9.1f}  {r[4]}")


if __name__ == "__main__":
    main()
