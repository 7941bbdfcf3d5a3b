//! A gradient-boosted regression tree ensemble, evaluated in Rust: the run-time models are
//! trained offline (LightGBM, `bench/train_selection.py`) and exported in this small format,
//! so the runtime needs neither Python nor a native ML library.
//!
//! The file is JSON: `{"format": "ckdsl-gbdt 1", "features": [names], "base": f, "trees":
//! [tree]}`, each tree LightGBM's arrays: `split` (feature index) and `threshold` per internal
//! node, `left` / `right` children (an index ≥ 0 is an internal node, `-(i + 1)` is leaf `i`),
//! `nan_left` (where a NaN goes) and `leaf` values. A row goes left where its value is at most
//! the threshold. The prediction is `base` plus one leaf value per tree.

use serde::Deserialize;

const FORMAT: &str = "ckdsl-gbdt 1";

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum GbdtError {
    #[error("not a model: {0}")]
    Json(String),
    #[error("format `{0}`, expected `{FORMAT}`")]
    Format(String),
    #[error("tree {tree}: {why}")]
    Tree { tree: usize, why: String },
}

#[derive(Deserialize)]
struct File {
    format: String,
    features: Vec<String>,
    #[serde(default)]
    base: f64,
    trees: Vec<RawTree>,
}

/// A tree as the file holds it: one array per node field.
#[derive(Deserialize)]
struct RawTree {
    split: Vec<usize>,
    threshold: Vec<f64>,
    left: Vec<i64>,
    right: Vec<i64>,
    nan_left: Vec<bool>,
    leaf: Vec<f64>,
}

/// A checked tree, each node's fields together (evaluation visits about ten nodes a tree).
#[derive(Clone, Debug, PartialEq)]
struct Tree {
    nodes: Vec<Node>,
    leaf: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    threshold: f64,
    split: u32,
    nan_left: bool,
    /// Children: an index ≥ 0 is a node, `-(i + 1)` leaf `i`.
    left: i32,
    right: i32,
}

/// A loaded, checked model.
#[derive(Clone, Debug, PartialEq)]
pub struct Gbdt {
    features: Vec<String>,
    base: f64,
    trees: Vec<Tree>,
}

impl RawTree {
    /// Every array as long as the node count, every child in range, every node reached once
    /// from the root (so evaluation ends), every leaf reached.
    fn check(&self, features: usize) -> Result<(), String> {
        let nodes = self.split.len();
        let same = [
            self.threshold.len(),
            self.left.len(),
            self.right.len(),
            self.nan_left.len(),
        ];
        if same.iter().any(|&n| n != nodes) {
            return Err("node arrays of different lengths".into());
        }
        if nodes == 0 {
            return if self.leaf.len() == 1 {
                Ok(())
            } else {
                Err("no split and not one leaf".into())
            };
        }
        if self.leaf.len() != nodes + 1 {
            return Err(format!("{} leaves for {nodes} splits", self.leaf.len()));
        }
        if let Some(f) = self.split.iter().find(|&&f| f >= features) {
            return Err(format!("feature {f} of {features}"));
        }
        if self
            .threshold
            .iter()
            .chain(&self.leaf)
            .any(|v| !v.is_finite())
        {
            return Err("a threshold or leaf that is not finite".into());
        }
        let (mut seen_node, mut seen_leaf) = (vec![false; nodes], vec![false; nodes + 1]);
        let mut stack = vec![0i64];
        while let Some(c) = stack.pop() {
            if c >= 0 {
                let i = c as usize;
                if i >= nodes || seen_node[i] {
                    return Err(format!("node {c} out of range or reached twice"));
                }
                seen_node[i] = true;
                stack.extend([self.left[i], self.right[i]]);
            } else {
                let l = (-c - 1) as usize;
                if l > nodes || seen_leaf[l] {
                    return Err(format!("leaf {l} out of range or reached twice"));
                }
                seen_leaf[l] = true;
            }
        }
        if seen_node.contains(&false) || seen_leaf.contains(&false) {
            return Err("a node or leaf no path reaches".into());
        }
        Ok(())
    }

