//! Element-wise ops and D tensors on the CPU back end: every kind of run (split-K, two-stage,
//! StreamK, fwd, bwd_data) with ops on both sources and every result op matches the fp64
//! reference on random data and random scalars; wrong D tensors are errors.

use ck_compiler::ir::Checked;
use ck_compiler::model::{DataType, ElementOp, Layout, Op};
use ck_runtime::elementwise::{ElementwiseError, Extra};
use ck_runtime::reference::{fresh_seed, random_tensor};
use ck_runtime::testing::{Variant, for_problem, forced, instance};
use ck_runtime::{ConvProblem, CpuBackend, DeviceModel, ElementArgs, ProblemData, RunError};

fn cpu() -> CpuBackend {
    CpuBackend {
        device: DeviceModel {
            arch: None,
            compute_units: 3,
            occupancy: 1,
        },
        target: None,
    }
}

/// `base` for `p` with `load` on both sources and `result` on the destination, with the D tensor
/// (destination layout and type) a binary result op takes.
fn with_ops(base: Checked, p: &ConvProblem, load: ElementOp, result: ElementOp) -> Checked {
    forced(&for_problem(base, p), |inst| {
        let e = &mut inst.elementwise;
        (e.input, e.weight, e.output) = (load, load, load);
        let (dst, layout, dtype) = match p.op {
            Op::Fwd => (&mut e.output, p.layout.output, p.dtype.output),
            Op::BwdData => (&mut e.input, p.layout.input, p.dtype.input),
            Op::BwdWeight => (&mut e.weight, p.layout.weight, p.dtype.weight),
        };
        *dst = result;
        if matches!(
            result,
            ElementOp::Bilinear | ElementOp::Add | ElementOp::AddRelu
        ) {
            inst.layout.ds = vec![layout];
            inst.types.ds = vec![dtype];
        }
    })
}

#[test]
fn every_result_op_matches_the_reference() {
    let cpu = cpu();
    let results = [
        ElementOp::PassThrough,
        ElementOp::Scale,
        ElementOp::Relu,
        ElementOp::Bilinear,
        ElementOp::Add,
        ElementOp::AddRelu,
    ];
    let mut runs = 0;
    for &v in Variant::ALL {
        let base = instance(v);
        let p = ConvProblem::parse(&format!(
            "{} 2d G=2 N=2 K=16 C=8 filter=3 input=7 stride=2 pad=1",
            base.op
        ))
        .unwrap();
        for (i, &result) in results.iter().enumerate() {
            // Alternate the source op so that both unary ops meet every result op.
            let load = [ElementOp::Scale, ElementOp::Relu][i % 2];
            let inst = with_ops(base.clone(), &p, load, result);
            let mut data = ProblemData::random(&inst, &p, fresh_seed()).unwrap();
            assert_eq!(data.ds.len(), inst.types.ds.len());
            data.run(&cpu, &inst, &p)
                .unwrap_or_else(|e| panic!("{} {result} on `{p}`: {e}", inst.name));
            let v = data.verify(&p).unwrap();
            assert!(
                v.passed(),
                "{} {load}/{result} seed {}: {v}",
                inst.name,
                data.seed
            );
            // The scalars matter: the same result against other scalars fails, except where
            // the op has none to use.
            let uses_scalars = load == ElementOp::Scale
                || matches!(result, ElementOp::Scale | ElementOp::Bilinear);
            if uses_scalars {
                let mut other = data.clone();
                // Not negated: Scale on both sources would cancel the sign.
                other.args = ElementArgs {
                    scale: 1.5 * other.args.scale,
                    alpha: 1.5 * other.args.alpha,
                    beta: 1.5 * other.args.beta,
                    ..other.args
                };
                let v = other.verify(&p).unwrap();
                assert!(!v.passed(), "{} {load}/{result}: {v}", inst.name);
            }
            runs += 1;
        }
    }
    assert_eq!(runs, Variant::ALL.len() * results.len());
}

