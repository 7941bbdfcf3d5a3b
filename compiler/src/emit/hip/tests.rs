//! Emitter and launch-plan tests over the reference instances.

use super::samples::{SampleBuilder, instances};
use super::*;
use crate::ir::SplitK;
use crate::kernel::launch::{MAX_ACCUMULATION, auto_split};
use crate::kernel::*;
use crate::model::{DataType, ElementOp, Layout, Op, PipelineVersion, Reduction};

fn dims(op: Op) -> ConvDims {
    ConvDims {
        op,
        ndim: 2,
        g: 2,
        n: 4,
        k: 136,
        c: 72,
        input: [1, 14, 14],
        filter: [1, 3, 3],
        output: [1, 14, 14],
        stride: [1; 3],
        dilation: [1; 3],
        pad: [0, 1, 1],
        layouts: [Layout::Nhwgc, Layout::Gkyxc, Layout::Nhwgk],
        transposed: false,
    }
}

const DEV: DeviceInfo = DeviceInfo {
    compute_units: 132,
    max_lds_bytes: 227 * 1024,
    async_copy: false,
    wgmma: false,
    persistent: Persist::Off,
    cluster_slots: NO_CLUSTERS,
};
/// The same SM count on NVIDIA sm_80+ (the `cp.async` ring), and on sm_90a (warpgroup MMAs).
const NV: DeviceInfo = DeviceInfo {
    async_copy: true,
    ..DEV
};
const SM90A: DeviceInfo = DeviceInfo {
    wgmma: true,
    persistent: Persist::Always,
    ..NV
};

fn launches(plan: &LaunchPlan) -> Vec<EntryKind> {
    plan.steps
        .iter()
        .filter_map(|s| {
            if let Step::Launch { entry, .. } = s {
                Some(*entry)
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn every_reference_instance_emits_with_both_entries() {
    for inst in instances() {
        let k = emit_hip(&inst).unwrap();
        assert!(
            k.source.contains("#include <hip/hip_runtime.h>"),
            "{}",
            k.name
        );
        for kind in [EntryKind::Main, EntryKind::Convert] {
            let sym = &k.entry(kind).unwrap().symbol;
            assert!(
                sym.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{sym}"
            );
        }
        assert!(
            k.config.lds_bytes <= 64 * 1024,
            "{}: {} bytes of LDS",
            k.name,
            k.config.lds_bytes
        );
        let [tm, tn] = k.config.thread_grid;
        let [rm, rn] = k.config.per_thread;
        assert!(
            tm * rm >= k.config.tile[0] && tn * rn >= k.config.tile[1],
            "{}",
            k.name
        );
    }
}

#[test]
fn unsupported_types_and_load_ops_are_errors() {
    let int32 = SampleBuilder::new("x", Op::Fwd)
        .dtype(DataType::Int32)
        .build();
    assert!(matches!(
        emit_hip(&int32),
        Err(PortableError::DataType { .. })
    ));
    let mut bil = SampleBuilder::new("y", Op::Fwd).build().into_instance();
    bil.elementwise.input = ElementOp::Bilinear;
    let bil = crate::validate::unvalidated(bil);
    assert!(matches!(emit_hip(&bil), Err(PortableError::LoadOp { .. })));
}

#[test]
fn one_byte_data_runs_the_simt_gemm_alone() {
    for (dt, c_type) in [
        (DataType::Int8, "ck_i8"),
        (DataType::Fp8, "ck_f8"),
        (DataType::Bf8, "ck_bf8"),
    ] {
        // A 1x1 kernel that merges groups would carry the pointwise and small-channel entries.
        let inst = SampleBuilder::new("bytes", Op::Fwd)
            .dtype(dt)
            .spec(crate::model::ConvSpec::Filter1x1Stride1Pad0)
            .merge_groups(2)
            .build();
        let k = emit_hip(&inst).unwrap();
        let c = &k.config;
        assert!(c.byte_data());
        assert!(c.mma.is_none() && c.mfma.is_none() && c.wmma.is_none() && c.wgmma.is_none());
        assert!(!c.has_direct() && !c.has_pointwise() && !c.has_window() && !c.has_sliced());
        assert!(k.source.contains(&format!("typedef {c_type} AT;")));
        assert!(k.source.contains("CK_DEV float ck_to_float(ck_f8 v)"));
        for kind in [EntryKind::Main, EntryKind::Convert] {
            assert!(k.entry(kind).is_some(), "{dt}");
        }
    }
    // Other kernels' texts do not change.
    let f16 = emit_hip(&SampleBuilder::new("f16", Op::Fwd).build()).unwrap();
    assert!(!f16.source.contains("ck_fnuz"));
}

#[test]
fn one_byte_outputs_split_staged_rows_without_dividing_by_zero() {
    // A tile 8 columns wide: fewer than the 16 one-byte outputs of a run. Its staged epilogue
    // never runs, but its row split must not divide by zero (clang warns, and would fold it).
    let narrow = SampleBuilder::new("narrow", Op::Fwd)
        .dtype(DataType::Int8)
        .tile(64, [64, 8, 32], 8)
        .build();
    let k = emit_hip(&narrow).unwrap();
    assert!(
        k.source
            .contains("constexpr int ROW_RUNS = NPB / RUN > 0 ? NPB / RUN : 1;")
    );
    assert!(!k.source.contains("q / (NPB / RUN)"));
}

#[test]
fn operands_computed_in_another_type_or_byte_sums_read_through_cshuffle_are_refused() {
    // CK's fp16 lists computing in fp8: the kernels would multiply the unrounded fp16 values.
    let mut comp = SampleBuilder::new("comp", Op::BwdData)
        .build()
        .into_instance();
    comp.types.compute_b = DataType::Bf8;
    let comp = crate::validate::unvalidated(comp);
    assert!(matches!(
        emit_hip(&comp),
        Err(PortableError::ComputeType {
            operand: "B",
            data: DataType::Fp16,
            compute: DataType::Bf8,
            ..
        })
    ));
    // fp32 data computed in tf32 keep their kernel.
    let mut tf32 = SampleBuilder::new("tf32", Op::Fwd)
        .dtype(DataType::Fp32)
        .build()
        .into_instance();
    (tf32.types.compute_a, tf32.types.compute_b) = (DataType::Tf32, DataType::Tf32);
    assert!(emit_hip(&crate::validate::unvalidated(tf32)).is_ok());
    // relu(int8(sum)) is not int8(relu(sum)) once the int32 sum wraps.
    let relu = SampleBuilder::new("relu", Op::Fwd)
        .dtype(DataType::Int8)
        .output_op(ElementOp::Relu)
        .build();
    assert!(matches!(
        emit_hip(&relu),
        Err(PortableError::ByteResult {
            op: ElementOp::Relu,
            cshuffle: DataType::Int8,
            ..
        })
    ));
}

#[test]
fn sources_and_combined_scales_have_no_portable_kernel() {
    // CK's multiple A/B: two input tensors combined by ScaleAdd.
    let mut sources = SampleBuilder::new("sources", Op::Fwd)
        .build()
        .into_instance();
    sources.types.input_sources = vec![DataType::Fp16; 2];
    sources.elementwise.input = ElementOp::ScaleAdd;
    let sources = crate::validate::unvalidated(sources);
    assert!(matches!(
        emit_hip(&sources),
        Err(PortableError::Sources {
            tensor: "input",
            ..
        })
    ));
    // UnaryCombinedOp<Scale, Scale, PassThrough> into fp16.
    let mut combined = SampleBuilder::new("combined", Op::Fwd)
        .build()
        .into_instance();
    combined.elementwise.output = ElementOp::ScaleScalePass;
    let combined = crate::validate::unvalidated(combined);
    assert!(matches!(
        emit_hip(&combined),
        Err(PortableError::ResultOp {
            op: ElementOp::ScaleScalePass,
            ..
        })
    ));
}

#[test]
fn async_devices_get_the_deeper_ring_and_its_lds() {
    let k = emit_hip(
        &SampleBuilder::new("ring", Op::BwdWeight)
            .tile(256, [128, 128, 32], 8)
            .vectors(8, 8, false)
            .pipeline(1, true)
            .build(),
    )
    .unwrap();
    let c = &k.config;
    assert_eq!(c.stages, 2);
    // Row-contiguous 128 x 32 fp16 tiles with a 16-byte pad: 8704 bytes per operand and stage.
    assert_eq!(c.async_stages, 4);
    assert_eq!(
        (c.async_lds_b_offset, c.async_lds_bytes),
        (4 * 8704, 8 * 8704)
    );
    let lds = |dev: &DeviceInfo| match k
        .plan(&dims(Op::BwdWeight), dev)
        .unwrap()
        .steps
        .iter()
        .find_map(|s| match *s {
            Step::Launch {
                entry: EntryKind::Main,
                lds_bytes,
                ..
            } => Some(lds_bytes),
            _ => None,
        }) {
        Some(b) => b,
        None => panic!("no main launch"),
    };
    assert_eq!(lds(&DEV), c.lds_bytes);
    assert_eq!(lds(&NV), c.async_lds_bytes);
    // sm_90a: two warpgroups of 64x128 over 16 KB stages of the swizzled layout.
    let w = c.wgmma.expect("a wgmma layout");
    assert_eq!((w.groups, w.n, w.stages), ([2, 1], 128, 6));
    assert_eq!(lds(&SM90A), w.lds_bytes);
    assert_eq!(w.lds_bytes, 1024 + 6 * 16384);
    // A wavelet split keeps its two stages everywhere.
    let wv = emit_hip(
        &SampleBuilder::new("wv", Op::BwdWeight)
            .wavelet(128, 128)
            .build(),
    )
    .unwrap();
    assert_eq!(wv.config.async_stages, wv.config.stages);
}

#[test]
fn plain_plan_is_one_direct_launch() {
    let k = emit_hip(
        &SampleBuilder::new("p", Op::Fwd)
            .tile(128, [64, 64, 32], 8)
            .build(),
    )
    .unwrap();
    let plan = k.plan(&dims(Op::Fwd), &DEV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Main]);
    assert_eq!(plan.workspace_bytes, 0);
    // M = 4·14·14 = 784 → 13 tiles; N = 136 → 3 tiles; K = 72·9 = 648 → 21 k-tiles.
    assert_eq!((plan.args.M, plan.args.Ng, plan.args.Kg), (784, 136, 648));
    assert_eq!(
        (plan.args.tiles_m, plan.args.tiles_n, plan.args.k_iters),
        (13, 3, 21)
    );
    assert!(matches!(
        plan.steps[0],
        Step::Launch {
            grid: [39, 2, 1],
            block: [128, 1, 1],
            ..
        }
    ));
    // Channels are multiples of 8 and innermost: vector loads are legal.
    assert_eq!((plan.args.vec_a, plan.args.vec_b), (1, 1));
}

#[test]
fn odd_channels_disable_vector_loads() {
    let k = emit_hip(&SampleBuilder::new("p", Op::BwdWeight).build()).unwrap();
    let d = ConvDims {
        c: 7,
        k: 13,
        ..dims(Op::BwdWeight)
    };
    let plan = k.plan(&d, &DEV).unwrap();
    assert_eq!((plan.args.vec_a, plan.args.vec_b), (0, 0));
}

#[test]
fn split_k_slices_store_into_their_own_workspace_slice() {
    for dtype in [DataType::Fp16, DataType::Fp32] {
        let k = SampleBuilder::new("s", Op::BwdWeight)
            .dtype(dtype)
            .split_k(SplitK::Fixed(4), false);
        let plan = emit_hip(&k.build())
            .unwrap()
            .plan(&dims(Op::BwdWeight), &DEV)
            .unwrap();
        // No zero-fill: every slice writes each element of its tiles once.
        assert_eq!(launches(&plan), [EntryKind::Main, EntryKind::Convert]);
        assert!(plan.steps.iter().all(|s| matches!(s, Step::Launch { .. })));
        // K = 4·14·14 = 784 → 25 k-tiles in 4 slices of 7 (the last has 4).
        assert_eq!((plan.args.k_iters, plan.args.split_iters), (25, 7));
        // bwd_weight: M = 136, N = 72·9 = 648, four fp32 slices of G·M·N.
        assert_eq!(plan.workspace_bytes, 4 * 2 * 136 * 648 * 4);
        let a = &plan.args;
        assert_eq!((a.split_ws, a.ws_slices, a.store_atomic), (1, 4, 0));
        // Four thread sets of 64 lanes add the four slices.
        assert_eq!(a.convert_sets, 4);
    }
}

#[test]
fn split_k_beyond_the_slice_budget_adds_atomically() {
    let k = emit_hip(
        &SampleBuilder::new("s", Op::BwdWeight)
            .split_k(SplitK::Fixed(64), false)
            .build(),
    )
    .unwrap();
    // M·N = 2048 · 1024·9 per group, 64 slices: far beyond the slice budget.
    let big = ConvDims {
        k: 2048,
        c: 1024,
        n: 64,
        ..dims(Op::BwdWeight)
    };
    let plan = k.plan(&big, &DEV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Main, EntryKind::Convert]);
    assert_eq!((plan.args.split_ws, plan.args.store_atomic), (0, 1));
    let one_slice = 2 * 2048 * 1024 * 9 * 4;
    assert_eq!(plan.workspace_bytes, one_slice);
    assert_eq!(
        plan.steps[0],
        Step::Zero {
            target: ZeroTarget::Workspace,
            offset: 0,
            bytes: one_slice
        }
    );

    // An fp32 output with no element-wise op takes the atomic sums itself.
    let f32 = SampleBuilder::new("s32", Op::BwdWeight)
        .dtype(DataType::Fp32)
        .split_k(SplitK::Fixed(64), false);
    let plan = emit_hip(&f32.build()).unwrap().plan(&big, &DEV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Main]);
    assert_eq!(
        plan.steps[0],
        Step::Zero {
            target: ZeroTarget::Output,
            offset: 0,
            bytes: plan.tensor_bytes[1]
        }
    );
    assert_eq!(plan.workspace_bytes, 0);
}

#[test]
fn split_k_never_leaves_an_empty_slice() {
    let k = emit_hip(
        &SampleBuilder::new("s", Op::BwdWeight)
            .split_k(SplitK::Fixed(100), false)
            .build(),
    )
    .unwrap();
    let plan = k.plan(&dims(Op::BwdWeight), &DEV).unwrap();
    let slices = (plan.args.k_iters + plan.args.split_iters - 1) / plan.args.split_iters;
    assert!((slices - 1) * plan.args.split_iters < plan.args.k_iters);
    assert!(slices <= plan.args.k_iters);
}

#[test]
fn two_stage_always_goes_through_the_workspace() {
    let k = emit_hip(
        &SampleBuilder::new("t", Op::BwdWeight)
            .dtype(DataType::Fp32)
            .split_k(SplitK::Fixed(1), true)
            .build(),
    )
    .unwrap();
    let plan = k.plan(&dims(Op::BwdWeight), &DEV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Main, EntryKind::Convert]);
    assert_eq!((plan.args.split_ws, plan.args.ws_slices), (1, 1));
}

