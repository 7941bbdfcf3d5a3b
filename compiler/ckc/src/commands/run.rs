//! `ckc run`: select (or take) an instance for a problem, run it on fresh random data on a back
//! end, and optionally verify it against the fp64 reference.

use super::candidates::{RankFor, lines, parse_problem, ranking};
use crate::cli::{BackendKind, Color, RunArgs};
use crate::input::registry;
use ck_compiler::ir::Checked;
use ck_runtime::reference::fresh_seed;
use ck_runtime::support::Rule;
use ck_runtime::{
    Backend, ConvProblem, CpuBackend, DeviceModel, Formulation, ProblemData, Registry, Unsupported,
    formulation, supports_on,
};
use std::process::ExitCode;
use std::time::Instant;

/// A back end and the device model selection assumes for it: the CPU back end's own, or the
/// one `rank_for` names.
fn backend(
    kind: BackendKind,
    rank_for: Option<RankFor>,
) -> Result<(Box<dyn Backend>, DeviceModel), String> {
    if rank_for.is_some() && kind != BackendKind::Cpu {
        return Err(
            "--device and --target select for a device that is not here: use them with the CPU back end (the default)"
                .into(),
        );
    }
    match kind {
        BackendKind::Cpu => {
            let cpu = match rank_for.map(RankFor::device) {
                Some((device, target)) => CpuBackend {
                    device,
                    target: Some(target),
                },
                None => CpuBackend::default(),
            };
            let device = cpu.device.clone();
            Ok((Box::new(cpu), device))
        }
        #[cfg(feature = "cuda")]
        BackendKind::Cuda => {
            let cuda = ck_runtime::cuda::CudaBackend::new(0)
                .map_err(|e| format!("the CUDA back end: {e}"))?;
            let device = cuda.device_model();
            Ok((Box::new(cuda), device))
        }
        #[cfg(not(feature = "cuda"))]
        BackendKind::Cuda => {
            Err("this ckc was built without CUDA support (cargo feature `cuda`)".into())
        }
        #[cfg(feature = "hip")]
        BackendKind::Hip => {
            let hip = ck_runtime::hip::HipBackend::new(0)
                .map_err(|e| format!("the HIP back end: {e}"))?;
            let device = hip.device_model();
            Ok((Box::new(hip), device))
        }
        #[cfg(not(feature = "hip"))]
        BackendKind::Hip => {
            Err("this ckc was built without HIP support (cargo feature `hip`)".into())
        }
    }
}

/// `--tune`: the fastest instance that supports `p` on CUDA device 0, its timings printed and
/// kept in the tuning database `db`.
#[cfg(feature = "cuda")]
fn tuned<'r>(
    reg: &'r Registry,
    p: &ConvProblem,
    seed: u64,
    db: Option<&std::path::PathBuf>,
) -> Result<&'r Checked, String> {
    use ck_runtime::cuda::{CudaBackend, bench::Trials, tune::tune};
    use ck_runtime::tuning::DeviceKey;
    let be = CudaBackend::new(0).map_err(|e| format!("the CUDA back end: {e}"))?;
    let t = tune(&be, reg, p, Trials::default(), seed, None).map_err(|e| format!("tuning: {e}"))?;
    let (mut store, path) = super::tune::open_db(db)?;
    let key = DeviceKey::of(&be, reg).ok_or("the CUDA device has no identity to key tunings by")?;
    let verified = t.verified();
    crate::output::outln!(
        "tuned:           {verified} of {} instances verified and timed",
        t.timed.len()
    );
    for x in t.timed.iter().take(5) {
        match &x.us {
            Ok(us) => crate::output::outln!("                 {us:8.1} µs  {}", x.instance.name),
            Err(why) => {
                crate::output::outln!("                 failed       {}: {why}", x.instance.name)
            }
        }
    }
    store.insert(&key, p, t.record(crate::bench::today()));
    store.save().map_err(|e| e.to_string())?;
    crate::output::outln!("tuning database: {}", path.display());
    Ok(t.best)
}

#[cfg(not(feature = "cuda"))]
fn tuned<'r>(
    _: &'r Registry,
    _: &ConvProblem,
    _: u64,
    _: Option<&std::path::PathBuf>,
) -> Result<&'r Checked, String> {
    Err("--tune times instances on the CUDA back end: this ckc was built without it (cargo feature `cuda`)".into())
}