    /// The checked tree with its nodes packed; node and feature indices fit 32 bits.
    fn packed(self, features: usize) -> Result<Tree, String> {
        self.check(features)?;
        let small = |c: i64| i32::try_from(c).map_err(|_| format!("child {c} past 32 bits"));
        let nodes = (0..self.split.len())
            .map(|i| {
                Ok(Node {
                    threshold: self.threshold[i],
                    split: u32::try_from(self.split[i]).map_err(|_| "feature past 32 bits")?,
                    nan_left: self.nan_left[i],
                    left: small(self.left[i])?,
                    right: small(self.right[i])?,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(Tree {
            nodes,
            leaf: self.leaf,
        })
    }
}

impl Tree {
    fn eval(&self, x: &[f64]) -> f64 {
        if self.nodes.is_empty() {
            return self.leaf[0];
        }
        let mut c = 0i32;
        // `check` proved every path from the root ends at a leaf.
        while c >= 0 {
            let n = &self.nodes[c as usize];
            let v = x[n.split as usize];
            let left = if v.is_nan() {
                n.nan_left
            } else {
                v <= n.threshold
            };
            c = if left { n.left } else { n.right };
        }
        self.leaf[(-c - 1) as usize]
    }
}

impl Gbdt {
    /// The model of a JSON text, checked.
    pub fn from_json(text: &str) -> Result<Gbdt, GbdtError> {
        let f: File = serde_json::from_str(text).map_err(|e| GbdtError::Json(e.to_string()))?;
        if f.format != FORMAT {
            return Err(GbdtError::Format(f.format));
        }
        if !f.base.is_finite() {
            return Err(GbdtError::Json("a base that is not finite".into()));
        }
        let count = f.features.len();
        let trees = f
            .trees
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                t.packed(count)
                    .map_err(|why| GbdtError::Tree { tree: i, why })
            })
            .collect::<Result<_, _>>()?;
        Ok(Gbdt {
            features: f.features,
            base: f.base,
            trees,
        })
    }

    /// The feature names the model reads, in the order [`Gbdt::predict`] takes them.
    pub fn features(&self) -> &[String] {
        &self.features
    }

    /// The prediction for each row of the model's features, in order. Tree by tree: a tree's
    /// nodes stay in the cache while every row walks them, where a row at a time would walk
    /// every tree's.
    ///
    /// # Panics
    /// When a row is shorter than [`Gbdt::features`].
    pub fn predict(&self, rows: &[Vec<f64>]) -> Vec<f64> {
        let mut out = vec![self.base; rows.len()];
        for row in rows {
            assert!(
                row.len() >= self.features.len(),
                "a row of {} features",
                row.len()
            );
        }
        for t in &self.trees {
            for (o, row) in out.iter_mut().zip(rows) {
                *o += t.eval(row);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A LightGBM model trained on synthetic rows by `bench/train_selection.py --fixture`,
    /// with LightGBM's own predictions for the rows kept beside it.
    const FIXTURE: &str = include_str!("../tests/fixtures/gbdt_small.json");

    #[derive(Deserialize)]
    struct Fixture {
        model: serde_json::Value,
        rows: Vec<Vec<f64>>,
        predictions: Vec<f64>,
    }

    #[test]
    fn predictions_match_lightgbm_on_its_rows() {
        let f: Fixture = serde_json::from_str(FIXTURE).unwrap();
        let model = Gbdt::from_json(&f.model.to_string()).unwrap();
        assert!(model.trees.len() > 10);
        assert_eq!(f.rows.len(), f.predictions.len());
        for (got, want) in model.predict(&f.rows).into_iter().zip(&f.predictions) {
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{got} against LightGBM's {want}"
            );
        }
    }

    #[test]
    fn malformed_models_are_refused() {
        let tree = |left: &str, right: &str, leaves: &str| {
            format!(
                r#"{{"format": "ckdsl-gbdt 1", "features": ["a"], "trees": [{{"split": [0, 0], "threshold": [2.0, 1.0], "left": {left}, "right": {right}, "nan_left": [true, true], "leaf": {leaves}}}]}}"#
            )
        };
        let ok = tree("[1, -1]", "[-3, -2]", "[1.0, 2.0, 3.0]");
        let m = Gbdt::from_json(&ok).unwrap();
        let rows = [0.5, 1.5, 9.0, f64::NAN].map(|v| vec![v]);
        assert_eq!(m.predict(&rows), [1.0, 2.0, 3.0, 1.0]);
        for (bad, why) in [
            (
                tree("[0, -1]", "[-3, -2]", "[1.0, 2.0, 3.0]"),
                "reached twice",
            ),
            (
                tree("[1, -1]", "[-3, -9]", "[1.0, 2.0, 3.0]"),
                "out of range",
            ),
            (tree("[1, -1]", "[-3, -2]", "[1.0, 2.0]"), "leaves"),
            (tree("[1, -1]", "[-1, -2]", "[1.0, 2.0, 3.0]"), "twice"),
            (
                ok.replace("\"split\": [0, 0]", "\"split\": [0, 4]"),
                "feature 4",
            ),
            (ok.replace("ckdsl-gbdt 1", "other"), "format"),
            ("[]".to_string(), "not a model"),
        ] {
            let e = Gbdt::from_json(&bad).unwrap_err().to_string();
            assert!(e.contains(why), "{e}");
        }
    }
}