#[test]
fn streamk_partition_covers_every_iteration_once() {
    for (cus, reduction, persistent) in [
        (132, Reduction::Linear, false),
        (7, Reduction::Tree, true),
        (5, Reduction::Linear, true),
        (3, Reduction::Atomic, false),
    ] {
        let k = emit_hip(
            &SampleBuilder::new("sk", Op::BwdWeight)
                .tile(128, [64, 64, 32], 8)
                .streamk(reduction, persistent)
                .build(),
        )
        .unwrap();
        let dev = DeviceInfo {
            compute_units: cus,
            ..DEV
        };
        let plan = k.plan(&dims(Op::BwdWeight), &dev).unwrap();
        let a = plan.args;
        let tiles = a.G * a.tiles_m * a.tiles_n;
        assert_eq!(a.sk_tiles + a.dp_tiles, tiles);
        // SK blocks must all be resident at once: the fix-up waits on peers.
        assert!(a.sk_blocks <= i64::from(cus));
        assert_eq!(a.sk_blocks * a.sk_iters + a.sk_rem, a.sk_tiles * a.k_iters);
        assert!(a.sk_blocks == 0 || a.sk_iters >= 1);
        if persistent {
            assert!(a.dp_blocks <= i64::from(cus));
        } else {
            assert_eq!(a.dp_blocks, a.dp_tiles);
        }
        match reduction {
            Reduction::Atomic => assert_eq!(plan.args.store_atomic, i64::from(a.sk_blocks > 0)),
            _ if a.sk_blocks > 0 => {
                assert_eq!(
                    plan.workspace_bytes,
                    plan.flags_offset + a.sk_blocks as u64 * 4
                );
                assert!(plan.flags_offset >= a.sk_blocks as u64 * 64 * 64 * 4);
                assert!(plan.steps.contains(&Step::Zero {
                    target: ZeroTarget::Workspace,
                    offset: plan.flags_offset,
                    bytes: a.sk_blocks as u64 * 4
                }));
            }
            _ => {}
        }
    }
}

/// A 1x1 backward weight whose GEMM-K (N·Ho·Wo) is 3.9 million products.
fn long_reduction() -> ConvDims {
    ConvDims {
        g: 1,
        n: 16,
        k: 64,
        c: 64,
        input: [1, 403, 611],
        output: [1, 403, 611],
        filter: [1, 1, 1],
        pad: [0; 3],
        ..dims(Op::BwdWeight)
    }
}

#[test]
fn long_reductions_split_so_no_accumulator_sums_more_than_its_bound() {
    let bound = MAX_ACCUMULATION as i64;
    for (split, two_stage, dev) in [
        (SplitK::Fixed(1), false, DEV),
        (SplitK::Fixed(1), true, NV),
        (SplitK::Fixed(4), false, SM90A),
        (SplitK::Auto, false, SM90A),
    ] {
        let k = emit_hip(
            &SampleBuilder::new("long", Op::BwdWeight)
                .tile(256, [128, 128, 64], 8)
                .split_k(split, two_stage)
                .build(),
        )
        .unwrap();
        let plan = k.plan(&long_reduction(), &dev).unwrap();
        let a = &plan.args;
        assert!(a.split_iters * 64 <= bound, "{split:?}: {}", a.split_iters);
        let slices = (a.k_iters + a.split_iters - 1) / a.split_iters;
        // The slices meet in fp32: workspace slices or atomic adds, and the convert entry.
        assert!(slices > 1);
        assert_eq!(launches(&plan), [EntryKind::Main, EntryKind::Convert]);
        assert!(a.split_ws == 1 && a.ws_slices == slices || a.atomic_to_ws == 1);
    }
    // A short reduction keeps the instance's one slice.
    let one = emit_hip(
        &SampleBuilder::new("short", Op::BwdWeight)
            .split_k(SplitK::Fixed(1), false)
            .build(),
    )
    .unwrap();
    let plan = one.plan(&dims(Op::BwdWeight), &DEV).unwrap();
    assert_eq!(plan.args.split_iters, plan.args.k_iters);
}

#[test]
fn streamk_spreads_long_reductions_over_its_blocks_or_refuses() {
    let k = emit_hip(
        &SampleBuilder::new("sk", Op::BwdWeight)
            .tile(256, [64, 64, 32], 8)
            .streamk(Reduction::Linear, false)
            .build(),
    )
    .unwrap();
    let bound = MAX_ACCUMULATION as i64;
    // 132 data-parallel tiles of 2 · 403 · 611 products on 132 SMs.
    let many = ConvDims {
        k: 64 * 12,
        c: 64 * 11,
        n: 2,
        ..long_reduction()
    };
    assert_eq!(
        k.plan(&many, &DEV).map(drop),
        Err(PlanError::Accumulation {
            products: (2 * 403 * 611_u64).div_ceil(32) * 32,
            limit: MAX_ACCUMULATION
        })
    );
    // One tile: its iterations spread over the SMs, a share each well within the bound.
    let plan = k.plan(&long_reduction(), &DEV).unwrap();
    let a = plan.args;
    assert_eq!((a.dp_tiles, a.sk_tiles, a.sk_blocks), (0, 1, 132));
    assert!((a.sk_iters + 1) * 32 <= bound);
    // Short tiles stay data-parallel.
    let plan = k
        .plan(
            &ConvDims {
                n: 1,
                input: [1, 20, 20],
                output: [1, 20, 20],
                ..many
            },
            &DEV,
        )
        .unwrap();
    assert_eq!(plan.args.dp_tiles, 132);
}

#[test]
fn bad_problems_are_errors() {
    let k = emit_hip(&SampleBuilder::new("e", Op::Fwd).build()).unwrap();
    assert!(matches!(
        k.plan(&dims(Op::BwdData), &DEV),
        Err(PlanError::Op { .. })
    ));
    assert!(matches!(
        k.plan(
            &ConvDims {
                n: 0,
                ..dims(Op::Fwd)
            },
            &DEV
        ),
        Err(PlanError::Zero { .. })
    ));
    let swapped = ConvDims {
        layouts: [Layout::Gkyxc, Layout::Nhwgc, Layout::Nhwgk],
        ..dims(Op::Fwd)
    };
    assert!(matches!(
        k.plan(&swapped, &DEV),
        Err(PlanError::Layout { .. })
    ));
    let wrong_dim = ConvDims {
        layouts: [Layout::Ndhwgc, Layout::Gkyxc, Layout::Nhwgk],
        ..dims(Op::Fwd)
    };
    assert!(matches!(
        k.plan(&wrong_dim, &DEV),
        Err(PlanError::Layout { .. })
    ));
    let tiny = DeviceInfo {
        max_lds_bytes: 1024,
        ..DEV
    };
    assert!(matches!(
        k.plan(&dims(Op::Fwd), &tiny),
        Err(PlanError::Lds { .. })
    ));
    let huge = ConvDims {
        n: 1 << 26,
        ..dims(Op::Fwd)
    };
    assert!(matches!(
        k.plan(&huge, &DEV),
        Err(PlanError::TooLarge { .. })
    ));
}

#[test]
fn g_first_layout_strides() {
    let k = emit_hip(&SampleBuilder::new("l", Op::Fwd).build()).unwrap();
    let d = ConvDims {
        layouts: [Layout::Gnhwc, Layout::Gkyxc, Layout::Gnhwk],
        ..dims(Op::Fwd)
    };
    let a = k.plan(&d, &DEV).unwrap().args;
    // GNHWC: c innermost, then w, h, n, g.
    assert_eq!(
        (a.xs_c, a.xs_w, a.xs_h, a.xs_n, a.xs_g),
        (1, 72, 72 * 14, 72 * 196, 72 * 196 * 4)
    );
    assert_eq!((a.ys_k, a.ys_w, a.ys_g), (1, 136, 136 * 196 * 4));
}

#[test]
fn source_snapshot() {
    let inst = SampleBuilder::new("snap_bwd_weight", Op::BwdWeight)
        .tile(128, [64, 64, 32], 8)
        .streamk(Reduction::Tree, true)
        .build();
    let k = emit_hip(&inst).unwrap();
    // The instance-specific part: everything between the argument struct and the shared body.
    let start = k.source.find("// ---- Instance constants.").unwrap();
    let end = k.source.find("// ---- Implicit-GEMM body").unwrap();
    insta::assert_snapshot!(&k.source[start..end]);
    insta::assert_debug_snapshot!(
        k.plan(
            &dims(Op::BwdWeight),
            &DeviceInfo {
                compute_units: 7,
                ..DEV
            }
        )
        .unwrap()
        .steps
    );
}

#[test]
fn one_d_layouts_plan() {
    let k = emit_hip(&SampleBuilder::new("d1", Op::BwdData).ndim(1).build()).unwrap();
    let d = ConvDims {
        ndim: 1,
        input: [1, 1, 17],
        filter: [1, 1, 3],
        output: [1, 1, 17],
        pad: [0, 0, 1],
        layouts: [Layout::Nwgc, Layout::Gkxc, Layout::Nwgk],
        ..dims(Op::BwdData)
    };
    let a = k.plan(&d, &DEV).unwrap().args;
    // GKXC: c innermost, then x, k, g.
    assert_eq!(
        (a.ws_c, a.ws_x, a.ws_k, a.ws_g),
        (1, 72, 72 * 3, 72 * 3 * 136)
    );
}

#[test]
fn buffers_keep_their_conv_roles_for_every_op() {
    let k = emit_hip(&SampleBuilder::new("b", Op::BwdWeight).build()).unwrap();
    let plan = k.plan(&dims(Op::BwdWeight), &DEV).unwrap();
    let a = plan.args_for(
        Buffers {
            input: 1,
            weight: 2,
            output: 3,
            d: 4,
            workspace: 0,
        },
        0,
    );
    assert_eq!((a.x, a.w, a.y, a.d, a.flags), (1, 2, 3, 4, 0));
}

#[test]
fn auto_split_fills_the_last_round() {
    // Fewer tiles than slots: one round.
    assert_eq!(auto_split(16, 132, 72), 8);
    assert_eq!(auto_split(100, 132, 1), 1);
    // 158 tiles of 334 K-tiles on 132 SMs: two rounds at 60 % unsplit; five slices fill six
    // rounds to 99.7 %.
    assert_eq!(auto_split(158, 132, 334), 5);
    // Whole rounds already (1501 tiles: 95 %), or short K loops: unsplit.
    assert_eq!(auto_split(1501, 132, 36), 1);
    assert_eq!(auto_split(144, 132, 3), 1);
}

