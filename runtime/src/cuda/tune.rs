//! Autotuning on the CUDA back end: the fastest instance of a registry for a problem on this
//! device, each supported plain-convolution instance verified and timed as `ckc bench` times it
//! ([`BenchProblem::measure`]); [`crate::tuning::TuningDb`] keeps the winners. The cost model
//! of [`Registry::select`] ranks by tile arithmetic alone; tuning ranks by the device's own
//! clock.

use super::bench::{
    BenchProblem, KernelTexts, NotPlain, ReferenceError, ReferenceOn, Trials, plain_convolution,
};
use super::{CudaBackend, CudaError};
use crate::exec::RunError;
use crate::gpu::portable_kernel;
use crate::problem::ConvProblem;
use crate::registry::{NoInstance, Registry};
use crate::tuning::Record;
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::ir::Checked;

/// One candidate's result: median microseconds a run, or why it has none.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed<'r> {
    pub instance: &'r Checked,
    pub us: Result<f64, Untimed>,
}

/// Why a candidate has no time: it is not a plain convolution, has no portable kernel, or
/// failed to build, to run or to verify (the driver's and the check's words, which carry no
/// more structure than their text).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Untimed {
    #[error(transparent)]
    NotPlain(#[from] NotPlain),
    #[error(transparent)]
    NoKernel(#[from] RunError),
    #[error("build: {0}")]
    Build(String),
    #[error("run: {0}")]
    Run(String),
    #[error("verify: {0}")]
    Verify(String),
}

/// What tuning found: the fastest verified instance and every candidate's result, fastest
/// first (those without a time last, by name).
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned<'r> {
    pub best: &'r Checked,
    pub us: f64,
    pub timed: Vec<Timed<'r>>,
}

impl Tuned<'_> {
    /// Candidates that verified and were timed.
    pub fn verified(&self) -> usize {
        self.timed.iter().filter(|t| t.us.is_ok()).count()
    }

    /// The tuning database's record of this result, measured on `date`.
    pub fn record(&self, date: String) -> Record {
        Record {
            instance: self.best.name.clone(),
            us: self.us,
            timed: self.verified(),
            date,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error(transparent)]
    NoInstance(#[from] NoInstance),
    #[error("the problem's reference: {0}")]
    Reference(#[from] ReferenceError),
    #[error(transparent)]
    Cuda(#[from] CudaError),
    #[error("no supported instance ran and verified:{}", failures(.0))]
    NoneVerified(Vec<(String, Untimed)>),
}

fn failures(list: &[(String, Untimed)]) -> String {
    list.iter()
        .map(|(n, why)| format!("\n  {n}: {why}"))
        .collect()
}

/// Times the instances of `reg` that support `p` on this device and run a plain convolution
/// (the timing's reference has no element-wise ops or D tensors) on random data from `seed`,
/// each distinct kernel compiled once; the fastest that verifies wins. `limit`: only that many,
/// the selection's first (its default choice first); None: all.
pub fn tune<'r>(
    be: &CudaBackend,
    reg: &'r Registry,
    p: &ConvProblem,
    trials: Trials,
    seed: u64,
    limit: Option<usize>,
) -> Result<Tuned<'r>, TuneError> {
    // The registry's error names every rejected instance when none supports the problem.
    reg.select_for(p, be)?;
    let mut timed = Vec::new();
    // (instance, its own kernel: its launch plan, index of its kernel text)
    let mut runs: Vec<(&Checked, HipKernel, usize)> = Vec::new();
    let mut texts = KernelTexts::default();
    let supported = reg
        .candidates_for(p, be)
        .into_iter()
        .filter(|c| c.verdict.is_ok());
    for c in supported.take(limit.unwrap_or(usize::MAX)) {
        let kernel = plain_convolution(c.instance)
            .map_err(Untimed::from)
            .and_then(|()| Ok(portable_kernel(c.instance, "cuda")?));
        match kernel {
            Ok(k) => {
                let idx = texts.index(&k);
                runs.push((c.instance, k, idx));
            }
            Err(why) => timed.push(Timed {
                instance: c.instance,
                us: Err(why),
            }),
        }
    }
    let loaded = be.build(texts.into_kernels(), &|| ());
    let data = BenchProblem::new(p, seed, ReferenceOn::Device(be))?;
    for (inst, own, idx) in runs {
        let us = loaded[idx]
            .as_ref()
            .map_err(|e| Untimed::Build(e.to_string()))
            .and_then(|code| {
                let m = data
                    .measure(be, inst, code, &own, trials)
                    .map_err(|e| Untimed::Run(e.to_string()))?;
                match m.median_us() {
                    Some(us) if m.verification.passed() => Ok(us),
                    _ => Err(Untimed::Verify(m.verification.to_string())),
                }
            });
        timed.push(Timed { instance: inst, us });
    }
    timed.sort_by(|a, b| match (&a.us, &b.us) {
        (Ok(x), Ok(y)) => x.total_cmp(y),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => a.instance.name.cmp(&b.instance.name),
    });
    match timed.first() {
        Some(&Timed {
            instance,
            us: Ok(us),
        }) => Ok(Tuned {
            best: instance,
            us,
            timed,
        }),
        _ => Err(TuneError::NoneVerified(
            timed
                .into_iter()
                .filter_map(|t| Some((t.instance.name.clone(), t.us.err()?)))
                .collect(),
        )),
    }
}
