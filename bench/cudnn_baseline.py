#!/usr/bin/env python3
"""cuDNN baseline for the shape suite, through PyTorch, on an NVIDIA GPU.

Times cuDNN's best algorithm (cudnn.benchmark=True) for grouped convolution in channels-last layout
(NHWGC input, GKYXC weight, NHWGK output; NDHWGC etc. for 3D), fp16, bf16, fp32 (exact) or tf32 (fp32
tensors, TF32 math allowed), for the forward pass, the
data gradient or the weight gradient. Each measurement replays a CUDA graph of `--reps` calls between
two CUDA events, so host launch overhead is excluded, and reports the median over `--trials` graphs.
Rotating inputs are not used: the suite's tensors are small enough that the baseline is cache-warm, the
same as a kernel timed in a loop.

  python3 cudnn_baseline.py --shapes shapes.json --op bwd_weight --dtype fp16 --out cudnn.json

Output JSON: one row per shape with name, op, dtype, median_us, tflops, and the error of cuDNN's result
against an fp64 reference (relative Frobenius norm), which also shows the tolerance cuDNN itself meets.
"""
import argparse, json, statistics, sys
import torch


def out_size(i, f, s, d, lp, rp):
    return (i + lp + rp - d * (f - 1) - 1) // s + 1


def layout_of(x, nd):
    return [torch.contiguous_format, torch.contiguous_format, torch.channels_last,
            torch.channels_last_3d][nd]


def conv_call(op, sh, x, w, dy):
    nd = sh["ndim"]
    G = sh["G"]
    stride, dil = sh["stride"], sh["dilation"]
    pad = sh["left_pad"]
    if sh["left_pad"] != sh["right_pad"]:
        # PyTorch pads both sides alike: the input is padded explicitly (its copy is not timed),
        # so the data gradient is that of the padded input, a few rows larger.
        widths = [w for l, r in zip(reversed(sh["left_pad"]), reversed(sh["right_pad"])) for w in (l, r)]
        x = torch.nn.functional.pad(x, widths).contiguous(memory_format=layout_of(x, nd))
        pad = [0] * nd
    if op == "fwd":
        fn = [None, torch.nn.functional.conv1d, torch.nn.functional.conv2d, torch.nn.functional.conv3d][nd]
        return lambda: fn(x, w, None, stride, pad, dil, G)
    mask = [op == "bwd_data", op == "bwd_weight", False]
    idx = 0 if op == "bwd_data" else 1
    return lambda: torch.ops.aten.convolution_backward(dy, x, w, None, stride, pad, dil, False,
                                                       [0] * nd, G, mask)[idx]


def flops(sh):
    outs = [out_size(i, f, s, d, lp, rp) for i, f, s, d, lp, rp in
            zip(sh["input"], sh["filter"], sh["stride"], sh["dilation"], sh["left_pad"], sh["right_pad"])]
    n = 2 * sh["G"] * sh["K"] * sh["C"] * sh["N"]
    for f in sh["filter"]:
        n *= f
    for o in outs:
        n *= o
    return n, outs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--op", choices=["fwd", "bwd_data", "bwd_weight"], default="bwd_weight")
    # fp32: exact fp32 math; tf32: fp32 tensors with TF32 tensor-core math allowed (PyTorch's
    # default for convolutions).
    ap.add_argument("--dtype", choices=["fp16", "bf16", "fp32", "tf32"], default="fp16")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--trials", type=int, default=15)
    ap.add_argument("--only", default="", help="comma-separated shape names")
    ap.add_argument("--out", default="")
    # Large layers' fp64 references take longer than their timing: a sweep over a corpus skips them.
    ap.add_argument("--no-check", action="store_true", help="skip the fp64 reference (relerr null)")
    a = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = a.dtype == "tf32"
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32,
          "tf32": torch.float32}[a.dtype]
    shapes = json.load(open(a.shapes))["shapes"]
    if a.only:
        keep = set(a.only.split(","))
        shapes = [s for s in shapes if s["name"] in keep]
    # A corpus layer is timed only in the ops a training step runs on it.
    shapes = [s for s in shapes if a.op in s.get("ops", [a.op])]
    print(f"# torch {torch.__version__} cudnn {torch.backends.cudnn.version()} {torch.cuda.get_device_name()}",
          file=sys.stderr)
    rows = []
    for sh in shapes:
        nd, G, N, K, C = sh["ndim"], sh["G"], sh["N"], sh["K"], sh["C"]
        fl, outs = flops(sh)
        mf = [None, None, torch.channels_last, torch.channels_last_3d][nd]
        def mk(*shape):
            t = torch.randn(*shape, device="cuda", dtype=dt)
            return t.to(memory_format=mf) if mf else t
        x = mk(N, G * C, *sh["input"])
        w = mk(G * K, C, *sh["filter"])
        dy = mk(N, G * K, *outs)
        fn = conv_call(a.op, sh, x, w, dy)
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                fn()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(a.reps):
                res = fn()
        times = []
        for _ in range(a.trials):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record(); g.replay(); e1.record(); torch.cuda.synchronize()
            times.append(e0.elapsed_time(e1) * 1000.0 / a.reps)
        us = statistics.median(times)
        err = None
        if not a.no_check:
            ref = conv_call(a.op, sh, x.double(), w.double(), dy.double())()
            err = ((res.double() - ref).norm() / ref.norm()).item()
        row = dict(name=sh["name"], op=a.op, dtype=a.dtype, median_us=round(us, 2),
                   tflops=round(fl / (us * 1e-6) / 1e12, 2), relerr=err)
        rows.append(row)
        # A sweep stopped by its time limit keeps what it timed.
        if a.out and len(rows) % 20 == 0:
            json.dump(rows, open(a.out, "w"), indent=1)
        print(f"{sh['name']:34s} {a.op:10s} {a.dtype} {us:9.2f} us {row['tflops']:8.1f} TFLOP/s err "
              + ("-" if err is None else f"{err:.1e}"), flush=True)
    if a.out:
        json.dump(rows, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
