//! Every instance of the library on the CPU back end: problems built from the instance's own
//! parameters (padding, stride, dilation, groups, depthwise, odd channels, 1x1) match the fp64
//! reference within the data type's bound on fresh random data; split-K and StreamK runs equal
//! the unsplit run; StreamK Linear/Tree runs are bitwise deterministic. Instances the CPU back end
//! cannot run (element-wise ops, D tensors, 8-bit types) must say why.

use ck_compiler::ir::{Instance, SplitK};
use ck_compiler::model::{Kind, Op, Reduction};
use ck_runtime::reference::{fresh_seed, relative_error, tolerance};
use ck_runtime::support::Rule;
use ck_runtime::{
    Backend, ConvProblem, CpuBackend, DeviceModel, ProblemData, ProblemLayout, ProblemTypes,
    RunStats, Unsupported, supports_on,
};

/// A small device, so that small problems still split K and stream.
fn device() -> DeviceModel {
    DeviceModel {
        arch: None,
        compute_units: 3,
        occupancy: 1,
    }
}

/// A problem shape; per-dimension values apply to every spatial dimension.
#[derive(Clone, Copy, Debug)]
struct Shape {
    what: &'static str,
    g: u64,
    n: u64,
    k: u64,
    c: u64,
    filter: u64,
    input: u64,
    stride: u64,
    dilation: u64,
    lpad: u64,
    rpad: u64,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The instance's A, B and C vector widths.
fn vectors(inst: &Instance) -> [u64; 3] {
    let v = match &inst.tile_kernel {
        Some(tk) => tk.vector,
        None => [inst.a.src_vector, inst.b.src_vector, inst.c.vector],
    };
    v.map(|w| u64::from(w.max(1)))
}

/// Shapes built from the instance: C and K multiples of every vector width, G a multiple of
/// the merged groups, small spatial sizes. `depthwise` and `odd` break the widths when they
/// are above 1.
fn shapes(inst: &Instance) -> Vec<Shape> {
    let v = vectors(inst).into_iter().fold(1, |l, w| l / gcd(l, w) * w);
    let m = u64::from(inst.work.merge_groups.max(1));
    let base = Shape {
        what: "padded",
        g: m,
        n: 2,
        k: v,
        c: v,
        filter: 3,
        input: 5,
        stride: 1,
        dilation: 1,
        lpad: 1,
        rpad: 1,
    };
    vec![
        base,
        Shape {
            what: "strided, dilated",
            n: 1,
            input: 7,
            stride: 2,
            dilation: 2,
            lpad: 2,
            rpad: 1,
            ..base
        },
        Shape {
            what: "grouped, asymmetric pads",
            g: 2 * m,
            n: 1,
            k: 2 * v,
            filter: 2,
            input: 4,
            lpad: 1,
            rpad: 0,
            ..base
        },
        Shape {
            what: "1x1",
            c: 2 * v,
            filter: 1,
            input: 4,
            lpad: 0,
            rpad: 0,
            ..base
        },
        // Long GEMM-K loops, so that split-K and stream-K have iterations to share.
        // One output tile (1x1, small K and C), so the small test device has room to split.
        Shape {
            what: "deep",
            n: 16,
            k: v.max(8),
            c: v.max(8),
            filter: 1,
            input: 8,
            lpad: 0,
            rpad: 0,
            ..base
        },
        Shape {
            what: "depthwise",
            g: 3 * m,
            n: 1,
            k: 1,
            c: 1,
            ..base
        },
        // One channel per group, 1x1: what merged two-stage kernels are for.
        Shape {
            what: "single-channel groups",
            g: 2 * m,
            n: 2,
            k: 1,
            c: 1,
            filter: 1,
            input: 4,
            lpad: 0,
            rpad: 0,
            ..base
        },
        Shape {
            what: "odd channels",
            n: 1,
            k: v + 1,
            c: v + 1,
            ..base
        },
    ]
}

fn problem(inst: &Instance, s: &Shape) -> ConvProblem {
    let d = inst.ndim as usize;
    let p = ConvProblem {
        op: inst.op,
        ndim: inst.ndim,
        g: s.g,
        n: s.n,
        k: s.k,
        c: s.c,
        filter: vec![s.filter; d],
        input: vec![s.input; d],
        stride: vec![s.stride; d],
        dilation: vec![s.dilation; d],
        left_pad: vec![s.lpad; d],
        right_pad: vec![s.rpad; d],
        layout: ProblemLayout {
            input: inst.layout.input,
            weight: inst.layout.weight,
            output: inst.layout.output,
        },
        dtype: ProblemTypes {
            input: inst.types.input,
            weight: inst.types.weight,
            output: inst.types.output,
        },
    };
    p.validate()
        .unwrap_or_else(|e| panic!("{}: shape {s:?}: {e}", inst.name));
    p
}

/// The problem, or a larger GEMM-K when a split or prefetch rule wants more K loops.
fn fit(inst: &Instance, mut s: Shape, dev: &DeviceModel) -> (ConvProblem, Result<(), Unsupported>) {
    for _ in 0..6 {
        let p = problem(inst, &s);
        match supports_on(inst, &p, dev) {
            Err(why) if matches!(why.rule, Rule::Prefetch | Rule::SplitK) => match p.op {
                // GemmK: bwd_weight N·Ho·Wo, fwd C·Y·X, bwd_data K·Y·X.
                Op::BwdWeight => s.n *= 2,
                Op::Fwd => s.c *= 2,
                Op::BwdData => s.k *= 2,
            },
            verdict => return (p, verdict),
        }
    }
    let p = problem(inst, &s);
    let verdict = supports_on(inst, &p, dev);
    (p, verdict)
}

/// The same instance without split-K or StreamK.
fn unsplit(inst: &Instance) -> Instance {
    let mut plain = inst.clone();
    plain.work.split_k = SplitK::Fixed(1);
    plain.work.streamk = None;
    plain.work.two_stage = false;
    plain
}

/// What one instance did across its shapes.
#[derive(Default)]
struct Outcome {
    runs: usize,
    split: bool,
    streamed: bool,
    rejections: Vec<String>,
}

/// Runs one supported problem and checks it; failures go to `errors`.
fn check_run(
    inst: &Instance,
    p: &ConvProblem,
    cpu: &CpuBackend,
    out: &mut Outcome,
    errors: &mut Vec<String>,
) {
    let at = format!("{} on `{p}`", inst.name);
    let fresh = match ProblemData::random(p, fresh_seed()) {
        Ok(d) => d,
        Err(e) => return errors.push(format!("{at}: {e}")),
    };
    let run = |inst: &Instance| -> Result<(ProblemData, RunStats), String> {
        let mut d = fresh.clone();
        let stats = d.run(cpu, inst, p).map_err(|e| e.to_string())?;
        Ok((d, stats))
    };
    let (data, stats) = match run(inst) {
        Ok(r) => r,
        Err(e) => return errors.push(format!("{at}: {e}")),
    };
    out.runs += 1;
    match data.verify(p) {
        Ok(v) if v.passed() => {}
        Ok(v) => errors.push(format!("{at} (seed {}): {v}", data.seed)),
        Err(e) => errors.push(format!("{at}: {e}")),
    }
    let split = stats.k_batch > 1 || stats.sk_ctas > 0;
    out.split |= stats.k_batch > 1;
    out.streamed |= stats.sk_ctas > 0;
    if split {
        let bound = tolerance(p.dtype_of(p.destination()), p.gemm().2);
        match run(&unsplit(inst)) {
            Ok((plain, _)) => {
                let plain: Vec<f64> = plain
                    .destination(p)
                    .to_f32()
                    .into_iter()
                    .map(f64::from)
                    .collect();
                let err = relative_error(data.destination(p), &plain);
                if err > bound {
                    errors.push(format!(
                        "{at}: k_batch {} / {} SK workgroups differ from the unsplit run by {err:.2e} > {bound:.1e}",
                        stats.k_batch, stats.sk_ctas
                    ));
                }
            }
            Err(e) => errors.push(format!("{at}, unsplit: {e}")),
        }
    }
    let fixup = inst.work.streamk.map(|sk| sk.reduction);
    if matches!(fixup, Some(Reduction::Linear | Reduction::Tree)) {
        match run(inst) {
            Ok((again, _)) if again.destination(p) == data.destination(p) => {}
            Ok(_) => errors.push(format!(
                "{at}: StreamK {fixup:?} is not bitwise deterministic"
            )),
            Err(e) => errors.push(format!("{at}, second run: {e}")),
        }
    }
}

#[test]
fn every_library_instance_matches_the_reference_on_the_cpu() {
    let dev = device();
    let cpu = CpuBackend {
        device: dev.clone(),
    };
    let library = ck_instances::all();
    assert!(!library.is_empty());
    let mut errors = Vec::new();
    let (mut ran, mut skipped, mut runs) = (0, 0, 0);
    for inst in library {
        if let Err(e) = cpu.accepts(inst) {
            // Only what the CPU back end does not compute may be skipped, with its reason.
            let text = e.to_string();
            if !text.contains("the CPU back end does not run") {
                errors.push(format!("{}: {text}", inst.name));
            }
            skipped += 1;
            continue;
        }
        let mut out = Outcome::default();
        let wide = vectors(inst).iter().any(|&w| w > 1);
        for s in shapes(inst) {
            let (p, verdict) = fit(inst, s, &dev);
            match verdict {
                Ok(()) => check_run(inst, &p, &cpu, &mut out, &mut errors),
                Err(why) => {
                    let vector = matches!(why.rule, Rule::VectorA | Rule::VectorB | Rule::VectorC);
                    // Two-stage kernels read single-channel groups with any vector width.
                    let exempt = s.what == "depthwise"
                        && matches!(inst.kind, Kind::XdlTwoStage | Kind::WmmaTwoStage);
                    if matches!(s.what, "depthwise" | "odd channels") && wide && !vector && !exempt
                    {
                        errors.push(format!(
                            "{}: {} channels should fail a vector rule, got {why}",
                            inst.name, s.what
                        ));
                    }
                    if vector && !why.reason.contains("is not divisible by the") {
                        errors.push(format!(
                            "{}: vector reason without numbers: {why}",
                            inst.name
                        ));
                    }
                    out.rejections.push(format!("{}: {why}", s.what));
                }
            }
        }
        if out.runs == 0 {
            errors.push(format!(
                "{} ran no problem:\n    {}",
                inst.name,
                out.rejections.join("\n    ")
            ));
        }
        let splits = inst.work.split_k == SplitK::Auto
            || matches!(inst.work.split_k, SplitK::Fixed(k) if k > 1);
        if inst.work.streamk.is_some() && !out.streamed {
            errors.push(format!("{} never ran stream-K workgroups", inst.name));
        }
        if inst.work.streamk.is_none() && splits && !out.split {
            errors.push(format!("{} never split K", inst.name));
        }
        ran += 1;
        runs += out.runs;
    }
    eprintln!("{ran} instances ran {runs} problems on the CPU; {skipped} are not CPU-runnable");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
