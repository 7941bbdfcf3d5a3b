//! The CPU back end against the fp64 reference, for every test instance kind and problems with
//! padding, stride, dilation, groups, odd channels, 1D/2D/3D and all three ops; split-K and
//! StreamK against the unsplit run; bad buffers as errors.

use ck_compiler::ir::{Checked, SplitK, StreamK};
use ck_compiler::model::{ConvSpec, DataType, Op, Reduction};
use ck_runtime::exec::{self, Buffers, RunError, RunStats};
use ck_runtime::reference::{fresh_seed, random_tensor, reference, relative_error, tolerance};
use ck_runtime::support::{Formulation, formulation};
use ck_runtime::testing::{Variant, changed, for_problem, forced, instance};
use ck_runtime::{ConvProblem, DeviceModel, ElementArgs, Elementwise, ExtraSources, Role, Tensor};

/// Buffers without D tensors and with identity element-op scalars.
fn plain<'a>(
    input: &'a mut Tensor,
    weight: &'a mut Tensor,
    output: &'a mut Tensor,
    workspace: &'a mut [u8],
) -> Buffers<'a> {
    Buffers {
        input,
        weight,
        output,
        ds: &[],
        extra: ExtraSources::NONE,
        args: ElementArgs::IDENTITY,
        workspace,
    }
}

/// A small device, so that tiny problems still split and stream.
fn small_device() -> DeviceModel {
    DeviceModel {
        arch: None,
        compute_units: 3,
        occupancy: 1,
    }
}

struct Data {
    input: Tensor,
    weight: Tensor,
    output: Tensor,
    seed: u64,
}

fn data(p: &ConvProblem) -> Data {
    let seed = fresh_seed();
    let t = |role: Role, s: u64| random_tensor(p.dtype_of(role), p.desc(role).unwrap(), s).unwrap();
    Data {
        input: t(Role::Input, seed),
        weight: t(Role::Weight, seed ^ 1),
        output: t(Role::Output, seed ^ 2),
        seed,
    }
}

fn run(
    inst: &Checked,
    p: &ConvProblem,
    d: &mut Data,
    dev: &DeviceModel,
) -> Result<(Tensor, RunStats), RunError> {
    let mut ws = vec![0u8; exec::workspace_size(inst, p, dev) as usize];
    let mut bufs = plain(&mut d.input, &mut d.weight, &mut d.output, &mut ws);
    let stats = exec::run(inst, p, &mut bufs, dev)?;
    let dst = match p.op {
        Op::Fwd => d.output.clone(),
        Op::BwdData => d.input.clone(),
        Op::BwdWeight => d.weight.clone(),
    };
    Ok((dst, stats))
}

