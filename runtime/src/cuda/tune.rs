//! Autotuning on the CUDA back end: the fastest instance of a registry for a problem on this
//! device, each supported plain-convolution instance verified and timed as `ckc bench` times it
//! ([`BenchProblem::measure`]), and a table of the winners by problem so that each problem is
//! tuned once. The cost model of [`Registry::select`] ranks by tile arithmetic alone; tuning
//! ranks by the device's own clock.

use super::bench::{BenchProblem, KernelTexts, Trials, plain_convolution};
use super::{CudaBackend, CudaError};
use crate::exec::RunError;
use crate::gpu::portable_kernel;
use crate::problem::ConvProblem;
use crate::registry::{NoInstance, Registry};
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::ir::Instance;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One candidate's result: median microseconds a run, or why it has none (it failed to build,
/// to run or to verify).
#[derive(Clone, Debug, PartialEq)]
pub struct Timed<'r> {
    pub instance: &'r Instance,
    pub us: Result<f64, String>,
}

/// What tuning found: the fastest verified instance and every candidate's result, fastest
/// first (those without a time last, by name).
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned<'r> {
    pub best: &'r Instance,
    pub us: f64,
    pub timed: Vec<Timed<'r>>,
}

#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error(transparent)]
    NoInstance(#[from] NoInstance),
    #[error("the problem's reference: {0}")]
    Reference(#[from] RunError),
    #[error(transparent)]
    Cuda(#[from] CudaError),
    #[error("no supported instance ran and verified:{}", failures(.0))]
    NoneVerified(Vec<(String, String)>),
}

fn failures(list: &[(String, String)]) -> String {
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
    let mut runs: Vec<(&Instance, HipKernel, usize)> = Vec::new();
    let mut texts = KernelTexts::default();
    let supported = reg
        .candidates_for(p, be)
        .into_iter()
        .filter(|c| c.verdict.is_ok());
    for c in supported.take(limit.unwrap_or(usize::MAX)) {
        let kernel = plain_convolution(c.instance)
            .and_then(|()| portable_kernel(c.instance, "cuda").map_err(|e| e.to_string()));
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
    let data = BenchProblem::new(p, seed)?;
    for (inst, own, idx) in runs {
        let us = loaded[idx]
            .as_ref()
            .map_err(|e| format!("build: {e}"))
            .and_then(|code| {
                let m = data
                    .measure(be, inst, code, &own, trials)
                    .map_err(|e| format!("run: {e}"))?;
                match m.median_us() {
                    Some(us) if m.verification.passed() => Ok(us),
                    _ => Err(format!("verify: {}", m.verification)),
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

/// The tuned instance by problem (its problem string), for one device and one registry; it
/// serialises, so that a program can keep its tunings between runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tunings {
    pub best: BTreeMap<String, String>,
}

impl Tunings {
    /// The instance tuned for `p` before, if it is still registered; otherwise [`tune`]s `p`
    /// (random data from `seed`) and remembers the winner.
    pub fn select<'r>(
        &mut self,
        be: &CudaBackend,
        reg: &'r Registry,
        p: &ConvProblem,
        trials: Trials,
        seed: u64,
    ) -> Result<&'r Instance, TuneError> {
        let key = p.to_string();
        if let Some(inst) = self.best.get(&key).and_then(|name| reg.get(name)) {
            return Ok(inst);
        }
        let tuned = tune(be, reg, p, trials, seed, None)?;
        self.best.insert(key, tuned.best.name.clone());
        Ok(tuned.best)
    }
}
