//! Named numeric features of an instance running a problem on a device: what a learned model of
//! run time reads, so that instances added later get predictions from their parameters rather
//! than their names. Three groups, computed from the problem as the instance's GEMM computes it
//! (its transpose where the instance runs that, [`formulation`]):
//!
//! - **problem**: op, rank, group and channel counts, filter, strides, dilations, pads, pixel
//!   counts, the per-group GEMM sizes, FLOPs, bytes moved, arithmetic intensity, element size
//!   and type, channel alignment, depthwise;
//! - **instance**: kind, pipeline, scheduler, block, tile, waves, instruction, repeats, vector
//!   widths, merged groups, split-K / StreamK settings, two-stage, CK-Tile, whether it targets
//!   the device;
//! - **launch**: tiles, K iterations, k_batch, workgroups, waves on the device and the last
//!   wave's fill, M/N/K padding efficiency, and the analytic cost ([`crate::select::cost`]);
//! - **entry**: whether an entry streams the problem instead of the GEMM, its analytic estimate
//!   and the padded copies' ([`crate::entry_estimate`]), which the models learn to correct.
//!
//! Names are stable strings (categoricals one-hot by keyword, e.g. `kind=xdl_v3`), so that a
//! model file records the features it was trained on and is evaluated by name.

use crate::decompose::{GemmShape, is_two_stage, k_batch};
use crate::device::DeviceModel;
use crate::entry_estimate::entry_estimate;
use crate::probe::vectors;
use crate::problem::ConvProblem;
use crate::select::cost;
use crate::support::{Formulation, Unsupported, formulation};
use ck_compiler::ir::{Checked, SplitK};
use ck_compiler::model::{Arch, DataType, Kind, Op, PipelineVersion, Reduction, Scheduler};
use std::sync::OnceLock;

/// The features of `inst` running `p` on `dev` for a back end whose target is `target`
/// ([`crate::Backend::target`]), named, in the order of [`names`]; Err where the instance does
/// not support the problem.
pub fn features(
    inst: &Checked,
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
) -> Result<Vec<(String, f64)>, Unsupported> {
    Ok(names()
        .into_iter()
        .zip(values(inst, p, dev, target)?)
        .collect())
}

/// The features' values alone, in the order of [`names`] (what a model evaluates at selection
/// time, without a string per feature).
pub fn values(
    inst: &Checked,
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
) -> Result<Vec<f64>, Unsupported> {
    let form = formulation(inst, p, dev)?;
    Ok(values_of(inst, &form, p, dev, target))
}

/// [`values`] where the support checks already gave the instance's formulation of `p`.
pub fn values_of(
    inst: &Checked,
    form: &Formulation,
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
) -> Vec<f64> {
    let mut f = Features::row();
    collect(&mut f, inst, form, p, dev, target);
    f.values
}

/// [`values_of`] for each instance running `p` as its formulation: the problem's own
/// features computed once for each problem the instances run (as stated, folded, transposed,
/// padded).
pub fn rows_of(
    runs: &[(&Checked, &Formulation)],
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
) -> Vec<Vec<f64>> {
    let mut problems: Vec<(&ConvProblem, Vec<f64>)> = Vec::new();
    runs.iter()
        .map(|&(inst, form)| {
            let q = form.problem(p);
            let mut f = Features::row();
            match problems.iter().find(|(seen, _)| *seen == q) {
                Some((_, values)) => f.values.extend_from_slice(values),
                None => {
                    problem(&mut f, q);
                    problems.push((q, f.values.clone()));
                }
            }
            beside_problem(&mut f, inst, form, p, dev, target);
            f.values
        })
        .collect()
}

/// The log2 µs of the analytic estimate a row of [`values`] holds for the entry that streams
/// its run; None where the kernel's GEMM runs it.
pub fn entry_log2_us(row: &[f64]) -> Option<f64> {
    static AT: OnceLock<(usize, usize)> = OnceLock::new();
    let &(streamed, log2_us) = AT.get_or_init(|| {
        let names = names();
        let at = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .expect("an entry feature")
        };
        (at("streamed"), at("log2_entry_us"))
    });
    (row[streamed] == 1.0).then(|| row[log2_us])
}

