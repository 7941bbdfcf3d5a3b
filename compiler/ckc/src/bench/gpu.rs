//! `ckc bench` on the CUDA back end: which instances run on which shapes, compiling their
//! kernels (ahead of time with `--precompile`), and timing them shape by shape.

use super::report::{Bars, InstanceResult, Report, ShapeResult, progress_line, read_cudnn, utc};
use super::write_outputs;
use crate::cli::{BenchArgs, Color};
use crate::input::registry;
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::ir::Checked;
use ck_compiler::kernel::{EntryKind, MAX_CLUSTER};
use ck_compiler::model::{Arch, DataType, Op};
use ck_runtime::cuda::bench::{BenchProblem, KernelTexts, ReferenceOn, Trials, plain_convolution};
use ck_runtime::cuda::{CudaBackend, KernelCache};
use ck_runtime::gpu::portable_kernel;
use ck_runtime::reference::fresh_seed;
use ck_runtime::shapes::{self, Shape};
use ck_runtime::timings::Timing;
use ck_runtime::{Backend, Candidate, ConvProblem, DeviceModel, Registry, supports_on};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// SMs of an H100 SXM or H200, the cards `--precompile` stages for (support checks of split-K
/// instances depend on the device size).
const PRECOMPILE_SMS: u32 = 132;

/// One instance's run on a shape: its index, its own kernel (its launch plan) and the index of
/// its kernel text among the distinct ones.
type Run<'a> = (usize, &'a HipKernel, usize);

/// The distinct kernel texts of the instances that support the shapes (what is compiled), and
/// which instances run on each shape.
struct Work<'a> {
    kernels: Vec<HipKernel>,
    /// Per shape: its problem and its runs, in library order.
    shapes: Vec<(ConvProblem, Vec<Run<'a>>)>,
}

/// The kernel of every instance the bench can time (plain convolutions with a portable kernel),
/// indexed like `instances`; the reasons of the others are counted on standard error.
fn kernels_of(instances: &[&Checked]) -> Vec<Option<HipKernel>> {
    let mut skipped = 0;
    let out = instances
        .iter()
        .map(|inst| {
            let k = plain_convolution(inst)
                .ok()
                .and_then(|()| portable_kernel(inst, "cuda").ok());
            skipped += usize::from(k.is_none());
            k
        })
        .collect();
    if skipped > 0 {
        eprintln!(
            "{skipped} of {} instances skipped: element-wise ops, D tensors or no portable kernel",
            instances.len()
        );
    }
    out
}

/// The runs of each problem: the instances that support it on `device` and that `takes` (the
/// back end's launch plan where there is one, and `--top`) keeps.
fn work<'a>(
    instances: &[&Checked],
    kernels: &'a [Option<HipKernel>],
    problems: Vec<ConvProblem>,
    device: &DeviceModel,
    takes: &dyn Fn(&Checked, &ConvProblem) -> bool,
) -> Work<'a> {
    let mut texts = KernelTexts::default();
    let shapes = problems
        .into_iter()
        .map(|p| {
            let runs = instances
                .iter()
                .zip(kernels)
                .enumerate()
                .filter_map(|(i, (inst, k))| {
                    let k = k.as_ref()?;
                    supports_on(inst, &p, device).ok()?;
                    takes(inst, &p).then_some(())?;
                    Some((i, k, texts.index(k)))
                })
                .collect();
            (p, runs)
        })
        .collect();
    Work {
        kernels: texts.into_kernels(),
        shapes,
    }
}

/// `--top n`: per problem, the names of the instances a ranking puts first.
type Ranked = HashMap<ConvProblem, Vec<String>>;

/// The names of the first `n` supported candidates of a ranking.
fn first_supported(candidates: Vec<Candidate<'_>>, n: usize) -> Vec<String> {
    candidates
        .into_iter()
        .filter(|c| c.verdict.is_ok())
        .take(n)
        .map(|c| c.instance.name.clone())
        .collect()
}

/// Whether `--top` keeps `inst` on `p` (everything without it).
fn ranked_keeps(ranked: Option<&Ranked>, inst: &Checked, p: &ConvProblem) -> bool {
    ranked.is_none_or(|r| r.get(p).is_some_and(|names| names.contains(&inst.name)))
}

