//! The learned run-time models selection ranks by where one fits the device: gradient-boosted
//! trees ([`Gbdt`]) that predict log2 of an instance's microseconds on a problem from its
//! [`features`](crate::features), one per op and target, trained on measurements (`bench/selection/`,
//! `bench/train_selection.py`) and embedded in the library. Where none fits (AMD targets, ops
//! without enough measurements), the analytic cost model ([`crate::select::cost`]) ranks.

use crate::device::DeviceModel;
use crate::features::{entry_log2_us, names, rows_of};
use crate::gbdt::Gbdt;
use crate::problem::ConvProblem;
use crate::support::Formulation;
use ck_compiler::ir::Checked;
use ck_compiler::model::{Arch, DataType, Op};
use std::sync::OnceLock;

/// The embedded models: target, op, the model's text.
const MODELS: &[(Arch, Op, &str)] = &[
    (
        Arch::Sm90,
        Op::Fwd,
        include_str!("../models/sm_90/fwd.json"),
    ),
    (
        Arch::Sm90,
        Op::BwdData,
        include_str!("../models/sm_90/bwd_data.json"),
    ),
    (
        Arch::Sm90,
        Op::BwdWeight,
        include_str!("../models/sm_90/bwd_weight.json"),
    ),
];

/// A loaded model, reading rows in the order of [`names`].
pub struct Loaded {
    pub model: Gbdt,
}

impl Loaded {
    /// The model of `text`, where it loads and reads only features the runtime computes.
    fn new(text: &str) -> Option<Loaded> {
        let model = Gbdt::from_json(text).ok()?.over(&names())?;
        Some(Loaded { model })
    }
}

/// The model that ranks `p` on `target`: its op's, loaded on first use. None where there is
/// none (or, which the tests rule out, it does not load), and for data the models were not
/// trained on: they were on fp16, bf16 and fp32 that allows tf32 products (the corpus's runs of
/// every op), not on exact fp32 or one-byte types.
pub fn model_for(target: Arch, p: &ConvProblem) -> Option<&'static Loaded> {
    let sixteen_bit = [DataType::Fp16, DataType::Bf16];
    let trained =
        p.dtype.allows_tf32() || p.dtype.storage().iter().all(|d| sixteen_bit.contains(d));
    if !trained {
        return None;
    }
    model_of(target, p.op)
}

/// The model for `op` on `target`, loaded on first use.
fn model_of(target: Arch, op: Op) -> Option<&'static Loaded> {
    static LOADED: OnceLock<Vec<Option<Loaded>>> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| {
        MODELS
            .iter()
            .map(|(_, _, text)| Loaded::new(text))
            .collect()
    });
    MODELS
        .iter()
        .zip(loaded)
        .find(|((t, o, _), _)| *t == target && *o == op)
        .and_then(|(_, m)| m.as_ref())
}

/// How [`predict_all`] may spend its trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Every run's prediction over every tree (a ranking shown to the user).
    Exact,
    /// Only the fastest matters: runs walk the trees in the stages of `CASCADE`, each
    /// keeping the fastest by the estimate so far for the next. The others rank after those,
    /// in the order of their partial estimates.
    Fastest,
}

/// [`Walk::Fastest`]'s stages, as fractions of the model's trees and the runs kept for the next:
/// every run walks the first sixtieth of the trees, the 24 fastest by that estimate up to an
/// eighth, the 10 fastest of those up to a third, and the 5 fastest of those the rest.
/// Boosting's first trees carry most of a prediction, later ones refine it; keeping many runs
/// after the first few trees misses fewer than walking more trees with every run. The stages
/// keep a new problem's selection within its host budget with models of 600 trees.
const CASCADE: [((usize, usize), usize); 3] = [((1, 60), 24), ((1, 8), 10), ((1, 3), 5)];

/// How much of a streamed run's log2 prediction is its entry's analytic estimate, the rest the
/// model's (`bench/train_selection.py` ranks its validation runs the same way). The estimates,
/// fitted to each entry's own runs, hold the model to them where few runs describe an entry.
const ENTRY_WEIGHT: f64 = 0.25;

