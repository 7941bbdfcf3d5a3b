#!/usr/bin/env python3
"""Trains the run-time models selection uses, from the training table `ckc features` writes.

A development tool (LightGBM and NumPy from PyPI); neither the build nor the tests need it.

    venv/bin/python bench/train_selection.py TABLE.csv [TABLE.csv ...] \
        [--corpus SHAPES.json ...] --out MODEL_DIR [--holdout 0.2] [--seed 1]

One LightGBM regressor per op predicts log2 of an instance's microseconds from its features (the
table's columns after `us`), the runs of entries that stream a problem and of padded copies
included: their analytic estimates are features. The shapes files (default:
bench/networks/corpus.json and its variants.json) name each layer's models; runs of shapes they
do not name (the benchmark suite's) are left out, so that the suite scores the models out of
sample. The validation split holds out whole networks: a shape whose models are all held out is
validation, one with any trained model is training, so no layer of a validation network is ever
trained on. For each validation (shape, op) the instance ranked first as selection ranks (the
model's time, a run on an entry that streams the problem leaning on the entry's estimate) is
looked up in the measured times and compared with the fastest: mean / median / P10 / worst of
best ÷ chosen, next to the analytic cost model's choice (the `log2_cost` feature) on the same
rows. Each model is written as MODEL_DIR/<op>.json in the format `runtime/src/gbdt.rs`
evaluates, with the validation rows' features and LightGBM's predictions in
MODEL_DIR/<op>_validation.json and the validation problems' measured times in
MODEL_DIR/<op>_selection.json.

    venv/bin/python bench/train_selection.py --fixture runtime/tests/fixtures/gbdt_small.json

writes the small model and LightGBM predictions the evaluator's test compares against.
"""

import argparse
import csv
import json
import math
import random
import sys

# The columns ahead of the features (`ck_runtime::timings::META`).
META = ["shape", "problem", "instance", "card", "us"]

# How much of a streamed run's log2 prediction is its entry's analytic estimate
# (`ck_runtime::time_model::ENTRY_WEIGHT`: the runtime ranks the same way).
ENTRY_WEIGHT = 0.25

# Learning rate, boosting rounds and leaves a tree of each op's model where they differ from the
# defaults (0.1, 300, 127); --rate, --rounds and --leaves override them. Forward and backward data learn at half the
# rate over twice the rounds: on five other seeds' splits by network they chose better in mean
# on every split and in P10 on most (docs/performance.md, "Half the rate, twice the rounds").
# Backward weight keeps the rate and rounds: twice its trees would put its selection past its
# host budget. It grows trees of 191 leaves instead: with the H100 corpus runs of every type,
# on three other seeds' splits by network it chose as well as with 255 leaves and better than
# with 127 (docs/performance.md, "Selection for tf32"). Backward data stops at 400 rounds: on
# two other seeds' splits it chose as well as with 600 (mean 97.8 % on both, P10 within a
# point), and on seed 1's and on 42 layers no run trained on it chose better
# (docs/performance.md, "Selection after these runs").
OP_PARAMS = {
    "fwd": {"rate": 0.05, "rounds": 600},
    "bwd_data": {"rate": 0.05, "rounds": 400},
    "bwd_weight": {"leaves": 191},
}


def ranked(raw, xs, feats):
    """The log2 µs selection ranks by: the model's, a streamed run's leaning on its entry's
    estimate."""
    import numpy as np
    streamed = xs[:, feats.index("streamed")] == 1.0
    entry = xs[:, feats.index("log2_entry_us")]
    return np.where(streamed, (1 - ENTRY_WEIGHT) * raw + ENTRY_WEIGHT * entry, raw)