/// Backward data, 3x3, stride 2, pad 1, 13x13 input -> 7x7 output: four stride phases.
fn stride_2() -> ConvDims {
    ConvDims {
        input: [1, 13, 13],
        output: [1, 7, 7],
        stride: [1, 2, 2],
        ..dims(Op::BwdData)
    }
}

#[test]
fn strided_backward_data_runs_one_unit_stride_gemm_per_phase() {
    let k = emit_hip(&SampleBuilder::new("p", Op::BwdData).build()).unwrap();
    let d = stride_2();
    let plan = k.plan(&d, &DEV).unwrap();
    assert_eq!(plan.phases.len(), 4);
    let main: Vec<usize> = plan
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Launch {
                entry: EntryKind::Main,
                phase,
                ..
            } => Some(*phase),
            _ => None,
        })
        .collect();
    assert_eq!(main, [0, 1, 2, 3]);
    let full = k
        .plan(
            &ConvDims {
                stride: [1; 3],
                ..dims(Op::BwdData)
            },
            &DEV,
        )
        .unwrap()
        .args;
    // NHWGC input (G = 2, C = 72): W stride 144, H stride 13 * 144; GKYXC weights: X stride 72,
    // Y stride 216.
    let (xw, xh, wx, wy) = (144, 13 * 144, 72, 216);
    let mut pixels = 0;
    for (p, ph) in plan.phases.iter().enumerate() {
        let (ry, rx) = ((p / 2) as i64, (p % 2) as i64);
        let a = ph.args;
        // Row r takes taps t = r + 1 (mod 2): odd rows taps 0 and 2, even rows tap 1.
        let (ty, tx) = ((ry + 1) % 2, (rx + 1) % 2);
        assert_eq!((a.sh, a.sw, a.dh, a.dw), (1, 1, 1, 1));
        assert_eq!((a.Hi, a.Wi), ((13 - ry + 1) / 2, (13 - rx + 1) / 2));
        assert_eq!((a.Y, a.X), ((3 - ty + 1) / 2, (3 - tx + 1) / 2));
        assert_eq!((a.ph, a.pw), ((ry + 1 - ty) / 2, (rx + 1 - tx) / 2));
        assert_eq!(
            (a.xs_h, a.xs_w, a.ws_y, a.ws_x),
            (2 * xh, 2 * xw, 2 * wy, 2 * wx)
        );
        assert_eq!(
            (a.Ho, a.Wo, a.ys_h, a.ys_k),
            (7, 7, full.ys_h / 14 * 7, full.ys_k)
        );
        assert_eq!(
            ph.offsets,
            [
                ((ry * xh + rx * xw) * 2) as u64,
                ((ty * wy + tx * wx) * 2) as u64,
                0
            ]
        );
        let b = plan.args_for(
            Buffers {
                input: 1000,
                weight: 2000,
                ..Buffers::default()
            },
            p,
        );
        assert_eq!((b.x, b.w), (1000 + ph.offsets[0], 2000 + ph.offsets[1]));
        pixels += a.Hi * a.Wi;
    }
    // Every input pixel is in exactly one phase.
    assert_eq!(pixels, 13 * 13);
    // Dilated strided dimensions are not split.
    let dilated = ConvDims {
        dilation: [1, 2, 2],
        ..d.clone()
    };
    assert!(k.plan(&dilated, &DEV).unwrap().phases.is_empty());
}

/// A filter narrower than the stride (1x1 stride 2): the one phase with a tap is a unit-stride
/// GEMM over every other row and column, and the whole output is zero-filled first for the
/// three without taps; an output op with a D tensor keeps the strided GEMM.
#[test]
fn tapless_stride_phases_are_zero_filled() {
    let d = ConvDims {
        filter: [1, 1, 1],
        pad: [0; 3],
        ..stride_2()
    };
    let k = emit_hip(&SampleBuilder::new("p", Op::BwdData).build()).unwrap();
    let plan = k.plan(&d, &DEV).unwrap();
    assert_eq!(plan.phases.len(), 1);
    assert_eq!(
        plan.steps[0],
        Step::Zero {
            target: ZeroTarget::Output,
            offset: 0,
            bytes: plan.tensor_bytes[0],
        }
    );
    let a = plan.phases[0].args;
    assert_eq!((a.Hi, a.Wi, a.Y, a.X, a.ph, a.pw), (7, 7, 1, 1, 0, 0));
    assert_eq!((a.sh, a.sw), (1, 1));
    assert_eq!(plan.phases[0].offsets, [0, 0, 0]);
    let bilinear = emit_hip(
        &SampleBuilder::new("p", Op::BwdData)
            .output_op(ElementOp::Bilinear)
            .build(),
    )
    .unwrap();
    assert!(bilinear.plan(&d, &DEV).unwrap().phases.is_empty());
}

#[test]
fn transposed_backward_weight_swaps_sources_and_reverses_the_filter_view() {
    let k = emit_hip(&SampleBuilder::new("t", Op::BwdWeight).build()).unwrap();
    // The caller's problem: G = 2, K = 136, C = 72, 3x3, pad 1; its transpose has K = 72 and
    // C = 136 over the same 14x14 pixels (left pads 3 - 1 - 1 = 1).
    let d = ConvDims {
        k: 72,
        c: 136,
        transposed: true,
        ..dims(Op::BwdWeight)
    };
    let plan = k.plan(&d, &DEV).unwrap();
    let a = plan.args;
    // GKYXC weights held as K = 136, C = 72: C stride 1, X 72, Y 216, K 648, G 136 * 648.
    assert_eq!((a.K, a.C, a.M, a.Ng), (72, 136, 72, 136 * 9));
    assert_eq!(
        (a.ws_k, a.ws_c, a.ws_y, a.ws_x, a.ws_g),
        (1, 648, -216, -72, 136 * 648)
    );
    // Neither the packed-column epilogue nor the staged one: the view's columns are strided.
    assert_eq!((a.lin_out, a.stage_out), (0, 0));
    // The view starts at the last tap; the sources swap.
    let origin = (2 * 216 + 2 * 72) * 2;
    assert_eq!(plan.transposed, Some(origin));
    let b = plan.args_for(
        Buffers {
            input: 1000,
            weight: 2000,
            output: 3000,
            ..Buffers::default()
        },
        0,
    );
    assert_eq!((b.x, b.w, b.y, b.d), (3000, 2000 + origin, 1000, 0));
    // Tensor sizes by the caller's roles: input 4 * 14 * 14 * 2 * 72, output the same with 136.
    let px = 4 * 14 * 14 * 2 * 2;
    assert_eq!(plan.tensor_bytes, [px * 72, 2 * 136 * 72 * 9 * 2, px * 136]);
    // Only unit-stride backward weight has a transpose.
    let strided = ConvDims {
        stride: [1, 2, 2],
        output: [1, 7, 7],
        ..d.clone()
    };
    assert_eq!(k.plan(&strided, &DEV), Err(PlanError::Transpose));
}

#[test]
fn stride_phases_split_k_into_workspace_regions_of_their_own() {
    // Few tiles and deep K (N = 1, K = 512): every phase splits into workspace slices.
    let k = emit_hip(
        &SampleBuilder::new("p", Op::BwdData)
            .split_k(SplitK::Auto, false)
            .build(),
    )
    .unwrap();
    let d = ConvDims {
        n: 1,
        k: 512,
        ..stride_2()
    };
    let plan = k.plan(&d, &DEV).unwrap();
    assert_eq!(plan.phases.len(), 4);
    assert_eq!(
        launches(&plan),
        [EntryKind::Main, EntryKind::Convert].repeat(4)
    );
    // Each phase's fp32 slices [slice][G][M][N] in a 256-byte aligned region after the last,
    // so the phases may run at once.
    let mut end = 0;
    for (p, ph) in plan.phases.iter().enumerate() {
        let a = ph.args;
        assert_eq!(a.split_ws, 1);
        assert!(ph.workspace_offset >= end && ph.workspace_offset.is_multiple_of(256));
        end = ph.workspace_offset + (a.ws_slices * a.G * a.M * a.Ng * 4) as u64;
        let b = plan.args_for(
            Buffers {
                workspace: 1 << 20,
                ..Buffers::default()
            },
            p,
        );
        assert_eq!(b.ws, (1 << 20) + ph.workspace_offset);
    }
    assert!(end <= plan.workspace_bytes);
}

/// Problems no small-channel entry takes: a 1x3 filter, or groups that are not adjacent
/// (GNHWC).
fn not_small_channel(narrow: &ConvDims, dw: &ConvDims) -> [ConvDims; 2] {
    [
        ConvDims {
            filter: [1, 1, 3],
            output: [1, 14, 12],
            ..narrow.clone()
        },
        ConvDims {
            layouts: [Layout::Gnhwc, Layout::Gkyxc, Layout::Gnhwk],
            ..dw.clone()
        },
    ]
}

/// Depthwise, 512 groups of one channel, 32 images of 14x14.
fn depthwise(op: Op) -> ConvDims {
    ConvDims {
        g: 512,
        n: 32,
        k: 1,
        c: 1,
        ..dims(op)
    }
}

/// A forward or backward-data kernel that merges 8 groups, with scalar loads.
fn merged_forward_or_backward_data(op: Op) -> HipKernel {
    emit_hip(
        &SampleBuilder::new("m", op)
            .merge_groups(8)
            .vectors(1, 1, false)
            .build(),
    )
    .unwrap()
}

/// A backward-weight kernel that merges 8 groups, with scalar loads.
fn merged_backward_weight() -> HipKernel {
    emit_hip(
        &SampleBuilder::new("m", Op::BwdWeight)
            .merge_groups(8)
            .vectors(1, 1, false)
            .build(),
    )
    .unwrap()
}

/// `kernel`, after checking that it has the backward-weight entry `kind` (symbol suffix
/// `suffix`) and that a plain backward-weight tile has not.
fn with_entry(kernel: HipKernel, kind: EntryKind, suffix: &str) -> HipKernel {
    assert!(kernel.entry(kind).is_some());
    assert!(kernel.source.contains(&format!("_{suffix}(")));
    let plain = emit_hip(&SampleBuilder::new("p", Op::BwdWeight).build()).unwrap();
    assert!(plain.entry(kind).is_none());
    kernel
}

#[test]
fn merged_backward_weight_runs_narrow_groups_on_the_small_channel_entry() {
    let merged = merged_backward_weight();
    assert!(merged.entry(EntryKind::Direct).is_some());
    assert!(merged.source.contains("_direct("));
    // The kernel's block shape is the plan's.
    let sets = crate::kernel::launch::DIRECT_SETS;
    assert!(
        merged
            .source
            .contains(&format!("constexpr int DIRECT_SETS = {sets};"))
    );
    // Depthwise, 512 groups, a width stride of 3 (the rows entry takes 1 and 2): 64 row sets
    // of 8 groups in 8 row blocks; the pixels over about four blocks per compute unit, but at
    // least 64 pixels each.
    let dw = ConvDims {
        stride: [1, 1, 3],
        output: [1, 14, 5],
        ..depthwise(Op::BwdWeight)
    };
    let plan = merged.plan(&dw, &DEV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Direct, EntryKind::Convert]);
    let pixels: u64 = 32 * 14 * 5;
    let (slices, per) = (plan.args.ws_slices as u64, plan.args.direct_pixels as u64);
    assert_eq!(slices, (4 * 132u64).div_ceil(8).min(pixels.div_ceil(64)));
    assert!(per * slices >= pixels && per * (slices - 1) < pixels);
    assert_eq!(plan.args.direct_ch, 1);
    assert_eq!(plan.workspace_bytes, slices * 512 * 9 * 4);
    assert!(
        matches!(plan.steps[0], Step::Launch { grid: [8, s, 1], block: [256, 1, 1], .. } if u64::from(s) == slices)
    );
    // 4 channels: two rows (k) of one group a thread.
    let narrow = ConvDims {
        g: 32,
        k: 4,
        c: 4,
        ..dw.clone()
    };
    assert_eq!(merged.plan(&narrow, &DEV).unwrap().args.direct_ch, 4);
    // 3 channels, a 1x3 filter, K = 2 with C = 2 (rows would straddle groups), or a GNHWC
    // layout (groups not adjacent): the GEMM tiles.
    let gemm = |d: ConvDims| {
        launches(&merged.plan(&d, &DEV).unwrap()) != [EntryKind::Direct, EntryKind::Convert]
    };
    assert!(gemm(ConvDims {
        c: 3,
        ..narrow.clone()
    }));
    assert!(gemm(ConvDims {
        k: 2,
        c: 2,
        ..narrow.clone()
    }));
    for d in not_small_channel(&narrow, &dw) {
        assert!(gemm(d));
    }
    // Kernels that do not merge groups have no such entry.
    let plain = emit_hip(&SampleBuilder::new("p", Op::BwdWeight).build()).unwrap();
    assert!(plain.entry(EntryKind::Direct).is_none());
    assert!(!plain.source.contains("_direct("));
    assert_eq!(
        launches(&plain.plan(&dw, &DEV).unwrap())[0],
        EntryKind::Main
    );
}

