//! The learned run-time models selection ranks by where one fits the device: gradient-boosted
//! trees ([`Gbdt`]) that predict log2 of an instance's microseconds on a problem from its
//! [`features`](crate::features), one per op and target, trained on measurements (`bench/selection/`,
//! `bench/train_selection.py`) and embedded in the library. Where none fits (AMD targets, ops
//! without enough measurements), the analytic cost model ([`crate::select::cost`]) ranks.

use crate::device::DeviceModel;
use crate::features::{names, values_of};
use crate::gbdt::Gbdt;
use crate::problem::ConvProblem;
use crate::support::Formulation;
use ck_compiler::ir::Instance;
use ck_compiler::model::{Arch, Op};
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

/// A loaded model and, for each feature it reads, its position among [`names`].
pub struct Loaded {
    pub model: Gbdt,
    index: Vec<usize>,
}

impl Loaded {
    /// The model of `text`, where it loads and reads only features the runtime computes.
    fn new(text: &str) -> Option<Loaded> {
        let model = Gbdt::from_json(text).ok()?;
        let names = names();
        let index = model
            .features()
            .iter()
            .map(|f| names.iter().position(|n| n == f))
            .collect::<Option<Vec<usize>>>()?;
        Some(Loaded { model, index })
    }

    /// Predicted microseconds for each list of feature values in the order of [`names`].
    pub fn predict_us(&self, values: &[Vec<f64>]) -> Vec<f64> {
        let rows: Vec<Vec<f64>> = values
            .iter()
            .map(|v| self.index.iter().map(|&i| v[i]).collect())
            .collect();
        self.model
            .predict(&rows)
            .into_iter()
            .map(f64::exp2)
            .collect()
    }
}

/// The model for `op` on `target`, loaded on first use; None where there is none (or, which
/// the tests rule out, it does not load).
pub fn model_for(target: Arch, op: Op) -> Option<&'static Loaded> {
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

/// Predicted microseconds of each instance running `p` as its formulation (from the support
/// checks) on `dev`, for a back end targeting `target` whose model for `p`'s op is `model`.
pub fn predict_all(
    model: &Loaded,
    runs: &[(&Instance, &Formulation)],
    p: &ConvProblem,
    dev: &DeviceModel,
    target: Option<Arch>,
) -> Vec<f64> {
    let values: Vec<Vec<f64>> = runs
        .iter()
        .map(|(inst, form)| values_of(inst, form, p, dev, target))
        .collect();
    let mut us = model.predict_us(&values);
    // The model knows the GEMM of the problem an instance computes; padded copies add their
    // own launches.
    for (t, (_, form)) in us.iter_mut().zip(runs) {
        if let Formulation::Padded(pd) = form {
            *t += pd.copies() as f64 * COPY_LAUNCH_US + pd.copy_bytes() as f64 / COPY_BYTES_PER_US;
        }
    }
    us
}

/// What the estimate of a run on padded copies adds for each copy: a launch, and its bytes at
/// about two thirds of an H100's memory bandwidth.
const COPY_LAUNCH_US: f64 = 3.0;
const COPY_BYTES_PER_US: f64 = 2.2e6;

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Validation {
        features: Vec<String>,
        rows: Vec<Vec<f64>>,
        predictions: Vec<f64>,
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
            let loaded = model_for(Arch::Sm90, op).expect("a shipped model");
            let v: Validation = serde_json::from_str(text).unwrap();
            // The rows are in the runtime's feature order, as selection computes them.
            assert_eq!(v.features, names(), "{op}");
            assert!(v.rows.len() >= 50);
            for (us, want) in loaded.predict_us(&v.rows).into_iter().zip(&v.predictions) {
                let got = us.log2();
                assert!(
                    (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                    "{op}: {got} against {want}"
                );
            }
        }
        assert!(model_for(Arch::Gfx942, Op::Fwd).is_none());
    }
}