def export(booster, base=0.0):
    """The booster as `ckdsl-gbdt 1`: per tree LightGBM's node arrays."""
    dump = booster.dump_model()
    trees = []
    for info in dump["tree_info"]:
        root = info["tree_structure"]
        if "leaf_value" in root:
            trees.append({"split": [], "threshold": [], "left": [], "right": [],
                          "nan_left": [], "leaf": [root["leaf_value"]]})
            continue
        nodes, leaves = [], {}

        def walk(n):
            if "leaf_value" in n:
                leaves[n["leaf_index"]] = n["leaf_value"]
                return -(n["leaf_index"] + 1)
            if n["decision_type"] != "<=":
                sys.exit(f"unsupported split {n['decision_type']}")
            i = n["split_index"]
            while len(nodes) <= i:
                nodes.append(None)
            # NaN: LightGBM sends it by default_left where missing values are NaN; with
            # missing_type None it compares as 0.
            if n["missing_type"] == "Zero":
                sys.exit("zero-as-missing splits are not supported")
            if n["missing_type"] == "NaN":
                nan_left = n["default_left"]
            else:
                nan_left = 0.0 <= n["threshold"]
            node = {"split": n["split_feature"], "threshold": n["threshold"],
                    "nan_left": nan_left}
            nodes[i] = node
            node["left"] = walk(n["left_child"])
            node["right"] = walk(n["right_child"])
            return i

        walk(root)
        trees.append({
            "split": [n["split"] for n in nodes],
            "threshold": [n["threshold"] for n in nodes],
            "left": [n["left"] for n in nodes],
            "right": [n["right"] for n in nodes],
            "nan_left": [n["nan_left"] for n in nodes],
            "leaf": [leaves[i] for i in range(len(leaves))],
        })
    return {"format": "ckdsl-gbdt 1", "features": dump["feature_names"], "base": base,
            "trees": trees}


def fixture(path):
    import lightgbm as lgb
    import numpy as np
    rng = np.random.default_rng(7)
    x = rng.uniform(-4, 4, size=(400, 5))
    y = np.sin(x[:, 0]) * x[:, 1] + np.where(x[:, 2] > 0.5, 2.0, -1.0) + 0.1 * x[:, 3] ** 2
    names = [f"f{i}" for i in range(5)]
    ds = lgb.Dataset(x, y, feature_name=names)
    booster = lgb.train({"objective": "regression", "num_leaves": 15, "learning_rate": 0.1,
                         "verbose": -1, "seed": 7}, ds, num_boost_round=40)
    rows = x[:25].tolist()
    out = {"model": export(booster), "rows": rows,
           "predictions": booster.predict(np.array(rows)).tolist()}
    with open(path, "w") as f:
        json.dump(out, f)
        f.write("\n")


