//! `ConvProblem` → the portable kernels' `ConvDims` (3-D spatial, left pads, output sizes), for
//! the GPU back ends' plans and selection's estimates of the kernels' entries.

use crate::problem::ConvProblem;
use ck_compiler::kernel::ConvDims;

/// Why a problem has no kernel dimensions.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DimsError(String);

pub fn conv_dims(p: &ConvProblem) -> Result<ConvDims, DimsError> {
    let nd = p.ndim as usize;
    if !(1..=3).contains(&nd) {
        return Err(DimsError(format!(
            "{}-D convolutions are not supported",
            p.ndim
        )));
    }
    for (what, v) in p.spatial() {
        if v.len() != nd {
            return Err(DimsError(format!(
                "{what} has {} entries, expected {nd}",
                v.len()
            )));
        }
    }
    let output = p.output();
    if output.contains(&0) {
        return Err(DimsError("the filter does not fit the padded input".into()));
    }
    // Right-align into 3-D, filling missing outer dimensions with `fill`.
    let to3 = |v: &[u64], fill: u64| {
        let mut out = [fill; 3];
        out[3 - nd..].copy_from_slice(v);
        out
    };
    Ok(ConvDims {
        op: p.op,
        ndim: p.ndim,
        g: p.g,
        n: p.n,
        k: p.k,
        c: p.c,
        input: to3(&p.input, 1),
        filter: to3(&p.filter, 1),
        output: to3(&output, 1),
        stride: to3(&p.stride, 1),
        dilation: to3(&p.dilation, 1),
        pad: to3(&p.left_pad, 0),
        layouts: [p.layout.input, p.layout.weight, p.layout.output],
        transposed: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{ProblemLayout, ProblemTypes};
    use ck_compiler::model::{DataType, Layout, Op};

    fn p1d() -> ConvProblem {
        ConvProblem {
            op: Op::BwdWeight,
            ndim: 1,
            g: 2,
            n: 3,
            k: 4,
            c: 5,
            filter: vec![3],
            input: vec![17],
            stride: vec![2],
            dilation: vec![2],
            left_pad: vec![2],
            right_pad: vec![1],
            layout: ProblemLayout {
                input: Layout::Nwgc,
                weight: Layout::Gkxc,
                output: Layout::Nwgk,
            },
            dtype: ProblemTypes {
                input: DataType::Fp16,
                weight: DataType::Fp16,
                output: DataType::Fp16,
            },
        }
    }

    #[test]
    fn one_d_problems_become_innermost_of_three_d() {
        let d = conv_dims(&p1d()).unwrap();
        assert_eq!(d.input, [1, 1, 17]);
        assert_eq!(d.filter, [1, 1, 3]);
        // (17 + 2 + 1 - (2·2 + 1)) / 2 + 1 = 8
        assert_eq!(d.output, [1, 1, 8]);
        assert_eq!(d.pad, [0, 0, 2]);
        assert_eq!((d.stride, d.dilation), ([1, 1, 2], [1, 1, 2]));
    }

    #[test]
    fn malformed_problems_are_errors() {
        let mut p = p1d();
        p.stride = vec![1, 1];
        assert!(matches!(conv_dims(&p), Err(DimsError(_))));
        let mut p = p1d();
        p.filter = vec![40];
        assert!(matches!(conv_dims(&p), Err(DimsError(_))));
        let mut p = p1d();
        p.ndim = 4;
        assert!(matches!(conv_dims(&p), Err(DimsError(_))));
    }
}