/// Backward weight run as its transpose (K = 6 against an A vector of 4): the D tensor is read and
/// the result op applied where each weight lands, with one load op on both sources; with two,
/// on copies with K padded.
#[test]
fn result_ops_of_a_transposed_run_match_the_reference() {
    let cpu = cpu();
    let p =
        ConvProblem::parse("bwd_weight 2d G=2 N=2 K=6 C=4 filter=3x2 input=7x6 lpad=1x0 rpad=2x1")
            .unwrap();
    for result in [ElementOp::Scale, ElementOp::Bilinear, ElementOp::AddRelu] {
        let inst = with_ops(instance(Variant::XdlV3), &p, ElementOp::Scale, result);
        let inst = forced(&inst, |i| i.a.src_vector = 4);
        assert!(matches!(
            ck_runtime::formulation(&inst, &p, &cpu.device),
            Ok(ck_runtime::Formulation::Transposed(_))
        ));
        let mut data = ProblemData::random(&inst, &p, fresh_seed()).unwrap();
        data.run(&cpu, &inst, &p).unwrap();
        let v = data.verify(&p).unwrap();
        assert!(v.passed(), "{result} seed {}: {v}", data.seed);
    }
    // Different ops on the two sources: the transpose would apply them to the wrong tensors,
    // so the output gradient's channels are padded with zeros instead (each op keeps zeros).
    let mixed = with_ops(
        instance(Variant::XdlV3),
        &p,
        ElementOp::Scale,
        ElementOp::Scale,
    );
    let mixed = forced(&mixed, |i| {
        i.a.src_vector = 4;
        i.elementwise.input = ElementOp::Relu;
    });
    assert!(matches!(
        ck_runtime::formulation(&mixed, &p, &cpu.device),
        Ok(ck_runtime::Formulation::Padded(pd)) if pd.problem.k == 8
    ));
    let mut data = ProblemData::random(&mixed, &p, fresh_seed()).unwrap();
    data.run(&cpu, &mixed, &p).unwrap();
    let v = data.verify(&p).unwrap();
    assert!(v.passed(), "mixed ops seed {}: {v}", data.seed);
}

#[test]
fn random_scalars_are_non_trivial_and_fresh() {
    let a = ElementArgs::random(fresh_seed());
    for v in [a.scale, a.alpha, a.beta] {
        assert!(
            v != 0.0 && v.abs() != 1.0 && v.abs() >= 0.5 && v.abs() < 0.9,
            "{a:?}"
        );
    }
    assert_ne!(ElementArgs::random(1), ElementArgs::random(2));
}

#[test]
fn wrong_d_tensors_are_errors() {
    let cpu = cpu();
    let p = ConvProblem::parse("bwd_weight 2d N=2 K=8 C=8 filter=3 input=6 pad=1").unwrap();
    let inst = with_ops(
        instance(Variant::XdlV1),
        &p,
        ElementOp::PassThrough,
        ElementOp::Bilinear,
    );
    let fresh = ProblemData::random(&inst, &p, 3).unwrap();
    let elementwise = |e: RunError| match e {
        RunError::Elementwise(why) => why,
        other => panic!("{other}"),
    };

    let mut none = fresh.clone();
    none.ds.clear();
    let why = elementwise(none.run(&cpu, &inst, &p).unwrap_err());
    assert!(
        matches!(
            why,
            ElementwiseError::DTensors {
                declared: 1,
                got: 0,
                ..
            }
        ),
        "{why}"
    );

    let mut half = fresh.clone();
    half.ds[0] = random_tensor(DataType::Fp32, fresh.ds[0].desc().clone(), 1).unwrap();
    let why = elementwise(half.run(&cpu, &inst, &p).unwrap_err());
    assert_eq!(
        why,
        ElementwiseError::Type {
            tensor: Extra::D(0),
            got: DataType::Fp32,
            want: DataType::Fp16
        }
    );

    let mut shape = fresh.clone();
    let other = ConvProblem { c: 4, ..p.clone() };
    let d = other.desc(p.destination()).unwrap();
    shape.ds[0] = random_tensor(DataType::Fp16, d, 1).unwrap();
    let why = elementwise(shape.run(&cpu, &inst, &p).unwrap_err());
    assert!(
        matches!(
            why,
            ElementwiseError::Shape {
                tensor: Extra::D(0),
                ..
            }
        ),
        "{why}"
    );

    // A D in another weight layout: the instance says where its D lives.
    let gkcyx = forced(&inst, |i| i.layout.ds = vec![Layout::Gkcyx]);
    let mut data = ProblemData::random(&gkcyx, &p, 4).unwrap();
    assert_eq!(data.ds[0].desc().layout, Layout::Gkcyx);
    data.run(&cpu, &gkcyx, &p).unwrap();
    assert!(data.verify(&p).unwrap().passed());
    let why = elementwise(fresh.clone().run(&cpu, &gkcyx, &p).unwrap_err());
    assert!(
        matches!(
            why,
            ElementwiseError::Shape {
                want: Layout::Gkcyx,
                ..
            }
        ),
        "{why}"
    );
}