def quantiles(fr):
    fr = sorted(fr)
    n = len(fr)
    med = fr[n // 2] if n % 2 else (fr[n // 2 - 1] + fr[n // 2]) / 2
    p10 = fr[max(1, math.ceil(0.1 * n)) - 1]
    return {"n": n, "mean": sum(fr) / n, "median": med, "p10": p10, "worst": fr[0]}


def train(args):
    import lightgbm as lgb
    import numpy as np
    rows, header = [], None
    for path in args.tables:
        with open(path) as f:
            r = csv.reader(f)
            h = next(r)
            if header is None:
                header = h
            elif h != header:
                sys.exit(f"{path}: another feature set")
            rows.extend(r)
    feats = header[len(META):]
    models_of = {s["name"]: s.get("models", [])
                 for path in args.corpus for s in json.load(open(path))["shapes"]}
    nets = sorted({m for ms in models_of.values() for m in ms})
    rng = random.Random(args.seed)
    held = set(rng.sample(nets, max(1, round(args.holdout * len(nets)))))
    ops = [c for c in feats if c.startswith("op=")]
    report = {}
    for op in ops:
        col = feats.index(op)
        # A shape no shapes file names (the benchmark suite's) is neither trained on nor
        # validated: `tests/tests/selection.rs` scores the models on the suite out of sample.
        sel = [r for r in rows if float(r[len(META) + col]) == 1.0 and r[0] in models_of]
        if not sel:
            continue
        valid = lambda r: all(m in held for m in models_of[r[0]])
        tr = [r for r in sel if not valid(r)]
        va = [r for r in sel if valid(r)]
        x = lambda rs: np.array([[float(v) for v in r[len(META):]] for r in rs])
        y = lambda rs: np.log2(np.array([float(r[4]) for r in rs]))
        name = op.split("=", 1)[1]
        params = {"rate": 0.1, "rounds": 300, "leaves": 127, **OP_PARAMS.get(name, {})}
        rate = args.rate if args.rate is not None else params["rate"]
        rounds = args.rounds if args.rounds is not None else params["rounds"]
        leaves = args.leaves if args.leaves is not None else params["leaves"]
        ds = lgb.Dataset(x(tr), y(tr), feature_name=feats)
        booster = lgb.train({"objective": "regression", "num_leaves": leaves,
                             "learning_rate": rate, "min_data_in_leaf": 10, "feature_fraction": 0.8,
                             "bagging_fraction": 0.8, "bagging_freq": 1, "verbose": -1,
                             "max_depth": args.depth, "seed": args.seed}, ds,
                            num_boost_round=rounds)
        with open(f"{args.out}/{name}.json", "w") as f:
            json.dump(export(booster), f)
        result = {"train_rows": len(tr), "validation_rows": len(va)}
        if va:
            raw = booster.predict(x(va))
            rank = ranked(raw, x(va), feats)
            cost = x(va)[:, feats.index("log2_cost")]
            # One choice per problem (a shape in one data type) and card: times of two cards
            # are not compared.
            by_problem = {}
            for r, p, c in zip(va, rank, cost):
                by_problem.setdefault((r[3], r[1]), []).append((float(r[4]), p, c, r[2]))
            model_fr, cost_fr, by_type = [], [], {}
            for (_, problem), runs in by_problem.items():
                best = min(u for u, _, _, _ in runs)
                model_fr.append(best / min(runs, key=lambda t: t[1])[0])
                cost_fr.append(best / min(runs, key=lambda t: t[2])[0])
                dtype = problem.split(" in=", 1)[1].split()[0] if " in=" in problem else "?"
                by_type.setdefault(dtype, []).append(model_fr[-1])
            result["model"] = quantiles(model_fr)
            result["model_by_type"] = {t: quantiles(fr) for t, fr in sorted(by_type.items())}
            result["cost_model"] = quantiles(cost_fr)
            with open(f"{args.out}/{name}_validation.json", "w") as f:
                json.dump({"features": feats, "rows": x(va)[:200].tolist(),
                           "predictions": raw[:200].tolist()}, f)
            # The validation problems' measured times, for the runtime's own check of its
            # choices (one problem string a shape, sorted for a stable file): of a problem
            # timed on several cards, the card that timed the most of its instances.
            runs_of = {}
            for (card, problem), runs in sorted(by_problem.items()):
                if len(runs) > len(runs_of.get(problem, [])):
                    runs_of[problem] = runs
            with open(f"{args.out}/{name}_selection.json", "w") as f:
                json.dump({"held_out_networks": sorted(held),
                           "problems": {p: sorted([[i, u] for u, _, _, i in v])
                                        for p, v in sorted(runs_of.items())}},
                          f, separators=(",", ":"))
        report[name] = result
    report["held_out_networks"] = sorted(held)
    json.dump(report, sys.stdout, indent=1)
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tables", nargs="*")
    ap.add_argument("--corpus", action="append",
                    help="shapes files naming each layer's models (default: the corpus and its variants)")
    ap.add_argument("--out", default=".")
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--rounds", type=int, help="boosting rounds (default: 300, or the op's OP_PARAMS)")
    ap.add_argument("--leaves", type=int, help="leaves a tree (default: 127, or the op's OP_PARAMS)")
    ap.add_argument("--rate", type=float, help="learning rate (default: 0.1, or the op's OP_PARAMS)")
    ap.add_argument("--depth", type=int, default=-1,
                    help="the deepest a tree grows (-1: no bound but the leaves)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fixture")
    args = ap.parse_args()
    args.corpus = args.corpus or ["bench/networks/corpus.json", "bench/networks/variants.json"]
    if args.fixture:
        fixture(args.fixture)
    elif args.tables:
        train(args)
    else:
        ap.error("give training tables or --fixture")


if __name__ == "__main__":
    main()