#[test]
fn merged_backward_weight_runs_on_tensor_cores_where_the_device_has_them() {
    let merged = with_entry(merged_backward_weight(), EntryKind::DirectMma, "direct_mma");
    // 8-channel groups at 14x14, 64 groups: 64 vectors, eight a block (their rings fit in 48
    // KB), a block a whole image (8 x 32 blocks give every SM one), each its workspace slice.
    let dw = ConvDims {
        g: 64,
        k: 8,
        c: 8,
        ..depthwise(Op::BwdWeight)
    };
    let plan = merged.plan(&dw, &NV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::DirectMma, EntryKind::Convert]);
    let a = &plan.args;
    assert_eq!((a.direct_ch, a.direct_vecs, a.direct_rows), (8, 8, 14));
    assert_eq!(a.ws_slices, 32);
    assert_eq!(plan.workspace_bytes, 32 * 64 * 64 * 9 * 4);
    // Rings: 2 · 4 · 1 + 2 input rows of 18 columns (16 pixels and the filter's 2) by 8
    // vectors, 2 · 4 output-gradient rows of 16 columns, 16 bytes a chunk.
    let lds = (10 * 18 * 8 + 8 * 16 * 8) * 16;
    assert!(
        matches!(plan.steps[0], Step::Launch { grid: [8, 32, 1], block: [256, 1, 1], lds_bytes, .. } if lds_bytes == lds)
    );
    // Without cp.async (AMD, or before sm_80): the scalar entry.
    assert_eq!(
        launches(&merged.plan(&dw, &DEV).unwrap())[0],
        EntryKind::Direct
    );
    // Wider rows take fewer vectors a block: 8-channel groups at 28x28, 4; 4-channel groups at
    // 56x56, 2.
    let vecs = |g: u64, c: u64, hw: u64| {
        let d = ConvDims {
            g,
            k: c,
            c,
            input: [1, hw, hw],
            output: [1, hw, hw],
            ..dw.clone()
        };
        let plan = merged.plan(&d, &NV).unwrap();
        assert_eq!(launches(&plan)[0], EntryKind::DirectMma);
        plan.args.direct_vecs
    };
    assert_eq!(vecs(32, 8, 28), 4);
    assert_eq!(vecs(32, 4, 56), 2);
    // Few images: the rows split into chunks of at least four, so that every SM has a block.
    let few = merged.plan(&ConvDims { n: 1, ..dw.clone() }, &NV).unwrap();
    assert_eq!((few.args.direct_rows, few.args.ws_slices), (4, 4));
    // Strided: each row in flight adds two input rows, and a 16-pixel run reads 33 columns
    // (264 chunks at 8 vectors, past one a thread): 4 vectors.
    let strided = ConvDims {
        stride: [1, 2, 2],
        output: [1, 7, 7],
        ..dw.clone()
    };
    let plan = merged.plan(&strided, &NV).unwrap();
    assert_eq!(plan.args.direct_vecs, 4);
    let lds = ((8 * 2 + 2) * (33 * 4u32).div_ceil(8) * 8 + 8 * 16 * 4) * 16;
    assert!(matches!(plan.steps[0], Step::Launch { lds_bytes, .. } if lds_bytes == lds));
    // K ≠ C, or input rows past one chunk a thread (300 pixels): the scalar entry.
    let scalar = |d: ConvDims| launches(&merged.plan(&d, &NV).unwrap())[0] == EntryKind::Direct;
    assert!(scalar(ConvDims {
        g: 32,
        k: 8,
        c: 4,
        ..dw.clone()
    }));
    assert!(scalar(ConvDims {
        input: [1, 4, 300],
        output: [1, 4, 300],
        ..dw.clone()
    }));
}

#[test]
fn merged_backward_weight_runs_depthwise_along_rows() {
    let merged = with_entry(
        merged_backward_weight(),
        EntryKind::DirectRows,
        "direct_rows",
    );
    // Depthwise 14x14, 512 groups, on either device: 64 vectors in 2 blocks of 32; 448 output
    // rows, one a thread (8 a block), 56 workspace slices.
    let dw = depthwise(Op::BwdWeight);
    let (vecs, slots) = (
        crate::kernel::launch::DROWS_VECS,
        crate::kernel::launch::DROWS_SLOTS,
    );
    assert_eq!((vecs, slots), (32, 8));
    for dev in [&DEV, &NV] {
        let plan = merged.plan(&dw, dev).unwrap();
        assert_eq!(launches(&plan), [EntryKind::DirectRows, EntryKind::Convert]);
        assert_eq!((plan.args.direct_rows, plan.args.ws_slices), (8, 56));
        assert_eq!(plan.workspace_bytes, 56 * 512 * 9 * 4);
        let lds = 256 * 33 * 4;
        assert!(
            matches!(plan.steps[0], Step::Launch { grid: [2, 56, 1], block: [256, 1, 1], lds_bytes, .. } if lds_bytes == lds)
        );
    }
    // 512 images: at most eight blocks a compute unit (528 slices), so 14 rows a block.
    let many = merged
        .plan(
            &ConvDims {
                n: 512,
                ..dw.clone()
            },
            &NV,
        )
        .unwrap();
    assert_eq!((many.args.direct_rows, many.args.ws_slices), (14, 512));
    // Strides and pads of the rows are the kernel's, and width strides of 2; a width dilation,
    // a width stride of 3, or groups not in whole vectors, are not.
    let first = |d: ConvDims| launches(&merged.plan(&d, &NV).unwrap())[0];
    let rows = |d: ConvDims| first(d) == EntryKind::DirectRows;
    assert!(rows(ConvDims {
        stride: [1, 2, 1],
        output: [1, 7, 14],
        ..dw.clone()
    }));
    assert!(rows(ConvDims {
        stride: [1, 2, 2],
        output: [1, 7, 7],
        ..dw.clone()
    }));
    assert!(!rows(ConvDims {
        stride: [1, 1, 3],
        output: [1, 14, 5],
        ..dw.clone()
    }));
    assert!(!rows(ConvDims {
        dilation: [1, 1, 2],
        output: [1, 14, 12],
        ..dw.clone()
    }));
    assert!(!rows(ConvDims {
        g: 508,
        ..dw.clone()
    }));
    // Rows of 5 or 7 taps go to the entry of one filter row a thread. At stride 2 the 7x7
    // output has 224 rows: 32 vectors by 5 rows by 1 slot (62 slices, which half the input's
    // bytes bound, of 4 rows: 124 blocks, one round of a block a compute unit), or 16 vectors by
    // 7 rows by 2 slots (32 slices of 7 rows, 128 blocks, four rows a slot); the LDS the
    // threads' sums.
    let taps = with_entry(merged.clone(), EntryKind::DirectRowTaps, "direct_row_taps");
    for (f, vecs, threads) in [(5, 32, 160), (7, 16, 224)] {
        let d = ConvDims {
            filter: [1, f, f],
            pad: [0, f / 2, f / 2],
            stride: [1, 2, 2],
            output: [1, 7, 7],
            ..dw.clone()
        };
        let plan = taps.plan(&d, &NV).unwrap();
        assert_eq!(
            launches(&plan),
            [EntryKind::DirectRowTaps, EntryKind::Convert]
        );
        assert_eq!(plan.args.direct_vecs, vecs);
        assert!(plan.args.ws_slices <= 64);
        assert!(
            matches!(plan.steps[0], Step::Launch { block: [t, 1, 1], lds_bytes, .. } if t == threads && lds_bytes == threads * 33 * 4)
        );
        assert_eq!(
            plan.workspace_bytes,
            plan.args.ws_slices as u64 * 512 * f * f * 4
        );
    }
    // 144 groups are 18 vectors: one block of 18 by 14 row slots, no idle lanes.
    let few = merged
        .plan(
            &ConvDims {
                g: 144,
                ..dw.clone()
            },
            &NV,
        )
        .unwrap();
    assert!(matches!(
        few.steps[0],
        Step::Launch {
            grid: [1, _, 1],
            block: [252, 1, 1],
            ..
        }
    ));
    assert_eq!(few.args.direct_vecs, 18);
    // A 7x7 image of 960 groups: the slices stop at half the input's bytes (32 images of
    // 47,040 elements, 2 bytes each, against 960 · 25 · 4 bytes a slice), and the blocks take
    // fewer vectors, so that a slot's rows are fewer: 16 vectors by 5 rows by 3 slots, 120
    // blocks (one round of a block a compute unit), five rows a slot.
    let small = taps
        .plan(
            &ConvDims {
                g: 960,
                n: 32,
                input: [1, 7, 7],
                output: [1, 7, 7],
                filter: [1, 5, 5],
                pad: [0, 2, 2],
                ..dw.clone()
            },
            &NV,
        )
        .unwrap();
    let cap = 32 * 7 * 7 * 960 * 2 / (2 * 960 * 25 * 4);
    assert_eq!(small.args.ws_slices as u64, cap);
    assert_eq!(small.args.direct_vecs, 16);
    assert!(
        matches!(small.steps[0], Step::Launch { grid: [8, s, 1], block: [240, 1, 1], .. } if u64::from(s) == cap)
    );
    // Depth taps are not the rows entries'.
    assert!(!matches!(
        first(ConvDims {
            ndim: 3,
            filter: [3, 3, 3],
            input: [4, 14, 14],
            output: [4, 14, 14],
            pad: [1, 1, 1],
            layouts: [Layout::Ndhwgc, Layout::Gkzyxc, Layout::Ndhwgk],
            ..dw.clone()
        }),
        EntryKind::DirectRows | EntryKind::DirectRowTaps
    ));
}

#[test]
fn depthwise_rows_take_long_rows_in_pieces_and_split_few_rows_into_segments() {
    let taps = with_entry(
        merged_backward_weight(),
        EntryKind::DirectRowTaps,
        "direct_row_taps",
    );
    // The Conformer's 31-tap row over 199 columns of 8 images, 768 groups: five pieces of 7
    // taps a vector; 96 vectors by 5 pieces by 8 rows are 3,840 thread rows, under a quarter
    // of two blocks of 256 a compute unit, so the rows split into as many segments as 35 columns
    // allow (5: 42 columns, whole 7-column steps).
    let conformer = ConvDims {
        g: 768,
        n: 8,
        filter: [1, 1, 31],
        input: [1, 1, 199],
        output: [1, 1, 199],
        pad: [0, 0, 15],
        ..depthwise(Op::BwdWeight)
    };
    let plan = taps.plan(&conformer, &NV).unwrap();
    assert_eq!(
        launches(&plan),
        [EntryKind::DirectRowTaps, EntryKind::Convert]
    );
    assert_eq!(plan.args.direct_pixels, 42);
    let Step::Launch {
        grid: [vec_blocks, slices, 1],
        block: [threads, 1, 1],
        ..
    } = plan.steps[0]
    else {
        panic!("{:?}", plan.steps[0]);
    };
    let vecs = plan.args.direct_vecs as u32;
    assert_eq!(vec_blocks * vecs, 96);
    assert_eq!(threads % (vecs * 5), 0);
    // The slices stay under half the input's bytes (8 · 199 · 768 elements of 2 bytes against
    // 768 · 31 · 4 a slice) and cover the 40 (row, segment) items: with 8 vectors a block, 6
    // slots take a block's 6 items, 84 blocks.
    assert!(u64::from(slices) <= 8 * 199 * 768 * 2 / (2 * 768 * 31 * 4));
    assert_eq!((vecs, slices, plan.args.direct_rows), (8, 7, 6));
    assert_eq!(plan.workspace_bytes, u64::from(slices) * 768 * 31 * 4);
    // The same row over 64 images fills the device as whole rows.
    let many = taps
        .plan(
            &ConvDims {
                n: 64,
                ..conformer.clone()
            },
            &NV,
        )
        .unwrap();
    assert_eq!(many.args.direct_pixels, 0);
    // A 3x3 filter over 256x256 images of 16 groups (two vectors), 16 images: 8,192 thread
    // rows, so 7 segments of 39 columns (whole 3-column steps, at least 32 each).
    let wide = ConvDims {
        g: 16,
        n: 16,
        input: [1, 256, 256],
        output: [1, 256, 256],
        ..depthwise(Op::BwdWeight)
    };
    let plan = taps.plan(&wide, &NV).unwrap();
    assert_eq!(launches(&plan)[0], EntryKind::DirectRows);
    assert_eq!(plan.args.direct_pixels, 39);
    // Rows of 9 to 14 taps are two pieces; filter-row groups past the 8 a block holds (a 5x14
    // filter: 10) and rows of 3 taps other than a 3x3 filter's are not the entry's.
    let along = |filter: [u64; 3]| {
        let d = ConvDims {
            filter,
            pad: [0, filter[1] / 2, filter[2] / 2],
            ..depthwise(Op::BwdWeight)
        };
        launches(&taps.plan(&d, &NV).unwrap())[0] == EntryKind::DirectRowTaps
    };
    assert!(along([1, 4, 14]));
    assert!(along([1, 1, 4]));
    assert!(!along([1, 5, 14]));
    assert!(!along([1, 5, 3]));
}