/// Runs and compares with the reference; returns the stats.
fn check(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> RunStats {
    let mut d = data(p);
    let r = reference(p, &d.input, &d.weight, &d.output, &Elementwise::NONE).unwrap();
    let (dst, stats) =
        run(inst, p, &mut d, dev).unwrap_or_else(|e| panic!("{} on `{p}`: {e}", inst.name));
    let err = relative_error(&dst, &r);
    let bound = tolerance(p.dtype_of(p.destination()), p.gemm().2);
    assert!(
        err <= bound,
        "{} on `{p}` (seed {}): relative error {err:e} > {bound:e}",
        inst.name,
        d.seed
    );
    stats
}

fn problems(op: Op) -> Vec<ConvProblem> {
    let texts = [
        "2d G=2 N=2 K=16 C=8 filter=3 input=7 stride=2 pad=1",
        "1d G=1 N=3 K=6 C=4 filter=3 input=11 dilation=2 lpad=2 rpad=1 dtype=fp32",
        "3d G=1 N=1 K=4 C=6 filter=3x1x3 input=4x5x3 pad=1 dtype=bf16",
        "2d G=3 N=1 K=10 C=2 filter=2x3 input=6x5 stride=1x2 dilation=2x1 lpad=0x1 rpad=1x0 layout=gnhwc",
        "2d G=2 N=2 K=4 C=6 filter=3 input=5 pad=1 layout=ngchw in=fp32 wei=fp32 out=fp32",
    ];
    texts
        .iter()
        .map(|t| ConvProblem::parse(&format!("{op} {t}")).unwrap())
        .collect()
}

#[test]
fn every_kind_matches_the_reference() {
    let dev = small_device();
    for &v in Variant::ALL {
        let base = instance(v);
        for p in problems(base.op) {
            check(&for_problem(base.clone(), &p), &p, &dev);
        }
    }
}

#[test]
fn depthwise_and_odd_channels() {
    let dev = small_device();
    for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
        // Depthwise: G = channels, one channel per group.
        let p =
            ConvProblem::parse(&format!("{op} 2d G=6 N=2 K=1 C=1 filter=3 input=5 pad=1")).unwrap();
        let variant = match op {
            Op::Fwd => Variant::FwdXdl,
            Op::BwdData => Variant::BwdDataXdl,
            Op::BwdWeight => Variant::XdlV3,
        };
        let inst = for_problem(instance(variant), &p);
        // Vector width 2 cannot read one channel: the instance runs copies with C and K padded
        // to 2 (one weight copy pads each filter's channels and adds a zero filter per group).
        let form = formulation(&inst, &p, &dev).unwrap();
        let Formulation::Padded(pd) = &form else {
            panic!("{form:?}")
        };
        assert_eq!((pd.problem.c, pd.problem.k), (2, 2));
        check(&inst, &p, &dev);
        let scalar = changed(&inst, |i| {
            i.a.src_vector = 1;
            i.b.src_vector = 1;
            i.c.vector = 1;
        });
        check(&scalar, &p, &dev);
        // Odd channels with scalar vectors run, and Filter3x3 applies to depthwise forward.
        let odd = ConvProblem::parse(&format!("{op} 1d G=1 N=2 K=5 C=3 filter=3 input=9")).unwrap();
        check(&for_problem(scalar.clone(), &odd), &odd, &dev);
        if op == Op::Fwd {
            let f3 = changed(&scalar, |i| i.spec = ConvSpec::Filter3x3);
            check(&f3, &p, &dev);
        }
    }
}

#[test]
fn filter1x1_stride1_pad0_fast_path() {
    let dev = small_device();
    for (op, v) in [
        (Op::Fwd, Variant::FwdTile),
        (Op::BwdData, Variant::BwdDataXdl),
        (Op::BwdWeight, Variant::XdlV1),
    ] {
        let p = ConvProblem::parse(&format!(
            "{op} 2d G=2 N=2 K=6 C=4 filter=1 input=5x3 dtype=fp32"
        ))
        .unwrap();
        let inst = forced(&for_problem(instance(v), &p), |i| {
            i.spec = ConvSpec::Filter1x1Stride1Pad0
        });
        check(&inst, &p, &dev);
    }
}

#[test]
fn merged_groups_and_auto_split_k() {
    let dev = small_device();
    let p = ConvProblem::parse("bwd_weight 2d G=4 N=2 K=6 C=4 filter=3 input=5 pad=1 dtype=fp32")
        .unwrap();
    let merged = changed(&for_problem(instance(Variant::XdlV3), &p), |i| {
        i.work.merge_groups = 2
    });
    let stats = check(&merged, &p, &dev);
    assert_eq!(stats.batches, 2);
    // Three groups run on copies with a fourth, zero group (`ConvProblem::groups_padded`).
    let odd_groups = ConvProblem { g: 3, ..p.clone() };
    let stats = check(&merged, &odd_groups, &dev);
    assert_eq!(stats.batches, 2);

    // GemmM=6, GemmN=36: 3 tiles per group, 12 in all; GemmK=50 → 7 K steps.
    let wavelet = for_problem(instance(Variant::Wavelet), &p);
    let stats = check(&wavelet, &p, &dev);
    assert_eq!(stats.k_batch, 1, "12 workgroups already fill 3 CUs");
    let big = DeviceModel {
        compute_units: 64,
        ..dev
    };
    let stats = check(&wavelet, &p, &big);
    assert_eq!(
        stats.k_batch, 5,
        "64 / 12 workgroups, within [1, (50-1)/8 = 6]"
    );
}

