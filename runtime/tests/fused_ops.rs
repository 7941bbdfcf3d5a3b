//! CK's fused forward ops on the CPU back end: the fp8 output ops and the combined scales
//! against values computed by hand (rounding included), every new result op against the fp64
//! reference on random data (a `G_K` D tensor among them).

use ck_compiler::ir::Checked;
use ck_compiler::model::{DataType, ElementOp, Layout};
use ck_runtime::reference::fresh_seed;
use ck_runtime::testing::{Variant, for_problem, forced, instance};
use ck_runtime::{ConvProblem, CpuBackend, ElementArgs, ProblemData};

/// A D tensor's layout and type.
type DTensor = (Layout, DataType);

/// The forward XDL test instance for `p` with `op` on the result, an fp32 C-shuffle type where
/// the op takes one (CK's fp8 ops read an fp32 result), and the D tensors the op combines.
fn fused(p: &ConvProblem, op: ElementOp, ds: &[DTensor]) -> Checked {
    forced(&for_problem(instance(Variant::FwdXdl), p), |i| {
        i.elementwise.output = op;
        if op.fp8_output() || p.dtype.output == DataType::Fp32 {
            i.types.cshuffle = DataType::Fp32;
        }
        i.layout.ds = ds.iter().map(|d| d.0).collect();
        i.types.ds = ds.iter().map(|d| d.1).collect();
    })
}

#[test]
fn fp8_output_ops_by_hand() {
    // One pixel, two channels in, two out: out[k] = Σ_c in[c] · wei[k][c] = [1, −0.125].
    let p = ConvProblem::parse("fwd 2d G=1 N=1 K=2 C=2 filter=1 input=1 dtype=fp8").unwrap();
    let args = ElementArgs {
        scale_in: 0.5,
        scale_wei: 3.0,
        scale_out: 5.5,
        ..ElementArgs::IDENTITY
    };
    // ConvScale: [1, −0.125] · 8.25 = [8.25, −1.03125], to fp8 (steps of 1 and 1/8 there):
    // [8, −1]. ConvInvscale: [1, −0.125] / 8.25 = [0.1212…, −0.01515…], steps of 2^-7 and
    // 2^-10: [0.125, −0.015625]. ConvScaleRelu: relu first, [8, 0].
    let cases = [
        (ElementOp::ConvScale, [8.0, -1.0]),
        (ElementOp::ConvInvscale, [0.125, -0.015625]),
        (ElementOp::ConvScaleRelu, [8.0, 0.0]),
    ];
    for (op, want) in cases {
        let inst = fused(&p, op, &[]);
        let mut data = ProblemData::random(&inst, &p, 1).unwrap();
        for (i, v) in [1.5, -0.5].into_iter().enumerate() {
            data.input.set(i, v);
        }
        // GKYXC with 1x1 filters: wei[k][c] at k·C + c.
        for (i, v) in [2.0, 4.0, 0.25, 1.0].into_iter().enumerate() {
            data.weight.set(i, v);
        }
        data.args = args;
        data.run(&CpuBackend::default(), &inst, &p).unwrap();
        assert_eq!(data.output.to_f32(), want, "{op}");
    }
    // ConvScaleAdd adds the fp32 D value before the output scale: (1·1.5 + 0.625)·5.5 =
    // 11.6875 → 12 (steps of 1 from 8), (−0.125·1.5 − 0.3125)·5.5 = −2.75.
    let inst = fused(
        &p,
        ElementOp::ConvScaleAdd,
        &[(Layout::Nhwgk, DataType::Fp32)],
    );
    let mut data = ProblemData::random(&inst, &p, 1).unwrap();
    for (i, v) in [1.5, -0.5].into_iter().enumerate() {
        data.input.set(i, v);
    }
    for (i, v) in [2.0, 4.0, 0.25, 1.0].into_iter().enumerate() {
        data.weight.set(i, v);
    }
    for (i, v) in [0.625, -0.3125].into_iter().enumerate() {
        data.ds[0].set(i, v);
    }
    data.args = args;
    data.run(&CpuBackend::default(), &inst, &p).unwrap();
    assert_eq!(data.output.to_f32(), [12.0, -2.75]);
}