#[test]
fn tiles_with_warps_along_k_run_few_output_channels_on_the_sliced_entry() {
    let sliced = emit_hip(
        &SampleBuilder::new("s", Op::BwdWeight)
            .tile(256, [48, 32, 128], 8)
            .waves([1, 1, 8])
            .build(),
    )
    .unwrap();
    let sliced = with_entry(sliced, EntryKind::Sliced, "sliced");
    let plain = emit_hip(&SampleBuilder::new("p", Op::BwdWeight).build()).unwrap();
    assert!(!plain.source.contains("SK_WARPS"));
    // K = 36 against C = 256 on 13x13, two groups: 9 taps × 8 tiles of 32 channels a group,
    // eight warps each with a ring of four steps of 16 pixels (48 + 8 and 32 + 8 channels).
    let d = ConvDims {
        k: 36,
        c: 256,
        input: [1, 13, 13],
        output: [1, 13, 13],
        ..dims(Op::BwdWeight)
    };
    let plan = sliced.plan(&d, &NV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Sliced]);
    assert_eq!(plan.workspace_bytes, 0);
    let lds = 8 * 4 * (16 * 56 * 2 + 16 * 40 * 2);
    assert!(
        matches!(plan.steps[0], Step::Launch { grid: [72, 1, 2], block: [256, 1, 1], lds_bytes, .. } if lds_bytes == lds)
    );
    // Strides, dilations and pads are the entry's; a device without cp.async, K over the
    // tile's M or not in 8-byte chunks, C not in whole N tiles, or the transpose are not.
    let runs = |d: &ConvDims, dev: &DeviceInfo| {
        sliced
            .plan(d, dev)
            .is_ok_and(|p| launches(&p) == [EntryKind::Sliced])
    };
    assert!(runs(
        &ConvDims {
            stride: [1, 2, 2],
            dilation: [1, 2, 1],
            output: [1, 5, 6],
            ..d.clone()
        },
        &NV
    ));
    assert!(!runs(&d, &DEV));
    for other in [
        ConvDims { k: 52, ..d.clone() },
        ConvDims { k: 34, ..d.clone() },
        ConvDims { c: 48, ..d.clone() },
        ConvDims {
            transposed: true,
            ..d.clone()
        },
    ] {
        assert!(!runs(&other, &NV), "{other:?}");
    }
}

#[test]
fn sliced_tiles_of_scalar_output_gradient_loads_run_k_under_4_split_over_workgroups() {
    let raw = emit_hip(
        &SampleBuilder::new("r", Op::BwdWeight)
            .tile(256, [16, 32, 128], 8)
            .waves([1, 1, 8])
            .vectors(1, 8, false)
            .build(),
    )
    .unwrap();
    let raw = with_entry(raw, EntryKind::Sliced, "sliced");
    assert!(raw.source.contains("constexpr int VEC_A = 1;"));
    // One output channel against 256 input channels of a 3x3 filter on 100x152, N = 2: 72
    // tiles of 32 channels a tap fill a little over half the 132 compute units, so rows of
    // workgroups split the 1,900 steps: 264 / 72 = 3 slices (each warp 79 steps), and the
    // convert adds them.
    let fcos = ConvDims {
        g: 1,
        n: 2,
        k: 1,
        c: 256,
        input: [1, 100, 152],
        output: [1, 100, 152],
        ..dims(Op::BwdWeight)
    };
    let plan = raw.plan(&fcos, &NV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Sliced, EntryKind::Convert]);
    assert_eq!(plan.args.ws_slices, 3);
    assert_eq!(plan.workspace_bytes, 3 * 256 * 9 * 4);
    assert!(matches!(
        plan.steps[0],
        Step::Launch {
            grid: [72, 3, 1],
            ..
        }
    ));
    // Few pixels: one slice, stored directly. K = 3 at stride 2 too.
    let small = ConvDims {
        k: 3,
        input: [1, 13, 13],
        output: [1, 7, 7],
        stride: [1, 2, 2],
        ..fcos.clone()
    };
    let plan = raw.plan(&small, &NV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Sliced]);
    assert_eq!(plan.workspace_bytes, 0);
    // A group's output gradient interleaved with other groups' (NHWGK, G = 2) is not one run
    // a step; the 8-byte chunks of other kernels need K in whole chunks of 4.
    assert!(
        raw.plan(
            &ConvDims {
                g: 2,
                ..fcos.clone()
            },
            &NV
        )
        .is_ok_and(|p| launches(&p) != [EntryKind::Sliced, EntryKind::Convert])
    );
    let chunked = emit_hip(
        &SampleBuilder::new("c", Op::BwdWeight)
            .tile(256, [16, 32, 128], 8)
            .waves([1, 1, 8])
            .build(),
    )
    .unwrap();
    assert!(
        chunked
            .plan(&fcos, &NV)
            .is_ok_and(|p| launches(&p)[0] != EntryKind::Sliced)
    );
}

#[test]
fn depthwise_groups_of_no_whole_vector_run_as_pair_strips() {
    for op in [Op::Fwd, Op::BwdData] {
        let merged = merged_forward_or_backward_data(op);
        // ShuffleNet's 58 groups: eight vectors, the last of two groups, read in pairs of
        // channels; no copies, no workspace.
        let dw = ConvDims {
            g: 58,
            ..depthwise(op)
        };
        let plan = merged.plan(&dw, &DEV).unwrap();
        assert_eq!(launches(&plan), [EntryKind::Direct], "{op:?}");
        assert_eq!(plan.workspace_bytes, 0);
        let a = &plan.args;
        assert_eq!((a.direct_ch, a.direct_strip), (1, 3), "{op:?}");
        assert!(matches!(
            plan.steps[0],
            Step::Launch { grid: [_, y, 1], .. } if u64::from(y) * a.direct_vecs as u64 >= 8
        ));
        // An odd G has no aligned pairs, and a 5 x 3 filter's rows no strips.
        for odd in [
            ConvDims {
                g: 57,
                ..dw.clone()
            },
            ConvDims {
                filter: [1, 3, 4],
                ..dw.clone()
            },
        ] {
            assert!(
                merged
                    .plan(&odd, &DEV)
                    .map_or(true, |p| p.args.direct_strip != 3),
                "{op:?}"
            );
        }
    }
    assert!(
        merged_forward_or_backward_data(Op::Fwd)
            .source
            .contains("ck_dconv_strip<3, 1, true>")
    );
}

#[test]
fn merged_forward_and_backward_data_run_narrow_groups_on_the_small_channel_entry() {
    for op in [Op::Fwd, Op::BwdData] {
        let merged = merged_forward_or_backward_data(op);
        assert!(merged.entry(EntryKind::Direct).is_some());
        assert!(merged.source.contains("ck_dconv<"));
        // Depthwise, 512 groups at 14x14: 64 vectors of 8 channels, eight a block; strips of
        // four pixels of a row over about eight blocks per compute unit, one pass of the block
        // (32 strips) at least: the bands of so small an image would give a block one or two.
        let dw = depthwise(op);
        let plan = merged.plan(&dw, &DEV).unwrap();
        assert_eq!(launches(&plan), [EntryKind::Direct], "{op:?}");
        assert_eq!(plan.workspace_bytes, 0);
        let a = &plan.args;
        assert_eq!((a.direct_ch, a.direct_vecs, a.direct_strip), (1, 8, 1));
        let strips: u64 = 32 * 14 * 4;
        let per = a.direct_pixels as u64;
        assert_eq!(per, strips.div_ceil((8 * 132u64).div_ceil(8)).max(32));
        assert!(matches!(
            plan.steps[0],
            Step::Launch { grid: [x, 8, 1], block: [256, 1, 1], .. } if u64::from(x) == strips.div_ceil(per)
        ));
        // At 56x56: sixteen vectors a block, bands staged in LDS, one wave of two blocks a
        // compute unit (66 by the four vector blocks).
        let large = ConvDims {
            input: [1, 56, 56],
            output: [1, 56, 56],
            ..dw.clone()
        };
        let plan = merged.plan(&large, &DEV).unwrap();
        let b = &plan.args;
        assert_eq!((b.direct_ch, b.direct_vecs, b.direct_strip), (1, 16, 2));
        let items = (b.direct_rows * b.direct_pixels * 16) as u64;
        assert!(items <= 4 * 256);
        assert!(matches!(
            plan.steps[0],
            Step::Launch { grid: [66, 4, 1], block: [256, 1, 1], lds_bytes, .. } if u64::from(lds_bytes) <= DCONV_BAND_LDS
        ));
        let pixels: u64 = 32 * 14 * 14;
        // On NVIDIA sm_80+ 8-channel groups of fp16 run on tensor cores: four 16-pixel runs a
        // block for each of the four warps of a vector set (two sets of four vectors), strided
        // ones included. Depthwise keeps the scalar path.
        let nv_plan = |d: &ConvDims| merged.plan(d, &NV).unwrap().args;
        assert_eq!(
            (nv_plan(&dw).direct_mma, nv_plan(&dw).direct_pixels),
            (0, a.direct_pixels)
        );
        let eight = ConvDims {
            g: 64,
            k: 8,
            c: 8,
            ..dw.clone()
        };
        // At unit strides with rows of 14 (16 padded) they run in row windows; rows of 7
        // would more than double and keep tap pairs.
        let e = nv_plan(&eight);
        assert_eq!((e.direct_ch, e.direct_vecs, e.direct_mma), (8, 8, 2));
        let padded = pixels / 14 * 16;
        assert_eq!(e.direct_pixels as u64, padded.div_ceil(132).max(256));
        assert_eq!(e.direct_pixels % 16, 0);
        let seven = ConvDims {
            input: [1, 7, 7],
            output: [1, 7, 7],
            ..eight.clone()
        };
        let s = nv_plan(&seven);
        assert_eq!(s.direct_mma, 1);
        assert_eq!(s.direct_pixels as u64, (32u64 * 49).div_ceil(132).max(256));
        assert_eq!(merged.plan(&eight, &DEV).unwrap().args.direct_mma, 0);
        let strided = ConvDims {
            stride: [1, 2, 2],
            output: [1, 7, 7],
            ..eight.clone()
        };
        // Strided backward data runs its four stride phases (filters 1x1, 1x2, 2x1 and 2x2)
        // on tensor cores; strided and dilated, it stays whole and masks the taps its strides
        // do not divide.
        let sp = merged.plan(&strided, &NV).unwrap();
        if op == Op::Fwd {
            assert_eq!((sp.args.direct_mma, sp.args.direct_pixels), (1, 256));
        } else {
            assert_eq!(sp.phases.len(), 4);
            assert!(sp.phases.iter().all(|ph| ph.args.direct_mma == 1));
            assert_eq!(launches(&sp), [EntryKind::Direct; 4]);
            let filters: Vec<_> = sp.phases.iter().map(|ph| (ph.args.Y, ph.args.X)).collect();
            assert_eq!(filters, [(1, 1), (1, 2), (2, 1), (2, 2)]);
            let dilated = ConvDims {
                dilation: [1, 2, 2],
                ..strided.clone()
            };
            let dp = merged.plan(&dilated, &NV).unwrap();
            assert!(dp.phases.is_empty());
            assert_eq!(dp.args.direct_mma, 1);
        }
        // 16 channels a group: tensor cores only (row windows in strips of four rows, tap
        // pairs, stride phases), a warp a group, so a pass is four runs for each of the four
        // warps of a vector set of two; elsewhere the GEMM tiles. 512 images: the strips (a
        // quarter of the padded rows' runs) set the blocks' share.
        let sixteen = ConvDims {
            g: 32,
            k: 16,
            c: 16,
            n: 512,
            ..eight.clone()
        };
        let x = nv_plan(&sixteen);
        assert_eq!((x.direct_ch, x.direct_vecs, x.direct_mma), (16, 4, 2));
        let strips = 512 * 14u64.div_ceil(4) * 16;
        let per = strips
            .div_ceil(132 / 2)
            .max(16 * 4 * 4)
            .next_multiple_of(16);
        assert_eq!((x.direct_pixels as u64, per), (per, 512));
        // Strips need unit height strides: otherwise tap pairs.
        let tall = ConvDims {
            stride: [1, 2, 1],
            output: [1, 7, 14],
            ..sixteen.clone()
        };
        if op == Op::Fwd {
            assert_eq!(nv_plan(&tall).direct_mma, 1);
        }
        // Forward at stride 2 in both dimensions onto rows of 14: row windows of 33 pixels, at
        // 16 and 8 channels a group (two vectors a warp: eight vectors a block are four sets,
        // so a pass is four runs for each of a set's two warps).
        let s2 = ConvDims {
            stride: [1, 2, 2],
            input: [1, 28, 28],
            ..sixteen.clone()
        };
        let e2 = ConvDims {
            stride: [1, 2, 2],
            input: [1, 28, 28],
            output: [1, 14, 14],
            ..eight.clone()
        };
        if op == Op::Fwd {
            assert_eq!(nv_plan(&s2).direct_mma, 2);
            let p = nv_plan(&e2);
            assert_eq!(
                (p.direct_ch, p.direct_mma, p.direct_pixels),
                (8, 2, 16 * 4 * 2)
            );
        }
        let x7 = ConvDims {
            input: [1, 7, 7],
            output: [1, 7, 7],
            ..sixteen.clone()
        };
        assert_eq!(nv_plan(&x7).direct_mma, 1);
        let xs = merged
            .plan(
                &ConvDims {
                    stride: [1, 2, 2],
                    output: [1, 7, 7],
                    ..sixteen.clone()
                },
                &NV,
            )
            .unwrap();
        assert_eq!(xs.phases.len(), if op == Op::Fwd { 0 } else { 4 });
        assert!(launches(&xs).iter().all(|&e| e == EntryKind::Direct));
        assert_eq!(
            launches(&merged.plan(&sixteen, &DEV).unwrap()),
            [EntryKind::Main]
        );
        // Filters under 3x3 take the tensor cores in backward data only (its phases' filters).
        let small = ConvDims {
            filter: [1, 2, 2],
            output: [1, 13, 13],
            pad: [0; 3],
            ..eight.clone()
        };
        let on_cores = merged.plan(&small, &NV).unwrap().args.direct_mma != 0;
        assert_eq!(on_cores, op == Op::BwdData, "{op:?}");
        // 8 groups of 4 channels: four vectors by 64 pixels a pass; 6 groups of 4: three
        // vectors, one block of three by 85 pixel slots.
        let narrow = ConvDims {
            g: 8,
            k: 4,
            c: 4,
            ..dw.clone()
        };
        let plan = merged.plan(&narrow, &DEV).unwrap();
        assert_eq!((plan.args.direct_ch, plan.args.direct_vecs), (4, 4));
        assert!(plan.args.direct_pixels >= 64);
        let six = ConvDims {
            g: 6,
            ..narrow.clone()
        };
        let plan = merged.plan(&six, &DEV).unwrap();
        assert_eq!(plan.args.direct_vecs, 3);
        assert!(matches!(
            plan.steps[0],
            Step::Launch {
                grid: [_, 1, 1],
                ..
            }
        ));
        // K ≠ C, 3 channels, G·C not a multiple of 8, a 1x3 filter, or groups not adjacent
        // (GNHWC): the GEMM tiles.
        let gemm = |d: ConvDims| launches(&merged.plan(&d, &DEV).unwrap()) == [EntryKind::Main];
        assert!(gemm(ConvDims {
            k: 8,
            ..narrow.clone()
        }));
        assert!(gemm(ConvDims {
            c: 3,
            k: 3,
            ..narrow.clone()
        }));
        assert!(gemm(ConvDims {
            g: 3,
            ..narrow.clone()
        }));
        for d in not_small_channel(&narrow, &dw) {
            assert!(gemm(d));
        }
    }
}

