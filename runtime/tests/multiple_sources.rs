//! Sources of several tensors (CK's multiple A/B, `sources.in` / `sources.wei`) on the CPU back
//! end: ScaleAdd on each source computed by hand (which factor scales which source, the
//! combined value rounded to the compute type), random data against the fp64 reference (on
//! padded copies too), and the typed errors of missing or mis-sized tensors.

use ck_compiler::ir::Checked;
use ck_compiler::model::{DataType, ElementOp};
use ck_runtime::elementwise::{ElementwiseError, Extra};
use ck_runtime::reference::{fresh_seed, random_tensor};
use ck_runtime::testing::{Variant, for_problem, forced, instance};
use ck_runtime::{
    ConvProblem, CpuBackend, DeviceModel, ElementArgs, Formulation, ProblemData, Role, RunError,
    formulation,
};

/// The forward XDL test instance for `p` reading `input` and `weight` tensors of those types
/// (no list: one tensor of the problem's type), each combined by ScaleAdd where it has two.
fn sources(p: &ConvProblem, input: &[DataType], weight: &[DataType]) -> Checked {
    forced(&for_problem(instance(Variant::FwdXdl), p), |i| {
        i.types.input_sources = input.to_vec();
        i.types.weight_sources = weight.to_vec();
        if input.len() == 2 {
            i.elementwise.input = ElementOp::ScaleAdd;
        }
        if weight.len() == 2 {
            i.elementwise.weight = ElementOp::ScaleAdd;
        }
    })
}

/// The output of one pixel of two input channels and one filter, `x0 · s_in + x1` and
/// `w0 · s_wei + w1` reduced over the channels.
fn one_pixel(p: &str, x: [[f32; 2]; 2], w: [[f32; 2]; 2], s: [f32; 2]) -> f32 {
    let p = ConvProblem::parse(p).unwrap();
    let fp16 = [DataType::Fp16; 2];
    let inst = sources(&p, &fp16, &fp16);
    let mut data = ProblemData::random(&inst, &p, 1).unwrap();
    for c in 0..2 {
        data.input.set(c, x[0][c]);
        data.extra_inputs[0].set(c, x[1][c]);
        data.weight.set(c, w[0][c]);
        data.extra_weights[0].set(c, w[1][c]);
    }
    data.args = ElementArgs {
        scale: 8.0,
        scale_in: s[0],
        scale_wei: s[1],
        ..ElementArgs::IDENTITY
    };
    data.run(&CpuBackend::default(), &inst, &p).unwrap();
    data.output.get(0).unwrap()
}

#[test]
fn scale_add_sources_by_hand() {
    let p = "fwd 2d G=1 N=1 K=1 C=2 filter=1 input=1 dtype=fp16";
    let (x, w) = ([[1.0, 2.0], [0.5, -1.0]], [[1.0, 0.25], [0.5, 1.0]]);
    // The input's factor scales the input tensors, the weight's the weights (CK's A and B ops
    // each carry their own): in = 2·x0 + x1 = [2.5, 3], wei = 4·w0 + w1 = [4.5, 2];
    // out = 2.5·4.5 + 3·2. Swapped, in = [4.5, 7], wei = [2.5, 1.5]: 21.75.
    assert_eq!(one_pixel(p, x, w, [2.0, 4.0]), 17.25);
    assert_eq!(one_pixel(p, x, w, [4.0, 2.0]), 21.75);
    // The combined value is stored in the compute type (fp16: steps of 2^-9 at 2), whatever
    // the output: 2·1 + 2^-11 is 2, and the fp32 output 2 · 1, not 2 + 2^-11.
    let fine = 2f32.powi(-11);
    let x = [[1.0, 0.0], [fine, 0.0]];
    let w = [[1.0, 0.0], [0.0, 0.0]];
    let p = "fwd 2d G=1 N=1 K=1 C=2 filter=1 input=1 in=fp16 wei=fp16 out=fp32";
    assert_eq!(one_pixel(p, x, w, [2.0, 1.0]), 2.0);
}

#[test]
fn sources_match_the_reference() {
    let cpu = CpuBackend::default();
    let (fp16, bf16) = ([DataType::Fp16; 2], [DataType::Bf16; 2]);
    let mixed = [DataType::Fp32, DataType::Fp16];
    let cases: [(&str, &[DataType], &[DataType]); 4] = [
        (
            "fwd 3d G=2 N=2 K=16 C=8 filter=3 input=5 stride=2 pad=1 dtype=fp16",
            &fp16,
            &fp16,
        ),
        (
            "fwd 2d G=2 N=2 K=8 C=8 filter=3 input=6 pad=1 dilation=2 dtype=bf16",
            &bf16,
            &[],
        ),
        (
            "fwd 2d N=2 K=8 C=8 filter=3 input=6 pad=1 dtype=fp32",
            &[],
            &mixed,
        ),
        // 1x1 over packed pixels (Filter1x1Stride1Pad0's direct indexing where it applies).
        (
            "fwd 1d N=3 K=16 C=16 filter=1 input=7 dtype=fp16",
            &fp16,
            &fp16,
        ),
    ];
    for (problem, input, weight) in cases {
        let p = ConvProblem::parse(problem).unwrap();
        let inst = sources(&p, input, weight);
        let mut data = ProblemData::random(&inst, &p, fresh_seed()).unwrap();
        assert_eq!(data.extra_inputs.len(), input.len().saturating_sub(1));
        assert_eq!(data.extra_weights.len(), weight.len().saturating_sub(1));
        data.run(&cpu, &inst, &p)
            .unwrap_or_else(|e| panic!("`{p}`: {e}"));
        let v = data.verify(&p).unwrap();
        assert!(v.passed(), "`{p}` seed {}: {v}", data.seed);
        // The extra tensors count: without them (zeros), the result is another.
        let mut other = data.clone();
        other.extra_inputs.iter_mut().for_each(|t| t.clear());
        other.extra_weights.iter_mut().for_each(|t| t.clear());
        assert!(!other.verify(&p).unwrap().passed(), "`{p}`");
    }
}