#[test]
fn every_fused_result_op_matches_the_reference() {
    let cpu = CpuBackend::default();
    let fp8 = "fwd 3d G=2 N=2 K=16 C=8 filter=3 input=5 pad=1 dtype=fp8";
    let fp8_fp32 = "fwd 3d G=2 N=2 K=16 C=8 filter=3 input=5 pad=1 in=fp8 wei=fp8 out=fp32";
    let fp16 = "fwd 3d G=2 N=2 K=16 C=8 filter=3 input=5 stride=2 pad=1 dtype=fp16";
    let bf16 = "fwd 3d G=2 N=2 K=16 C=8 filter=3 input=5 pad=1 dtype=bf16";
    let out = Layout::Ndhwgk;
    let cases: [(&str, ElementOp, &[DTensor]); 11] = [
        (fp8, ElementOp::ConvScale, &[]),
        (fp8, ElementOp::ConvScaleRelu, &[]),
        (fp8, ElementOp::ConvInvscale, &[]),
        (fp8, ElementOp::ConvScaleAdd, &[(out, DataType::Fp32)]),
        (fp8_fp32, ElementOp::ScaleScalePass, &[]),
        (fp8_fp32, ElementOp::ScaleScaleRelu, &[]),
        (fp8, ElementOp::ScaleScalePass, &[]),
        (fp16, ElementOp::ScaleScalePass, &[]),
        (fp16, ElementOp::ScaleScaleRelu, &[]),
        (bf16, ElementOp::ScaleScaleRelu, &[]),
        (
            fp16,
            ElementOp::ScaleAddScaleAddRelu,
            &[(out, DataType::Fp16), (Layout::GK, DataType::Fp16)],
        ),
    ];
    for (problem, op, ds) in cases {
        let p = ConvProblem::parse(problem).unwrap();
        let inst = fused(&p, op, ds);
        let mut data = ProblemData::random(&inst, &p, fresh_seed()).unwrap();
        data.run(&cpu, &inst, &p)
            .unwrap_or_else(|e| panic!("{op} on `{p}`: {e}"));
        let v = data.verify(&p).unwrap();
        assert!(v.passed(), "{op} seed {}: {v}", data.seed);
        // The scalars are used: twice the input scale (or alpha) is another result.
        let mut other = data.clone();
        other.args.scale_in *= 2.0;
        other.args.alpha *= 2.0;
        let v = other.verify(&p).unwrap();
        assert!(!v.passed(), "{op}: {v}");
    }
}

/// The combined op of `op` on one pixel of one input channel `x` and weights `[1, −1]`,
/// stored in `dtype` from a C-shuffle value of `cshuffle`, with input and weight scales
/// `s_in`, `s_wei`: CK's `[y, op(−x)]` after its per-step rounding.
fn combined(op: ElementOp, dtype: &str, cshuffle: DataType, x: f32, s: [f32; 2]) -> Vec<f32> {
    let problem = format!("fwd 2d G=1 N=1 K=2 C=1 filter=1 input=1 dtype={dtype}");
    let p = ConvProblem::parse(&problem).unwrap();
    let inst = forced(&fused(&p, op, &[]), |i| i.types.cshuffle = cshuffle);
    let mut data = ProblemData::random(&inst, &p, 1).unwrap();
    data.input.set(0, x);
    data.weight.set(0, 1.0);
    data.weight.set(1, -1.0);
    data.args = ElementArgs {
        scale_in: s[0],
        scale_wei: s[1],
        ..ElementArgs::IDENTITY
    };
    data.run(&CpuBackend::default(), &inst, &p)
        .unwrap_or_else(|e| panic!("{op} into {dtype}: {e}"));
    data.output.to_f32()
}

#[test]
fn combined_scales_store_each_step_in_the_output_type() {
    use ElementOp::{ScaleScalePass as Pass, ScaleScaleRelu as Relu};
    let e = |bits: i32| (bits as f32).exp2();
    // fp16 (steps of 2^-10 at 1): 1 · (1 + 2^-12) rounds to 1 at each step; rounded once,
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 would be 1 + 2^-10.
    let quarter = 1.0 + e(-12);
    assert_eq!(
        combined(Pass, "fp16", DataType::Fp32, 1.0, [quarter; 2]),
        [1.0, -1.0]
    );
    assert_eq!(
        combined(Relu, "fp16", DataType::Fp32, 1.0, [quarter; 2]),
        [1.0, 0.0]
    );
    // Scale<half_t, half_t> scales by its factor in half: from an fp16 C-shuffle value,
    // (2 − 2^-10) · 1 (1 + 3·2^-13 in half) stays 2 − 2^-10; from an fp32 one, the product
    // 2 − 2^-12 − 3·2^-23 rounds to 2.
    let low = 2.0 - e(-10);
    let s = [1.0 + 3.0 * e(-13), 1.0];
    assert_eq!(combined(Pass, "fp16", DataType::Fp16, low, s), [low, -low]);
    assert_eq!(combined(Pass, "fp16", DataType::Fp32, low, s), [2.0, -2.0]);
    // bf16 (steps of 2^-7 at 1) and fp8 (steps of 2^-3): a quarter step at each scale
    // rounds away each time, twice it would round up.
    let bf16 = 1.0 + e(-9);
    assert_eq!(
        combined(Relu, "bf16", DataType::Fp32, 1.0, [bf16; 2]),
        [1.0, 0.0]
    );
    let fp8 = 1.0 + e(-5);
    assert_eq!(
        combined(Pass, "fp8", DataType::Fp32, 1.0, [fp8; 2]),
        [1.0, -1.0]
    );
    // Into fp32 the steps are fp32 products.
    assert_eq!(
        combined(Pass, "fp32", DataType::Fp32, 1.0, [quarter; 2]),
        [quarter * quarter, -(quarter * quarter)]
    );
}
