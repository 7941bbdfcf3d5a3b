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
    Tree { tree: usize, why: TreeError },
}

/// What makes a tree of the file unusable.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    #[error("node arrays of different lengths")]
    Lengths,
    #[error("no split and not one leaf")]
    NoSplit,
    #[error("{leaves} leaves for {splits} splits")]
    Leaves { leaves: usize, splits: usize },
    #[error("feature {feature} of {features}")]
    Feature { feature: usize, features: usize },
    #[error("a threshold or leaf that is not finite")]
    NotFinite,
    #[error("node {0} out of range or reached twice")]
    Node(i64),
    #[error("leaf {0} out of range or reached twice")]
    Leaf(usize),
    #[error("a node or leaf no path reaches")]
    Unreached,
    #[error("a node or feature index past 16 bits")]
    Wide,
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

/// A checked tree, each node's fields together: internal nodes first, then one node per leaf
/// that sends every row back to itself, so that a walk may take more steps than its path
/// needs and stay at its leaf (rows walk side by side without a branch per node).
#[derive(Clone, Debug, PartialEq)]
struct Tree {
    nodes: Vec<Node>,
    /// The number of internal nodes: node `internal + i` is leaf `i`.
    internal: u16,
    leaf: Vec<f64>,
    /// Internal nodes on the longest path from the root: every walk ends within this many
    /// steps.
    depth: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    threshold: f64,
    /// Children by node index (left, right).
    child: [u16; 2],
    split: u16,
    nan_left: bool,
}

/// Rows walked side by side: their steps are independent, so the processor overlaps them where
/// one row's walk would wait on each comparison and mispredict each branch.
const LANES: usize = 8;

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
    fn check(&self, features: usize) -> Result<(), TreeError> {
        let nodes = self.split.len();
        let same = [
            self.threshold.len(),
            self.left.len(),
            self.right.len(),
            self.nan_left.len(),
        ];
        if same.iter().any(|&n| n != nodes) {
            return Err(TreeError::Lengths);
        }
        if nodes == 0 {
            return if self.leaf.len() == 1 {
                Ok(())
            } else {
                Err(TreeError::NoSplit)
            };
        }
        if self.leaf.len() != nodes + 1 {
            return Err(TreeError::Leaves {
                leaves: self.leaf.len(),
                splits: nodes,
            });
        }
        if let Some(&feature) = self.split.iter().find(|&&f| f >= features) {
            return Err(TreeError::Feature { feature, features });
        }
        if self
            .threshold
            .iter()
            .chain(&self.leaf)
            .any(|v| !v.is_finite())
        {
            return Err(TreeError::NotFinite);
        }
        let (mut seen_node, mut seen_leaf) = (vec![false; nodes], vec![false; nodes + 1]);
        let mut stack = vec![0i64];
        while let Some(c) = stack.pop() {
            if c >= 0 {
                let i = c as usize;
                if i >= nodes || seen_node[i] {
                    return Err(TreeError::Node(c));
                }
                seen_node[i] = true;
                stack.extend([self.left[i], self.right[i]]);
            } else {
                let l = (-c - 1) as usize;
                if l > nodes || seen_leaf[l] {
                    return Err(TreeError::Leaf(l));
                }
                seen_leaf[l] = true;
            }
        }
        if seen_node.contains(&false) || seen_leaf.contains(&false) {
            return Err(TreeError::Unreached);
        }
        Ok(())
    }

    /// The checked tree with its nodes packed; node and feature indices fit 16 bits, so that a
    /// node fills 16 bytes.
    fn packed(self, features: usize) -> Result<Tree, TreeError> {
        self.check(features)?;
        let internal = self.split.len();
        let index = |c: i64| {
            // `check` proved every child in range: a node below `internal`, or a leaf.
            let i = if c >= 0 {
                c as usize
            } else {
                internal + (-c - 1) as usize
            };
            u16::try_from(i).map_err(|_| TreeError::Wide)
        };
        let mut nodes = (0..internal)
            .map(|i| {
                Ok(Node {
                    threshold: self.threshold[i],
                    split: u16::try_from(self.split[i]).map_err(|_| TreeError::Wide)?,
                    nan_left: self.nan_left[i],
                    child: [index(self.left[i])?, index(self.right[i])?],
                })
            })
            .collect::<Result<Vec<_>, TreeError>>()?;
        // A leaf's row goes left whatever its value (NaN included), to the leaf itself.
        for l in 0..self.leaf.len() {
            let me = index(-(l as i64) - 1)?;
            nodes.push(Node {
                threshold: f64::INFINITY,
                split: 0,
                nan_left: true,
                child: [me, me],
            });
        }
        let mut depth = 0;
        let mut stack = vec![(0usize, 0u32)];
        while let Some((i, d)) = stack.pop() {
            if i < internal {
                stack.extend(nodes[i].child.map(|c| (c as usize, d + 1)));
            } else {
                depth = depth.max(d);
            }
        }
        Ok(Tree {
            nodes,
            internal: u16::try_from(internal).map_err(|_| TreeError::Wide)?,
            leaf: self.leaf,
            depth,
        })
    }
}

