//! Support rules name the rule and the numbers; the registry ranks and selects.

use ck_compiler::ir::{SplitK, StreamK};
use ck_compiler::model::{Arch, ConvSpec, DataType, Kind, PipelineVersion, Reduction};
use ck_runtime::support::{Formulation, Rule, RunsAs, formulation, supports, supports_on};
use ck_runtime::testing::{Variant, changed, for_problem, forced, instance};
use ck_runtime::{ConvProblem, DeviceModel, ProblemTypes, Registry, RegistryError};

fn p(text: &str) -> ConvProblem {
    ConvProblem::parse(text).unwrap()
}

fn rejects(inst: &ck_compiler::ir::Checked, prob: &ConvProblem, rule: Rule, words: &[&str]) {
    let err = supports(inst, prob).expect_err("must be unsupported");
    assert_eq!(err.rule, rule, "{err}");
    let text = err.to_string();
    for w in words {
        assert!(text.contains(w), "`{text}` lacks `{w}`");
    }
}

#[test]
fn identity_and_vector_rules() {
    let prob = p("bwd_weight 2d N=2 K=8 C=8 filter=3 input=6");
    let inst = instance(Variant::XdlV3);
    assert_eq!(supports(&inst, &prob), Ok(()));
    rejects(
        &inst,
        &p("fwd 2d N=2 K=8 C=8 filter=3 input=6"),
        Rule::Op,
        &["bwd_weight", "fwd"],
    );
    rejects(
        &inst,
        &p("bwd_weight 1d N=2 K=8 C=8 filter=3 input=6"),
        Rule::SpatialRank,
        &["2D", "1D"],
    );
    rejects(
        &inst,
        &p("bwd_weight 2d N=2 K=8 C=8 filter=3 input=6 layout=gnhwc"),
        Rule::Layout,
        &["gnhwc"],
    );
    rejects(
        &inst,
        &p("bwd_weight 2d N=2 K=8 C=8 filter=3 input=6 dtype=bf16"),
        Rule::DataType,
        &["bf16"],
    );
    // K = 7 against an A vector of 2 runs on copies with a zero filter added; NGCHW keeps no
    // group's channels together, so there the rule stands.
    assert!(matches!(
        formulation(&inst, &p("bwd_weight 2d N=2 K=7 C=8 filter=3 input=6"), &DeviceModel::default()),
        Ok(Formulation::Padded(pd)) if pd.problem.k == 8
    ));
    let ngchw_k7 = p("bwd_weight 2d N=2 K=7 C=8 filter=3 input=6 layout=ngchw");
    rejects(
        &for_problem(inst.clone(), &ngchw_k7),
        &ngchw_k7,
        Rule::VectorA,
        &["K=7", "width 2"],
    );
    // Channels that break the B or C vector run on copies padded to them, where the layouts
    // keep a group's channels together (GNHWC here; NGCHW does not).
    let gnhwc = for_problem(
        inst.clone(),
        &p("bwd_weight 2d N=2 K=8 C=8 filter=3 input=6 layout=gnhwc"),
    );
    assert!(matches!(
        formulation(&gnhwc, &p("bwd_weight 2d N=2 K=8 C=5 filter=3 input=6 layout=gnhwc"), &DeviceModel::default()),
        Ok(Formulation::Padded(pd)) if pd.problem.c == 6
    ));
    let ngchw = p("bwd_weight 2d N=2 K=8 C=5 filter=3 input=6 layout=ngchw");
    rejects(
        &for_problem(inst.clone(), &ngchw),
        &ngchw,
        Rule::VectorB,
        &["C=5", "width 2"],
    );
    let c4 = changed(&inst, |i| i.c.vector = 4);
    // The copies fold the stride: 3 taps become 2 of 12 channels.
    assert!(matches!(
        formulation(&c4, &p("bwd_weight 2d N=2 K=8 C=6 filter=3 input=6 stride=2"), &DeviceModel::default()),
        Ok(Formulation::Padded(pd)) if (pd.problem.c, pd.problem.filter[1]) == (12, 2)
    ));
    // With unit strides the instance runs it as its transpose (C = 8 written along by 4), and
    // says why where the transpose fails too.
    let unit = p("bwd_weight 2d N=2 K=8 C=6 filter=3 input=6");
    assert!(matches!(
        formulation(&c4, &unit, &DeviceModel::default()),
        Ok(Formulation::Transposed(t)) if (t.k, t.c) == (6, 8)
    ));
    // C and K both off the vectors: one copy of the weights pads both; in NGCHW, where no
    // copy is made, the rule stands and says why the transpose fails too.
    let k4 = forced(&c4, |i| i.a.src_vector = 4);
    assert!(matches!(
        formulation(&k4, &p("bwd_weight 2d N=2 K=6 C=6 filter=3 input=6"), &DeviceModel::default()),
        Ok(Formulation::Padded(pd)) if (pd.problem.k, pd.problem.c) == (8, 8)
    ));
    let ngchw_k6 = p("bwd_weight 2d N=2 K=6 C=6 filter=3 input=6 layout=ngchw");
    rejects(
        &for_problem(k4.clone(), &ngchw_k6),
        &ngchw_k6,
        Rule::VectorA,
        &[
            "K=6",
            "as its transpose, A vector: K=6 is not divisible by the A vector width 4",
        ],
    );
    // Forward reads A=in along C and writes C=out along K: padded C copies the input and the
    // weights, padded K the weights and the output.
    let fwd = instance(Variant::FwdXdl);
    let dev = DeviceModel::default();
    assert!(matches!(
        formulation(&fwd, &p("fwd 2d N=2 K=8 C=3 filter=3 input=6"), &dev),
        Ok(Formulation::Padded(pd)) if pd.maps[2].is_none()
    ));
    assert!(matches!(
        formulation(&fwd, &p("fwd 2d N=2 K=5 C=4 filter=3 input=6"), &dev),
        Ok(Formulation::Padded(pd)) if pd.maps[0].is_none() && pd.maps[2].is_some()
    ));
    let ngchw_k5 = p("fwd 2d N=2 K=5 C=4 filter=3 input=6 layout=ngchw");
    rejects(
        &for_problem(fwd.clone(), &ngchw_k5),
        &ngchw_k5,
        Rule::VectorC,
        &["K=5"],
    );
    // CK-Tile uses its own vector triple.
    let ngchw_c5 = p("fwd 2d N=2 K=4 C=5 filter=3 input=6 layout=ngchw");
    rejects(
        &for_problem(instance(Variant::FwdTile), &ngchw_c5),
        &ngchw_c5,
        Rule::VectorA,
        &["C=5"],
    );
}