/// Backward weight whose K breaks the A vector (4) while C takes it: the instances run the
/// transpose, which reads C along A and K along B and C (2), over every schedule; the weights
/// land where the problem's layout holds them (K and C swapped back, the filter reversed).
#[test]
fn backward_weight_runs_as_its_transpose_where_its_vectors_need_it() {
    let dev = small_device();
    let texts = [
        "2d G=2 N=2 K=6 C=4 filter=3 input=7 pad=1",
        "2d G=1 N=3 K=10 C=8 filter=3x2 input=6x5 dilation=2x1 lpad=2x0 rpad=1x1 dtype=bf16",
        "1d G=3 N=2 K=2 C=4 filter=5 input=9 lpad=4 rpad=0 dtype=fp32",
        "3d G=1 N=1 K=6 C=4 filter=3x1x3 input=4x5x3 lpad=1x0x1 rpad=0x0x1 layout=gnhwc",
        "2d G=2 N=2 K=2 C=4 filter=3 input=5 pad=1 layout=ngchw dtype=fp32",
    ];
    let variants = [
        Variant::XdlV1,
        Variant::XdlV3,
        Variant::XdlTwoStage,
        Variant::TileStreamKLinear,
        Variant::TileStreamKTree,
    ];
    for v in variants {
        for text in texts {
            let p = ConvProblem::parse(&format!("bwd_weight {text}")).unwrap();
            let inst = forced(&for_problem(instance(v), &p), |i| {
                match i.tile_kernel.as_mut() {
                    Some(tk) => tk.vector[0] = 4,
                    None => i.a.src_vector = 4,
                }
            });
            let form = formulation(&inst, &p, &dev)
                .unwrap_or_else(|e| panic!("{} on `{p}`: {e}", inst.name));
            assert!(
                matches!(&form, Formulation::Transposed(t) if (t.k, t.c) == (p.c, p.k)),
                "{} on `{p}`: {form:?}",
                inst.name
            );
            check(&inst, &p, &dev);
        }
    }
    // Strides have no transpose: the output gradient's channels are padded instead, and in a
    // layout that keeps no group's channels together the vector rule stands.
    let strided =
        ConvProblem::parse("bwd_weight 2d N=2 K=6 C=4 filter=3 input=7 stride=2").unwrap();
    let inst = forced(&for_problem(instance(Variant::XdlV3), &strided), |i| {
        i.a.src_vector = 4
    });
    assert!(matches!(
        formulation(&inst, &strided, &dev),
        Ok(Formulation::Padded(pd)) if pd.problem.k == 8
    ));
    check(&inst, &strided, &dev);
    let ngchw =
        ConvProblem::parse("bwd_weight 2d N=2 K=6 C=4 filter=3 input=7 stride=2 layout=ngchw")
            .unwrap();
    let inst = forced(&for_problem(instance(Variant::XdlV3), &ngchw), |i| {
        i.a.src_vector = 4
    });
    let err = run(&inst, &ngchw, &mut data(&ngchw), &dev).unwrap_err();
    assert!(
        err.to_string()
            .contains("K=6 is not divisible by the A vector width 4"),
        "{err}"
    );
}

/// Channels that break an instance's vectors (an RGB stem against vectors of 4) run on padded
/// copies, with the last stride folded into the channels where there is one (zero taps in
/// front of the filter, zero pixels past the input), and output channels padded with zero
/// filters: every kind, every op (each copies its destination back where it is padded),
/// groups, 1-D to 3-D, each data type.
#[test]
fn channels_that_break_the_vectors_run_on_padded_copies() {
    let dev = small_device();
    let texts = [
        "2d N=2 K=8 C=3 filter=7 input=16 stride=2 pad=3",
        "2d N=1 K=8 C=3 filter=3 input=9 stride=2 pad=1 dtype=bf16",
        "1d N=2 K=8 C=1 filter=10 input=50 stride=5",
        "3d N=1 K=8 C=3 filter=3 input=5x6x7 stride=2 pad=1 dtype=fp32",
        "2d G=2 N=2 K=8 C=5 filter=3 input=6 pad=1",
        "2d G=2 N=2 K=8 C=3 filter=3x2 input=6x7 stride=1x3 lpad=1x2 rpad=0x1 layout=gnhwc",
        "2d N=2 K=8 C=6 filter=3 input=7 stride=2 dilation=2 pad=2",
        "2d N=2 K=3 C=8 filter=3 input=7 stride=2 pad=1",
        "2d G=2 N=1 K=5 C=4 filter=3x2 input=6x5 lpad=1x0 rpad=1x1 dtype=bf16",
        "1d G=3 N=2 K=1 C=4 filter=5 input=12 stride=3 layout=gnhwc dtype=fp32",
        "3d N=1 K=6 C=8 filter=1 input=3x4x5",
    ];
    for &v in Variant::ALL {
        for text in texts {
            let base = instance(v);
            let p = ConvProblem::parse(&format!("{} {text}", base.op)).unwrap();
            let inst = forced(&for_problem(base, &p), |i| match i.tile_kernel.as_mut() {
                Some(tk) => tk.vector = [4; 3],
                None => {
                    i.a.src_vector = 4;
                    i.b.src_vector = 4;
                    i.c.vector = 4;
                }
            });
            match formulation(&inst, &p, &dev) {
                Ok(Formulation::Padded(pd)) => {
                    assert_eq!((pd.problem.c % 4, pd.problem.k % 4), (0, 0))
                }
                other => panic!("{} on `{p}`: {other:?}", inst.name),
            }
            check(&inst, &p, &dev);
        }
    }
}

