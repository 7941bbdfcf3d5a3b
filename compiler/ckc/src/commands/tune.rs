//! `ckc tune`: time candidates for problems on the CUDA device and keep the fastest verified
//! instance of each in the tuning database ([`ck_runtime::tuning`]).

use crate::cli::{Color, TuneArgs};
#[cfg(feature = "cuda")]
use std::path::PathBuf;
use std::process::ExitCode;

/// The database file: `--db`, else the default path.
#[cfg(feature = "cuda")]
fn db_path(given: Option<&PathBuf>) -> Result<PathBuf, String> {
    given
        .cloned()
        .or_else(ck_runtime::tuning::TuningDb::default_path)
        .ok_or_else(|| {
            "no tuning database path: give --db, or set CKDSL_TUNING_DB or HOME".to_string()
        })
}

/// The tuning database at `--db` (else the default path), reporting a file it ignores.
#[cfg(feature = "cuda")]
pub fn open_db(given: Option<&PathBuf>) -> Result<(ck_runtime::tuning::TuningDb, PathBuf), String> {
    let path = db_path(given)?;
    let (db, ignored) = ck_runtime::tuning::TuningDb::open(&path);
    if let Some(why) = ignored {
        eprintln!("warning: {why}");
    }
    Ok((db, path))
}

#[cfg(not(feature = "cuda"))]
pub fn run(_args: &TuneArgs, _color: Color) -> Result<ExitCode, String> {
    Err(
        "`ckc tune` times instances on the CUDA back end: this ckc was built without it (cargo feature `cuda`)"
            .into(),
    )
}

#[cfg(feature = "cuda")]
pub fn run(args: &TuneArgs, color: Color) -> Result<ExitCode, String> {
    use super::candidates::parse_problem;
    use crate::input::registry;
    use crate::output::outln;
    use ck_runtime::cuda::CudaBackend;
    use ck_runtime::cuda::bench::Trials;
    use ck_runtime::cuda::tune::tune;
    use ck_runtime::reference::fresh_seed;
    use ck_runtime::tuning::DeviceKey;

    let problems = problems(args, parse_problem)?;
    let be = CudaBackend::new(0).map_err(|e| format!("the CUDA back end: {e}"))?;
    let Some(reg) = registry(&args.instances, color, be.device_model())? else {
        return Ok(super::exit(false));
    };
    let key =
        DeviceKey::of(&be, &reg).ok_or("the CUDA device has no identity to key tunings by")?;
    let (mut db, path) = open_db(args.db.as_ref())?;
    let trials = Trials {
        warmup: args.warmup,
        trials: args.trials,
        reps: args.reps,
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let limit = args.top.map(|n| n as usize);
    let (mut tuned, mut kept, mut failed) = (0, 0, 0);
    // The default choice's time over the best's, where the default verified.
    let mut fractions = Vec::new();
    for (name, p) in &problems {
        if !args.retune
            && let Some((inst, t)) = db.tuned(&reg, p, &be)
        {
            outln!(
                "{name}: {} {:.1} µs (tuning database, {})",
                inst.name,
                t.us,
                t.date
            );
            kept += 1;
            continue;
        }
        let default = reg.select_for(p, &be).ok().map(|i| i.name.clone());
        let result = match tune(&be, &reg, p, trials, seed, limit) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{name}: {e}");
                failed += 1;
                continue;
            }
        };
        let verified = result.verified();
        let default_us = result
            .timed
            .iter()
            .find(|t| Some(&t.instance.name) == default.as_ref())
            .and_then(|t| t.us.as_ref().ok().copied());
        let versus = match (&default, default_us) {
            (Some(d), Some(us)) => {
                fractions.push(result.us / us);
                format!("; default {d} {us:.1} µs ({:.0} %)", 100.0 * result.us / us)
            }
            (Some(d), None) => format!("; default {d} did not verify"),
            (None, _) => String::new(),
        };
        outln!(
            "{name}: {} {:.1} µs, fastest of {verified} verified{versus}",
            result.best.name,
            result.us
        );
        db.insert(&key, p, result.record(crate::bench::today()));
        // Saved after each problem: an interrupted run keeps what it measured.
        db.save().map_err(|e| e.to_string())?;
        tuned += 1;
    }
    outln!(
        "{tuned} tuned, {kept} from the database, {failed} failed; database {} ({} problems for this device and library)",
        path.display(),
        db.len(&key)
    );
    if let Some(s) = ck_runtime::timings::Spread::of(&fractions) {
        outln!("default choice / best of the timed: {s}");
    }
    Ok(super::exit(failed == 0))
}

/// The problems to tune, named: the one `--problem`, or the shapes file's (with `--op` and
/// `--dtype`, the layers that need the op).
#[cfg(feature = "cuda")]
fn problems(
    args: &TuneArgs,
    parse: impl Fn(&str) -> Result<ck_runtime::ConvProblem, String>,
) -> Result<Vec<(String, ck_runtime::ConvProblem)>, String> {
    use ck_runtime::shapes;
    if let Some(text) = &args.problem {
        return Ok(vec![("problem".into(), parse(text)?)]);
    }
    let (Some(path), Some(op), Some(dtype)) = (&args.shapes, args.op, args.dtype) else {
        return Err("give --problem, or --shapes with --op and --dtype".into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let all = shapes::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let chosen = shapes::select(all, &args.only).map_err(|e| e.to_string())?;
    let (op, dtype) = (op.op(), dtype.dtype());
    chosen
        .into_iter()
        .filter(|s| s.needs(op))
        .map(|s| {
            let p = s
                .problem(op, dtype)
                .map_err(|e| format!("{}: {e}", s.name))?;
            Ok((s.name, p))
        })
        .collect()
}