#[test]
fn conv_spec_rules() {
    let inst = changed(&instance(Variant::XdlV3), |i| {
        i.spec = ConvSpec::Filter1x1Stride1Pad0
    });
    assert_eq!(
        supports(&inst, &p("bwd_weight 2d N=2 K=8 C=8 filter=1 input=6")),
        Ok(())
    );
    rejects(
        &inst,
        &p("bwd_weight 2d N=2 K=8 C=8 filter=1 input=6 stride=2"),
        Rule::ConvSpec,
        &["stride=2x2"],
    );
    rejects(
        &inst,
        &p("bwd_weight 2d N=2 K=8 C=8 filter=1 input=6 rpad=0x1"),
        Rule::ConvSpec,
        &["rpad=0x1"],
    );
    let inst = changed(&inst, |i| i.spec = ConvSpec::Filter1x1Pad0);
    assert_eq!(
        supports(
            &inst,
            &p("bwd_weight 2d N=2 K=8 C=8 filter=1 input=6 stride=2")
        ),
        Ok(())
    );
    rejects(
        &inst,
        &p("bwd_weight 2d N=2 K=8 C=8 filter=1x3 input=6"),
        Rule::ConvSpec,
        &["filter=1x3"],
    );
    let f3 = instance(Variant::FwdXdl);
    let f3 = changed(&f3, |i| (i.a.src_vector, i.b.src_vector) = (1, 1));
    let f3 = changed(&f3, |i| i.spec = ConvSpec::Filter3x3);
    assert_eq!(
        supports(&f3, &p("fwd 2d G=8 N=2 K=2 C=1 filter=3 input=6")),
        Ok(())
    );
    rejects(
        &f3,
        &p("fwd 2d G=8 N=2 K=2 C=3 filter=3 input=6"),
        Rule::ConvSpec,
        &["C=3"],
    );
    let explicit = forced(&instance(Variant::XdlV3), |i| i.kind = Kind::ExplicitGemm);
    rejects(
        &explicit,
        &p("bwd_weight 2d N=2 K=8 C=8 filter=3 input=6"),
        Rule::ExplicitGemm,
        &["filter=3x3"],
    );
}

