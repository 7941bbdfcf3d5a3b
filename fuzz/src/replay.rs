//! A target without AFL: every file of a corpus once, then random mutants of them for a bounded
//! time ([`fuzz`]). A panic, or a run longer than the time allowed (AFL's hang), is a failure.
//! The workspace's tests and CI's fuzz stage call [`fuzz`]; a target's binary built without the
//! `afl` feature runs it on the files named ([`main`]), so a crash AFL found replays the same way.

use crate::mutate::{Rng, dictionary, mutate};
use std::panic::catch_unwind;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// A run's bounds: mutants for `seconds` (0: the corpus alone) from `seed`, each input within
/// `max`.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub seconds: f64,
    pub seed: u64,
    pub max: Duration,
}

/// An input that failed, and how.
#[derive(Debug)]
pub struct Failure {
    /// The corpus file, or `None` for a mutant.
    pub file: Option<PathBuf>,
    pub input: Vec<u8>,
    pub what: String,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Run {
    pub files: usize,
    pub mutants: u64,
    pub seconds: f64,
    pub failures: Vec<Failure>,
}

/// The files named, and those directly in the folders named, in sorted order, with their bytes.
pub fn read(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .flatten()
                .map(|e| e.path())
                .filter(|f| f.is_file())
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    files
        .into_iter()
        .map(|f| match std::fs::read(&f) {
            Ok(data) => Ok((f, data)),
            Err(e) => Err(format!("{}: {e}", f.display())),
        })
        .collect()
}

/// What went wrong with one input, if anything.
fn check(target: fn(&[u8]), data: &[u8], max: Duration) -> Option<String> {
    let start = Instant::now();
    if catch_unwind(|| target(data)).is_err() {
        return Some("panicked".into());
    }
    let took = start.elapsed();
    (took > max).then(|| format!("took {} ms", took.as_millis()))
}

/// Runs `target` on every file of `corpus`, then on mutants of them (with `dict`'s tokens) until
/// `bounds.seconds` have passed. Mutants are not tried while a corpus file fails.
pub fn fuzz(target: fn(&[u8]), corpus: &[(PathBuf, Vec<u8>)], dict: &str, bounds: &Bounds) -> Run {
    let start = Instant::now();
    let mut run = Run {
        files: corpus.len(),
        ..Run::default()
    };
    for (file, data) in corpus {
        if let Some(what) = check(target, data, bounds.max) {
            run.failures.push(Failure {
                file: Some(file.clone()),
                input: data.clone(),
                what,
            });
        }
    }
    let seeds: Vec<Vec<u8>> = corpus.iter().map(|(_, data)| data.clone()).collect();
    let dict = dictionary(dict);
    let mut rng = Rng::new(bounds.seed);
    let mutating = Instant::now();
    while run.failures.is_empty()
        && !seeds.is_empty()
        && mutating.elapsed().as_secs_f64() < bounds.seconds
    {
        let seed = &seeds[rng.below(seeds.len())];
        let data = mutate(&mut rng, seed, &seeds, &dict);
        run.mutants += 1;
        if let Some(what) = check(target, &data, bounds.max) {
            run.failures.push(Failure {
                file: None,
                input: data,
                what,
            });
        }
    }
    run.seconds = start.elapsed().as_secs_f64();
    run
}

/// Keeps a failing mutant where it can be replayed from: `artifacts/<target>/failure-<hash>`
/// beside the crate.
pub fn save(name: &str, data: &[u8]) -> PathBuf {
    // FNV-1a names the file by its contents.
    let hash = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("artifacts")
        .join(name);
    let path = dir.join(format!("failure-{hash:016x}"));
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, data)) {
        eprintln!("{name}: cannot save {}: {e}", path.display());
    }
    path
}

/// One line a run; a line a failure, naming its file (a mutant is saved first).
pub fn report(name: &str, run: &Run, seed: u64) -> String {
    let mut out = format!(
        "{name}: {} files, {} mutants (seed {seed}) in {:.1} s: {} failures",
        run.files,
        run.mutants,
        run.seconds,
        run.failures.len()
    );
    for f in &run.failures {
        let file = f.file.clone().unwrap_or_else(|| save(name, &f.input));
        out += &format!("\n{name}: {} {}", file.display(), f.what);
    }
    out
}

const USAGE: &str = "[--seconds S] [--seed N] [--max-ms M] PATH...";

fn options(mut args: impl Iterator<Item = String>) -> Result<(Bounds, Vec<PathBuf>), String> {
    let mut bounds = Bounds {
        seconds: 0.0,
        seed: 0,
        max: Duration::from_secs(5),
    };
    let mut paths = Vec::new();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        let bad = |e: std::num::ParseIntError| format!("{arg}: {e}");
        match arg.as_str() {
            "--seconds" => bounds.seconds = value()?.parse().map_err(|e| format!("{arg}: {e}"))?,
            "--seed" => bounds.seed = value()?.parse().map_err(bad)?,
            "--max-ms" => bounds.max = Duration::from_millis(value()?.parse().map_err(bad)?),
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => paths.push(arg.into()),
        }
    }
    if paths.is_empty() {
        return Err("no files or folders to replay".into());
    }
    Ok((bounds, paths))
}

/// The `main` of a target built without AFL: `NAME [--seconds S] [--seed N] [--max-ms M]
/// PATH…` runs [`fuzz`] on the files named (a folder: the files in it) with the target's
/// dictionary; exit code 1 when an input failed, 2 on bad arguments or unreadable files.
pub fn main(name: &str) -> ExitCode {
    let Some(target) = crate::TARGETS.iter().find(|t| t.name == name) else {
        eprintln!("{name}: not a fuzz target");
        return ExitCode::from(2);
    };
    let read = options(std::env::args().skip(1))
        .and_then(|(bounds, paths)| read(&paths).map(|corpus| (bounds, corpus)));
    let (bounds, corpus) = match read {
        Ok(read) => read,
        Err(e) => {
            eprintln!("{name}: {e}\nusage: {name} {USAGE}");
            return ExitCode::from(2);
        }
    };
    let run = fuzz(target.run, &corpus, target.dict, &bounds);
    println!("{}", report(name, &run, bounds.seed));
    if run.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
