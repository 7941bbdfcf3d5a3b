//! The shapes file: grouped convolutions in the NHWGC/GKYXC/NHWGK layouts, one problem per shape
//! for the op and data type being timed.

use ck_compiler::model::{DataType, Op};
use ck_runtime::ConvProblem;
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
}

#[derive(Deserialize)]
struct ShapesFile {
    shapes: Vec<Shape>,
}

/// The shapes of a shapes file's text, or every reason it is not one. Names must be unique.
pub fn parse(text: &str) -> Result<Vec<Shape>, String> {
    let file: ShapesFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut seen = std::collections::BTreeSet::new();
    for s in &file.shapes {
        if !seen.insert(s.name.as_str()) {
            return Err(format!("shape `{}` appears twice", s.name));
        }
    }
    Ok(file.shapes)
}

/// The named shapes, in file order; every name must exist. All shapes when `names` is empty.
pub fn select(shapes: Vec<Shape>, names: &[String]) -> Result<Vec<Shape>, String> {
    if let Some(missing) = names.iter().find(|n| !shapes.iter().any(|s| &s.name == *n)) {
        return Err(format!("no shape named `{missing}` in the shapes file"));
    }
    Ok(shapes
        .into_iter()
        .filter(|s| names.is_empty() || names.contains(&s.name))
        .collect())
}

impl Shape {
    /// The problem of this shape for `op` with all tensors of `dtype`.
    pub fn problem(&self, op: Op, dtype: DataType) -> Result<ConvProblem, String> {
        let why = |e: ck_runtime::problem::ProblemError| format!("shape `{}`: {e}", self.name);
        if self.filter.len() != self.ndim as usize {
            return Err(format!(
                "shape `{}`: ndim is {} but the filter has {} sizes",
                self.name,
                self.ndim,
                self.filter.len()
            ));
        }
        ConvProblem::new(
            op,
            self.g,
            self.n,
            self.k,
            self.c,
            &self.filter,
            &self.input,
            dtype,
        )
        .and_then(|p| p.with_stride(&self.stride))
        .and_then(|p| p.with_dilation(&self.dilation))
        .and_then(|p| p.with_pads(&self.left_pad, &self.right_pad))
        .map_err(why)
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
        assert!(parse("{}").unwrap_err().contains("shapes"));
        assert!(parse(&ONE.replace("\"G\"", "\"g\"")).is_err());
        let twice = ONE.replace("}]}", "}, {\"name\": \"a\", \"ndim\": 1, \"G\": 1, \"N\": 1, \"K\": 1, \"C\": 1, \"filter\": [1], \"input\": [1], \"stride\": [1], \"dilation\": [1], \"left_pad\": [0], \"right_pad\": [0]}]}");
        assert_eq!(parse(&twice).unwrap_err(), "shape `a` appears twice");
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
                .contains("shape `a`")
        );
    }

    #[test]
    fn the_shared_suite_parses() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/bench/shapes.json"
        );
        // Only where the shared folder is laid beside the checkout.
        if let Ok(text) = std::fs::read_to_string(path) {
            for s in parse(&text).unwrap() {
                for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
                    s.problem(op, DataType::Fp16).unwrap();
                }
            }
        }
    }
}