/// Room for a row of values: at least as many as [`names`] gives, so that a row is one
/// allocation.
const ROW: usize = 128;

/// The feature names, in the order [`features`] and [`values`] give them: those of any instance
/// on any problem it supports, here of a small backward-weight instance (computed once).
pub fn names() -> Vec<String> {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            let mut session = ck_compiler::load::Session::new();
            session.add_source("features", NAMED);
            let set = ck_compiler::compile(&session).expect("`NAMED` is a valid instance");
            let p = ConvProblem::parse("bwd_weight 2d N=1 K=8 C=8 filter=1 input=1")
                .expect("a valid problem");
            let mut f = Features {
                names: Some(Vec::new()),
                ..Features::default()
            };
            collect(
                &mut f,
                &set.instances()[0],
                &Formulation::Direct,
                &p,
                &DeviceModel::default(),
                None,
            );
            f.names.unwrap_or_default()
        })
        .clone()
}

/// The instance [`names`] collects the names of.
const NAMED: &str = "instance named {
    op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
    targets = [gfx942]; block = 64; tile = [32, 128, 32]; k1 = 8;
    instr = [32, 32]; repeat = [1, 4];
    a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
    b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
}";

fn collect(
    f: &mut Features,
    inst: &Checked,
    form: &Formulation,
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
) {
    problem(f, form.problem(p));
    beside_problem(f, inst, form, p, dev, target);
}

/// The features after the problem's own, of `inst` computing `p` as `form`.
fn beside_problem(
    f: &mut Features,
    inst: &Checked,
    form: &Formulation,
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
) {
    f.push("transposed", matches!(form, Formulation::Transposed(_)));
    instance(f, inst, target);
    launch(f, inst, form.problem(p), dev);
    entry(f, inst, form, p, dev);
}

/// The entry's estimate (log2 µs, 0 where the GEMM runs the problem) and the padded copies'
/// (log2 of 1 + µs): finite either way, for a model evaluated without missing values.
fn entry(f: &mut Features, inst: &Checked, form: &Formulation, p: &ConvProblem, dev: &DeviceModel) {
    let e = entry_estimate(inst, form, p, dev);
    f.push("streamed", e.streamed.is_some());
    f.push(
        "log2_entry_us",
        e.streamed.map_or(0.0, |us| us.max(1.0).log2()),
    );
    f.push(
        "log2_copies_us",
        e.copies_us.ln_1p() / std::f64::consts::LN_2,
    );
}

/// Values, and their names where asked for.
#[derive(Default)]
struct Features {
    values: Vec<f64>,
    names: Option<Vec<String>>,
}

impl Features {
    /// Values alone, room for a whole row in one allocation.
    fn row() -> Features {
        Features {
            values: Vec::with_capacity(ROW),
            names: None,
        }
    }

    fn push(&mut self, name: &str, v: impl Into<Value>) {
        self.values.push(v.into().0);
        if let Some(n) = &mut self.names {
            n.push(name.to_string());
        }
    }

    /// One feature per keyword of `all`, 1 for `value`'s.
    fn one_hot<'a>(&mut self, key: &str, all: impl Iterator<Item = &'a str>, value: &str) {
        for kw in all {
            self.values.push(f64::from(u8::from(kw == value)));
            if let Some(n) = &mut self.names {
                n.push(format!("{key}={kw}"));
            }
        }
    }
}

/// A feature value from the integer, float and boolean types the groups use.
struct Value(f64);

impl From<u64> for Value {
    fn from(v: u64) -> Self {
        Value(v as f64)
    }
}
impl From<u32> for Value {
    fn from(v: u32) -> Self {
        Value(f64::from(v))
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value(f64::from(u8::from(v)))
    }
}

/// The largest power of two dividing `x`, up to 64 (0 for 0).
fn alignment(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        1 << x.trailing_zeros().min(6)
    }
}