#[test]
fn small_channel_forward_and_backward_data_take_any_filter_at_one_or_two_channels() {
    for op in [Op::Fwd, Op::BwdData] {
        let merged = merged_forward_or_backward_data(op);
        assert!(merged.source.contains("ck_dconv_any<"));
        let with = |c: u64, filter: [u64; 3]| {
            let d = ConvDims {
                k: c,
                c,
                filter,
                output: [1, 14, 14],
                pad: [0, filter[1] / 2, filter[2] / 2],
                ..depthwise(op)
            };
            merged.plan(&d, &NV).unwrap()
        };
        // Depthwise 5x5 and 7x7 at 56x56: bands of sixteen vectors, never on tensor cores; a
        // 1-D filter of 31 taps: eight vectors a block, a thread a pixel.
        for filter in [[1, 5, 5], [1, 7, 7], [1, 1, 31]] {
            let wide = ConvDims {
                k: 1,
                c: 1,
                filter,
                input: [1, 56, 56],
                output: [1, 56, 56],
                pad: [0, filter[1] / 2, filter[2] / 2],
                ..depthwise(op)
            };
            let plan = merged.plan(&wide, &NV).unwrap();
            assert_eq!(launches(&plan), [EntryKind::Direct], "{filter:?}");
            let band = filter[2] <= 7;
            let a = &plan.args;
            assert_eq!(
                (a.direct_vecs, a.direct_mma, a.direct_strip),
                if band { (16, 0, 2) } else { (8, 0, 0) }
            );
            assert!(matches!(
                plan.steps[0],
                Step::Launch { grid: [_, y, 1], lds_bytes, .. }
                    if y == if band { 4 } else { 8 } && u64::from(lds_bytes) <= DCONV_BAND_LDS
            ));
        }
        // Two channels a group of a 7x7 filter: 788 floats a vector, five vectors a block (26
        // blocks for the 128 vectors), one pixel a thread.
        let two = with(2, [1, 7, 7]).args;
        assert_eq!((two.direct_vecs, two.direct_strip), (5, 0));
        // Four or eight channels a group take only 3x3 filters; other filters run the tiles.
        for c in [4, 8] {
            assert_eq!(launches(&with(c, [1, 5, 5])), [EntryKind::Main]);
            assert_eq!(launches(&with(c, [1, 3, 3])), [EntryKind::Direct]);
        }
        // A filter whose one vector's weights exceed the LDS: the tiles.
        assert_eq!(launches(&with(2, [1, 1, 300])), [EntryKind::Main]);
    }
}

#[test]
fn packed_outputs_skip_the_epilogue_decomposition() {
    let k = |op| emit_hip(&SampleBuilder::new("p", op).build()).unwrap();
    for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
        // NHWGC / GKYXC / NHWGK are packed: 2-D problems have D = 1 with stride 0.
        assert_eq!(
            k(op).plan(&dims(op), &DEV).unwrap().args.lin_out,
            1,
            "{op:?}"
        );
        // G first: pixels are still packed for the activations, the filter taps too.
        let gnhwc = ConvDims {
            layouts: [Layout::Gnhwc, Layout::Gkyxc, Layout::Gnhwk],
            ..dims(op)
        };
        assert_eq!(k(op).plan(&gnhwc, &DEV).unwrap().args.lin_out, 1, "{op:?}");
    }
    // Channel-first layouts: pixels and taps are not adjacent to the channel.
    let nchw = ConvDims {
        layouts: [Layout::Ngchw, Layout::Gkcyx, Layout::Ngkhw],
        ..dims(Op::BwdWeight)
    };
    let plan = k(Op::BwdWeight).plan(&nchw, &DEV).unwrap();
    assert_eq!(plan.args.lin_out, 0);
}

#[test]
fn aligned_contiguous_outputs_take_the_staged_epilogue() {
    let k = |op| emit_hip(&SampleBuilder::new("p", op).build()).unwrap();
    let stage = |op, d: &ConvDims, dev: &DeviceInfo| k(op).plan(d, dev).unwrap().args.stage_out;
    // K = 136 and C = 72 are multiples of 8, channels innermost: every op stages its tiles
    // (backward weight: C·Y·X = 648 packed columns) in the cp.async ring's LDS (4 stages of
    // 2 x 8.5 KB) and in the sm_90a layout's.
    for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
        assert_eq!(stage(op, &dims(op), &NV), 1, "{op:?}");
        assert_eq!(stage(op, &dims(op), &SM90A), 1, "{op:?}");
    }
    // The fp16 tile (128 rows of 128 + 8 elements) does not fit the register pipeline's two
    // stages of backward weight (row-contiguous 128 x 32 tiles: 2 x 8.5 KB a stage).
    let c = &k(Op::BwdWeight).config;
    assert!(c.lds_bytes < 128 * 136 * 2 && c.async_lds_bytes >= 128 * 136 * 2);
    assert_eq!(stage(Op::BwdWeight, &dims(Op::BwdWeight), &DEV), 0);
    // A GEMM N that is not whole runs of 8, or a channel-first output: element stores.
    let k36 = ConvDims {
        k: 36,
        ..dims(Op::Fwd)
    };
    assert_eq!(stage(Op::Fwd, &k36, &NV), 0);
    let nchw = ConvDims {
        layouts: [Layout::Ngchw, Layout::Gkcyx, Layout::Ngkhw],
        ..dims(Op::Fwd)
    };
    assert_eq!(stage(Op::Fwd, &nchw, &NV), 0);
}

#[test]
fn backward_data_pads_output_channels_to_whole_tma_boxes() {
    let k = emit_hip(
        &SampleBuilder::new("p", Op::BwdData)
            .tile(256, [128, 128, 64], 8)
            .build(),
    )
    .unwrap();
    assert!(k.config.wgmma.is_some_and(|l| l.tma));
    let radix = |d: &ConvDims, dev: &DeviceInfo| {
        let a = k.plan(d, dev).unwrap().args;
        (a.k_radix, a.Kg, a.k_iters)
    };
    // One group of K = 296 on sm_90a: 320 channel digits a tap, 45 K-tiles of 64.
    let one = ConvDims {
        g: 1,
        k: 296,
        ..dims(Op::BwdData)
    };
    assert_eq!(radix(&one, &SM90A), (320, 320 * 9, 45));
    // Up to three fifths more MMAs: K = 40 to 64.
    let k40 = ConvDims { k: 40, ..one };
    assert_eq!(radix(&k40, &SM90A), (64, 64 * 9, 9));
    // Elsewhere, with groups whose channels the box's zero fill cannot pad, or where padding
    // adds more (K = 36 to 64): K itself.
    assert_eq!(radix(&one, &NV), (296, 296 * 9, 42));
    let groups = ConvDims { g: 2, ..one };
    assert_eq!(radix(&groups, &SM90A), (296, 296 * 9, 42));
    let k36 = ConvDims { k: 36, ..one };
    assert_eq!(radix(&k36, &SM90A), (36, 36 * 9, 6));
}

#[test]
fn unsplit_tma_plans_run_on_persistent_workgroups() {
    let k = emit_hip(
        &SampleBuilder::new("p", Op::Fwd)
            .tile(256, [128, 128, 64], 8)
            .split_k(SplitK::Auto, false)
            .build(),
    )
    .unwrap();
    let w = k.config.wgmma.expect("a wgmma layout");
    let p = k.config.persist_layout().expect("a persistent layout");
    assert!(k.entry(EntryKind::Persistent).is_some());
    assert!(k.source.contains("CK_ENTRY(persistent)"));
    // Six 32 KB stages and eight warps' strips of 16 rows of 144 bytes fit beside each other.
    assert_eq!((w.stages, p.stages), (6, 6));
    assert_eq!(p.strip_offset, 6 * 32768);
    assert_eq!(p.lds_bytes, 1024 + 6 * 32768 + 8 * 16 * 144);
    assert!(p.lds_bytes > k.config.lds_bytes_on(&SM90A));
    // A 1x1 layer: 100,352 rows of 128 and 2 column tiles of 128, one K-tile each; a
    // workgroup for each of the SMs' slots, each taking every grid-th tile.
    let d = ConvDims {
        g: 1,
        n: 32,
        k: 256,
        c: 64,
        input: [1, 56, 56],
        filter: [1; 3],
        output: [1, 56, 56],
        pad: [0; 3],
        ..dims(Op::Fwd)
    };
    let grid = |plan: &LaunchPlan| {
        plan.steps
            .iter()
            .find_map(|s| match *s {
                Step::Launch { entry, grid, .. } => Some((entry, grid)),
                _ => None,
            })
            .unwrap()
    };
    let plan = k.plan(&d, &SM90A).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Persistent]);
    let slots = 132 * w.blocks_per_cu;
    assert_eq!(grid(&plan), (EntryKind::Persistent, [slots, 1, 1]));
    assert_eq!(plan.args.tiles_m * plan.args.tiles_n, 784 * 2);
    // Fewer tiles than slots: a workgroup a tile.
    let small = ConvDims {
        n: 1,
        input: [1, 8, 8],
        output: [1, 8, 8],
        ..d
    };
    let plan = k.plan(&small, &SM90A).unwrap();
    assert_eq!(grid(&plan), (EntryKind::Persistent, [2, 1, 1]));
    // By default only where each workgroup takes two tiles or more of a short K loop: the
    // first, not the second (one tile a workgroup) or a third of 8 K-tiles.
    let planned = DeviceInfo {
        persistent: Persist::Planned,
        ..SM90A
    };
    assert_eq!(
        launches(&k.plan(&d, &planned).unwrap()),
        [EntryKind::Persistent]
    );
    assert_eq!(
        launches(&k.plan(&small, &planned).unwrap()),
        [EntryKind::Main]
    );
    let long = ConvDims { c: 512, ..d };
    let plan = k.plan(&long, &planned).unwrap();
    assert_eq!(plan.args.k_iters, 8);
    assert_eq!(launches(&plan), [EntryKind::Main]);
    // Without the device's switch or the warpgroup path, and for split GEMM-K: the main entry.
    let off = DeviceInfo {
        persistent: Persist::Off,
        ..SM90A
    };
    assert_eq!(launches(&k.plan(&d, &off).unwrap()), [EntryKind::Main]);
    assert_eq!(launches(&k.plan(&d, &NV).unwrap()), [EntryKind::Main]);
    let deep = ConvDims {
        n: 1,
        c: 4096,
        input: [1, 4, 4],
        output: [1, 4, 4],
        ..d
    };
    let plan = k.plan(&deep, &SM90A).unwrap();
    assert!(plan.args.split_iters < plan.args.k_iters);
    assert_eq!(launches(&plan)[0], EntryKind::Main);
    // Kernels that merge groups or stream K have no persistent entry.
    let streamk = emit_hip(
        &SampleBuilder::new("s", Op::Fwd)
            .tile(256, [128, 128, 64], 8)
            .streamk(Reduction::Atomic, true)
            .build(),
    )
    .unwrap();
    assert!(streamk.config.persist_layout().is_none());
    assert!(streamk.entry(EntryKind::Persistent).is_none());
}

