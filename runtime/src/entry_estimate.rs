//! Analytic estimates of the runs that a kernel's GEMM does not compute: the entries that stream
//! a problem (pointwise, window, small-channel tensor cores, depthwise rows, the `sliced`
//! backward weight of few output channels) and the padded copies a formulation adds. Each is a
//! handful of terms fitted to the entry's runs on an H200 (`docs/performance.md`). They are
//! features of the learned models ([`crate::features`]), which correct them where the measured
//! runs disagree.

use crate::device::DeviceModel;
use crate::dims::conv_dims;
use crate::elementwise::ops_by_role;
use crate::layout::Role;
use crate::probe::vectors;
use crate::problem::ConvProblem;
use crate::support::Formulation;
use ck_compiler::ir::Checked;
use ck_compiler::kernel::{
    ConvDims, DeviceInfo, EntryKind, KernelConfig, NO_CLUSTERS, Persist, Step, dconv_mma_suits,
    dconv_strip_rows, dconv_window, dconv_window_stride, depthwise_rows_suit, pointwise_mma_suits,
    pointwise_suits, rows_computed_taps, stride_phases, takes_stride_phases, window_mma_suits,
    window_suits,
};
use ck_compiler::model::{Arch, ConvSpec, DataType, ElementOp, Op};

/// What is known of a run before a learned model: the estimate of the entry that streams it,
/// where one does, and the padded copies' time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntryEstimate {
    /// Microseconds of the run on an entry that streams the problem, its copies included; None
    /// where the kernel's GEMM runs it.
    pub streamed: Option<f64>,
    /// Microseconds of the padded copies (0 without).
    pub copies_us: f64,
}

/// The entry estimate of `inst` running `p` as `form` on `dev`. The features describe the GEMM
/// of the problem an instance computes; the pointwise, window, small-channel tensor-core and depthwise
/// rows entries stream it instead, as does the `sliced` entry of kernels that read the output
/// gradient as one run, and padded copies add their own launches. The small-channel entry runs
/// copies that only add zero groups as stated, without them.
pub fn entry_estimate(
    inst: &Checked,
    form: &Formulation,
    p: &ConvProblem,
    dev: &DeviceModel,
) -> EntryEstimate {
    let stated = match form {
        Formulation::Padded(pd) if pd.adds_groups_only(p) => dconv_mma_us(inst, p),
        _ => None,
    };
    let copies_us = match form {
        Formulation::Padded(pd) if stated.is_none() => {
            pd.copies() as f64 * COPY_LAUNCH_US + pd.copy_bytes() as f64 / COPY_BYTES_PER_US
        }
        _ => 0.0,
    };
    let q = form.problem(p);
    let streamed = stated
        .or_else(|| pointwise_us(inst, q))
        .or_else(|| window_us(inst, q))
        .or_else(|| dconv_mma_us(inst, q))
        .or_else(|| depthwise_rows_us(inst, q))
        .or_else(|| sliced_us(inst, q, dev))
        .map(|us| us + copies_us);
    EntryEstimate {
        streamed,
        copies_us,
    }
}

/// The estimate of a run of `q` on the pointwise entry, where `inst`'s kernel takes it there.
/// On tensor cores (16-bit operands of one type, `pointwise_mma_suits`): a launch, its bytes
/// near the memory bandwidth and its products. On the SIMT lanes (`pointwise_suits`): a launch,
/// its bytes at about 60 % of the memory bandwidth, its multiply-adds, a step for each source
/// channel (a destination's sum runs over them one after another, which few pixels cannot
/// hide) and the weights each block stages.
fn pointwise_us(inst: &Checked, q: &ConvProblem) -> Option<f64> {
    if inst.spec != ConvSpec::Filter1x1Stride1Pad0 || !plain_loads(inst) {
        return None;
    }
    let dims = conv_dims(q).ok()?;
    let pixels = (dims.n * dims.input.iter().product::<u64>()) as f64;
    let elem = |role| q.dtype_of(role).bytes() as f64;
    let bytes = pixels
        * dims.g as f64
        * (dims.c as f64 * elem(Role::Input) + dims.k as f64 * elem(Role::Output));
    let flops = 2.0 * pixels * (dims.g * dims.c * dims.k) as f64;
    let [a, b] = [Role::Input, Role::Weight].map(|r| q.dtype_of(r));
    if a == b && a.bytes() == 2 && pointwise_mma_suits(&dims) {
        let t = if a == DataType::Bf16 {
            POINTWISE_MMA_BF16
        } else {
            POINTWISE_MMA_FP16
        };
        return Some(t.launch_us + bytes / t.bytes_per_us + flops / t.flops_per_us);
    }
    if !pointwise_suits(&dims) {
        return None;
    }
    let source = match dims.op {
        Op::Fwd => dims.c,
        _ => dims.k,
    } as f64;
    let weights = (dims.c * dims.k) as f64;
    Some(
        POINTWISE_LAUNCH_US
            + bytes / POINTWISE_BYTES_PER_US
            + flops / POINTWISE_FLOPS_PER_US
            + source * POINTWISE_SOURCE_US
            + weights * POINTWISE_WEIGHT_US,
    )
}