#[test]
fn groups_sizes_and_split_k_rules() {
    let two = changed(&instance(Variant::XdlTwoStage), |i| i.work.merge_groups = 4);
    rejects(
        &two,
        &p("bwd_weight 2d G=6 N=2 K=2 C=2 filter=3 input=6"),
        Rule::MergeGroups,
        &["G=6", "4"],
    );
    rejects(
        &two,
        &p("bwd_weight 2d G=8 N=2 K=2 C=2 filter=3 input=6"),
        Rule::TwoStageMerge,
        &["C=2", "K=2"],
    );
    // One channel per group: A and B vectors need not divide, C's must.
    let wide = forced(&two, |i| {
        i.a.src_vector = 8;
        i.b.src_vector = 8;
        i.c.vector = 1;
    });
    let depthwise = p("bwd_weight 2d G=8 N=2 K=1 C=1 filter=1 input=6");
    assert_eq!(supports(&wide, &depthwise), Ok(()));
    let gnhwc = p("bwd_weight 2d G=8 N=2 K=1 C=1 filter=1 input=6 layout=gnhwc");
    rejects(
        &for_problem(wide.clone(), &gnhwc),
        &gnhwc,
        Rule::VectorA,
        &["K=1", "width 8"],
    );
    let wide = forced(&wide, |i| i.c.vector = 2);
    rejects(&wide, &depthwise, Rule::VectorC, &["C=1", "width 2"]);
    let ngchw = p("bwd_weight 2d G=1 N=2 K=4 C=6 filter=3 input=6 layout=ngchw");
    let v1 = changed(&for_problem(instance(Variant::XdlV1), &ngchw), |i| {
        i.transpose = [4, 4]
    });
    rejects(&v1, &ngchw, Rule::Transpose, &["G·C=6"]);
    // 2 GB: 2^31 fp16 output elements, unless large_tensor.
    let big = p("bwd_weight 2d G=1 N=2048 K=1024 C=2 filter=1 input=32x32");
    let inst = instance(Variant::XdlV3);
    rejects(
        &inst,
        &big,
        Rule::TensorSize,
        &["output", "4294967296 bytes"],
    );
    let large = changed(&inst, |i| i.work.large_tensor = true);
    assert_eq!(supports(&large, &big), Ok(()));
    // StreamK needs k_batch 1; CK-Tile caps k_batch for 16-bit output and by GemmK/KWarpTile.
    let prob = p("bwd_weight 2d N=2 K=8 C=8 filter=3 input=6");
    let sk = forced(&instance(Variant::TileStreamKLinear), |i| {
        i.work.split_k = SplitK::Fixed(2)
    });
    rejects(&sk, &prob, Rule::SplitK, &["StreamK", "2"]);
    let tile = forced(&instance(Variant::FwdTile), |i| {
        i.op = ck_compiler::model::Op::BwdWeight;
        i.work.split_k = SplitK::Fixed(200);
    });
    rejects(
        &tile,
        &prob,
        Rule::SplitK,
        &["k_batch=200", "limit 2", "GemmK=32"],
    );
    let tile = forced(&tile, |i| i.tile_kernel.as_mut().unwrap().vector[2] = 1);
    let tile = forced(&tile, |i| i.work.split_k = SplitK::Fixed(2));
    rejects(&tile, &prob, Rule::SplitK, &["limit 1"]);
    // gfx11 has no packed atomics.
    let wmma = forced(&instance(Variant::WmmaV3), |i| {
        i.work.split_k = SplitK::Fixed(2)
    });
    let gfx1201 = DeviceModel {
        arch: Some(Arch::Gfx1201),
        ..DeviceModel::default()
    };
    assert_eq!(supports_on(&wmma, &prob, &gfx1201), Ok(()));
    let gfx1100 = DeviceModel {
        arch: Some(Arch::Gfx1100),
        ..DeviceModel::default()
    };
    let err = supports_on(&wmma, &prob, &gfx1100).unwrap_err();
    assert!(
        err.rule == Rule::SplitK && err.reason.contains("gfx11"),
        "{err}"
    );
    // Without a device, the rule applies when every target is gfx11.
    assert_eq!(supports(&wmma, &prob), Ok(()));
    let wmma = forced(&wmma, |i| i.targets = vec![Arch::Gfx1100]);
    rejects(&wmma, &prob, Rule::SplitK, &["gfx11", "got 2"]);
    let gfx942 = DeviceModel {
        arch: Some(Arch::Gfx942),
        ..DeviceModel::default()
    };
    assert_eq!(
        supports_on(&wmma, &prob, &gfx942).unwrap_err().rule,
        Rule::Target
    );
    // Prefetching pipelines need more K loops per split than stages: GemmK=32 → 4 loops.
    let v3 = changed(&instance(Variant::XdlV3), |i| {
        i.pipeline.version = PipelineVersion::V3;
        i.pipeline.prefetch = 2;
        i.work.split_k = SplitK::Fixed(1);
    });
    assert_eq!(supports(&v3, &prob), Ok(()));
    let v3 = changed(&v3, |i| i.work.split_k = SplitK::Fixed(4));
    rejects(&v3, &prob, Rule::Prefetch, &["prefetches 2", "1 K loops"]);
}