#[test]
fn auto_split_k_adds_slices_in_clusters_where_the_device_has_them() {
    // What an H100 (132 SMs) reported: workgroups that run at once in clusters of 1 to 16.
    let h100 = DeviceInfo {
        cluster_slots: [
            132, 132, 117, 120, 110, 102, 105, 120, 81, 70, 77, 84, 91, 98, 105, 112,
        ],
        ..SM90A
    };
    let auto_split_kernel = |tile: [u32; 3]| {
        emit_hip(
            &SampleBuilder::new("c", Op::BwdWeight)
                .tile(256, tile, 8)
                .split_k(SplitK::Auto, false)
                .build(),
        )
        .unwrap()
    };
    let k = auto_split_kernel([128, 128, 64]);
    let conv = |k_: u64, c: u64, hw: u64, taps: u64| ConvDims {
        g: 1,
        n: 32,
        k: k_,
        c,
        input: [1, hw, hw],
        output: [1, hw, hw],
        filter: [1, taps, taps],
        pad: [0, taps / 2, taps / 2],
        ..dims(Op::BwdWeight)
    };
    let main = |plan: &LaunchPlan| {
        plan.steps
            .iter()
            .find_map(|s| match *s {
                Step::Launch {
                    entry: EntryKind::Main,
                    grid,
                    cluster,
                    ..
                } => Some((grid[0], cluster)),
                _ => None,
            })
            .unwrap()
    };
    // 36 tiles of 98 K-tiles: three slices a tile, added in clusters of three; no workspace.
    let plan = k.plan(&conv(256, 256, 14, 3), &h100).unwrap();
    assert_eq!(main(&plan), (108, 3));
    assert_eq!(launches(&plan), [EntryKind::Main]);
    let a = plan.args;
    assert_eq!(
        (a.cluster, a.ws_slices, a.split_ws, a.split_iters),
        (3, 1, 0, 33)
    );
    assert_eq!(plan.workspace_bytes, 0);
    // 18 tiles would take seven slices (8 MB of workspace); clusters of seven or six do not
    // pack into one round, five do: five slices of 20 K-tiles.
    let plan = k.plan(&conv(128, 256, 14, 3), &h100).unwrap();
    assert_eq!(main(&plan), (90, 5));
    assert_eq!((plan.args.cluster, plan.args.split_iters), (5, 20));
    assert_eq!(launches(&plan), [EntryKind::Main]);
    // The same with little workspace to save against 392 K-tiles (18 groups of 32 by 32):
    // seven workspace slices of 56 K-tiles beat five of 79.
    let small = ConvDims {
        g: 18,
        ..conv(32, 32, 28, 1)
    };
    let plan = k.plan(&small, &h100).unwrap();
    assert_eq!(main(&plan), (7, 1));
    assert_eq!((plan.args.cluster, plan.args.ws_slices), (0, 7));
    // Two tiles of 98 K-tiles would take 49 slices (6.4 MB of workspace): one cluster of
    // sixteen slices a tile (7 K-tiles each; a non-portable size) costs less by the model.
    let plan = k.plan(&conv(256, 128, 14, 1), &h100).unwrap();
    assert_eq!(main(&plan), (32, 16));
    assert_eq!((plan.args.cluster, plan.args.split_iters), (16, 7));
    assert_eq!(launches(&plan), [EntryKind::Main]);
    // Eight 64x64 tiles of the same: clusters of 10 to 16 run seven at once, not eight; nine
    // of 9 do, 11 K-tiles a slice.
    let plan = auto_split_kernel([64, 64, 64])
        .plan(&conv(256, 128, 14, 1), &h100)
        .unwrap();
    assert_eq!((plan.args.cluster, plan.args.split_iters), (9, 11));
    // Four 64x64 tiles of two workgroups an SM (CompV3) of the same 392 K-tiles
    // (sk_1x1_128x128_n32_28): 66 workspace slices of 6 K-tiles. Clusters of 16 slices of 25,
    // which the model without the cluster's sum preferred, ran slower.
    let two_a_cu = SampleBuilder::new("c", Op::BwdWeight)
        .tile(256, [64, 64, 64], 8)
        .tile_kind(PipelineVersion::CompV3)
        .split_k(SplitK::Auto, false)
        .build();
    let plan = emit_hip(&two_a_cu)
        .unwrap()
        .plan(&conv(128, 128, 28, 1), &h100)
        .unwrap();
    assert_eq!(main(&plan), (264, 1));
    assert_eq!((plan.args.cluster, plan.args.ws_slices), (0, 66));
    // One tile of 392 K-tiles takes 98 workspace slices: eight of 49 K-tiles in a cluster
    // would cost more.
    let plan = k.plan(&conv(128, 128, 28, 1), &h100).unwrap();
    assert_eq!(main(&plan), (98, 1));
    assert_eq!(launches(&plan), [EntryKind::Main, EntryKind::Convert]);
    let a = plan.args;
    assert_eq!(
        (a.cluster, a.ws_slices, a.split_ws, a.split_iters),
        (0, 98, 1, 4)
    );
    // A tile whose fp32 partial (128 rows of 264 floats) does not fit its LDS keeps the
    // workspace: 128x256x32 on the cp.async ring of an sm_90 device without warpgroup MMAs.
    let narrow = auto_split_kernel([128, 256, 32]);
    let sm90 = DeviceInfo {
        cluster_slots: h100.cluster_slots,
        ..NV
    };
    assert!(narrow.config.stage_lds_on(&sm90) < 128 * 264 * 4);
    let plan = narrow.plan(&conv(256, 256, 14, 3), &sm90).unwrap();
    assert!(plan.args.ws_slices > 1);
    assert_eq!(plan.args.cluster, 0);
    // Without clusters the same problems split into workspace slices only.
    let plan = k.plan(&conv(256, 256, 14, 3), &SM90A).unwrap();
    assert_eq!(main(&plan), (108, 1));
    assert_eq!((plan.args.cluster, plan.args.ws_slices), (0, 3));
}

#[test]
fn filter1x1_kernels_stream_pointwise_problems_whose_weights_fit_the_lds() {
    use crate::model::ConvSpec;
    let pointwise = |op| {
        let inst = SampleBuilder::new("pw", op)
            .spec(ConvSpec::Filter1x1Stride1Pad0)
            .build();
        emit_hip(&inst).unwrap()
    };
    let one = |op| ConvDims {
        k: 24,
        c: 40,
        filter: [1; 3],
        pad: [0; 3],
        ..dims(op)
    };
    for op in [Op::Fwd, Op::BwdData] {
        let kernel = pointwise(op);
        assert!(kernel.entry(EntryKind::Pointwise).is_some());
        assert!(kernel.source.contains("CK_ENTRY_THREADS(pointwise,"));
        let d = one(op);
        let plan = kernel.plan(&d, &DEV).unwrap();
        assert_eq!(launches(&plan), [EntryKind::Pointwise]);
        // The group's weights as fp32 in LDS; a grid of both groups' pixel ranges.
        let (src, dst): (u32, u64) = if op == Op::Fwd { (40, 24) } else { (24, 40) };
        let span = 256 / (dst / 8) * 4;
        assert!(matches!(
            plan.steps[0],
            Step::Launch { grid: [x, 2, 1], block: [256, 1, 1], lds_bytes, .. }
                if u64::from(x) == (4u64 * 14 * 14).div_ceil(span) && lds_bytes == src * dst as u32 * 4
        ));
        assert_eq!(plan.workspace_bytes, 0);
        // Channels off the vectors, weights past the LDS, a 3x3 filter: the GEMM tile.
        for other in [
            ConvDims { k: 20, ..d.clone() },
            ConvDims {
                k: 128,
                c: 128,
                ..d.clone()
            },
            dims(op),
        ] {
            assert_eq!(
                launches(&kernel.plan(&other, &DEV).unwrap())[0],
                EntryKind::Main
            );
        }
    }
    // Backward weight has no pointwise entry, nor kernels of other ConvSpecs.
    let bwd_weight = pointwise(Op::BwdWeight);
    assert!(bwd_weight.entry(EntryKind::Pointwise).is_none());
    let plain = emit_hip(&SampleBuilder::new("p", Op::Fwd).build()).unwrap();
    assert!(plain.entry(EntryKind::Pointwise).is_none());
    assert!(!plain.source.contains("CK_ENTRY_THREADS(pointwise,"));
}

#[test]
fn pointwise_problems_run_on_tensor_cores_where_the_device_has_them() {
    use crate::model::ConvSpec;
    for op in [Op::Fwd, Op::BwdData] {
        let kernel = emit_hip(
            &SampleBuilder::new("pw", op)
                .spec(ConvSpec::Filter1x1Stride1Pad0)
                .build(),
        )
        .unwrap();
        assert!(kernel.entry(EntryKind::PointwiseMma).is_some());
        assert!(kernel.source.contains("CK_ENTRY_THREADS(pointwise_mma,"));
        let with = |k, c| ConvDims {
            k,
            c,
            filter: [1; 3],
            pad: [0; 3],
            ..dims(op)
        };
        // 40 → 24 channels: the SIMT entry without cp.async, the tensor-core one with it; its
        // LDS is a 64-channel range of weights over the source padded to 16 (48 forward, 32
        // backward) beside four warps' rings of two 16-pixel runs, and its grid covers the
        // 4 x 14 x 14 pixels' 49 runs in blocks of four warps, both groups, one range.
        let d = with(24, 40);
        assert_eq!(
            launches(&kernel.plan(&d, &DEV).unwrap()),
            [EntryKind::Pointwise]
        );
        let plan = kernel.plan(&d, &NV).unwrap();
        assert_eq!(launches(&plan), [EntryKind::PointwiseMma]);
        let sp: u32 = if op == Op::Fwd { 48 } else { 32 };
        assert!(matches!(
            plan.steps[0],
            Step::Launch { grid: [13, 2, 1], block: [128, 1, 1], lds_bytes, .. }
                if lds_bytes == sp * 64 * 2 + 4 * 2 * 32 * sp
        ));
        // 40 → 64 channels: a pass wide enough to stage its 16-bit outputs, so each warp's
        // 16 x 64 output tile joins the LDS.
        let wide = if op == Op::Fwd {
            with(64, 40)
        } else {
            with(40, 64)
        };
        assert!(matches!(
            kernel.plan(&wide, &NV).unwrap().steps[0],
            Step::Launch { entry: EntryKind::PointwiseMma, lds_bytes, .. }
                if lds_bytes == 48 * 64 * 2 + 4 * 2 * 32 * 48 + 4 * 16 * 64 * 2
        ));
        // Two passes: where the runs give each warp the device holds two, one range (each
        // range reads the whole source again); with fewer, a range a pass.
        let two_passes = if op == Op::Fwd {
            with(128, 40)
        } else {
            with(40, 128)
        };
        let many = ConvDims {
            n: 32,
            input: [1, 56, 56],
            output: [1, 56, 56],
            ..two_passes
        };
        for (d, ranges) in [(many, 1), (two_passes, 2)] {
            assert!(matches!(
                kernel.plan(&d, &NV).unwrap().steps[0],
                Step::Launch { entry: EntryKind::PointwiseMma, grid: [_, 2, z], .. } if z == ranges
            ));
        }
        // Few pixels and many destination channels: a range a 64-channel pass, four of them.
        let few = ConvDims {
            n: 2,
            input: [1, 1, 1],
            output: [1, 1, 1],
            ..if op == Op::Fwd {
                with(256, 40)
            } else {
                with(40, 256)
            }
        };
        let plan = kernel.plan(&few, &NV).unwrap();
        assert!(matches!(
            plan.steps[0],
            Step::Launch {
                entry: EntryKind::PointwiseMma,
                grid: [1, 2, 4],
                ..
            }
        ));
        // More than 256 source channels: the SIMT entry.
        let source_past = if op == Op::Fwd {
            with(8, 264)
        } else {
            with(264, 8)
        };
        assert_eq!(
            launches(&kernel.plan(&source_past, &NV).unwrap()),
            [EntryKind::Pointwise]
        );
        // Even channel counts off the 8-channel vectors (20 and ShuffleNet's 58): the tensor
        // cores copy them in pairs and store pairs, so no pass stages its outputs (58 > 48
        // destination channels would); the SIMT entry keeps whole vectors.
        for (k, c, sp) in [(20, 40, if op == Op::Fwd { 48 } else { 32 }), (58, 58, 64)] {
            let d = with(k, c);
            assert!(matches!(
                kernel.plan(&d, &NV).unwrap().steps[0],
                Step::Launch { entry: EntryKind::PointwiseMma, lds_bytes, .. }
                    if lds_bytes == sp * 64 * 2 + 4 * 2 * 32 * sp
            ));
            assert_eq!(
                launches(&kernel.plan(&d, &DEV).unwrap())[0],
                EntryKind::Main
            );
        }
        // Weights past the SIMT entry's LDS, odd channels, a 3x3 filter: the GEMM tile.
        for other in [with(128, 128), with(21, 40), dims(op)] {
            assert_eq!(
                launches(&kernel.plan(&other, &NV).unwrap())[0],
                EntryKind::Main
            );
        }
    }
}

