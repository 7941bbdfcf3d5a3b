//! Element-wise ops as CK defines them (`ck::tensor_operation::element_wise`), shared by the
//! back ends and the fp64 reference:
//! PassThrough `y = x`, Scale `y = scale·x`, Relu `y = max(x, 0)` on loads or on the result;
//! Bilinear `e = alpha·c + beta·d`, Add `e = c + d`, AddRelu `e = max(c + d, 0)` combine the
//! GEMM result `c` with one D tensor `d` of the destination's shape.

use crate::layout::{DescError, Role, TensorDesc, gemm_roles};
use crate::problem::{ConvProblem, ProblemError};
use crate::rng::SplitMix64;
use crate::tensor::Tensor;
use ck_compiler::ir::Checked;
use ck_compiler::model::{DataType, ElementOp, Layout, Op};
use serde::Serialize;

/// What is wrong with a run's element-wise ops or D tensors.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ElementwiseError {
    #[error(transparent)]
    Problem(#[from] ProblemError),
    #[error("{0} combines with a D tensor and only applies to the result")]
    BinaryOnSource(ElementOp),
    #[error("the result's {op} takes {want} D tensors, the run has {got}")]
    DCount {
        op: ElementOp,
        want: usize,
        got: usize,
    },
    #[error("the D tensor has lengths {got:?}, the destination {want:?}")]
    DLengths { got: Vec<u64>, want: Vec<u64> },
    #[error("instance {instance} has {layouts} D layouts but {types} D types")]
    Declared {
        instance: String,
        layouts: usize,
        types: usize,
    },
    #[error("D tensors of instance {instance}: {why}")]
    DLayout { instance: String, why: DescError },
    #[error("instance {instance} declares {declared} D tensors, the run has {got}")]
    DTensors {
        instance: String,
        declared: usize,
        got: usize,
    },
    #[error(
        "D tensor {index} has layout {got} and lengths {got_lengths:?}, the instance needs {want} and {want_lengths:?}"
    )]
    DShape {
        index: usize,
        got: Layout,
        got_lengths: Vec<u64>,
        want: Layout,
        want_lengths: Vec<u64>,
    },
    #[error("D tensor {index} is {got}, the instance needs {want}")]
    DType {
        index: usize,
        got: DataType,
        want: DataType,
    },
}

/// The scalars of element-wise ops: Scale's factor, Bilinear's alpha and beta.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ElementArgs {
    pub scale: f32,
    pub alpha: f32,
    pub beta: f32,
}

impl Default for ElementArgs {
    fn default() -> Self {
        ElementArgs::IDENTITY
    }
}

impl ElementArgs {
    /// Every op reduces to its pass-through or plain-add form.
    pub const IDENTITY: ElementArgs = ElementArgs {
        scale: 1.0,
        alpha: 1.0,
        beta: 1.0,
    };

    /// Non-trivial scalars from `seed`: magnitudes in `[0.5, 0.9)` (never 0 or 1, exact in
    /// fp16), `beta` negative so that it cannot be mistaken for an add.
    pub fn random(seed: u64) -> ElementArgs {
        let mut rng = SplitMix64::new(seed);
        // Multiples of 2^-8: exact in every type the kernels compute in.
        let mut draw = || {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            0.5 + (u * 102.0).floor() / 256.0
        };
        ElementArgs {
            scale: draw(),
            alpha: draw(),
            beta: -draw(),
        }
    }
}

/// Whether `op` combines the result with a D tensor.
pub fn is_binary(op: ElementOp) -> bool {
    matches!(
        op,
        ElementOp::Bilinear | ElementOp::Add | ElementOp::AddRelu
    )
}

/// A unary op (`PassThrough`, `Scale`, `Relu`) on `v`; binary ops take `d` as their D value.
pub fn apply(op: ElementOp, v: f64, d: f64, args: &ElementArgs) -> f64 {
    match op {
        ElementOp::PassThrough => v,
        ElementOp::Scale => f64::from(args.scale) * v,
        ElementOp::Relu => v.max(0.0),
        ElementOp::Bilinear => f64::from(args.alpha) * v + f64::from(args.beta) * d,
        ElementOp::Add => v + d,
        ElementOp::AddRelu => (v + d).max(0.0),
    }
}

/// The element-wise ops of one op's two sources (A, B: [`gemm_roles`]) and of its
/// destination.
pub fn ops_by_role(op: Op, ops: &ck_compiler::ir::ElementOps) -> ([ElementOp; 2], ElementOp) {
    let of = |role| match role {
        Role::Input => ops.input,
        Role::Weight => ops.weight,
        Role::Output => ops.output,
    };
    let ([a, b], dst) = gemm_roles(op);
    ([of(a), of(b)], of(dst))
}