#[test]
fn sources_on_padded_copies_match_the_reference() {
    // Three channels against vectors of 4: every tensor of a source is copied with padding.
    let p = ConvProblem::parse("fwd 2d N=2 K=8 C=3 filter=3 input=6 pad=1").unwrap();
    let fp16 = [DataType::Fp16; 2];
    let inst = forced(&sources(&p, &fp16, &fp16), |i| {
        (i.a.src_vector, i.b.src_vector) = (4, 4);
    });
    let form = formulation(&inst, &p, &DeviceModel::default()).unwrap();
    assert!(matches!(form, Formulation::Padded(_)), "{form:?}");
    let mut data = ProblemData::random(&inst, &p, fresh_seed()).unwrap();
    data.run(&CpuBackend::default(), &inst, &p).unwrap();
    let v = data.verify(&p).unwrap();
    assert!(v.passed(), "seed {}: {v}", data.seed);
}

#[test]
fn missing_and_misfit_source_tensors_are_errors() {
    let cpu = CpuBackend::default();
    let p = ConvProblem::parse("fwd 2d N=1 K=8 C=8 filter=3 input=4 pad=1 dtype=fp16").unwrap();
    let fp16 = [DataType::Fp16; 2];
    let inst = sources(&p, &fp16, &fp16);
    let fresh = ProblemData::random(&inst, &p, 2).unwrap();
    let elementwise = |e: RunError| match e {
        RunError::Elementwise(why) => why,
        other => panic!("{other}"),
    };

    let mut missing = fresh.clone();
    missing.extra_weights.clear();
    let why = elementwise(missing.run(&cpu, &inst, &p).unwrap_err());
    assert!(
        matches!(
            why,
            ElementwiseError::SourceTensors {
                role: Role::Weight,
                declared: 1,
                got: 0,
                ..
            }
        ),
        "{why}"
    );
    // The reference, which knows no instance, says the op lacks a tensor.
    let why = elementwise(missing.verify(&p).unwrap_err());
    assert!(
        matches!(
            why,
            ElementwiseError::SourceOperands {
                role: Role::Weight,
                op: ElementOp::ScaleAdd,
                want: 2,
                got: 1,
            }
        ),
        "{why}"
    );

    let mut typed = fresh.clone();
    let desc = fresh.input.desc().clone();
    typed.extra_inputs[0] = random_tensor(DataType::Bf16, desc, 1).unwrap();
    let why = elementwise(typed.run(&cpu, &inst, &p).unwrap_err());
    assert_eq!(
        why,
        ElementwiseError::Type {
            tensor: Extra::Source {
                role: Role::Input,
                index: 0
            },
            got: DataType::Bf16,
            want: DataType::Fp16,
        }
    );

    // An input-shaped tensor among the weights, in the run and in the reference.
    let mut misfit = fresh.clone();
    misfit.extra_weights[0] = fresh.input.clone();
    for why in [
        elementwise(misfit.clone().run(&cpu, &inst, &p).unwrap_err()),
        elementwise(misfit.verify(&p).unwrap_err()),
    ] {
        assert!(
            matches!(
                why,
                ElementwiseError::Shape {
                    tensor: Extra::Source {
                        role: Role::Weight,
                        index: 0
                    },
                    ..
                }
            ),
            "{why}"
        );
    }

    // Extra tensors for an instance of one tensor a source.
    let plain = for_problem(instance(Variant::FwdXdl), &p);
    let why = elementwise(fresh.clone().run(&cpu, &plain, &p).unwrap_err());
    assert!(
        matches!(
            why,
            ElementwiseError::SourceTensors {
                role: Role::Input,
                declared: 0,
                got: 1,
                ..
            }
        ),
        "{why}"
    );
}

#[test]
fn the_cpu_refuses_an_op_that_combines_other_than_the_source_has() {
    let p = ConvProblem::parse("fwd 2d N=1 K=8 C=8 filter=1 input=4 dtype=fp16").unwrap();
    // Two input tensors under a unary op, one under ScaleAdd.
    let two = forced(&for_problem(instance(Variant::FwdXdl), &p), |i| {
        i.types.input_sources = vec![DataType::Fp16; 2];
    });
    let one = forced(&for_problem(instance(Variant::FwdXdl), &p), |i| {
        i.elementwise.input = ElementOp::ScaleAdd;
    });
    for inst in [two, one] {
        let err = ck_runtime::exec::cpu_types(&inst).unwrap_err();
        assert!(matches!(err, RunError::NotSupportedOnCpu(_)), "{err}");
    }
}
