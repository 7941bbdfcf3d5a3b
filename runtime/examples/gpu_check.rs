//! GPU correctness check of the portable kernels on the CUDA back end: every instance of the
//! library plus the `.ck` files given, on the problems the shared problem builder
//! ([`ck_runtime::probe`]) finds each supports, on fresh random data with the destination
//! poisoned with NaN (int8: -128), against the fp64 reference. Split, StreamK and persistent-entry instances
//! also run planned for a 3-SM device, so that small problems split K, StreamK grids mix DP and
//! SK tiles and persistent workgroups take several tiles each (where the back end plans
//! them: where they pay by default, wherever they can run with `CK_PERSISTENT=all`).
//! Problems of one-byte (int8, fp8, bf8) instances that would run on padded copies, which the
//! back end does not plan for them, are left out and counted. Every instance must be accepted;
//! multiple-D instances run with random D tensors and random non-trivial element-op scalars
//! (Scale's factor, Bilinear's alpha and beta).
//!
//! `gpu_check [--instances PATH]... [--quick] [--every N] [--filter SUBSTR] [--probe SUBSTR]`
//! runs (exit status 1 on any mismatch or error); `--filter` keeps the instances whose name
//! holds SUBSTR, `--probe` the problems whose description does (`padded copies`);
//! `--quick` runs one problem per instance on the real SM count
//! and `--every N` every N-th instance plus the first of each work schedule the stride missed
//! (StreamK by fix-up and grid shape, auto / fixed split-K, two-stage), so that the sanitizer
//! subsets always cover StreamK fix-ups.
//! `gpu_check --precompile DIR [--arch sm_90a] [--instances PATH]...` needs no GPU: it compiles
//! every distinct kernel into the cubin cache DIR.
//! `gpu_check --reference [--filter SUBSTR] [--probe SUBSTR]` checks the device's fp64 reference
//! (what `ckc bench` and `ckc tune` verify against) against the host's on every distinct problem
//! of the instances' probes.

use ck_compiler::emit::hip::HipKernel;
use ck_compiler::ir::{Checked, SplitK};
use ck_compiler::kernel::{EntryKind, Persist, Step};
use ck_compiler::load::Session;
use ck_compiler::model::DataType;
use ck_runtime::cuda::CudaBackend;
use ck_runtime::cuda::bench::{BenchProblem, ReferenceOn};
use ck_runtime::gpu::{KernelCache, portable_kernel};
use ck_runtime::layout::Role;
use ck_runtime::reference::{fresh_seed, relative_error_of};
use ck_runtime::subset::every_nth_with_schedules;
use ck_runtime::{Backend, ConvProblem, ProblemData, probe};
use ck_runtime::{Formulation, formulation};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::process::ExitCode;

/// SMs of the small planning device.
const SMALL_SMS: u32 = 3;

struct Args {
    instances: Vec<PathBuf>,
    precompile: Option<PathBuf>,
    arch: String,
    quick: bool,
    every: usize,
    filter: Option<String>,
    probe: Option<String>,
    reference: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        instances: Vec::new(),
        precompile: None,
        arch: "sm_90a".into(),
        quick: false,
        every: 1,
        filter: None,
        probe: None,
        reference: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--instances" => a.instances.push(value()?.into()),
            "--precompile" => a.precompile = Some(value()?.into()),
            "--arch" => a.arch = value()?,
            "--filter" => a.filter = Some(value()?),
            "--probe" => a.probe = Some(value()?),
            "--every" => {
                a.every = value()?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--every needs a positive count")?
            }
            "--quick" => a.quick = true,
            "--reference" => a.reference = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(a)
}

/// The library, then the instances of the `.ck` files given, filtered.
fn instances(a: &Args) -> Result<Vec<Checked>, String> {
    let mut all = ck_instances::all().to_vec();
    if !a.instances.is_empty() {
        let mut session = Session::new();
        for p in &a.instances {
            session.add_path(p);
        }
        let extra = ck_compiler::compile(&session).map_err(|d| d.render(session.sources()))?;
        all.extend(extra.into_instances());
    }
    all.retain(|i| {
        a.filter
            .as_ref()
            .is_none_or(|f| i.name.contains(f.as_str()))
    });
    Ok(every_nth_with_schedules(&all, a.every)
        .into_iter()
        .cloned()
        .collect())
}