/// The selection: on a back end that keeps tuning results, the tuning database first; the
/// ranking used is printed.
fn select<'r>(
    reg: &'r Registry,
    p: &ConvProblem,
    backend: &dyn Backend,
    db: Option<&std::path::PathBuf>,
) -> Result<Result<&'r Checked, ck_runtime::NoInstance>, String> {
    #[cfg(feature = "cuda")]
    if backend.device_id().is_some() {
        use ck_runtime::tuning::Ranking;
        let (store, path) = super::tune::open_db(db)?;
        return Ok(store.select_for(reg, p, backend).map(|s| {
            match &s.by {
                Ranking::Tuned(t) => crate::output::outln!(
                    "selected by:     tuning database {} ({:.1} µs, {})",
                    path.display(),
                    t.us,
                    t.date
                ),
                Ranking::CostModel => crate::output::outln!("selected by:     cost model"),
            }
            s.instance
        }));
    }
    let _ = db;
    let target = backend.target();
    let predicted = target.is_some_and(|t| ck_runtime::time_model::model_for(t, p).is_some());
    crate::output::outln!(
        "selected by:     {}",
        ranking(target, predicted, reg.device().compute_units)
    );
    Ok(reg.select_for(p, backend))
}

pub fn run(args: &RunArgs, color: Color) -> Result<ExitCode, String> {
    let p = parse_problem(&args.problem)?;
    if args.tune && args.backend != BackendKind::Cuda {
        return Err("--tune times instances on the device: give --backend cuda".into());
    }
    let rank_for = RankFor::from_args(args.device, args.target.as_deref())?;
    let (backend, device) = backend(args.backend, rank_for)?;
    let Some(registry) = registry(&args.instances, color, device.clone())? else {
        return Ok(super::exit(false));
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let inst = match &args.instance {
        None if args.tune => tuned(&registry, &p, seed, args.db.as_ref())?,
        Some(name) => {
            let inst = registry.get(name).ok_or_else(|| {
                format!(
                    "no instance named `{name}` among the {} loaded",
                    registry.len()
                )
            })?;
            let runs = backend.accepts(inst).map_err(|e| Unsupported {
                rule: Rule::Backend,
                reason: format!("the {} back end: {e}", backend.name()),
            });
            if let Err(why) = supports_on(inst, &p, &device).and(runs) {
                eprintln!("instance {name} does not support `{p}`: {why}");
                return Ok(super::exit(false));
            }
            inst
        }
        None => match select(&registry, &p, backend.as_ref(), args.db.as_ref())? {
            Ok(inst) => inst,
            Err(none) => {
                match &none.problem {
                    Some(e) => eprintln!("invalid problem `{p}`: {e}"),
                    None if args.verbose => {
                        eprintln!("no instance supports `{p}`; the candidates:");
                        for line in lines(&registry.candidates_for(&p, backend.as_ref())) {
                            eprintln!("  {line}");
                        }
                    }
                    None => {
                        eprintln!("no instance supports `{p}`: {none}");
                        eprintln!("(every instance's reason: --verbose)");
                    }
                }
                return Ok(super::exit(false));
            }
        },
    };
    let instance_string = ck_compiler::emit::instance_string(inst);
    let mut data = ProblemData::random(inst, &p, seed).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let stats = data
        .run(backend.as_ref(), inst, &p)
        .map_err(|e| format!("{} failed: {e}", inst.name))?;
    let elapsed = start.elapsed();
    crate::output::outln!("problem:         {p}");
    crate::output::outln!("instance:        {} ({})", inst.name, inst.source);
    crate::output::outln!("instance string: {instance_string}");
    match formulation(inst, &p, &device) {
        Ok(Formulation::Transposed(t)) => crate::output::outln!("as transpose:    {t}"),
        Ok(Formulation::Folded(q)) => crate::output::outln!("as fold:         {q}"),
        Ok(Formulation::Padded(pd)) => {
            crate::output::outln!("on padded copies: {}", pd.problem)
        }
        _ => {}
    }
    crate::output::outln!(
        "run:             {} back end, {:.3} ms, k_batch {}, {} workgroups, seed {seed}",
        backend.name(),
        elapsed.as_secs_f64() * 1e3,
        stats.k_batch,
        stats.workgroups
    );
    if !args.verify {
        return Ok(super::exit(true));
    }
    let v = data.verify(&p).map_err(|e| e.to_string())?;
    crate::output::outln!("verify:          {v}");
    Ok(super::exit(v.passed()))
}