/// `--top n`: per problem, the names of the `n` instances the back end ranks first and of its
/// default choice (which the ranking's order of priorities may place lower).
fn top_ranked(reg: &Registry, be: &CudaBackend, problems: &[ConvProblem], n: usize) -> Ranked {
    problems
        .iter()
        .map(|p| {
            let mut names = first_supported(reg.candidates_for(p, be), n);
            if let Ok(default) = reg.select_for(p, be)
                && !names.contains(&default.name)
            {
                names.push(default.name.clone());
            }
            (p.clone(), names)
        })
        .collect()
}

fn symbol(k: &HipKernel) -> String {
    k.entry(EntryKind::Main)
        .map_or_else(|| k.name.clone(), |e| e.symbol.clone())
}

pub fn run(args: &BenchArgs, color: Color) -> Result<ExitCode, String> {
    let path = args.shapes.display();
    let text = std::fs::read_to_string(&args.shapes).map_err(|e| format!("{path}: {e}"))?;
    let all = shapes::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let chosen = shapes::select(all, &args.only).map_err(|e| e.to_string())?;
    if let Some(dir) = &args.precompile {
        let device = DeviceModel {
            arch: None,
            compute_units: PRECOMPILE_SMS,
            occupancy: 2,
        };
        let Some(reg) = registry(&args.instances, color, device)? else {
            return Ok(crate::output::exit(false));
        };
        return precompile(args, &reg, &chosen, dir);
    }
    let (op, dtype) = match (args.op.as_slice(), args.dtype.as_slice()) {
        ([op], [dt]) => (*op, *dt),
        _ => return Err("give one --op and one --dtype to time".into()),
    };
    let (op, dtype) = (op.op(), dtype.dtype());
    // A corpus layer is timed only in the ops a training step runs on it.
    let chosen: Vec<Shape> = chosen.into_iter().filter(|s| s.needs(op)).collect();
    let cudnn = match &args.cudnn {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            read_cudnn(&text, &op.to_string(), &dtype.to_string())
                .map_err(|e| format!("{}: {e}", f.display()))?
        }
        None => BTreeMap::new(),
    };
    let problems = chosen
        .iter()
        .map(|s| s.problem(op, dtype))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let be = CudaBackend::new(0).map_err(|e| format!("no CUDA device: {e}"))?;
    let card = be
        .device_name()
        .map_err(|e| format!("no CUDA device: {e}"))?;
    let Some(reg) = registry(&args.instances, color, be.device_model())? else {
        return Ok(crate::output::exit(false));
    };
    let instances: Vec<&Checked> = reg.instances().collect();
    let kernels = kernels_of(&instances);
    let ranked = args
        .top
        .map(|n| top_ranked(&reg, &be, &problems, n as usize));
    let takes = |inst: &Checked, p: &ConvProblem| {
        be.plans(inst, p).is_ok() && ranked_keeps(ranked.as_ref(), inst, p)
    };
    let work = work(&instances, &kernels, problems, &be.device_model(), &takes);
    eprintln!(
        "{} shapes, {} distinct kernels on {card} ({}; workgroups at once in clusters of 1-{MAX_CLUSTER}: {:?}); compiling",
        chosen.len(),
        work.kernels.len(),
        be.arch(),
        be.device_info().cluster_slots
    );
    let bar = compile_bar(work.kernels.len())?;
    let loaded = be.build(work.kernels.clone(), &|| bar.inc(1));
    bar.finish_and_clear();
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let trials = Trials {
        warmup: args.warmup,
        trials: args.trials,
        reps: args.reps,
    };
    let total = work
        .shapes
        .iter()
        .map(|(_, runs)| runs.len())
        .sum::<usize>();
    let bar = ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
            .map_err(|e| e.to_string())?,
    );
    let mut records = match &args.records {
        Some(path) => Some(Records::open(path, &be, &reg, &card)?),
        None => None,
    };
    let mut results = Vec::new();
    for ((shape, (p, runs)), n) in chosen.iter().zip(&work.shapes).zip(0u64..) {
        let cudnn_us = cudnn.get(&shape.name);
        // What a user gets without tuning: selection as the CUDA back end on this card.
        let default = reg.select_for(p, &be).ok().map(|i| i.name.clone());
        if runs.is_empty() {
            results.push(shape_result(shape, p, Vec::new(), cudnn_us, default));
            continue;
        }
        bar.set_message(format!("{}: reference", shape.name));
        let on = if args.host_reference {
            ReferenceOn::Host
        } else {
            ReferenceOn::Device(&be)
        };
        let data = BenchProblem::new(p, seed.wrapping_add(n), on).map_err(|e| e.to_string());
        bar.set_message(shape.name.clone());
        // Instances that share a kernel share its loaded code, but each runs its own launch
        // plan (split-K, for one, is not part of the kernel text).
        let instances_run = runs
            .iter()
            .map(|&(i, own, k)| {
                let m = data
                    .as_ref()
                    .map_err(|e| format!("reference: {e}"))
                    .and_then(|data| {
                        let code = loaded[k].as_ref().map_err(|e| format!("build: {e}"))?;
                        data.measure(&be, instances[i], code, own, trials)
                            .map_err(|e| format!("run: {e}"))
                    });
                bar.inc(1);
                instance_result(instances[i], own, &m, data.as_ref().ok())
            })
            .collect();
        let result = shape_result(shape, p, instances_run, cudnn_us, default);
        if let Some(r) = &mut records {
            r.write(&result)?;
        }
        // Without a terminal the bar is hidden: one line per shape shows progress in logs.
        if bar.is_hidden() {
            eprintln!("{}", progress_line(&result));
        }
        results.push(result);
    }
    bar.finish_and_clear();
    let report = Report {
        card,
        date: utc(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        op: op.to_string(),
        dtype: dtype.to_string(),
        warmup: trials.warmup,
        trials: trials.trials,
        reps: trials.reps,
        seed,
        shapes: results,
    };
    write_outputs(
        &report,
        args.json.as_deref(),
        args.svg.as_deref(),
        Bars::Shapes,
    )?;
    Ok(crate::output::exit(report.failures() == 0))
}

