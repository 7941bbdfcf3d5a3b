//! Shapes files: grouped convolutions in the NHWGC/GKYXC/NHWGK layouts (and their 1-D and 3-D
//! spellings), one problem per shape for each op and data type. The benchmark suite and the
//! network corpus (`bench/`) are shapes files; a corpus shape also names the ops a training step
//! runs on it and the models it comes from.

use crate::ConvProblem;
use crate::LayoutFamily;
use crate::problem::{ProblemError, ProblemLayout, ProblemTypes, spread};
use ck_compiler::model::{DataType, Op};
use serde::Deserialize;

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub name: String,
    pub ndim: u32,
    #[serde(rename = "G")]
    pub g: u64,
    #[serde(rename = "N")]
    pub n: u64,
    #[serde(rename = "K")]
    pub k: u64,
    #[serde(rename = "C")]
    pub c: u64,
    pub filter: Vec<u64>,
    pub input: Vec<u64>,
    pub stride: Vec<u64>,
    pub dilation: Vec<u64>,
    pub left_pad: Vec<u64>,
    pub right_pad: Vec<u64>,
    /// The ops a training step runs on the layer (a network corpus); every op when absent.
    #[serde(default)]
    pub ops: Option<Vec<Op>>,
    /// The models the layer occurs in (a network corpus).
    #[serde(default)]
    pub models: Vec<String>,
    /// The kind of model the layer's first model is (a network corpus).
    #[serde(default)]
    pub category: Option<String>,
    /// The layer's class: what sets its kernel apart (small channels, 1-D, depthwise, …).
    #[serde(default, rename = "class")]
    pub layer_class: Option<String>,
}

#[derive(Deserialize)]
struct ShapesFile {
    shapes: Vec<Shape>,
}

/// Why a shapes file or one of its shapes is refused.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ShapesError {
    #[error("{0}")]
    Json(String),
    #[error("shape `{0}` appears twice")]
    Duplicate(String),
    #[error("no shape named `{0}` in the shapes file")]
    Missing(String),
    #[error("shape `{name}`: ndim is {ndim} but the filter has {filter} sizes")]
    Rank {
        name: String,
        ndim: u32,
        filter: usize,
    },
    #[error("shape `{0}`: {1}")]
    Problem(String, ProblemError),
}

/// The shapes of a shapes file's text, or every reason it is not one. Names must be unique.
pub fn parse(text: &str) -> Result<Vec<Shape>, ShapesError> {
    let file: ShapesFile =
        serde_json::from_str(text).map_err(|e| ShapesError::Json(e.to_string()))?;
    let mut seen = std::collections::BTreeSet::new();
    for s in &file.shapes {
        if !seen.insert(s.name.as_str()) {
            return Err(ShapesError::Duplicate(s.name.clone()));
        }
    }
    Ok(file.shapes)
}

/// The named shapes, in file order; every name must exist. All shapes when `names` is empty.
pub fn select(shapes: Vec<Shape>, names: &[String]) -> Result<Vec<Shape>, ShapesError> {
    if let Some(missing) = names.iter().find(|n| !shapes.iter().any(|s| &s.name == *n)) {
        return Err(ShapesError::Missing(missing.clone()));
    }
    Ok(shapes
        .into_iter()
        .filter(|s| names.is_empty() || names.contains(&s.name))
        .collect())
}

impl Shape {
    /// Whether a training step runs `op` on this shape.
    pub fn needs(&self, op: Op) -> bool {
        self.ops.as_ref().is_none_or(|ops| ops.contains(&op))
    }