#[test]
fn registry_ranks_and_explains() {
    let prob = p("bwd_weight 2d N=2 K=8 C=6 filter=3 input=6 dtype=fp32");
    let mut reg = Registry::new(DeviceModel {
        arch: None,
        compute_units: 2,
        occupancy: 1,
    });
    let fit = |v| for_problem(instance(v), &prob);
    reg.extend([fit(Variant::XdlV1), fit(Variant::XdlV3)], 0)
        .unwrap();
    let wide = changed(&fit(Variant::XdlV1), |i| i.name = "wide".into());
    // Highest priority, but a ConvSpec that the 3x3 filter breaks.
    let wide = changed(&wide, |i| i.spec = ConvSpec::Filter1x1Stride1Pad0);
    reg.register(wide, 5).unwrap();
    let streamk = forced(&fit(Variant::TileStreamKTree), |i| {
        i.tile_kernel.as_mut().unwrap().vector = [1, 1, 1]
    });
    let streamk = forced(&streamk, |i| {
        i.work.streamk = Some(StreamK {
            reduction: Reduction::Linear,
            persistent: false,
        })
    });
    reg.register(streamk, 0).unwrap();
    assert_eq!(
        reg.register(fit(Variant::XdlV3), 0),
        Err(RegistryError::Duplicate("test_xdl_v3".into()))
    );
    assert_eq!(reg.len(), 4);

    let c = reg.candidates(&prob);
    let names: Vec<_> = c.iter().map(|c| c.instance.name.as_str()).collect();
    // `wide` has the highest priority but its ConvSpec rejects the problem: it ranks last.
    assert_eq!(names.last(), Some(&"wide"));
    assert!(c[..3].iter().all(|c| c.verdict.is_ok()));
    let costs: Vec<f64> = c[..3]
        .iter()
        .map(|c| *c.verdict.as_ref().unwrap())
        .collect();
    assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{costs:?}");
    assert_eq!(reg.select(&prob).unwrap().name, names[0]);

    // The scalar-vector StreamK instance reads C=5 as it is, the others on padded copies.
    let c5 = ConvProblem {
        c: 5,
        ..prob.clone()
    };
    let runs: Vec<_> = reg
        .candidates(&c5)
        .into_iter()
        .filter(|c| c.verdict.is_ok())
        .map(|c| (c.instance.name.clone(), c.runs_as))
        .collect();
    assert!(
        runs.contains(&("test_tile_streamk_tree".into(), RunsAs::Stated)),
        "{runs:?}"
    );
    assert!(
        runs.contains(&("test_xdl_v3".into(), RunsAs::Padded)),
        "{runs:?}"
    );
    assert!(reg.select(&c5).is_ok());
    let fp16 = ConvProblem {
        dtype: ProblemTypes::all(DataType::Fp16),
        ..prob.clone()
    };
    let none = reg.select(&fp16).unwrap_err();
    assert_eq!(none.reasons.len(), 4, "{none}");
    // The message summarises: what no instance has, the rejections counted by rule; the
    // reasons keep every instance's.
    let text = none.to_string();
    assert!(
        text.contains("no instance of its op, rank and layout takes its data types")
            && text.contains("4 by data type: e.g. "),
        "{none}"
    );
    assert!(none.reasons.iter().any(|(name, why)| {
        name == "test_xdl_v3"
            && why
                .to_string()
                .starts_with("data type: instance takes in=fp32")
    }));
    let mut bad = prob.clone();
    bad.n = 0;
    assert!(
        reg.select(&bad)
            .unwrap_err()
            .to_string()
            .starts_with("invalid problem")
    );
    assert_eq!(
        Registry::default().select(&prob).unwrap_err().to_string(),
        "no instance is registered"
    );
}

