//! The problem-string form of a [`ConvProblem`]: one line a person can type.
//!
//! ```text
//! problem  = op ws dims { ws setting }
//! op       = "fwd" | "bwd_data" | "bwd_weight"
//! dims     = "1d" | "2d" | "3d"
//! setting  = key "=" value
//! sizes    = int { "x" int }          one int per spatial dimension (outermost first),
//!                                     or a single int for every dimension
//! ```
//!
//! | key | value | default |
//! |---|---|---|
//! | `G`, `N`, `K`, `C` | int (per-group channel counts) | `G=1`; the others are required |
//! | `filter`, `input` | sizes | required |
//! | `stride`, `dilation` | sizes | 1 |
//! | `pad` | sizes, both sides | 0 |
//! | `lpad`, `rpad` | sizes, one side (override `pad`) | `pad` |
//! | `layout` | `nhwgc`, `gnhwc`, `ngchw` (or any rank's spelling, e.g. `nwgc`): the layout family | `nhwgc` |
//! | `dtype` | `fp32`, `fp16`, `bf16`, … for all three tensors; `tf32`: fp32 tensors whose products may be rounded to tf32 (all three or none) | `fp16` |
//! | `in`, `wei`, `out` | a data type for one tensor (overrides `dtype`) | `dtype` |
//!
//! Example: `bwd_weight 2d G=1 N=32 K=128 C=128 filter=3x3 input=28x28 stride=1 pad=1 dilation=1 dtype=fp16`.
//! Keys may appear in any order, each at most once. `Display` prints the canonical form, which
//! parses back to the same problem.

use crate::layout::LayoutFamily;
use crate::problem::{ConvProblem, ProblemError, ProblemLayout, ProblemTypes, spread};
use ck_compiler::model::{DataType, Layout, Op};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

fn syntax(msg: impl Into<String>) -> ProblemError {
    ProblemError::Syntax(msg.into())
}

const KEYS: &[&str] = &[
    "G", "N", "K", "C", "filter", "input", "stride", "dilation", "pad", "lpad", "rpad", "layout",
    "dtype", "in", "wei", "out",
];

/// A decimal integer of ASCII digits only (no sign, no other digits).
fn int(key: &str, text: &str) -> Result<u64, ProblemError> {
    let bad = || syntax(format!("`{key}={text}`: expected a non-negative integer"));
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse().map_err(|_| bad())
}

fn sizes(key: &str, text: &str) -> Result<Vec<u64>, ProblemError> {
    text.split('x').map(|t| int(key, t)).collect()
}

fn dtype(key: &str, text: &str) -> Result<DataType, ProblemError> {
    DataType::from_keyword(text).ok_or_else(|| {
        let all: Vec<_> = DataType::keywords().collect();
        syntax(format!(
            "`{key}={text}`: unknown data type, expected one of {}",
            all.join(", ")
        ))
    })
}

fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join("x")
}

impl ConvProblem {
    /// Parses and validates a problem string (grammar in [`crate::problem_string`]).
    pub fn parse(text: &str) -> Result<ConvProblem, ProblemError> {
        // Words are separated by ASCII blanks only: other white space (a no-break space pasted
        // from a document) would otherwise make two settings look like one.
        if let Some(c) = text
            .chars()
            .find(|c| !c.is_ascii() || (c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r')))
        {
            return Err(syntax(format!(
                "character {:?} (U+{:04X}): problem strings are ASCII",
                c, c as u32
            )));
        }
        let mut words = text.split_ascii_whitespace();
        let op_word = words
            .next()
            .ok_or_else(|| syntax("empty problem string; expected an op"))?;
        let op = Op::from_keyword(op_word)
            .ok_or_else(|| syntax(format!("`{op_word}`: expected fwd, bwd_data or bwd_weight")))?;
        let dims_word = words
            .next()
            .ok_or_else(|| syntax("expected the spatial rank (1d, 2d or 3d) after the op"))?;
        let ndim = match dims_word {
            "1d" => 1,
            "2d" => 2,
            "3d" => 3,
            w => return Err(syntax(format!("`{w}`: expected 1d, 2d or 3d"))),
        };
        let mut settings = BTreeMap::new();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| syntax(format!("`{word}`: expected key=value")))?;
            if !KEYS.contains(&key) {
                return Err(syntax(format!(
                    "unknown key `{key}`; expected one of {}",
                    KEYS.join(", ")
                )));
            }
            if settings.insert(key, value).is_some() {
                return Err(syntax(format!("key `{key}` given twice")));
            }
        }
        let required = |key: &str| {
            settings
                .get(key)
                .copied()
                .ok_or_else(|| syntax(format!("missing `{key}=`")))
        };
        let dims = |key: &'static str, default: u64| -> Result<Vec<u64>, ProblemError> {
            match settings.get(key) {
                Some(v) => spread(key, &sizes(key, v)?, ndim),
                None => Ok(vec![default; ndim as usize]),
            }
        };
        let pad = dims("pad", 0)?;
        let side = |key: &'static str| -> Result<Vec<u64>, ProblemError> {
            match settings.get(key) {
                Some(v) => spread(key, &sizes(key, v)?, ndim),
                None => Ok(pad.clone()),
            }
        };
        let layout = match settings.get("layout") {
            None => LayoutFamily::Nhwgc,
            Some(w) => Layout::from_keyword(w).and_then(LayoutFamily::of_input).map(|(f, _)| f).ok_or_else(|| {
                syntax(format!("`layout={w}`: expected an input layout family such as nhwgc, gnhwc or ngchw"))
            })?,
        };
        let all = match settings.get("dtype") {
            Some(w) => dtype("dtype", w)?,
            None => DataType::Fp16,
        };
        let one = |key: &str| settings.get(key).map_or(Ok(all), |w| dtype(key, w));
        let g = settings.get("G").map_or(Ok(1), |v| int("G", v))?;
        let p = ConvProblem {
            op,
            ndim,
            g,
            n: int("N", required("N")?)?,
            k: int("K", required("K")?)?,
            c: int("C", required("C")?)?,
            filter: spread("filter", &sizes("filter", required("filter")?)?, ndim)?,
            input: spread("input", &sizes("input", required("input")?)?, ndim)?,
            stride: dims("stride", 1)?,
            dilation: dims("dilation", 1)?,
            left_pad: side("lpad")?,
            right_pad: side("rpad")?,
            layout: ProblemLayout::family(layout, ndim).ok_or(ProblemError::Ndim(ndim))?,
            dtype: ProblemTypes {
                input: one("in")?,
                weight: one("wei")?,
                output: one("out")?,
            },
        };
        p.validate()?;
        Ok(p)
    }
}