/// Predicted microseconds of each instance running `p` as its formulation (from the support
/// checks) on `dev`, for a back end targeting `target` whose model for `p`'s op is `model`.
/// The model predicts every run, those of entries that stream a problem and of padded copies
/// too: their analytic estimates are among its features ([`crate::entry_estimate`]), and a
/// streamed run's prediction leans on its entry's estimate (`ENTRY_WEIGHT`).
pub fn predict_all(
    model: &Loaded,
    runs: &[(&Checked, &Formulation)],
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
    walk: Walk,
) -> Vec<f64> {
    let rows = rows_of(runs, p, dev, target);
    let rows: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
    let m = &model.model;
    let trees = m.tree_count();
    let mut log2_us = vec![m.base(); rows.len()];
    let entry: Vec<Option<f64>> = rows.iter().map(|r| entry_log2_us(r)).collect();
    // A run's log2 µs by the trees walked so far, a streamed run's leaning on its entry's
    // estimate.
    let blended = |log2_us: &[f64], j: usize| {
        entry[j].map_or(log2_us[j], |e| {
            (1.0 - ENTRY_WEIGHT) * log2_us[j] + ENTRY_WEIGHT * e
        })
    };
    let stages: Vec<(usize, usize)> = match walk {
        Walk::Fastest => CASCADE
            .iter()
            .map(|&((num, den), keep)| ((trees * num).div_ceil(den), keep))
            .collect(),
        Walk::Exact => Vec::new(),
    };
    // The runs still walking, the trees they walked, and the runs each stage left behind.
    let mut walking: Vec<usize> = (0..rows.len()).collect();
    let mut walked = 0;
    let mut left: Vec<Vec<usize>> = Vec::new();
    for &(until, keep) in stages.iter().chain(&[(trees, usize::MAX)]) {
        let until = until.min(trees).max(walked);
        let stage_rows: Vec<&[f64]> = walking.iter().map(|&j| rows[j]).collect();
        let mut sums: Vec<f64> = walking.iter().map(|&j| log2_us[j]).collect();
        m.add_trees(&stage_rows, walked..until, &mut sums);
        for (&j, s) in walking.iter().zip(sums) {
            log2_us[j] = s;
        }
        walked = until;
        if walked < trees && walking.len() > keep {
            walking.sort_by(|&a, &b| blended(&log2_us, a).total_cmp(&blended(&log2_us, b)));
            left.push(walking.split_off(keep));
        }
    }
    let mut us: Vec<f64> = (0..rows.len())
        .map(|j| blended(&log2_us, j).exp2())
        .collect();
    // A run left behind ranks after every run that walked further, in the order of its
    // partial estimate: the last stage's leavers after the runs that walked every tree, and
    // so on back to the first stage's.
    let mut slowest = walking.iter().map(|&j| us[j]).fold(0.0, f64::max);
    for stage in left.iter().rev() {
        for &j in stage {
            us[j] = us[j].max(slowest.next_up());
        }
        slowest = stage.iter().map(|&j| us[j]).fold(slowest, f64::max);
    }
    us
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{changed, h200};
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Validation {
        features: Vec<String>,
        rows: Vec<Vec<f64>>,
        predictions: Vec<f64>,
    }

    /// Under the cascade the runs that walk every tree keep their exact predictions and rank
    /// first; a run each stage leaves behind ranks after every run that walked further.
    #[test]
    fn the_cascade_ranks_the_runs_that_walked_further_first() {
        let p = ConvProblem::parse("fwd 2d N=32 K=128 C=128 filter=3x3 input=28x28 pad=1").unwrap();
        let model = model_for(Arch::Sm90, &p).expect("a forward model");
        let dev = h200();
        // Tiles of every size: more runs than the first stage keeps.
        let insts: Vec<Checked> = [16, 32, 64, 128, 256]
            .into_iter()
            .flat_map(|m| [16, 32, 64, 128, 256].map(|n| (m, n)))
            .flat_map(|(m, n)| [32, 64].map(|k| (m, n, k)))
            .map(|(m, n, k)| {
                changed(
                    &crate::testing::instance(crate::testing::Variant::FwdXdl),
                    |i| (i.tile.m, i.tile.n, i.tile.k) = (m, n, k),
                )
            })
            .collect();
        let runs: Vec<(&Checked, &Formulation)> =
            insts.iter().map(|i| (i, &Formulation::Direct)).collect();
        let exact = predict_all(model, &runs, &p, &dev, Some(Arch::Sm90), Walk::Exact);
        let fast = predict_all(model, &runs, &p, &dev, Some(Arch::Sm90), Walk::Fastest);
        let mut order: Vec<usize> = (0..runs.len()).collect();
        order.sort_by(|&a, &b| fast[a].total_cmp(&fast[b]));
        let (first_keep, last_keep) = (CASCADE[0].1, CASCADE[CASCADE.len() - 1].1);
        assert!(runs.len() > first_keep);
        // The runs that walked every tree: exact, and ahead of the rest.
        for &j in &order[..last_keep] {
            assert_eq!(fast[j], exact[j], "run {j}");
        }
        let slowest_exact = order[..last_keep]
            .iter()
            .map(|&j| fast[j])
            .fold(0.0, f64::max);
        assert!(order[last_keep..].iter().all(|&j| fast[j] > slowest_exact));
        // The choice is the fastest of the runs that walked every tree.
        let best = order[..last_keep]
            .iter()
            .map(|&j| exact[j])
            .fold(f64::INFINITY, f64::min);
        assert_eq!(fast[order[0]], best);
    }

    /// A run on an entry that streams the problem leans on the entry's estimate by
    /// [`ENTRY_WEIGHT`]; a GEMM tile's run is the model's prediction alone.
    #[test]
    fn streamed_runs_lean_on_their_entry_estimate() {
        use crate::testing::{Variant, instance};
        let pointwise = changed(&instance(Variant::FwdTile), |i| {
            i.spec = ck_compiler::model::ConvSpec::Filter1x1Stride1Pad0
        });
        let tile = instance(Variant::FwdTile);
        let p =
            ConvProblem::parse("fwd 2d N=32 K=32 C=16 filter=1x1 input=56x56 dtype=fp16").unwrap();
        let model = model_for(Arch::Sm90, &p).expect("a forward model");
        let dev = h200();
        let runs = [
            (&pointwise, &Formulation::Direct),
            (&tile, &Formulation::Direct),
        ];
        let us = predict_all(model, &runs, &p, &dev, Some(Arch::Sm90), Walk::Exact);
        let rows = rows_of(&runs, &p, &dev, Some(Arch::Sm90));
        let alone = model.model.predict(&rows);
        let e = entry_log2_us(&rows[0]).expect("the pointwise entry streams the run");
        let want = (1.0 - ENTRY_WEIGHT) * alone[0] + ENTRY_WEIGHT * e;
        assert!((us[0].log2() - want).abs() < 1e-9, "{us:?}");
        assert_eq!(entry_log2_us(&rows[1]), None);
        assert!((us[1].log2() - alone[1]).abs() < 1e-9, "{us:?}");
    }

    /// Each shipped model loads, reads features the runtime computes, and predicts through the
    /// runtime's feature order what LightGBM predicted for its validation rows (networks it
    /// was not trained on).
    #[test]
    fn shipped_models_load_and_match_the_training_library() {
        for (op, text) in [
            (
                Op::Fwd,
                include_str!("../tests/fixtures/models/fwd_validation.json"),
            ),
            (
                Op::BwdData,
                include_str!("../tests/fixtures/models/bwd_data_validation.json"),
            ),
            (
                Op::BwdWeight,
                include_str!("../tests/fixtures/models/bwd_weight_validation.json"),
            ),
        ] {
            let loaded = model_of(Arch::Sm90, op).expect("a shipped model");
            let v: Validation = serde_json::from_str(text).unwrap();
            // The rows are in the runtime's feature order, as selection computes them.
            assert_eq!(v.features, names(), "{op}");
            assert!(v.rows.len() >= 50);
            for (got, want) in loaded
                .model
                .predict(&v.rows)
                .into_iter()
                .zip(&v.predictions)
            {
                assert!(
                    (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                    "{op}: {got} against {want}"
                );
            }
        }
        assert!(model_of(Arch::Gfx942, Op::Fwd).is_none());
        // Exact fp32 problems are ranked by the analytic model.
        let p = |dtype| ConvProblem::new(Op::Fwd, 1, 8, 64, 64, &[3, 3], &[28, 28], dtype).unwrap();
        assert!(model_for(Arch::Sm90, &p(DataType::Fp16)).is_some());
        assert!(model_for(Arch::Sm90, &p(DataType::Tf32)).is_some());
        assert!(model_for(Arch::Sm90, &p(DataType::Fp32)).is_none());
    }
}