/// A tf32 problem is fp32 tensors whose products may be rounded to tf32: an instance that
/// computes in tf32 serves only such problems, an exact fp32 one serves both, and a run of the
/// tf32 instance on the CPU back end meets the tf32 bound (fp16's) but not fp32's.
#[test]
fn tf32_problems_take_tf32_and_exact_instances() {
    use ck_runtime::backend::CpuBackend;
    use ck_runtime::reference::tolerance;
    use ck_runtime::verify::ProblemData;
    let fp32 = p("fwd 2d N=2 K=8 C=12 filter=3 input=7 pad=1 dtype=fp32");
    let tf32 = p("fwd 2d N=2 K=8 C=12 filter=3 input=7 pad=1 dtype=tf32");
    let exact = for_problem(instance(Variant::FwdTile), &fp32);
    let rounded = forced(&exact, |i| {
        i.types.compute_a = DataType::Tf32;
        i.types.compute_b = DataType::Tf32;
    });
    assert_eq!(supports(&exact, &fp32), Ok(()));
    assert_eq!(supports(&exact, &tf32), Ok(()));
    assert_eq!(supports(&rounded, &tf32), Ok(()));
    rejects(
        &rounded,
        &fp32,
        Rule::DataType,
        &["tf32/tf32", "dtype=tf32"],
    );
    // Mixed tf32 and fp32 tensors name no one rounding.
    assert!(
        ConvProblem::parse("fwd 2d N=2 K=8 C=8 filter=3 input=7 in=tf32 wei=fp32 out=fp32")
            .is_err()
    );
    let mut data = ProblemData::random(&rounded, &tf32, 7).unwrap();
    // Random tf32 data holds tf32 values; bits below tf32's mantissa show that the instance
    // rounds its operands to it.
    for t in [&mut data.input, &mut data.weight] {
        for i in 0..t.len() {
            let v = t.get(i).unwrap();
            t.set(i, v * (1.0 + (i % 7) as f32 / 7.0 / 4096.0));
        }
    }
    data.run(&CpuBackend::default(), &rounded, &tf32).unwrap();
    let v = data.verify(&tf32).unwrap();
    assert!(
        v.relative_error <= v.bound,
        "{} > {}",
        v.relative_error,
        v.bound
    );
    assert!(
        v.relative_error > tolerance(DataType::Fp32, 108),
        "{}",
        v.relative_error
    );
    assert_eq!(v.bound, tolerance(DataType::Fp16, 108));
}