/// Compiles each distinct kernel source once into the cache, in parallel.
fn precompile(insts: &[Checked], dir: PathBuf, arch: &str) -> ExitCode {
    let mut kernels: BTreeMap<String, HipKernel> = BTreeMap::new();
    let mut rejected = 0;
    for inst in insts {
        match portable_kernel(inst, "cuda") {
            Ok(k) => {
                kernels.entry(k.source.clone()).or_insert(k);
            }
            Err(e) => {
                println!("FAIL {}: no portable kernel: {e}", inst.name);
                rejected += 1;
            }
        }
    }
    let pairs: Vec<(&str, &str)> = kernels
        .values()
        .map(|k| (k.name.as_str(), k.source.as_str()))
        .collect();
    let t0 = std::time::Instant::now();
    let cache = KernelCache::new(dir);
    let failed: Vec<String> = cache
        .cubins(&pairs, arch, &|| {})
        .into_iter()
        .filter_map(|r| r.err().map(|e| e.to_string()))
        .collect();
    println!(
        "{} instances, {} distinct kernels compiled for {arch} into {} in {:.1} s, {} failed",
        insts.len(),
        pairs.len(),
        cache.dir().display(),
        t0.elapsed().as_secs_f64(),
        failed.len()
    );
    failed.iter().for_each(|f| println!("FAIL {f}"));
    if failed.is_empty() && rejected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Whether the instance's plan depends on the device's size.
fn splits(inst: &Checked) -> bool {
    inst.work.streamk.is_some()
        || inst.work.split_k == SplitK::Auto
        || matches!(inst.work.split_k, SplitK::Fixed(k) if k > 1)
}

#[derive(Default)]
struct Tally {
    pass: usize,
    fail: usize,
    split: usize,
    streamed: usize,
    tma: usize,
    /// Runs whose split-K slices added up in thread-block clusters.
    clusters: usize,
    /// Runs on persistent workgroups.
    persistent: usize,
    instances_run: usize,
    not_accepted: usize,
    /// Problems of one-byte instances left out: they would run on padded copies.
    on_copies: usize,
}

/// One run: NaN (int8: -128) in the destination, the back end's result against the reference.
/// `kernel` is the instance's portable kernel, to report whether the run copied with TMA and
/// added split-K slices in clusters.
fn check(
    be: &CudaBackend,
    inst: &Checked,
    kernel: Option<&HipKernel>,
    p: &ConvProblem,
    t: &mut Tally,
) -> String {
    let mut data = match ProblemData::random(inst, p, fresh_seed()) {
        Ok(d) => d,
        Err(e) => return format!("FAIL data: {e}"),
    };
    let dst = match p.destination() {
        Role::Input => &mut data.input,
        Role::Weight => &mut data.weight,
        Role::Output => &mut data.output,
    };
    // int8 has no NaN: -128, a value few sums land on everywhere.
    let poison = if dst.dtype() == DataType::Int8 {
        -128.0
    } else {
        f32::NAN
    };
    (0..dst.len()).for_each(|i| dst.set(i, poison));
    let stats = match data.run(be, inst, p) {
        Ok(s) => s,
        Err(e) => return format!("FAIL run: {e}"),
    };
    t.split += usize::from(stats.k_batch > 1);
    t.streamed += usize::from(stats.sk_ctas > 0);
    let plan = kernel.and_then(|k| Some((k, be.plan(inst, k, p).ok()?)));
    let tma = plan.as_ref().is_some_and(|(k, plan)| be.uses_tma(k, plan));
    let persistent = plan.as_ref().is_some_and(|(_, plan)| {
        plan.steps.iter().any(|s| {
            matches!(
                s,
                Step::Launch {
                    entry: EntryKind::Persistent,
                    ..
                }
            )
        })
    });
    let cluster = plan.map_or(0, |(_, plan)| plan.args.cluster);
    t.tma += usize::from(tma);
    t.clusters += usize::from(cluster > 1);
    t.persistent += usize::from(persistent);
    let mut copies = String::from(if tma { " tma" } else { "" });
    if cluster > 1 {
        copies += &format!(" cluster {cluster}");
    }
    if persistent {
        copies += " persistent";
    }
    let kb = format!("k_batch {} sk {}{copies}", stats.k_batch, stats.sk_ctas);
    match data.verify(p) {
        Ok(v) if v.passed() => format!("ok   {kb} {v}"),
        Ok(v) => format!("FAIL {kb} seed {} {v}", data.seed),
        Err(e) => format!("FAIL verify: {e}"),
    }
}

/// Largest relative difference the device reference may have from the host's: both sum in fp64,
/// in different orders.
const REFERENCE_AGREEMENT: f64 = 1e-12;

/// The device reference against the host's on every distinct problem of the instances' probes.
fn check_references(be: &CudaBackend, insts: &[Checked], probe: Option<&str>) -> ExitCode {
    let (mut pass, mut fail) = (0, 0);
    let mut seen = HashSet::new();
    let t0 = std::time::Instant::now();
    for inst in insts {
        for (what, p) in probe::problems_for(inst, &be.device_model()) {
            if probe.is_some_and(|want| !what.contains(want)) || !seen.insert(p.to_string()) {
                continue;
            }
            let seed = fresh_seed();
            let host = BenchProblem::new(&p, seed, ReferenceOn::Host);
            let device = BenchProblem::new(&p, seed, ReferenceOn::Device(be));
            let line = match (host, device) {
                (Ok(h), Ok(d)) if h.reference().len() == d.reference().len() => {
                    let d = d.reference();
                    let diff = relative_error_of(h.reference(), |i| d[i]);
                    let ok = diff <= REFERENCE_AGREEMENT;
                    format!("{} difference {diff:.1e}", if ok { "ok  " } else { "FAIL" })
                }
                (Ok(_), Ok(_)) => "FAIL the references differ in length".to_string(),
                (Err(e), _) => format!("FAIL host reference: {e}"),
                (_, Err(e)) => format!("FAIL device reference: {e}"),
            };
            if line.starts_with("ok") {
                pass += 1;
            } else {
                fail += 1;
            }
            println!("{line} | {what} | {p}");
        }
    }
    println!(
        "device reference against the host's on {} problems in {:.1} s: {pass} agreed, {fail} failed",
        pass + fail,
        t0.elapsed().as_secs_f64()
    );
    if fail == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let insts = match instances(&args) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(dir) = args.precompile {
        return precompile(&insts, dir, &args.arch);
    }
    let (real, small) = match CudaBackend::new(0).and_then(|r| {
        let s = CudaBackend::new(0)?.with_compute_units(SMALL_SMS);
        Ok((r, s))
    }) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if args.reference {
        return check_references(&real, &insts, args.probe.as_deref());
    }
    println!(
        "{} instances on {} with {} SMs",
        insts.len(),
        real.arch(),
        real.device_info().compute_units
    );
    // Fill the cache in parallel first: runs load kernels one at a time.
    if precompile(&insts, KernelCache::default_dir(), real.arch()) != ExitCode::SUCCESS {
        println!("FAIL some kernels do not compile (their runs fail below)");
    }
    let mut t = Tally::default();
    let t0 = std::time::Instant::now();
    for inst in &insts {
        if let Err(e) = real.accepts(inst) {
            println!("FAIL {}: not accepted: {e}", inst.name);
            t.fail += 1;
            t.not_accepted += 1;
            continue;
        }
        let kernel = portable_kernel(inst, "cuda").ok();
        let mut backends = vec![(&real, "")];
        // Persistent workgroups (where the back end plans them) take several tiles each only
        // where the tiles outnumber them.
        let persists = small.device_info().persistent != Persist::Off
            && kernel
                .as_ref()
                .is_some_and(|k| k.config.persist_layout().is_some());
        if (splits(inst) || persists) && !args.quick {
            backends.push((&small, " (3 SMs)"));
        }
        let mut ran = 0;
        for (be, tag) in backends {
            let mut problems = probe::problems_for(inst, &be.device_model());
            if let Some(want) = &args.probe {
                problems.retain(|(what, _)| what.contains(want.as_str()));
            }
            // One-byte data run as stated only: the repack entry that would stage their
            // copies moves 2- and 4-byte elements, so the back end plans no such run.
            if kernel.as_ref().is_some_and(|k| k.config.byte_data()) {
                let before = problems.len();
                problems.retain(|(_, p)| {
                    !matches!(
                        formulation(inst, p, &be.device_model()),
                        Ok(Formulation::Padded(_))
                    )
                });
                t.on_copies += before - problems.len();
            }
            if args.quick {
                problems.truncate(1);
            }
            for (what, p) in problems {
                let line = check(be, inst, kernel.as_ref(), &p, &mut t);
                if line.starts_with("ok") {
                    t.pass += 1;
                } else {
                    t.fail += 1;
                }
                ran += 1;
                println!("{line} | {} | {what}{tag} | {p}", inst.name);
            }
        }
        if ran == 0 && args.probe.is_none() {
            println!("FAIL {}: no problem supported", inst.name);
            t.fail += 1;
        } else {
            t.instances_run += 1;
        }
    }
    println!(
        "{} instances ran {} problems in {:.1} s: {} passed, {} failed; {} runs split K, {} ran stream-K workgroups, {} copied with TMA, {} added slices in clusters, {} ran on persistent workgroups; {} instances not accepted; {} one-byte problems on copies left out",
        t.instances_run,
        t.pass + t.fail,
        t0.elapsed().as_secs_f64(),
        t.pass,
        t.fail,
        t.split,
        t.streamed,
        t.tma,
        t.clusters,
        t.persistent,
        t.not_accepted,
        t.on_copies
    );
    if t.fail == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