/// The estimate of a run of `q` on the window forward entry, where `inst`'s kernel takes it
/// there (forward, scalar loads of both operands, no merged groups, plain loads,
/// [`window_suits`]): a launch, the input's and output's bytes, and on tensor cores (16-bit
/// operands of one type, [`window_mma_suits`]) the window values each pixel gathers (padded to
/// whole 16-value steps), on the SIMT lanes the multiply-adds (of the outputs padded to whole
/// 8-channel vectors, which the lanes compute).
fn window_us(inst: &Checked, q: &ConvProblem) -> Option<f64> {
    let [va, vb, _] = vectors(inst);
    if inst.op != Op::Fwd || va != 1 || vb != 1 || inst.work.merge_groups > 1 || !plain_loads(inst)
    {
        return None;
    }
    let dims = conv_dims(q).ok().filter(window_suits)?;
    let px = |s: [u64; 3]| (dims.n * dims.g * s.iter().product::<u64>()) as f64;
    let elem = |role| q.dtype_of(role).bytes() as f64;
    let bytes = px(dims.input) * dims.c as f64 * elem(Role::Input)
        + px(dims.output) * dims.k as f64 * elem(Role::Output);
    let taps = dims.filter.iter().product::<u64>();
    let [a, b] = [Role::Input, Role::Weight].map(|r| q.dtype_of(r));
    if a == b && a.bytes() == 2 && window_mma_suits(&dims) {
        let gathers = px(dims.output) * (taps * dims.c).next_multiple_of(16) as f64;
        return Some(
            WINDOW_MMA_LAUNCH_US
                + bytes / WINDOW_MMA_BYTES_PER_US
                + gathers / WINDOW_MMA_GATHERS_PER_US,
        );
    }
    let fmas = px(dims.output) * (taps * dims.c * dims.k.next_multiple_of(8)) as f64;
    Some(WINDOW_LAUNCH_US + bytes / WINDOW_BYTES_PER_US + fmas / WINDOW_FMAS_PER_US)
}

/// The estimate of a run of `q` on the small-channel forward / backward-data entry's
/// tensor-core path, where `inst`'s kernel takes it there (it merges groups, plain loads, one
/// 16-bit type, [`dconv_mma_suits`]): a launch, each 16-pixel run of a vector, and each of its
/// MMA steps (two taps, or one at 16 channels a group), counted over the stride phases for
/// strided backward data; in row windows, each window's step (16 channels a group: each
/// source row's for a strip of rows, with its own term).
fn dconv_mma_us(inst: &Checked, q: &ConvProblem) -> Option<f64> {
    let [a, b, c] = [Role::Input, Role::Weight, Role::Output].map(|r| q.dtype_of(r));
    if inst.work.merge_groups < 2 || !plain_loads(inst) || a != b || a != c || a.bytes() != 2 {
        return None;
    }
    let dims = conv_dims(q).ok().filter(dconv_mma_suits)?;
    let (runs, steps, rows) = dconv_runs_and_steps(&dims)?;
    // Vectors of 8 channels (two 4-channel groups, one 8-channel group or half a 16-channel
    // one), in sets of 16.
    let per = (dims.g * dims.c) as f64 / 8.0 / 16.0;
    let (launch, row) = if dims.c == 16 {
        (DCONV_G16_LAUNCH_US, DCONV_G16_ROW_US)
    } else {
        (DCONV_LAUNCH_US, DCONV_ROW_US)
    };
    Some(launch + per * (runs * DCONV_RUN_US + steps * DCONV_STEP_US + rows * row))
}