fn fp32_bwd_weight() -> ConvProblem {
    // GemmM=20, GemmN=27 → 2x2 = 4 tiles; GemmK = 2·7·7 = 98 → 7 K steps of the CK-Tile kinds.
    ConvProblem::parse("bwd_weight 2d G=1 N=2 K=20 C=3 filter=3 input=7 pad=1 dtype=fp32").unwrap()
}

/// `inst` (retargeted to a problem, so not validated) with the given split-K and StreamK.
fn with_work(inst: &Checked, split_k: u32, streamk: Option<StreamK>) -> Checked {
    forced(inst, |i| {
        i.work.split_k = SplitK::Fixed(split_k);
        i.work.streamk = streamk;
        i.tile_kernel.as_mut().expect("tile instance").vector = [1, 1, 1];
    })
}

#[test]
fn split_k_and_streamk_agree_with_the_unsplit_run() {
    let dev = small_device();
    let p = fp32_bwd_weight();
    let base = for_problem(instance(Variant::TileStreamKLinear), &p);
    let d = data(&p);
    let result = |inst: &Checked| {
        let mut d = Data {
            input: d.input.clone(),
            weight: d.weight.clone(),
            output: d.output.clone(),
            seed: d.seed,
        };
        run(inst, &p, &mut d, &dev).unwrap()
    };
    let (plain, stats) = result(&with_work(&base, 1, None));
    assert_eq!((stats.k_batch, stats.sk_ctas, stats.tiles), (1, 0, 4));
    let plain_ref: Vec<f64> = plain.to_f32().into_iter().map(f64::from).collect();
    for k in [2, 3, 5] {
        let (split, stats) = result(&with_work(&base, k, None));
        assert_eq!(stats.workgroups, 4 * k as u64);
        assert!(relative_error(&split, &plain_ref) < 1e-6, "split-K {k}");
    }
    for (reduction, persistent) in [
        (Reduction::Linear, false),
        (Reduction::Tree, false),
        (Reduction::Tree, true),
        (Reduction::Atomic, false),
    ] {
        let inst = with_work(
            &base,
            1,
            Some(StreamK {
                reduction,
                persistent,
            }),
        );
        let (a, stats) = result(&inst);
        // 4 tiles on 3 workgroups: the remainder plus one full wave, all 4 tiles stream-K.
        assert_eq!((stats.dp_tiles, stats.sk_ctas), (0, 3), "{reduction}");
        assert!(relative_error(&a, &plain_ref) < 1e-6, "StreamK {reduction}");
        let (b, _) = result(&inst);
        assert_eq!(a, b, "StreamK {reduction} is not bitwise deterministic");
    }
    // Two-stage: fp32 workspace then convert.
    let two = forced(&with_work(&base, 3, None), |i| i.work.two_stage = true);
    let (t, _) = result(&two);
    assert!(relative_error(&t, &plain_ref) < 1e-6);
}

#[test]
fn streamk_with_data_parallel_tiles() {
    // GemmM=40, GemmN=45: 9 tiles on 4 workgroups → 4 DP tiles, then 4 + 1 SK tiles.
    let dev = DeviceModel {
        arch: None,
        compute_units: 4,
        occupancy: 1,
    };
    let p =
        ConvProblem::parse("bwd_weight 1d G=1 N=2 K=40 C=5 filter=9 input=20 dtype=fp16").unwrap();
    for v in [Variant::TileStreamKLinear, Variant::TileStreamKTree] {
        let inst = forced(&for_problem(instance(v), &p), |i| {
            i.tile_kernel.as_mut().unwrap().vector = [1, 1, 1]
        });
        let stats = check(&inst, &p, &dev);
        assert_eq!(
            (stats.tiles, stats.dp_tiles, stats.sk_ctas),
            (9, 4, 4),
            "{v:?}"
        );
    }
}