/// An instance that knowingly breaks CK's rules (`allow`) prints but has no portable kernel.
#[test]
fn instances_that_allow_rule_breaks_have_no_portable_kernel() {
    let inst = SampleBuilder::new("deviating", Op::Fwd).build();
    assert!(emit_hip(&inst).is_ok());
    let mut inst = inst.into_instance();
    inst.allow = vec!["CK0302".into()];
    let inst = crate::validate::unvalidated(inst);
    assert!(matches!(
        emit_hip(&inst),
        Err(PortableError::Allowed { instance, codes }) if instance == "deviating" && codes == "CK0302"
    ));
}

#[test]
fn scalar_load_forward_kernels_run_few_input_channels_on_their_window_entry() {
    let scalar = |op| emit_hip(&SampleBuilder::new("w", op).vectors(1, 1, false).build()).unwrap();
    let kernel = scalar(Op::Fwd);
    assert!(kernel.entry(EntryKind::Window).is_some());
    assert!(kernel.source.contains("CK_ENTRY_THREADS(window,"));
    // An RGB stem: 7x7 taps over 3 channels, 24 outputs (three vectors: 85 pixel slots of 2).
    let stem = ConvDims {
        k: 24,
        c: 3,
        filter: [1, 7, 7],
        pad: [0, 3, 3],
        stride: [1, 2, 2],
        output: [1, 7, 7],
        ..dims(Op::Fwd)
    };
    let plan = kernel.plan(&stem, &DEV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Window]);
    let span = 256 / 3 * 2;
    assert!(matches!(
        plan.steps[0],
        Step::Launch { grid: [x, 2, 1], block: [256, 1, 1], lds_bytes, .. }
            if u64::from(x) == (4u64 * 7 * 7).div_ceil(span) && lds_bytes == 49 * 3 * 24 * 4
    ));
    assert_eq!(plan.workspace_bytes, 0);
    // 20 outputs: three vectors, the last partial, its weights padded with zeros in LDS.
    let odd = ConvDims {
        k: 20,
        ..stem.clone()
    };
    let plan = kernel.plan(&odd, &DEV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::Window]);
    assert!(matches!(
        plan.steps[0],
        Step::Launch { lds_bytes, .. } if lds_bytes == 49 * 3 * 24 * 4
    ));
    // One group of 3 outputs (an image's last layer): one partial vector.
    let rgb = ConvDims {
        k: 3,
        g: 1,
        ..stem.clone()
    };
    assert_eq!(
        launches(&kernel.plan(&rgb, &DEV).unwrap()),
        [EntryKind::Window]
    );
    // Eight channels, groups of fewer outputs than a vector, weights past the LDS: the GEMM
    // tile.
    for other in [
        ConvDims {
            c: 8,
            ..stem.clone()
        },
        ConvDims {
            k: 4,
            ..stem.clone()
        },
        ConvDims {
            k: 512,
            ..stem.clone()
        },
    ] {
        assert_eq!(
            launches(&kernel.plan(&other, &DEV).unwrap())[0],
            EntryKind::Main
        );
    }
    // On NVIDIA sm_80+ with 16-bit operands the window is a GEMM row of tensor-core steps:
    // 147 values in 10 steps of 16, the weights' fragments of 3 output tiles, the tap table
    // and four warps' fp32 tiles of 16 pixels by 24 + 8 channels; a warp takes 32 pixels a
    // pass (196 pixels: two workgroups).
    assert!(kernel.entry(EntryKind::WindowMma).is_some());
    assert!(kernel.source.contains("CK_ENTRY_THREADS(window_mma,"));
    let plan = kernel.plan(&stem, &NV).unwrap();
    assert_eq!(launches(&plan), [EntryKind::WindowMma]);
    let lds = 10 * 3 * 32 * 8 + 10 * 16 * 16 + 4 * 16 * 32 * 4;
    assert!(matches!(
        plan.steps[0],
        Step::Launch { grid: [2, 2, 1], block: [128, 1, 1], lds_bytes, .. } if lds_bytes == lds
    ));
    let large = ConvDims {
        n: 64,
        k: 64,
        input: [1, 56, 56],
        output: [1, 28, 28],
        ..stem.clone()
    };
    let plan = kernel.plan(&large, &NV).unwrap();
    assert!(matches!(
        plan.steps[0],
        Step::Launch { entry: EntryKind::WindowMma, grid: [x, 2, 1], .. }
            if u64::from(x) == (64u64 * 28 * 28).div_ceil(32 * 4).min(4 * 132 / 2)
    ));
    // fp32 operands, more than 64 outputs or 256 window values stay on the SIMT lanes.
    let fp32 = emit_hip(
        &SampleBuilder::new("w32", Op::Fwd)
            .dtype(DataType::Fp32)
            .vectors(1, 1, false)
            .build(),
    )
    .unwrap();
    assert_eq!(
        launches(&fp32.plan(&stem, &NV).unwrap()),
        [EntryKind::Window]
    );
    for simt in [
        ConvDims {
            k: 72,
            ..stem.clone()
        },
        ConvDims {
            c: 4,
            filter: [1, 9, 9],
            ..stem.clone()
        },
    ] {
        assert_eq!(
            launches(&kernel.plan(&simt, &NV).unwrap()),
            [EntryKind::Window]
        );
    }
    // Backward data and vector-load kernels have no window entry.
    assert!(scalar(Op::BwdData).entry(EntryKind::Window).is_none());
    let plain = emit_hip(&SampleBuilder::new("p", Op::Fwd).build()).unwrap();
    assert!(plain.entry(EntryKind::Window).is_none());
    assert!(!plain.source.contains("CK_ENTRY_THREADS(window,"));
}

#[test]
fn tf32_warpgroup_kernels_take_the_fp32_lines_and_16_bit_ones_keep_theirs() {
    let body: String = super::source::BODY.concat();
    for (from, to) in super::source::TF32_WGMMA_LINES {
        assert_eq!(body.matches(from).count(), 1, "{from}");
        assert!(!body.contains(to), "{to}");
    }
    // fp32 data computed in tf32 (the operands' storage fp32, the products' type tf32).
    let k = emit_hip(
        &SampleBuilder::new("wg", Op::Fwd)
            .dtype(DataType::Tf32)
            .tile(256, [128, 128, 32], 4)
            .vectors(4, 4, false)
            .build(),
    )
    .unwrap();
    assert!(k.config.wgmma.is_some() && k.config.a.elem == Elem::F32);
    for (from, to) in super::source::TF32_WGMMA_LINES {
        assert!(k.source.contains(to) && !k.source.contains(from), "{to}");
    }
    assert!(k.source.contains("m64n128k8.f32.tf32.tf32"));
    let k = emit_hip(
        &SampleBuilder::new("wg16", Op::Fwd)
            .tile(256, [128, 128, 64], 8)
            .vectors(8, 8, false)
            .build(),
    )
    .unwrap();
    assert!(k.config.wgmma.is_some());
    for (from, _) in super::source::TF32_WGMMA_LINES {
        assert!(k.source.contains(from), "{from}");
    }
}

#[test]
fn tf32_backward_data_reads_transposed_weights_from_a_copy_it_makes_first() {
    let wg = |tile, k1| {
        emit_hip(
            &SampleBuilder::new("bd", Op::BwdData)
                .dtype(DataType::Tf32)
                .tile(256, tile, k1)
                .vectors(4, 4, false)
                .build(),
        )
        .unwrap()
    };
    // 32-deep K-tiles take the warpgroup layout with B loaded along GEMM-K (the transposed
    // copy); 16-deep ones keep the weights as they are, loaded along N.
    let k = wg([128, 128, 32], 4);
    assert!(k.config.weights_transposed() && k.config.wgmma.is_some());
    assert!(k.entry(EntryKind::Transpose).is_some());
    assert!(k.source.contains("CK_ENTRY_THREADS(transpose,"));
    assert!(k.source.contains("m64n128k8.f32.tf32.tf32"));
    let shallow = wg([128, 128, 16], 4);
    assert!(!shallow.config.weights_transposed());
    assert!(shallow.entry(EntryKind::Transpose).is_none());
    assert!(!shallow.source.contains("CK_ENTRY_THREADS(transpose,"));
    // fp16 backward data keeps its N-major weights (the 16-bit wgmma transposes them itself).
    let f16 = emit_hip(
        &SampleBuilder::new("bd16", Op::BwdData)
            .tile(256, [128, 128, 64], 8)
            .vectors(8, 8, false)
            .build(),
    )
    .unwrap();
    assert!(!f16.config.weights_transposed());

    // G = 2, K = 136, C = 72, 3x3: the copy [G][C][taps][K] after the plan's own workspace,
    // made before every other launch; the GEMM's weight strides are the copy's.
    let d = ConvDims {
        layouts: [Layout::Nhwgc, Layout::Gkyxc, Layout::Nhwgk],
        ..dims(Op::BwdData)
    };
    let plan = k.plan(&d, &SM90A).unwrap();
    let t = Transpose {
        groups: 2,
        k: 136,
        taps: 9,
        c: 72,
    };
    let st = plan.staged[1].unwrap();
    assert_eq!(st.copy, StagedCopy::Transposed(t));
    assert_eq!(st.elem_bytes, 4);
    assert!(st.offset.is_multiple_of(256));
    assert_eq!(plan.workspace_bytes, st.offset + t.elements() * 4);
    assert!(matches!(
        plan.steps[0],
        Step::Repack {
            tensor: 1,
            unpack: false,
            ..
        }
    ));
    let a = plan.args;
    assert_eq!(
        (a.ws_k, a.ws_x, a.ws_y, a.ws_c, a.ws_g),
        (1, 136, 3 * 136, 9 * 136, 72 * 9 * 136)
    );
    assert_eq!((a.vec_a, a.vec_b), (1, 1));
    let bufs = Buffers {
        input: 1000,
        weight: 2000,
        output: 3000,
        workspace: 1 << 20,
        ..Buffers::default()
    };
    assert_eq!(plan.args_for(bufs, 0).w, (1 << 20) + st.offset);
    let r = plan.repack_args(bufs, 1, false);
    assert_eq!((r.x, r.y), (2000, (1 << 20) + st.offset));
    assert_eq!(
        (r.rp_rows, r.rp_src, r.rp_blocks, r.rp_in, r.rp_bytes),
        (2, 9, 136, 72, 4)
    );
    // Stride phases read every s-th tap of the copy from their first.
    let strided = ConvDims {
        stride: [1, 2, 2],
        output: [1, 7, 7],
        ..d.clone()
    };
    let plan = k.plan(&strided, &SM90A).unwrap();
    assert_eq!(plan.phases.len(), 4);
    assert!(plan.staged[1].is_some());
    assert!(plan.phases.iter().all(|p| p.args.ws_y == 2 * 3 * 136));
    // Weights the copy cannot describe (not packed [G][K][taps][C]) are refused.
    let other = ConvDims {
        layouts: [Layout::Nhwgc, Layout::Gkcyx, Layout::Nhwgk],
        ..d
    };
    assert!(matches!(
        k.plan(&other, &SM90A),
        Err(PlanError::Staged(_)) | Err(PlanError::Layout { .. })
    ));
}
