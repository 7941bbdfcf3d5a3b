//! `ConvProblem` → the portable kernels' `ConvDims` (3-D spatial, left pads, output sizes).

use super::CudaError;
use crate::problem::ConvProblem;
use ck_compiler::emit::hip::ConvDims;

pub fn conv_dims(p: &ConvProblem) -> Result<ConvDims, CudaError> {
    let nd = p.ndim as usize;
    if !(1..=3).contains(&nd) {
        return Err(CudaError::Problem(format!(
            "{}-D convolutions are not supported",
            p.ndim
        )));
    }
    let vectors = [
        ("filter", &p.filter),
        ("input", &p.input),
        ("stride", &p.stride),
        ("dilation", &p.dilation),
        ("left_pad", &p.left_pad),
        ("right_pad", &p.right_pad),
    ];
    for (what, v) in vectors {
        if v.len() != nd {
            return Err(CudaError::Problem(format!(
                "{what} has {} entries, expected {nd}",
                v.len()
            )));
        }
    }
    let output = p.output();
    if output.contains(&0) {
        return Err(CudaError::Problem(
            "the filter does not fit the padded input".into(),
        ));
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
    })
}