/// `--records`: one [`Timing`] line per instance result, appended to a file.
struct Records {
    file: std::fs::File,
    path: std::path::PathBuf,
    /// Every field but the shape's and the instance's.
    base: Timing,
}

impl Records {
    fn open(path: &Path, be: &CudaBackend, reg: &Registry, card: &str) -> Result<Records, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let dev = be.device_model();
        Ok(Records {
            file,
            path: path.to_path_buf(),
            base: Timing {
                card: card.to_string(),
                target: ck_runtime::Backend::target(be).map(|a| a.keyword().to_string()),
                arch: dev.arch.map(|a| a.keyword().to_string()),
                compute_units: dev.compute_units,
                occupancy: dev.occupancy,
                date: super::today(),
                library: reg.fingerprint(),
                shape: String::new(),
                problem: String::new(),
                instance: String::new(),
                us: None,
                verified: false,
            },
        })
    }

    fn write(&mut self, shape: &ShapeResult) -> Result<(), String> {
        let mut text = String::new();
        for i in &shape.instances {
            let t = Timing {
                shape: shape.name.clone(),
                problem: shape.problem.clone(),
                instance: i.name.clone(),
                us: i.us,
                verified: i.verified,
                ..self.base.clone()
            };
            text.push_str(&serde_json::to_string(&t).map_err(|e| e.to_string())?);
            text.push('\n');
        }
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// The progress bar of compiling `n` kernels (hidden without a terminal).
fn compile_bar(n: usize) -> Result<ProgressBar, String> {
    Ok(ProgressBar::new(n as u64).with_style(
        ProgressStyle::with_template("compiling {bar:40} {pos}/{len} {elapsed_precise}")
            .map_err(|e| e.to_string())?,
    ))
}

fn instance_result(
    inst: &Checked,
    kernel: &HipKernel,
    m: &Result<ck_runtime::cuda::bench::Measurement, String>,
    data: Option<&BenchProblem>,
) -> InstanceResult {
    let bound = data.map_or(0.0, BenchProblem::bound);
    let base = InstanceResult {
        name: inst.name.clone(),
        kernel: symbol(kernel),
        us: None,
        relative_error: None,
        bound,
        verified: false,
        failure: None,
    };
    match m {
        Ok(m) => InstanceResult {
            us: m.median_us(),
            relative_error: Some(m.verification.relative_error),
            verified: m.verification.passed(),
            failure: (!m.verification.passed()).then(|| m.verification.to_string()),
            ..base
        },
        Err(e) => InstanceResult {
            failure: Some(e.clone()),
            ..base
        },
    }
}

fn shape_result(
    shape: &Shape,
    p: &ConvProblem,
    instances: Vec<InstanceResult>,
    cudnn_us: Option<&f64>,
    default: Option<String>,
) -> ShapeResult {
    ShapeResult {
        name: shape.name.clone(),
        problem: p.to_string(),
        flops: p.flops(),
        instances,
        cudnn_us: cudnn_us.copied(),
        default,
        models: shape.models.clone(),
        class: shape.layer_class.clone(),
    }
}

/// Compiles the kernels of every instance supporting a chosen shape, for every op and data type
/// asked (all when none), into the cubin cache `dir`; prints the names of the cache files they
/// need, one a line.
fn precompile(
    args: &BenchArgs,
    reg: &Registry,
    chosen: &[Shape],
    dir: &Path,
) -> Result<ExitCode, String> {
    let ops: Vec<Op> = match args.op.as_slice() {
        [] => vec![Op::Fwd, Op::BwdData, Op::BwdWeight],
        ops => ops.iter().map(|&o| o.op()).collect(),
    };
    let dtypes: Vec<DataType> = match args.dtype.as_slice() {
        [] => vec![DataType::Fp16, DataType::Bf16],
        dts => dts.iter().map(|&d| d.dtype()).collect(),
    };
    let instances: Vec<&Checked> = reg.instances().collect();
    let kernels = kernels_of(&instances);
    let mut problems = Vec::new();
    for &op in &ops {
        for &dt in &dtypes {
            for s in chosen.iter().filter(|s| s.needs(op)) {
                problems.push(s.problem(op, dt).map_err(|e| e.to_string())?);
            }
        }
    }
    // No device: every supported run's kernel is compiled, or with `--top` the first ones of
    // the ranking the CUDA back end on an sm_90 card makes (the GPU compiles any it adds).
    let ranked: Option<Ranked> = args.top.map(|n| {
        problems
            .iter()
            .map(|p| {
                (
                    p.clone(),
                    first_supported(reg.candidates_on(p, Arch::Sm90), n as usize),
                )
            })
            .collect()
    });
    let takes = |inst: &Checked, p: &ConvProblem| ranked_keeps(ranked.as_ref(), inst, p);
    let work = work(&instances, &kernels, problems, reg.device(), &takes);
    let pairs: Vec<(&str, &str)> = work
        .kernels
        .iter()
        .map(|k| (k.name.as_str(), k.source.as_str()))
        .collect();
    // The cache files this selection needs, first: a staging step interrupted while compiling
    // still knows what to pack.
    let mut out = std::io::stdout().lock();
    for (_, source) in &pairs {
        let key = KernelCache::cubin_key(source, &args.arch).map_err(|e| e.to_string())?;
        writeln!(out, "{key}.cubin")
            .and_then(|()| out.flush())
            .map_err(|e| format!("standard output: {e}"))?;
    }
    drop(out);
    let t0 = std::time::Instant::now();
    let cache = KernelCache::new(dir);
    let bar = compile_bar(pairs.len())?;
    let failed: Vec<String> = cache
        .cubins(&pairs, &args.arch, &|| bar.inc(1))
        .into_iter()
        .filter_map(|r| r.err().map(|e| e.to_string()))
        .collect();
    bar.finish_and_clear();
    eprintln!(
        "{} distinct kernels for {} shapes compiled for {} into {} in {:.1} s, {} failed",
        pairs.len(),
        chosen.len(),
        args.arch,
        dir.display(),
        t0.elapsed().as_secs_f64(),
        failed.len()
    );
    for f in &failed {
        eprintln!("error: {f}");
    }
    Ok(crate::output::exit(failed.is_empty()))
}