/// Destination pixels and their MMA steps of a problem [`dconv_mma_suits`]: tap pairs (a 3x3
/// filter's nine taps are five; at 16 channels a group each tap is a step), or window steps
/// where it runs in row windows ([`dconv_window`], its rows padded to whole runs: a filter
/// row's, or a strip's source rows); for backward data that splits into stride phases, those of
/// each phase, whose filter holds the taps its stride divides (none past 64 phases).
fn dconv_runs_and_steps(dims: &ConvDims) -> Option<(f64, f64, f64)> {
    // A problem without stride phases, or one phase.
    let unit = |d: &ConvDims| {
        let [depth, h, w] = if d.op == Op::Fwd { d.output } else { d.input };
        let taps: u64 = d.filter.iter().product();
        if dconv_window(d) {
            let strip = dconv_strip_rows(d.c);
            let source_rows = dconv_window_stride(d) * (strip - 1) + d.filter[1];
            let runs = (d.n * depth * h.div_ceil(strip) * w.next_multiple_of(16)) as f64;
            return (runs, 0.0, runs * source_rows as f64);
        }
        let pixels = (d.n * depth * h * w) as f64;
        let steps = if d.c == 16 { taps } else { taps.div_ceil(2) };
        (pixels, pixels * steps as f64, 0.0)
    };
    if !takes_stride_phases(dims) {
        return Some(unit(dims));
    }
    if dims.stride.iter().product::<u64>() > 64 {
        return None;
    }
    let sum = stride_phases(dims)
        .into_iter()
        .filter_map(|ph| ph.dims)
        .map(|d| unit(&d))
        .fold((0.0, 0.0, 0.0), |t, u| (t.0 + u.0, t.1 + u.1, t.2 + u.2));
    Some(sum)
}

/// The estimate of a run of `q` on the depthwise backward-weight rows entries, where `inst`'s
/// kernel takes it there (it merges groups, plain loads, [`depthwise_rows_suit`]): two launches
/// (the rows and the convert that adds their slices), the input and output gradient's bytes,
/// and the multiply-adds on the SIMT lanes (a long row's pieces, the dropped taps too).
fn depthwise_rows_us(inst: &Checked, q: &ConvProblem) -> Option<f64> {
    if inst.work.merge_groups < 2 || !plain_loads(inst) {
        return None;
    }
    let dims = conv_dims(q).ok().filter(depthwise_rows_suit)?;
    let px = |s: [u64; 3]| (dims.n * dims.g * s.iter().product::<u64>()) as f64;
    let elem = |role| q.dtype_of(role).bytes() as f64;
    let bytes = px(dims.input) * elem(Role::Input) + px(dims.output) * elem(Role::Output);
    let fmas = px(dims.output) * rows_computed_taps(dims.filter) as f64;
    Some(ROWS_LAUNCH_US + bytes / ROWS_BYTES_PER_US + fmas / ROWS_FMAS_PER_US)
}

/// The estimate of a run of `q` on the `sliced` backward-weight entry of a kernel whose A
/// vector is under 4 (K of 1 to 3, which the model's training runs of the entry lack), where
/// its plan on an sm_90 device of `dev`'s compute units takes it there: a launch, the chain of
/// 16-pixel steps each warp runs (in rounds of two workgroups a compute unit), the bytes each
/// workgroup streams (its tap's input channels and the output gradient) at one slot's share of
/// the bandwidth, the input once from memory, and the workspace slices the convert adds.
fn sliced_us(inst: &Checked, q: &ConvProblem, dev: &DeviceModel) -> Option<f64> {
    if inst.op != Op::BwdWeight || inst.waves[2] < 2 || vectors(inst)[0] >= 4 {
        return None;
    }
    let dims = conv_dims(q).ok()?;
    let sm90 = DeviceInfo {
        compute_units: dev.compute_units,
        max_lds_bytes: ck_compiler::arch::info(Arch::Sm90).lds_bytes,
        async_copy: true,
        wgmma: true,
        persistent: Persist::Off,
        cluster_slots: NO_CLUSTERS,
    };
    let plan = KernelConfig::new(inst).ok()?.plan(&dims, &sm90).ok()?;
    let Some(&Step::Launch {
        entry: EntryKind::Sliced,
        grid,
        ..
    }) = plan.steps.first()
    else {
        return None;
    };
    let [tiles, slices, groups] = grid.map(f64::from);
    let channels = f64::from(inst.tile.n);
    let pixels = (dims.n * dims.output.iter().product::<u64>()) as f64;
    let workgroups = tiles * slices * groups;
    let slots = 2.0 * f64::from(dev.compute_units);
    let rounds = (workgroups / slots).ceil();
    let warp_steps = (pixels / 16.0).ceil() / slices / f64::from(inst.waves[2]);
    let elem = q.dtype_of(Role::Input).bytes() as f64;
    let streamed = tiles * groups * pixels * (channels + dims.k as f64) * elem;
    let input = (dims.n * dims.input.iter().product::<u64>() * dims.g * dims.c) as f64 * elem;
    let workspace = if slices > 1.0 {
        plan.workspace_bytes as f64
    } else {
        0.0
    };
    Some(
        SLICED_LAUNCH_US
            + rounds * warp_steps * SLICED_STEP_US
            + rounds * streamed / workgroups.min(slots) / SLICED_SLOT_BYTES_PER_US
            + input / SLICED_INPUT_BYTES_PER_US
            + workspace / SLICED_WORKSPACE_BYTES_PER_US,
    )
}