#[test]
fn bad_buffers_are_errors() {
    let dev = small_device();
    let p = fp32_bwd_weight();
    let inst = for_problem(instance(Variant::TileStreamKLinear), &p);
    let inst = with_work(
        &inst,
        1,
        Some(StreamK {
            reduction: Reduction::Linear,
            persistent: false,
        }),
    );
    let mut d = data(&p);
    let need = exec::workspace_size(&inst, &p, &dev);
    assert_eq!(need, 16 * 16 * 4 * 3 + 128);
    let mut small = vec![0u8; need as usize - 1];
    let mut bufs = plain(&mut d.input, &mut d.weight, &mut d.output, &mut small);
    let err = exec::run(&inst, &p, &mut bufs, &dev).unwrap_err();
    assert_eq!(
        err,
        RunError::Workspace {
            needed: need,
            got: need as usize - 1
        }
    );

    let mut ws = vec![0u8; need as usize];
    let other = ConvProblem { c: 4, ..p.clone() };
    let mut wrong = random_tensor(DataType::Fp32, other.desc(Role::Input).unwrap(), 1).unwrap();
    let mut bufs = plain(&mut wrong, &mut d.weight, &mut d.output, &mut ws);
    let err = exec::run(&inst, &p, &mut bufs, &dev).unwrap_err();
    assert!(
        matches!(
            err,
            RunError::Shape {
                role: Role::Input,
                ..
            }
        ),
        "{err}"
    );

    let mut half = random_tensor(DataType::Fp16, p.desc(Role::Output).unwrap(), 1).unwrap();
    let mut bufs = plain(&mut d.input, &mut d.weight, &mut half, &mut ws);
    let err = exec::run(&inst, &p, &mut bufs, &dev).unwrap_err();
    assert_eq!(
        err,
        RunError::DataType {
            role: Role::Output,
            expected: DataType::Fp32,
            got: DataType::Fp16
        }
    );

    let fwd = ConvProblem {
        op: Op::Fwd,
        ..p.clone()
    };
    let mut bufs = plain(&mut d.input, &mut d.weight, &mut d.output, &mut ws);
    let err = exec::run(&inst, &fwd, &mut bufs, &dev).unwrap_err();
    assert!(
        err.to_string()
            .contains("instance computes bwd_weight, problem is fwd"),
        "{err}"
    );
}

/// int8 sums in int32, converted as CK converts (wrapping past the range): exact against the
/// reference, whose conversions are the same; sums that could pass fp32's exact integers are
/// refused before anything runs.
#[test]
fn int8_is_exact_and_refuses_sums_past_fp32s_integers() {
    let p = ConvProblem::parse("fwd 2d N=2 K=8 C=128 filter=3 input=6 pad=1 dtype=int8").unwrap();
    let inst = changed(&instance(Variant::FwdXdl), |i| {
        let t = &mut i.types;
        (t.input, t.weight, t.output) = (DataType::Int8, DataType::Int8, DataType::Int8);
        (t.compute_a, t.compute_b, t.cshuffle) = (DataType::Int8, DataType::Int8, DataType::Int8);
        t.acc = DataType::Int32;
    });
    let dev = small_device();
    let mut d = data(&p);
    let r = reference(&p, &d.input, &d.weight, &d.output, &Elementwise::NONE).unwrap();
    assert!(
        r.iter()
            .all(|v| v.fract() == 0.0 && (-128.0..128.0).contains(v)),
        "the reference converts to int8"
    );
    // Sums of 1,152 products of [-5, 5) reach past 127: some wrapped.
    let (dst, _) = run(&inst, &p, &mut d, &dev).unwrap();
    assert_eq!(relative_error(&dst, &r), 0.0, "seed {}", d.seed);
    // 127 · 127 · 1,152 > 2^24.
    for i in 0..d.input.len() {
        d.input.set(i, 127.0);
    }
    for i in 0..d.weight.len() {
        d.weight.set(i, 127.0);
    }
    assert!(matches!(
        run(&inst, &p, &mut d, &dev),
        Err(RunError::Int8Sums { bound }) if bound >= f64::from(1u32 << 24)
    ));
}
