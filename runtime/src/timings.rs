//! Measurements as data: one [`Timing`] per instance timed on a problem, as JSON lines, and the
//! table of [`crate::features`] a run-time model is trained on. The records keep what was
//! measured (problem, instance, microseconds, card, device shape, date, library fingerprint);
//! features are computed from them by the same code that will evaluate a model, so a change of
//! features needs no new measurements.

use crate::device::DeviceModel;
use crate::features::{names, values_of};
use crate::problem::ConvProblem;
use crate::registry::Registry;
use crate::support::formulation;
use ck_compiler::model::Arch;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How a set of fractions (e.g. fastest ÷ chosen, one a problem) spreads: their mean, median,
/// 10th percentile by nearest rank and smallest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub n: usize,
    pub mean: f64,
    pub median: f64,
    pub p10: f64,
    pub worst: f64,
}

impl Spread {
    /// The spread of `values`; None for none.
    pub fn of(values: &[f64]) -> Option<Spread> {
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let worst = *v.first()?;
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Some(Spread {
            n,
            mean: v.iter().sum::<f64>() / n as f64,
            median,
            p10: v[(n as f64 * 0.1).ceil().max(1.0) as usize - 1],
            worst,
        })
    }
}

impl std::fmt::Display for Spread {
    /// As percentages.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "mean {:.1} %, median {:.1} %, P10 {:.1} %, worst {:.1} % over {} problems",
            100.0 * self.mean,
            100.0 * self.median,
            100.0 * self.p10,
            100.0 * self.worst,
            self.n
        )
    }
}

/// One instance timed on one problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// The card's name.
    pub card: String,
    /// The back end's target ([`crate::Backend::target`], e.g. `sm_90`).
    pub target: Option<String>,
    /// The device as selection saw it: its architecture keyword where support rules use it,
    /// SMs and workgroups per SM.
    pub arch: Option<String>,
    pub compute_units: u32,
    pub occupancy: u32,
    /// UTC date of the measurement (`YYYY-MM-DD`).
    pub date: String,
    /// [`Registry::fingerprint`] of the library timed.
    pub library: String,
    /// The shape's name in its shapes file (a corpus layer names its model).
    pub shape: String,
    /// The problem string.
    pub problem: String,
    pub instance: String,
    /// Median microseconds a launch; None when it did not run.
    pub us: Option<f64>,
    /// Whether its result matched the fp64 reference.
    pub verified: bool,
}

impl Timing {
    /// The device model selection used when this was measured.
    pub fn device(&self) -> DeviceModel {
        DeviceModel {
            arch: self.arch.as_deref().and_then(Arch::from_keyword),
            compute_units: self.compute_units,
            occupancy: self.occupancy,
        }
    }
}

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum TimingsError {
    #[error("line {line}: {message}")]
    Line { line: usize, message: String },
}

/// The records of JSON-lines text (blank lines skipped).
pub fn parse(text: &str) -> Result<Vec<Timing>, TimingsError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let t: Timing = serde_json::from_str(l).map_err(|e| TimingsError::Line {
                line: i + 1,
                message: e.to_string(),
            })?;
            match t.us {
                Some(us) if !(us.is_finite() && us > 0.0) => Err(TimingsError::Line {
                    line: i + 1,
                    message: format!("time {us} is not a positive number"),
                }),
                _ => Ok(t),
            }
        })
        .collect()
}

/// The columns ahead of the features in a [`Table`]: the timing's shape, problem, instance, card
/// and microseconds.
pub const META: [&str; 5] = ["shape", "problem", "instance", "card", "us"];

/// The training table: a header row, then per verified timing the [`META`] columns and the
/// [`features`](crate::features). Timings whose instance is not in `reg`, whose problem does not
/// parse or which no longer support it are left out and counted; of several timings of one
/// instance on one problem on one card the last is kept, and the earlier ones are counted as
/// superseded.
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub left_out: usize,
    pub superseded: usize,
}