/// The `sliced` entry's terms, fitted to its runs of K of 1 to 4 on an H200
/// (`docs/performance.md`).
const SLICED_LAUNCH_US: f64 = 3.1;
const SLICED_STEP_US: f64 = 0.213;
const SLICED_SLOT_BYTES_PER_US: f64 = 7.0e4;
const SLICED_INPUT_BYTES_PER_US: f64 = 7.8e6;
const SLICED_WORKSPACE_BYTES_PER_US: f64 = 3.1e4;

/// Whether `inst` loads both operands without an element-wise op, as the entries that stream a
/// problem need.
fn plain_loads(inst: &Checked) -> bool {
    let ([a, b], _) = ops_by_role(inst.op, &inst.elementwise);
    a == ElementOp::PassThrough && b == ElementOp::PassThrough
}

/// The depthwise rows entries' terms, fitted to their runs on an H200 (`docs/performance.md`).
const ROWS_LAUNCH_US: f64 = 14.5;
const ROWS_BYTES_PER_US: f64 = 2.1e6;
const ROWS_FMAS_PER_US: f64 = 1.0e7;

/// The small-channel tensor-core path's terms, fitted to its runs on an H200
/// (`docs/performance.md`): a launch, a 16-pixel run of a vector, an MMA step of it.
const DCONV_LAUNCH_US: f64 = 17.0;
const DCONV_RUN_US: f64 = 2.95e-4;
const DCONV_STEP_US: f64 = 7.2e-5;
/// A source row's step of a strip in row windows (its MMAs for up to two of the strip's rows).
const DCONV_ROW_US: f64 = 1.05e-4;
/// At 16 channels a group: a launch, and a source row's step of a strip (its MMAs for up to
/// three of the strip's rows).
const DCONV_G16_LAUNCH_US: f64 = 6.0;
const DCONV_G16_ROW_US: f64 = 1.8e-4;

/// The pointwise entry's terms, fitted to its runs on an H200 (`docs/performance.md`).
const POINTWISE_LAUNCH_US: f64 = 2.0;
const POINTWISE_BYTES_PER_US: f64 = 2.8e6;
const POINTWISE_FLOPS_PER_US: f64 = 4.7e7;
const POINTWISE_SOURCE_US: f64 = 0.06;
const POINTWISE_WEIGHT_US: f64 = 5.6e-4;

/// The pointwise entry's terms on tensor cores: a launch, bytes and products a microsecond.
struct MmaTerms {
    launch_us: f64,
    bytes_per_us: f64,
    flops_per_us: f64,
}

/// The tensor-core terms of each 16-bit type, fitted to the entry's runs on an H200
/// (`docs/performance.md`); bf16 runs are slower at the same sizes.
const POINTWISE_MMA_FP16: MmaTerms = MmaTerms {
    launch_us: 5.5,
    bytes_per_us: 3.0e6,
    flops_per_us: 3.5e8,
};
const POINTWISE_MMA_BF16: MmaTerms = MmaTerms {
    launch_us: 7.0,
    bytes_per_us: 3.0e6,
    flops_per_us: 2.0e8,
};

/// The window entry's terms, fitted to its runs on an H200 (`docs/performance.md`).
const WINDOW_LAUNCH_US: f64 = 11.0;
const WINDOW_BYTES_PER_US: f64 = 3.3e6;
const WINDOW_FMAS_PER_US: f64 = 9.8e6;
/// Its terms on tensor cores, fitted to its runs on an H100 (`docs/performance.md`): a launch,
/// bytes and gathered window values a microsecond.
const WINDOW_MMA_LAUNCH_US: f64 = 4.5;
const WINDOW_MMA_BYTES_PER_US: f64 = 1.74e6;
const WINDOW_MMA_GATHERS_PER_US: f64 = 1.03e6;

