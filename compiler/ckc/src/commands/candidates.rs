//! The instances a problem is chosen from (the library or `.ck` paths) and their verdicts.

use crate::cli::{Card, Color};
use crate::input::registry;
use ck_compiler::model::Arch;
use ck_runtime::{Candidate, ConvProblem, DeviceModel, RunsAs};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn parse_problem(text: &str) -> Result<ConvProblem, String> {
    ConvProblem::parse(text).map_err(|e| format!("bad problem `{text}`: {e}"))
}

/// One line per candidate, best first: `name  ok  cost=…` (and `as its transpose` or `as its
/// fold` where it runs that problem) or `name  rejected  rule: reason`.
pub fn lines(candidates: &[Candidate<'_>]) -> Vec<String> {
    candidates
        .iter()
        .map(|c| match &c.verdict {
            Ok(v) => {
                let estimate = if c.predicted {
                    format!("predicted={v:.1}µs")
                } else {
                    format!("cost={v:.3e}")
                };
                let runs_as = match c.runs_as {
                    RunsAs::Stated => "",
                    RunsAs::Transposed => "\tas its transpose",
                    RunsAs::Folded => "\tas its fold",
                    RunsAs::Padded => "\ton padded copies",
                };
                format!("{}\tok\t{estimate}{runs_as}", c.instance.name)
            }
            Err(why) => format!("{}\trejected\t{why}", c.instance.name),
        })
        .collect()
}

/// What `ckc list --problem` and `ckc run` rank for besides the default device model.
#[derive(Clone, Copy)]
pub enum RankFor {
    /// As the CUDA back end on this card.
    Card(Card),
    /// As a device of this architecture (its reference part's compute units, its support
    /// rules).
    Target(Arch),
}

impl RankFor {
    /// From `--device` / `--target` (one at most; clap rules out both).
    pub fn from_args(device: Option<Card>, target: Option<&str>) -> Result<Option<Self>, String> {
        Ok(match (device, target) {
            (Some(card), _) => Some(RankFor::Card(card)),
            (None, Some(t)) => Some(RankFor::Target(Arch::from_keyword(t).ok_or_else(|| {
                let all: Vec<_> = Arch::keywords().collect();
                format!("--target {t}: expected one of {}", all.join(", "))
            })?)),
            (None, None) => None,
        })
    }

    /// The device model selection assumes and the target it ranks for (the learned model of
    /// that target where there is one).
    pub fn device(self) -> (DeviceModel, Arch) {
        match self {
            // The CUDA back end's view of an H100 SXM or H200: 132 SMs, two workgroups each.
            RankFor::Card(Card::H100 | Card::H200) => (
                DeviceModel {
                    arch: None,
                    compute_units: 132,
                    occupancy: 2,
                },
                Arch::Sm90,
            ),
            RankFor::Target(a) => (
                DeviceModel {
                    arch: Some(a),
                    compute_units: ck_compiler::arch::info(a).compute_units,
                    occupancy: 2,
                },
                a,
            ),
        }
    }
}

/// The line that says how candidates were ranked: by `target`'s learned model or the analytic
/// cost model, for a device of `units` compute units where no target was named.
pub fn ranking(target: Option<Arch>, predicted: bool, units: u32) -> String {
    match (target, predicted) {
        (Some(t), true) => format!("ranked by the learned run-time model of {t} (predicted µs)"),
        (Some(t), false) => format!("ranked by the analytic cost model for {t}"),
        (None, _) => format!(
            "ranked by the analytic cost model for a device of {units} compute units (--device or --target rank for one)"
        ),
    }
}

/// `ckc list --problem`: every instance's verdict; exit 1 when none supports the problem.
/// For a card or target, ranked as a device of it ranks (its learned model where there is
/// one); the ranking used is said on standard error.
pub fn list(
    problem: &str,
    paths: &[PathBuf],
    rank_for: Option<RankFor>,
    color: Color,
) -> Result<ExitCode, String> {
    let p = parse_problem(problem)?;
    let (model, target) = match rank_for.map(RankFor::device) {
        Some((model, t)) => (model, Some(t)),
        None => (DeviceModel::default(), None),
    };
    let units = model.compute_units;
    let Some(registry) = registry(paths, color, model)? else {
        return Ok(super::exit(false));
    };
    let candidates = match target {
        Some(t) => registry.candidates_on(&p, t),
        None => registry.candidates(&p),
    };
    let predicted = candidates.first().is_some_and(|c| c.predicted);
    eprintln!("{}", ranking(target, predicted, units));
    for line in lines(&candidates) {
        crate::output::line(line);
    }
    Ok(super::exit(candidates.iter().any(|c| c.verdict.is_ok())))
}