fn problem(f: &mut Features, p: &ConvProblem) {
    f.one_hot("op", Op::keywords(), p.op.keyword());
    f.push("ndim", p.ndim);
    f.push("G", p.g);
    f.push("N", p.n);
    f.push("K", p.k);
    f.push("C", p.c);
    let prod = |v: &[u64]| v.iter().product::<u64>();
    let max = |v: &[u64]| v.iter().copied().max().unwrap_or(1);
    f.push("taps", prod(&p.filter));
    f.push("filter_max", max(&p.filter));
    f.push("stride_max", max(&p.stride));
    f.push("dilation_max", max(&p.dilation));
    f.push(
        "pad_sum",
        p.left_pad.iter().chain(&p.right_pad).sum::<u64>(),
    );
    f.push("in_pixels", prod(&p.input));
    f.push("out_pixels", prod(&p.output()));
    let (m, n, k) = p.gemm();
    f.push("gemm_m", m);
    f.push("gemm_n", n);
    f.push("gemm_k", k);
    let flops = p.flops() as f64;
    let elem = u64::from(p.dtype.input.bytes());
    let bytes = (p.n * prod(&p.input) * p.g * p.c
        + p.g * p.k * p.c * prod(&p.filter)
        + p.n * prod(&p.output()) * p.g * p.k) as f64
        * elem as f64;
    f.push("flops", flops);
    f.push("bytes", bytes);
    f.push("intensity", flops / bytes.max(1.0));
    f.push("elem_bytes", elem);
    f.one_hot("dtype", DataType::keywords(), p.dtype.input.keyword());
    f.push("c_align", alignment(p.c));
    f.push("k_align", alignment(p.k));
    f.push("depthwise", p.c == 1 && p.k == 1 && p.g > 1);
}

fn instance(f: &mut Features, inst: &Checked, target: Option<Arch>) {
    f.one_hot("kind", Kind::keywords(), inst.kind.keyword());
    f.one_hot(
        "pipeline",
        PipelineVersion::keywords(),
        inst.pipeline.version.keyword(),
    );
    f.one_hot(
        "scheduler",
        Scheduler::keywords(),
        inst.pipeline.scheduler.keyword(),
    );
    f.push("block", inst.block);
    f.push("tile_m", inst.tile.m);
    f.push("tile_n", inst.tile.n);
    f.push("tile_k", inst.tile.k);
    f.push("waves", inst.waves.iter().product::<u32>());
    f.push("mma_m", inst.mma[0]);
    f.push("mma_n", inst.mma[1]);
    f.push("repeat_m", inst.repeat[0]);
    f.push("repeat_n", inst.repeat[1]);
    let [va, vb, vc] = vectors(inst);
    f.push("vec_a", va);
    f.push("vec_b", vb);
    f.push("vec_c", vc);
    f.push("merge_groups", inst.work.merge_groups);
    let (fixed, auto) = match inst.work.split_k {
        SplitK::Fixed(k) => (k, false),
        SplitK::Auto => (0, true),
    };
    f.push("split_k_fixed", fixed);
    f.push("split_k_auto", auto);
    let reduction = inst.work.streamk.map(|s| s.reduction);
    for (name, r) in [
        ("streamk=atomic", Reduction::Atomic),
        ("streamk=linear", Reduction::Linear),
        ("streamk=tree", Reduction::Tree),
    ] {
        f.push(name, reduction == Some(r));
    }
    f.push(
        "streamk_persistent",
        inst.work.streamk.is_some_and(|s| s.persistent),
    );
    f.push("two_stage", is_two_stage(inst));
    f.push("large_tensor", inst.work.large_tensor);
    f.push("tile_kernel", inst.tile_kernel.is_some());
    f.push("native", target.is_some_and(|a| inst.targets.contains(&a)));
}