/// What the estimate of a run on padded copies adds for each copy: a launch, and its bytes at
/// about two thirds of an H100's memory bandwidth.
const COPY_LAUNCH_US: f64 = 3.0;
const COPY_BYTES_PER_US: f64 = 2.2e6;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{changed, h200};

    /// Runs on the window entry are estimated by their bytes and gathered window values on
    /// tensor cores (16-bit operands, at most 64 outputs), by their bytes and multiply-adds on
    /// the SIMT lanes; kernels without the entry get none.
    #[test]
    fn window_runs_are_estimated_by_their_bytes_and_window_values() {
        use crate::testing::{Variant, instance};
        let scalar = |i: &mut ck_compiler::ir::Instance| {
            i.a.src_vector = 1;
            i.b.src_vector = 1;
        };
        let inst = changed(&instance(Variant::FwdXdl), scalar);
        let stem = |dtype: &str, k: u64| {
            ConvProblem::parse(&format!(
                "fwd 2d N=2 K={k} C=3 filter=3x3 input=16x16 stride=2 pad=1 dtype={dtype}"
            ))
            .unwrap()
        };
        // 2 · 8 · 8 output pixels, 27 values a window padded to 32.
        let pixels = 128.0;
        let bytes = |k: f64, elem: f64| (512.0 * 3.0 + pixels * k) * elem;
        let mma = WINDOW_MMA_LAUNCH_US
            + bytes(32.0, 2.0) / WINDOW_MMA_BYTES_PER_US
            + pixels * 32.0 / WINDOW_MMA_GATHERS_PER_US;
        let got = window_us(&inst, &stem("fp16", 32)).unwrap();
        assert!((got - mma).abs() < 1e-9 * mma, "{got} against {mma}");
        let simt = |k: f64, elem: f64| {
            WINDOW_LAUNCH_US
                + bytes(k, elem) / WINDOW_BYTES_PER_US
                + pixels * 27.0 * (k / 8.0).ceil() * 8.0 / WINDOW_FMAS_PER_US
        };
        for (p, want) in [
            (stem("fp32", 32), simt(32.0, 4.0)),
            (stem("fp16", 72), simt(72.0, 2.0)),
        ] {
            let got = window_us(&inst, &p).unwrap();
            assert!((got - want).abs() < 1e-9 * want, "{got} against {want}");
        }
        let vector = instance(Variant::FwdXdl);
        assert_eq!(window_us(&vector, &stem("fp16", 32)), None);
    }

    /// Runs on the pointwise entry are estimated by their bytes and products on tensor cores
    /// (16-bit operands, at most 256 source channels), by their bytes, multiply-adds and
    /// channels on the SIMT lanes; other runs and other kernels get none.
    #[test]
    fn pointwise_runs_are_estimated_by_their_bytes_and_channels() {
        use crate::testing::{Variant, instance};
        let inst = changed(&instance(Variant::FwdTile), |i| {
            i.spec = ConvSpec::Filter1x1Stride1Pad0
        });
        let pixels = 32.0 * 112.0 * 112.0;
        let fp16 = ConvProblem::parse("fwd 2d N=32 K=32 C=16 filter=1x1 input=112x112 dtype=fp16")
            .unwrap();
        for (dtype, t) in [("fp16", POINTWISE_MMA_FP16), ("bf16", POINTWISE_MMA_BF16)] {
            let p = ConvProblem::parse(&format!(
                "fwd 2d N=32 K=32 C=16 filter=1x1 input=112x112 dtype={dtype}"
            ))
            .unwrap();
            let want = t.launch_us
                + pixels * 48.0 * 2.0 / t.bytes_per_us
                + 2.0 * pixels * 512.0 / t.flops_per_us;
            let got = pointwise_us(&inst, &p).unwrap();
            assert!(
                (got - want).abs() < 1e-9 * want,
                "{dtype}: {got} against {want}"
            );
        }
        let fp32 = ConvProblem::parse("fwd 2d N=32 K=32 C=16 filter=1x1 input=112x112 dtype=fp32")
            .unwrap();
        let want = POINTWISE_LAUNCH_US
            + pixels * 48.0 * 4.0 / POINTWISE_BYTES_PER_US
            + 2.0 * pixels * 512.0 / POINTWISE_FLOPS_PER_US
            + 16.0 * POINTWISE_SOURCE_US
            + 512.0 * POINTWISE_WEIGHT_US;
        let got = pointwise_us(&inst, &fp32).unwrap();
        assert!((got - want).abs() < 1e-9 * want, "{got} against {want}");
        // Past 256 source channels, 16-bit runs stay on the SIMT lanes.
        let deep =
            ConvProblem::parse("fwd 2d N=32 K=8 C=264 filter=1x1 input=14x14 dtype=fp16").unwrap();
        let simt = POINTWISE_LAUNCH_US
            + 32.0 * 196.0 * 272.0 * 2.0 / POINTWISE_BYTES_PER_US
            + 2.0 * 32.0 * 196.0 * 2112.0 / POINTWISE_FLOPS_PER_US
            + 264.0 * POINTWISE_SOURCE_US
            + 2112.0 * POINTWISE_WEIGHT_US;
        let got = pointwise_us(&inst, &deep).unwrap();
        assert!((got - simt).abs() < 1e-9 * simt, "{got} against {simt}");
        let three =
            ConvProblem::parse("fwd 2d N=32 K=32 C=16 filter=3x3 input=112x112 pad=1").unwrap();
        assert_eq!(pointwise_us(&inst, &three), None);
        let wide = ConvProblem::parse("fwd 2d N=1 K=256 C=256 filter=1x1 input=8x8").unwrap();
        assert_eq!(pointwise_us(&inst, &wide), None);
        // Even channels off the vectors (ShuffleNet's 58): tensor cores in 16-bit, which copy
        // pairs; fp32 data would need the SIMT lanes' whole vectors, and odd channels neither.
        let pairs = |dtype: &str, c: u64| {
            let p = format!("fwd 2d N=64 K=58 C={c} filter=1x1 input=28x28 dtype={dtype}");
            pointwise_us(&inst, &ConvProblem::parse(&p).unwrap())
        };
        let px = 64.0 * 28.0 * 28.0;
        let t = POINTWISE_MMA_FP16;
        let want = t.launch_us
            + px * 116.0 * 2.0 / t.bytes_per_us
            + 2.0 * px * 58.0 * 58.0 / t.flops_per_us;
        let got = pairs("fp16", 58).unwrap();
        assert!((got - want).abs() < 1e-9 * want, "{got} against {want}");
        assert_eq!(pairs("fp32", 58), None);
        assert_eq!(pairs("fp16", 57), None);
        let inst = changed(&inst, |i| i.spec = ConvSpec::Default);
        assert_eq!(pointwise_us(&inst, &fp16), None);
    }

    /// Depthwise backward weight on a kernel that merges groups is estimated by its bytes and
    /// multiply-adds (the rows entries); other kernels, ops and filters get none.
    #[test]
    fn depthwise_rows_runs_are_estimated_by_their_bytes() {
        let p = ConvProblem::parse(
            "bwd_weight 2d G=144 N=128 K=1 C=1 filter=5x5 input=56x56 stride=2 pad=2",
        )
        .unwrap();
        let inst = changed(
            &crate::testing::instance(crate::testing::Variant::XdlTwoStage),
            |i| i.work.merge_groups = 8,
        );
        // 128 images of 144 groups: 56² input and 28² output pixels of 2 bytes, 25 taps.
        let (input, output) = (128.0 * 144.0 * 3136.0, 128.0 * 144.0 * 784.0);
        let want = ROWS_LAUNCH_US
            + 2.0 * (input + output) / ROWS_BYTES_PER_US
            + 25.0 * output / ROWS_FMAS_PER_US;
        let got = depthwise_rows_us(&inst, &p).unwrap();
        assert!((got - want).abs() < 1e-9 * want, "{got} against {want}");
        let three_taps =
            ConvProblem::parse("bwd_weight 3d G=144 N=8 K=1 C=1 filter=3x3x3 input=8x8x8 pad=1")
                .unwrap();
        assert_eq!(depthwise_rows_us(&inst, &three_taps), None);
        let grouped =
            ConvProblem::parse("bwd_weight 2d G=16 N=8 K=8 C=8 filter=3x3 input=28x28 pad=1")
                .unwrap();
        assert_eq!(depthwise_rows_us(&inst, &grouped), None);
        let inst = changed(&inst, |i| i.work.merge_groups = 1);
        assert_eq!(depthwise_rows_us(&inst, &p), None);
    }

    /// Few output channels on the sliced entry of a kernel that reads the output gradient as one
    /// run are estimated from its plan (FCOS's K = 1 head: 72 tiles in three rows of
    /// workgroups, each warp 79 steps, in one round); the K % 4 kernels' sliced tile, which the
    /// model was trained on, and problems the entry does not take get none.
    #[test]
    fn few_output_channels_on_the_sliced_entry_are_estimated_from_its_plan() {
        let lib = |name: &str| ck_instances::get(name).expect(name);
        let raw = lib("nv_bwd_weight_k1_2d_fp16_t16x32x128");
        let fcos = ConvProblem::parse(
            "bwd_weight 2d N=2 K=1 C=256 filter=3x3 input=100x152 pad=1 dtype=fp16",
        )
        .unwrap();
        let pixels = 2.0 * 100.0 * 152.0;
        let want = SLICED_LAUNCH_US
            + (1900.0_f64 / 3.0 / 8.0) * SLICED_STEP_US
            + 72.0 * pixels * 33.0 * 2.0 / 216.0 / SLICED_SLOT_BYTES_PER_US
            + pixels * 256.0 * 2.0 / SLICED_INPUT_BYTES_PER_US
            + 3.0 * 256.0 * 9.0 * 4.0 / SLICED_WORKSPACE_BYTES_PER_US;
        let got = sliced_us(raw, &fcos, &h200()).unwrap();
        assert!((got - want).abs() < 1e-9 * want, "{got} against {want}");
        let chunked = lib("nv_bwd_weight_k4_2d_fp16_t48x32x128");
        let k36 = ConvProblem::parse(
            "bwd_weight 2d N=4 K=36 C=256 filter=3x3 input=13x13 pad=1 dtype=fp16",
        )
        .unwrap();
        assert_eq!(sliced_us(chunked, &k36, &h200()), None);
        // 200 input channels are not whole 32-channel tiles: the kernel's GEMM tile runs it.
        let odd = ConvProblem::parse(
            "bwd_weight 2d N=2 K=1 C=200 filter=3x3 input=100x152 pad=1 dtype=fp16",
        )
        .unwrap();
        assert_eq!(sliced_us(raw, &odd, &h200()), None);
    }

    /// 8- and 16-channel groups on the small-channel entry's tensor cores are estimated by their runs
    /// and MMA steps, strided backward data over its stride phases; other channel counts,
    /// filters and kernels that do not merge groups get none.
    #[test]
    fn narrow_groups_on_tensor_cores_are_estimated_by_their_runs_and_steps() {
        let inst = changed(
            &crate::testing::instance(crate::testing::Variant::XdlTwoStage),
            |i| i.work.merge_groups = 8,
        );
        let est =
            |inst: &Checked, text: &str| dconv_mma_us(inst, &ConvProblem::parse(text).unwrap());
        let us = |runs: f64, steps: f64| {
            DCONV_LAUNCH_US + 32.0 / 16.0 * (runs * DCONV_RUN_US + steps * DCONV_STEP_US)
        };
        // Forward at stride 2 onto rows of 7: tap pairs, 32 images of 7² output pixels, five
        // steps each; onto rows of 28, row windows in strips of two rows, five source rows a
        // strip.
        let fwd = est(
            &inst,
            "fwd 2d G=32 N=32 K=8 C=8 filter=3x3 input=14x14 stride=2 pad=1",
        )
        .unwrap();
        let px7 = 32.0 * 7.0 * 7.0;
        assert!((fwd - us(px7, 5.0 * px7)).abs() < 1e-9);
        let fwd_win = est(
            &inst,
            "fwd 2d G=32 N=32 K=8 C=8 filter=3x3 input=56x56 stride=2 pad=1",
        )
        .unwrap();
        let strips2 = 32.0 * 14.0 * 32.0;
        let want = DCONV_LAUNCH_US + 2.0 * (strips2 * DCONV_RUN_US + 5.0 * strips2 * DCONV_ROW_US);
        assert!((fwd_win - want).abs() < 1e-9, "{fwd_win}");
        // Backward data at stride 2, pad 1: four phases of 7² pixels with filters 1x1, 1x2,
        // 2x1 and 2x2, one, one, one and two steps; phases of 28² run in row windows, strips
        // of two rows of 32 pixels, two or three source rows a strip.
        let bwd = est(
            &inst,
            "bwd_data 2d G=32 N=32 K=8 C=8 filter=3x3 input=14x14 stride=2 pad=1",
        )
        .unwrap();
        let px7 = 32.0 * 7.0 * 7.0;
        assert!((bwd - us(4.0 * px7, 5.0 * px7)).abs() < 1e-9, "{bwd}");
        let phases = est(
            &inst,
            "bwd_data 2d G=32 N=32 K=8 C=8 filter=3x3 input=56x56 stride=2 pad=1",
        )
        .unwrap();
        let strips = 32.0 * 14.0 * 32.0;
        let want =
            DCONV_LAUNCH_US + 2.0 * (4.0 * strips * DCONV_RUN_US + 10.0 * strips * DCONV_ROW_US);
        assert!((phases - want).abs() < 1e-9, "{phases}");
        // At unit strides in row windows: 24-pixel rows padded to 32, strips of two rows, four
        // source rows a strip; 18-pixel rows would grow by more than a third and keep tap
        // pairs.
        let rows = 32.0 * 12.0 * 32.0;
        let win = est(
            &inst,
            "fwd 2d G=32 N=32 K=8 C=8 filter=3x3 input=24x24 pad=1",
        )
        .unwrap();
        let want = DCONV_LAUNCH_US + 2.0 * (rows * DCONV_RUN_US + 4.0 * rows * DCONV_ROW_US);
        assert!((win - want).abs() < 1e-9, "{win}");
        // 4-channel groups take tensor cores in row windows only: 16 vectors of two groups.
        let four = est(
            &inst,
            "fwd 2d G=32 N=32 K=4 C=4 filter=3x3 input=24x24 pad=1",
        )
        .unwrap();
        let want = DCONV_LAUNCH_US + rows * DCONV_RUN_US + 4.0 * rows * DCONV_ROW_US;
        assert!((four - want).abs() < 1e-9, "{four}");
        // 16-channel groups: 64 vectors; at unit strides strips of four rows (six source
        // rows a strip: 24 rows are six strips).
        let wide = |text: &str| est(&inst, &format!("{text} G=32 N=32 K=16 C=16 filter=3x3"));
        let strips = 32.0 * 6.0 * 32.0;
        let win16 = wide("fwd 2d input=24x24 pad=1").unwrap();
        let want =
            DCONV_G16_LAUNCH_US + 4.0 * (strips * DCONV_RUN_US + 6.0 * strips * DCONV_G16_ROW_US);
        assert!((win16 - want).abs() < 1e-9, "{win16}");
        // Forward at stride 2: rows of 28 in windows (nine source rows a strip of four), rows
        // of 7 in tap pairs, a step a tap.
        let s2 = 32.0 * 7.0 * 32.0;
        let win_s2 = wide("fwd 2d input=56x56 stride=2 pad=1").unwrap();
        let want = DCONV_G16_LAUNCH_US + 4.0 * (s2 * DCONV_RUN_US + 9.0 * s2 * DCONV_G16_ROW_US);
        assert!((win_s2 - want).abs() < 1e-9, "{win_s2}");
        let px7 = 32.0 * 7.0 * 7.0;
        let pairs16 = wide("fwd 2d input=14x14 stride=2 pad=1").unwrap();
        let want = DCONV_G16_LAUNCH_US + 4.0 * (px7 * DCONV_RUN_US + 9.0 * px7 * DCONV_STEP_US);
        assert!((pairs16 - want).abs() < 1e-9, "{pairs16}");
        let pairs = 32.0 * 18.0 * 18.0;
        let narrow = est(
            &inst,
            "bwd_data 2d G=32 N=32 K=8 C=8 filter=3x3 input=18x18 pad=1",
        );
        assert!((narrow.unwrap() - us(pairs, 5.0 * pairs)).abs() < 1e-9);
        for other in [
            "fwd 2d G=32 N=32 K=4 C=4 filter=3x3 input=7x7 pad=1",
            "fwd 2d G=32 N=32 K=8 C=8 filter=5x5 input=28x28 pad=2",
            "bwd_weight 2d G=32 N=32 K=8 C=8 filter=3x3 input=28x28 pad=1",
            "fwd 2d G=32 N=32 K=8 C=8 filter=3x3 input=28x28 pad=1 dtype=fp32",
        ] {
            assert_eq!(est(&inst, other), None, "{other}");
        }
        let inst = changed(&inst, |i| i.work.merge_groups = 1);
        assert_eq!(
            est(
                &inst,
                "fwd 2d G=32 N=32 K=8 C=8 filter=3x3 input=28x28 pad=1"
            ),
            None
        );
    }

    /// Copies that only add zero groups cost nothing where the small-channel entry runs the
    /// stated problem; copies that pad the channels keep their launches and bytes.
    #[test]
    fn zero_groups_the_small_channel_entry_skips_add_no_copies() {
        let inst = changed(
            &crate::testing::instance(crate::testing::Variant::FwdXdl),
            |i| i.work.merge_groups = 8,
        );
        let dev = h200();
        let p = ConvProblem::parse("fwd 2d G=13 N=8 K=8 C=8 filter=3x3 input=28x28 pad=1").unwrap();
        let padded = Formulation::Padded(p.groups_padded(8).unwrap().into());
        let e = entry_estimate(&inst, &padded, &p, &dev);
        assert_eq!(e.copies_us, 0.0);
        assert_eq!(e.streamed, dconv_mma_us(&inst, &p));
        assert!(e.streamed.is_some());
        let rgb =
            ConvProblem::parse("fwd 2d G=1 N=8 K=64 C=3 filter=3x3 input=28x28 pad=1").unwrap();
        let Some(pd) = rgb.padded(8, 8) else {
            panic!("an RGB stem pads")
        };
        let copies =
            pd.copies() as f64 * COPY_LAUNCH_US + pd.copy_bytes() as f64 / COPY_BYTES_PER_US;
        let e = entry_estimate(&inst, &Formulation::Padded(pd.into()), &rgb, &dev);
        assert!(copies > 0.0 && (e.copies_us - copies).abs() < 1e-9, "{e:?}");
    }
}