#[test]
fn merged_kernels_run_partial_vectors_of_groups_on_copies_with_zero_groups() {
    let two = changed(&instance(Variant::XdlTwoStage), |i| {
        i.work.merge_groups = 2;
        i.a.src_vector = 1;
        i.b.src_vector = 1;
        i.c.vector = 1;
    });
    let dev = DeviceModel::default();
    let padded_to =
        |inst: &ck_compiler::ir::Checked, text: &str| match formulation(inst, &p(text), &dev) {
            Ok(Formulation::Padded(pd)) => Some(pd.problem.g),
            Ok(_) => None,
            Err(e) => panic!("{text}: {e}"),
        };
    // 36 depthwise groups are whole merges of two but not whole vectors of eight.
    assert_eq!(
        padded_to(&two, "bwd_weight 2d G=36 N=2 K=1 C=1 filter=1 input=6"),
        Some(40)
    );
    assert_eq!(
        padded_to(&two, "bwd_weight 2d G=40 N=2 K=1 C=1 filter=1 input=6"),
        None
    );
    // A merge of four past a count of 3: one vector of eight.
    let two = forced(&two, |i| i.work.merge_groups = 4);
    assert_eq!(
        padded_to(&two, "bwd_weight 2d G=3 N=2 K=1 C=1 filter=1 input=6"),
        Some(8)
    );
    // No zero groups for one group or for wide ones: the merge rule refuses them.
    for text in [
        "bwd_weight 2d G=1 N=2 K=1 C=1 filter=1 input=6",
        "bwd_weight 2d G=3 N=2 K=16 C=16 filter=1 input=6",
    ] {
        rejects(&two, &p(text), Rule::MergeGroups, &["merge_groups=4"]);
    }
}

#[test]
fn forward_a_of_vector_dimension_1_is_read_along_the_groups() {
    // CK's merged-groups lists (Filter3x3): A vectors of 4 along G, one channel a group (their
    // clusters are CK's; the test instance's only need the rule).
    let merged = forced(&instance(Variant::FwdXdl), |i| {
        i.a.vector_dim = 1;
        i.a.src_vector = 4;
        i.b.src_vector = 1;
        i.c.vector = 1;
        i.work.merge_groups = 8;
    });
    assert_eq!(
        supports(
            &merged,
            &p("fwd 2d G=16 N=2 K=1 C=1 filter=3 input=6 pad=1")
        ),
        Ok(())
    );
    rejects(
        &merged,
        &p("fwd 2d G=8 N=2 K=1 C=4 filter=3 input=6 pad=1"),
        Rule::MergeGroups,
        &["merge_groups=8", "C=1", "C=4"],
    );
    // Unmerged, any C: the width must divide G.
    let unmerged = forced(&merged, |i| i.work.merge_groups = 1);
    assert_eq!(
        supports(&unmerged, &p("fwd 2d G=4 N=2 K=8 C=8 filter=3 input=6")),
        Ok(())
    );
    rejects(
        &unmerged,
        &p("fwd 2d G=6 N=2 K=8 C=8 filter=3 input=6"),
        Rule::VectorA,
        &["G=6", "is not divisible by the A vector width 4"],
    );
    rejects(
        &for_problem(
            unmerged.clone(),
            &p("fwd 2d G=4 N=2 K=8 C=8 filter=3 input=6 layout=gnhwc"),
        ),
        &p("fwd 2d G=4 N=2 K=8 C=8 filter=3 input=6 layout=gnhwc"),
        Rule::Layout,
        &["gnhwc"],
    );
    // CK's other forward ops read A along C only.
    let v3 = forced(&unmerged, |i| i.kind = Kind::XdlV3);
    rejects(
        &v3,
        &p("fwd 2d G=4 N=2 K=8 C=8 filter=3 input=6"),
        Rule::VectorA,
        &["along C only"],
    );
    // The portable kernels read vectors along the channels: no kernel for it.
    assert!(matches!(
        ck_compiler::kernel::KernelConfig::new(&merged),
        Err(ck_compiler::kernel::PortableError::GroupVectors { .. })
    ));
}