/// The element-wise ops and D tensors of one run.
#[derive(Clone, Copy, Debug)]
pub struct Elementwise<'a> {
    pub ops: ck_compiler::ir::ElementOps,
    pub ds: &'a [Tensor],
    pub args: ElementArgs,
}

impl Elementwise<'_> {
    /// Pass-through everywhere, no D tensors.
    pub const NONE: Elementwise<'static> = Elementwise {
        ops: ck_compiler::ir::ElementOps {
            input: ElementOp::PassThrough,
            weight: ElementOp::PassThrough,
            output: ElementOp::PassThrough,
        },
        ds: &[],
        args: ElementArgs::IDENTITY,
    };

    /// The destination op's D values in `dst`'s memory order (zeros for a unary op), checking
    /// that a binary op has exactly one D tensor of the destination's lengths and a unary op
    /// none, and that source ops are unary.
    pub fn d_values(&self, op: Op, dst: &TensorDesc) -> Result<Vec<f64>, ElementwiseError> {
        let (sources, result) = ops_by_role(op, &self.ops);
        if let Some(&bad) = sources.iter().find(|&&o| is_binary(o)) {
            return Err(ElementwiseError::BinaryOnSource(bad));
        }
        let want = usize::from(is_binary(result));
        if self.ds.len() != want {
            return Err(ElementwiseError::DCount {
                op: result,
                want,
                got: self.ds.len(),
            });
        }
        match self.ds.first() {
            Some(d) => in_memory_order(d, dst),
            None => Ok(vec![0.0; dst.elements() as usize]),
        }
    }
}

/// `t`'s values in the memory order of `like` (same logical lengths, any layout).
fn in_memory_order(t: &Tensor, like: &TensorDesc) -> Result<Vec<f64>, ElementwiseError> {
    if t.desc().lengths != like.lengths {
        return Err(ElementwiseError::DLengths {
            got: t.desc().lengths.clone(),
            want: like.lengths.clone(),
        });
    }
    let src = t.to_f32();
    let (from, lengths) = (t.desc(), &like.lengths);
    let mut out = vec![0f64; src.len()];
    let mut idx = vec![0u64; lengths.len()];
    for _ in 0..src.len() {
        out[like.offset(&idx) as usize] = f64::from(src[from.offset(&idx) as usize]);
        // Next logical index, last axis fastest.
        for (i, &len) in idx.iter_mut().zip(lengths).rev() {
            *i += 1;
            if *i < len {
                break;
            }
            *i = 0;
        }
    }
    Ok(out)
}

/// The descriptors and types the instance's D tensors must have for `p`: destination-shaped, in
/// the declared layouts and types.
pub fn d_descs(
    inst: &Checked,
    p: &ConvProblem,
) -> Result<Vec<(TensorDesc, DataType)>, ElementwiseError> {
    let role: Role = p.destination();
    let lengths = p.desc(role)?.lengths;
    if inst.layout.ds.len() != inst.types.ds.len() {
        return Err(ElementwiseError::Declared {
            instance: inst.name.clone(),
            layouts: inst.layout.ds.len(),
            types: inst.types.ds.len(),
        });
    }
    inst.layout
        .ds
        .iter()
        .zip(&inst.types.ds)
        .map(|(&layout, &dt)| {
            TensorDesc::packed(role, layout, &lengths)
                .map(|d| (d, dt))
                .map_err(|why| ElementwiseError::DLayout {
                    instance: inst.name.clone(),
                    why,
                })
        })
        .collect()
}

/// Checks the run's D tensors against what the instance declares for `p`.
pub fn check_ds(inst: &Checked, p: &ConvProblem, ds: &[Tensor]) -> Result<(), ElementwiseError> {
    let want = d_descs(inst, p)?;
    if ds.len() != want.len() {
        return Err(ElementwiseError::DTensors {
            instance: inst.name.clone(),
            declared: want.len(),
            got: ds.len(),
        });
    }
    for (index, (t, (desc, dt))) in ds.iter().zip(want).enumerate() {
        if t.desc() != &desc {
            return Err(ElementwiseError::DShape {
                index,
                got: t.desc().layout,
                got_lengths: t.desc().lengths.clone(),
                want: desc.layout,
                want_lengths: desc.lengths,
            });
        }
        if t.dtype() != dt {
            return Err(ElementwiseError::DType {
                index,
                got: t.dtype(),
                want: dt,
            });
        }
    }
    Ok(())
}