impl Tree {
    /// Adds the tree's value for each of [`LANES`] rows to `out`, rows at least as long as the
    /// model's features (which [`Gbdt::add_trees`] asserts).
    fn add_to(&self, rows: &[&[f64]; LANES], out: &mut [f64; LANES]) {
        let mut at = [0u16; LANES];
        for _ in 0..self.depth {
            for l in 0..LANES {
                debug_assert!(usize::from(at[l]) < self.nodes.len());
                // SAFETY: `at` starts at the root (node 0; a tree with a split has nodes, and
                // one without walks no step) and moves only to children, which `RawTree::check`
                // proved are nodes of the tree.
                let n = unsafe { self.nodes.get_unchecked(usize::from(at[l])) };
                debug_assert!(usize::from(n.split) < rows[l].len());
                // SAFETY: an internal node's split is one of the model's features (`check`,
                // and `Gbdt::over` maps it into the names the model reads); a leaf's is 0, and a
                // tree with a split reads at least one feature. Every row holds them all.
                let v = unsafe { *rows[l].get_unchecked(usize::from(n.split)) };
                let left = (v <= n.threshold) | (n.nan_left & v.is_nan());
                at[l] = n.child[usize::from(!left)];
            }
            if at.iter().all(|&a| a >= self.internal) {
                break;
            }
        }
        for l in 0..LANES {
            out[l] += self.leaf[(at[l] - self.internal) as usize];
        }
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

    /// The model reading each row as values of `names` in order, where every feature it reads
    /// is among them: rows need not be gathered into the model's own order.
    pub fn over(mut self, names: &[String]) -> Option<Gbdt> {
        let index = self
            .features
            .iter()
            .map(|f| u16::try_from(names.iter().position(|n| n == f)?).ok())
            .collect::<Option<Vec<u16>>>()?;
        for t in &mut self.trees {
            for n in &mut t.nodes[..t.internal as usize] {
                n.split = index[n.split as usize];
            }
        }
        self.features = names.to_vec();
        Some(self)
    }

    /// The feature names the model reads, in the order [`Gbdt::predict`] takes them.
    pub fn features(&self) -> &[String] {
        &self.features
    }

    /// The prediction for each row of the model's features, in order: `base` plus each tree's
    /// leaf, added in tree order.
    ///
    /// # Panics
    /// When a row is shorter than [`Gbdt::features`].
    pub fn predict(&self, rows: &[Vec<f64>]) -> Vec<f64> {
        let rows: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
        let mut out = vec![self.base; rows.len()];
        self.add_trees(&rows, 0..self.trees.len(), &mut out);
        out
    }

    /// Trees in the model.
    pub fn tree_count(&self) -> usize {
        self.trees.len()
    }

    /// Adds the leaves of the trees in `trees` (tree order) for each row to `out`, which starts
    /// at `base` for a whole prediction: a prediction may be taken in parts, each over the
    /// trees the last one left, and sums to the same bits.
    ///
    /// # Panics
    /// When a row is shorter than [`Gbdt::features`] or `out` is not as long as `rows`.
    pub fn add_trees(&self, rows: &[&[f64]], trees: std::ops::Range<usize>, out: &mut [f64]) {
        assert_eq!(rows.len(), out.len(), "a sum for each row");
        for row in rows {
            assert!(
                row.len() >= self.features.len(),
                "a row of {} features",
                row.len()
            );
        }
        let trees = &self.trees[trees];
        // Rows in groups of LANES, the last filled up with its own first row.
        for (o, group) in out.chunks_mut(LANES).zip(rows.chunks(LANES)) {
            let lanes: [&[f64]; LANES] =
                std::array::from_fn(|l| *group.get(l).unwrap_or(&group[0]));
            let mut sums = [0.0; LANES];
            sums[..o.len()].copy_from_slice(o);
            for t in trees {
                t.add_to(&lanes, &mut sums);
            }
            o.copy_from_slice(&sums[..o.len()]);
        }
    }

    /// The model's base value, where every prediction starts.
    pub fn base(&self) -> f64 {
        self.base
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
    fn predictions_in_parts_are_the_whole_one() {
        let f: Fixture = serde_json::from_str(FIXTURE).unwrap();
        let model = Gbdt::from_json(&f.model.to_string()).unwrap();
        let rows: Vec<&[f64]> = f.rows.iter().map(Vec::as_slice).collect();
        let mut parts = vec![model.base(); rows.len()];
        let n = model.tree_count();
        model.add_trees(&rows, 0..n / 3, &mut parts);
        model.add_trees(&rows, n / 3..n, &mut parts);
        assert_eq!(parts, model.predict(&f.rows));
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