    /// The problem of this shape for `op` with all tensors of `dtype`.
    pub fn problem(&self, op: Op, dtype: DataType) -> Result<ConvProblem, ShapesError> {
        let why = |e: ProblemError| ShapesError::Problem(self.name.clone(), e);
        if self.filter.len() != self.ndim as usize {
            return Err(ShapesError::Rank {
                name: self.name.clone(),
                ndim: self.ndim,
                filter: self.filter.len(),
            });
        }
        // Every field at once: a filter may reach past the unpadded input (a 3x3x3 filter over
        // two frames with a pad of one), so no partial problem is validated on the way.
        let dims = |what, v: &[u64]| spread(what, v, self.ndim).map_err(why);
        let p = ConvProblem {
            op,
            ndim: self.ndim,
            g: self.g,
            n: self.n,
            k: self.k,
            c: self.c,
            filter: dims("filter", &self.filter)?,
            input: dims("input", &self.input)?,
            stride: dims("stride", &self.stride)?,
            dilation: dims("dilation", &self.dilation)?,
            left_pad: dims("lpad", &self.left_pad)?,
            right_pad: dims("rpad", &self.right_pad)?,
            layout: ProblemLayout::family(LayoutFamily::Nhwgc, self.ndim)
                .ok_or(ProblemError::Ndim(self.ndim))
                .map_err(why)?,
            dtype: ProblemTypes::all(dtype),
        };
        p.validate().map_err(why)?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"{"about": "x", "shapes": [{"name": "a", "ndim": 2, "G": 2, "N": 4,
        "K": 8, "C": 16, "filter": [3, 3], "input": [14, 12], "stride": [2, 1],
        "dilation": [1, 1], "left_pad": [1, 1], "right_pad": [0, 1]}]}"#;

    #[test]
    fn a_shape_becomes_the_problem_of_each_op() {
        let shapes = parse(ONE).unwrap();
        let p = shapes[0].problem(Op::BwdWeight, DataType::Bf16).unwrap();
        assert_eq!(
            p.to_string(),
            ConvProblem::parse(
                "bwd_weight 2d G=2 N=4 K=8 C=16 filter=3x3 input=14x12 stride=2x1 lpad=1 \
                 rpad=0x1 dtype=bf16"
            )
            .unwrap()
            .to_string()
        );
        assert_eq!(p.output(), vec![7, 12]);
        let f = shapes[0].problem(Op::Fwd, DataType::Fp16).unwrap();
        assert_eq!(f.op, Op::Fwd);
    }

    #[test]
    fn bad_files_and_shapes_are_errors() {
        assert!(parse("{}").unwrap_err().to_string().contains("shapes"));
        assert!(parse(&ONE.replace("\"G\"", "\"g\"")).is_err());
        let twice = ONE.replace("}]}", "}, {\"name\": \"a\", \"ndim\": 1, \"G\": 1, \"N\": 1, \"K\": 1, \"C\": 1, \"filter\": [1], \"input\": [1], \"stride\": [1], \"dilation\": [1], \"left_pad\": [0], \"right_pad\": [0]}]}");
        assert_eq!(
            parse(&twice).unwrap_err().to_string(),
            "shape `a` appears twice"
        );
        let shapes = parse(ONE).unwrap();
        assert!(select(shapes.clone(), &["b".into()]).is_err());
        assert_eq!(select(shapes.clone(), &["a".into()]).unwrap().len(), 1);
        assert_eq!(select(shapes.clone(), &[]).unwrap().len(), 1);
        let mut wrong = shapes[0].clone();
        wrong.ndim = 3;
        assert!(wrong.problem(Op::Fwd, DataType::Fp16).is_err());
        wrong = shapes[0].clone();
        wrong.stride = vec![0, 1];
        assert!(
            wrong
                .problem(Op::Fwd, DataType::Fp16)
                .unwrap_err()
                .to_string()
                .contains("shape `a`")
        );
    }

    #[test]
    fn the_suite_and_the_corpus_parse() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench");
        for file in ["shapes.json", "networks/corpus.json"] {
            let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
            for s in parse(&text).unwrap() {
                for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
                    s.problem(op, DataType::Fp16).unwrap();
                }
            }
        }
    }

    #[test]
    fn corpus_shapes_name_their_ops_and_models() {
        let one = ONE.replace(
            "\"right_pad\": [0, 1]",
            "\"right_pad\": [0, 1], \"ops\": [\"fwd\", \"bwd_weight\"], \"models\": [\"m\"]",
        );
        let s = &parse(&one).unwrap()[0];
        assert!(s.needs(Op::Fwd) && s.needs(Op::BwdWeight) && !s.needs(Op::BwdData));
        assert_eq!(s.models, ["m"]);
        // A suite shape without `ops` is timed in every op.
        assert!(parse(ONE).unwrap()[0].needs(Op::BwdData));
    }
}