impl FromStr for ConvProblem {
    type Err = ProblemError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ConvProblem::parse(s)
    }
}

impl fmt::Display for ConvProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}d G={} N={} K={} C={} filter={} input={} stride={} dilation={} lpad={} rpad={} layout={} in={} wei={} out={}",
            self.op,
            self.ndim,
            self.g,
            self.n,
            self.k,
            self.c,
            join(&self.filter),
            join(&self.input),
            join(&self.stride),
            join(&self.dilation),
            join(&self.left_pad),
            join(&self.right_pad),
            self.layout.input,
            self.dtype.input,
            self.dtype.weight,
            self.dtype.output,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let p: ConvProblem =
            "bwd_weight 2d G=1 N=32 K=128 C=128 filter=3x3 input=28x28 stride=1 pad=1 dilation=1 dtype=fp16"
                .parse()
                .unwrap();
        assert_eq!(
            p,
            ConvProblem::new(
                Op::BwdWeight,
                1,
                32,
                128,
                128,
                &[3, 3],
                &[28, 28],
                DataType::Fp16
            )
            .unwrap()
            .with_pads(&[1], &[1])
            .unwrap()
        );
        assert_eq!(p.output(), vec![28, 28]);
    }

    #[test]
    fn scalars_asymmetric_pads_layouts_and_types() {
        let p = ConvProblem::parse(
            "fwd 3d G=4 N=2 K=8 C=4 filter=3 input=5x6x7 lpad=1 rpad=0x1x2 layout=gnhwc in=bf16 wei=bf16 out=fp32",
        )
        .unwrap();
        assert_eq!(p.filter, vec![3, 3, 3]);
        assert_eq!(p.left_pad, vec![1, 1, 1]);
        assert_eq!(p.right_pad, vec![0, 1, 2]);
        assert_eq!(p.layout.input, Layout::Gndhwc);
        assert_eq!(
            p.dtype,
            ProblemTypes {
                input: DataType::Bf16,
                weight: DataType::Bf16,
                output: DataType::Fp32
            }
        );
        assert_eq!(ConvProblem::parse(&p.to_string()).unwrap(), p);
        let q = ConvProblem::parse("bwd_data 1d N=1 K=2 C=3 filter=3 input=9 layout=ngcw").unwrap();
        assert_eq!(q.layout.output, Layout::Ngkw);
        assert_eq!(ConvProblem::parse(&q.to_string()).unwrap(), q);
    }

    #[test]
    fn errors_have_reasons() {
        let err = |s: &str| ConvProblem::parse(s).unwrap_err().to_string();
        assert!(err("").contains("empty"));
        assert!(err("conv 2d").contains("expected fwd"));
        assert!(err("fwd 4d").contains("1d, 2d or 3d"));
        assert!(err("fwd 2d N=1 K=1 C=1 filter=3 input=3 N=2").contains("twice"));
        assert!(err("fwd 2d N=1 K=1 C=1 filter=3 input=3 foo=2").contains("unknown key"));
        assert!(err("fwd 2d N=1 K=1 filter=3 input=3").contains("missing `C=`"));
        assert!(err("fwd 2d N=1 K=1 C=1 filter=3x3x3 input=3").contains("filter has 3 values"));
        assert!(err("fwd 2d N=1 K=1 C=1 filter=3 input=2").contains("below 1"));
        assert!(err("fwd 2d N=1 K=1 C=0 filter=3 input=3").contains("C must be at least 1"));
        assert!(
            err("fwd 2d N=1 K=1 C=1 filter=3 input=3 dtype=fp13").contains("unknown data type")
        );
        assert!(err("fwd 2d N=1 K=1 C=1 filter=3 input=3 layout=gkyxc").contains("layout family"));
        assert!(err("fwd 2d N=-1 K=1 C=1 filter=3 input=3").contains("non-negative integer"));
        assert!(err("fwd 2d N=1 K=1 C=1 filter=3 input=3 stride").contains("key=value"));
        // Only ASCII digits make a number, only ASCII blanks separate words.
        for text in [
            "fwd 2d N=+4 K=1 C=1 filter=3 input=3",
            "fwd 2d N=4 K=1 C=1 filter=3x input=3",
        ] {
            assert!(err(text).contains("non-negative integer"), "{text}");
        }
        assert!(err("fwd 2d N=4\u{a0}K=1 C=1 filter=3 input=3").contains("U+00A0"));
        assert!(err("fwd 2d N=4 K=1 C=1 filter=3 input=3\0").contains("ASCII"));
        assert!(err("fwd 2d N=4 K=1 C=1 filter=3 input=\u{663}").contains("ASCII"));
        assert!(ConvProblem::parse("fwd 2d\tN=4 K=1 C=1 filter=3 input=3\n").is_ok());
    }
}