pub fn table(timings: &[Timing], reg: &Registry) -> Table {
    let mut header: Vec<String> = META.map(String::from).to_vec();
    header.extend(names());
    fn key(t: &Timing) -> (&str, &str, &str) {
        (&t.card, &t.problem, &t.instance)
    }
    let last: HashMap<(&str, &str, &str), usize> = timings
        .iter()
        .enumerate()
        .map(|(i, t)| (key(t), i))
        .collect();
    let mut rows = Vec::new();
    let (mut left_out, mut superseded) = (0, 0);
    for (i, t) in timings.iter().enumerate() {
        if last[&key(t)] != i {
            superseded += 1;
            continue;
        }
        let row = (|| {
            let us = t.us.filter(|_| t.verified)?;
            let inst = reg.get(&t.instance)?;
            let p = ConvProblem::parse(&t.problem).ok()?;
            let target = t.target.as_deref().and_then(Arch::from_keyword);
            let dev = t.device();
            let form = formulation(inst, &p, &dev).ok()?;
            let mut row = vec![
                t.shape.clone(),
                t.problem.clone(),
                t.instance.clone(),
                t.card.clone(),
                format!("{us}"),
            ];
            row.extend(
                values_of(inst, &form, &p, &dev, target)
                    .into_iter()
                    .map(|v| format!("{v}")),
            );
            Some(row)
        })();
        match row {
            Some(r) => rows.push(r),
            None => left_out += 1,
        }
    }
    Table {
        header,
        rows,
        left_out,
        superseded,
    }
}

impl Table {
    /// CSV text; fields holding a comma or a quote are quoted.
    pub fn to_csv(&self) -> String {
        let field = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let line = |r: &[String]| r.iter().map(|s| field(s)).collect::<Vec<_>>().join(",");
        let mut out = line(&self.header);
        out.push('\n');
        for r in &self.rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Variant, instance};

    #[test]
    fn a_spread_gives_mean_median_p10_and_worst() {
        assert_eq!(Spread::of(&[]), None);
        let mut f: Vec<f64> = (1..=10).map(|i| f64::from(i) / 10.0).collect();
        f.reverse();
        assert_eq!(
            Spread::of(&f).unwrap().to_string(),
            "mean 55.0 %, median 55.0 %, P10 10.0 %, worst 10.0 % over 10 problems"
        );
    }

    fn timing(instance: &str, us: Option<f64>, verified: bool) -> Timing {
        Timing {
            card: "NVIDIA H100 80GB HBM3".into(),
            target: Some("sm_90".into()),
            arch: None,
            compute_units: 132,
            occupancy: 2,
            date: "2026-11-28".into(),
            library: "0123456789abcdef".into(),
            shape: "resnet_layer".into(),
            problem: "bwd_weight 2d N=4 K=64 C=64 filter=3 input=14 pad=1".into(),
            instance: instance.into(),
            us,
            verified,
        }
    }

    #[test]
    fn timings_round_trip_through_json_lines_and_bad_lines_are_named() {
        let t = timing("test_xdl_v3", Some(12.5), true);
        let text = format!(
            "{}\n\n{}\n",
            serde_json::to_string(&t).unwrap(),
            serde_json::to_string(&timing("x", None, false)).unwrap()
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed[0], t);
        assert_eq!(parsed[1].us, None);
        assert_eq!(parsed[0].device().compute_units, 132);
        let bad = text.replace("12.5", "-1.0");
        assert!(matches!(
            parse(&bad),
            Err(TimingsError::Line { line: 1, .. })
        ));
        assert!(matches!(
            parse("{\n"),
            Err(TimingsError::Line { line: 1, .. })
        ));
    }

    #[test]
    fn the_table_has_a_row_per_verified_timing_of_a_registered_instance() {
        let mut reg = Registry::default();
        reg.register(instance(Variant::XdlV3), 0).unwrap();
        let timings = [
            timing("test_xdl_v3", Some(12.5), true),
            timing("test_xdl_v3", Some(9.0), false),
            timing("gone", Some(1.0), true),
        ];
        let t = table(&timings, &reg);
        // The unverified timing supersedes the first, and is left out itself.
        assert_eq!(t.rows.len(), 0);
        assert_eq!((t.left_out, t.superseded), (2, 1));
        let timings = [
            timing("test_xdl_v3", Some(9.0), false),
            timing("test_xdl_v3", Some(12.5), true),
            timing("gone", Some(1.0), true),
        ];
        let t = table(&timings, &reg);
        assert_eq!(t.rows.len(), 1);
        assert_eq!((t.left_out, t.superseded), (1, 1));
        assert_eq!(t.rows[0][4], "12.5");
        // Another card's timing of the same instance and problem is a row of its own.
        let mut h200 = timing("test_xdl_v3", Some(8.0), true);
        h200.card = "NVIDIA H200".into();
        let t = table(&[timing("test_xdl_v3", Some(12.5), true), h200], &reg);
        assert_eq!((t.rows.len(), t.superseded), (2, 0));
        assert_eq!(t.header.len(), t.rows[0].len());
        let csv = t.to_csv();
        let mut lines = csv.lines();
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("shape,problem,instance,card,us,op=fwd")
        );
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("resnet_layer,bwd_weight 2d")
        );
    }
}
