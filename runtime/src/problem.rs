//! A grouped convolution problem: what the runtime is asked to compute.

use ck_compiler::model::{DataType, Layout, Op};
use serde::{Deserialize, Serialize};

/// Sizes are per group: the input has `G·C` channels, the output `G·K`.
/// Spatial vectors have `ndim` entries, outermost first (D, H, W).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConvProblem {
    pub op: Op,
    pub ndim: u32,
    pub g: u64,
    pub n: u64,
    pub k: u64,
    pub c: u64,
    pub filter: Vec<u64>,
    pub input: Vec<u64>,
    pub stride: Vec<u64>,
    pub dilation: Vec<u64>,
    pub left_pad: Vec<u64>,
    pub right_pad: Vec<u64>,
    pub layout: ProblemLayout,
    pub dtype: ProblemTypes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemLayout {
    pub input: Layout,
    pub weight: Layout,
    pub output: Layout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemTypes {
    pub input: DataType,
    pub weight: DataType,
    pub output: DataType,
}

impl ConvProblem {
    /// Output spatial sizes: `(i + lp + rp - (d·(f-1) + 1)) / s + 1` per dimension.
    /// Callers validate the problem first; an impossible dimension gives 0 here.
    pub fn output(&self) -> Vec<u64> {
        (0..self.ndim as usize)
            .map(|d| {
                let padded = self.input[d] + self.left_pad[d] + self.right_pad[d];
                let span = self.dilation[d] * (self.filter[d].saturating_sub(1)) + 1;
                if padded < span || self.stride[d] == 0 {
                    0
                } else {
                    (padded - span) / self.stride[d] + 1
                }
            })
            .collect()
    }

    /// Implicit-GEMM sizes per group `(M, N, K)` for the problem's op:
    /// fwd M=N·Ho·Wo, N=K, K=C·Y·X; bwd_data M=N·Hi·Wi, N=C, K=K·Y·X;
    /// bwd_weight M=K, N=C·Y·X, K=N·Ho·Wo.
    pub fn gemm(&self) -> (u64, u64, u64) {
        let out: u64 = self.output().iter().product();
        let inp: u64 = self.input.iter().product();
        let filt: u64 = self.filter.iter().product();
        match self.op {
            Op::Fwd => (self.n * out, self.k, self.c * filt),
            Op::BwdData => (self.n * inp, self.c, self.k * filt),
            Op::BwdWeight => (self.k, self.c * filt, self.n * out),
        }
    }

    /// Multiply-adds × 2 of the whole problem.
    pub fn flops(&self) -> u64 {
        let out: u64 = self.output().iter().product();
        let filt: u64 = self.filter.iter().product();
        2 * self.g * self.n * self.k * self.c * out * filt
    }
}