fn launch(f: &mut Features, inst: &Checked, p: &ConvProblem, dev: &DeviceModel) {
    let shape = GemmShape::of(inst, p);
    let tiles = shape.tiles(inst);
    let iters = shape.iters_per_tile(inst);
    let kb = u64::from(k_batch(inst, p, dev).max(1));
    let workgroups = tiles * kb * shape.batches;
    let slots = dev.slots();
    let waves = workgroups.div_ceil(slots);
    f.push("tiles", tiles);
    f.push("k_iters", iters);
    f.push("k_batch", kb);
    f.push("workgroups", workgroups);
    f.push("device_waves", waves);
    f.push(
        "last_wave_fill",
        workgroups as f64 / (waves.max(1) * slots) as f64,
    );
    let (mpb, npb, kpb) = (
        u64::from(inst.tile.m),
        u64::from(inst.tile.n),
        u64::from(inst.tile.k),
    );
    f.push(
        "mn_efficiency",
        (shape.m * shape.n) as f64 / (tiles * mpb * npb).max(1) as f64,
    );
    f.push("k_efficiency", shape.k as f64 / (iters * kpb).max(1) as f64);
    f.push("log2_cost", cost(inst, p, dev).max(1.0).log2());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::forced;
    use crate::testing::{Variant, instance};

    #[test]
    fn features_follow_the_names_and_describe_the_launch() {
        let inst = instance(Variant::XdlV3);
        let p = ConvProblem::parse("bwd_weight 2d N=4 K=64 C=64 filter=3 input=14 pad=1").unwrap();
        let dev = DeviceModel::default();
        let f = features(&inst, &p, &dev, Some(Arch::Gfx90a)).unwrap();
        let names: Vec<String> = f.iter().map(|(n, _)| n.clone()).collect();
        assert_eq!(names, super::names());
        assert!(names.len() <= ROW, "{} features", names.len());
        let get = |name: &str| f.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(get("op=bwd_weight"), 1.0);
        assert_eq!(get("op=fwd"), 0.0);
        assert_eq!(get("kind=xdl_v3"), 1.0);
        assert_eq!(get("native"), 1.0);
        assert_eq!((get("K"), get("C"), get("taps")), (64.0, 64.0, 9.0));
        let (m, n, k) = p.gemm();
        assert_eq!(
            (get("gemm_m"), get("gemm_n"), get("gemm_k")),
            (m as f64, n as f64, k as f64)
        );
        assert_eq!(get("c_align"), 64.0);
        assert_eq!(get("tile_m"), f64::from(inst.tile.m));
        assert!(get("last_wave_fill") > 0.0 && get("last_wave_fill") <= 1.0);
        assert!(get("mn_efficiency") > 0.0 && get("mn_efficiency") <= 1.0);
        assert!(f.iter().all(|(_, v)| v.is_finite()));
        // An unsupported problem has no features.
        let fwd = ConvProblem::parse("fwd 2d N=4 K=64 C=64 filter=3 input=14 pad=1").unwrap();
        assert!(features(&inst, &fwd, &dev, None).is_err());
    }

    #[test]
    fn rows_share_problem_features_and_equal_each_instances_values() {
        let wide = instance(Variant::XdlV3);
        let narrow = wide.clone();
        let narrow = forced(&narrow, |i| i.tile.n /= 2);
        let p = ConvProblem::parse("bwd_weight 2d N=4 K=32 C=64 filter=3 input=14 pad=1").unwrap();
        let t = Formulation::Transposed(p.transposed().unwrap().into());
        let dev = DeviceModel::default();
        let runs = [
            (&wide, &Formulation::Direct),
            (&narrow, &t),
            (&narrow, &Formulation::Direct),
            (&wide, &t),
        ];
        let rows = rows_of(&runs, &p, &dev, Some(Arch::Gfx942));
        assert_eq!(rows.len(), runs.len());
        for ((inst, form), row) in runs.iter().zip(&rows) {
            assert_eq!(*row, values_of(inst, form, &p, &dev, Some(Arch::Gfx942)));
        }
        assert_ne!(rows[0], rows[3]);
    }

    #[test]
    fn alignment_is_the_largest_power_of_two_up_to_64() {
        assert_eq!(
            [0, 1, 3, 4, 36, 96, 128].map(alignment),
            [0, 1, 1, 4, 4, 32, 64]
        );
    }
}
