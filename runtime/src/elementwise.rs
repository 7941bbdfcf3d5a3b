//! Element-wise ops as CK defines them (`ck::tensor_operation::element_wise`), shared by the
//! back ends and the fp64 reference:
//! PassThrough `y = x`, Scale `y = scale·x`, Relu `y = max(x, 0)` on loads or on the result;
//! Bilinear `e = alpha·c + beta·d`, Add `e = c + d`, AddRelu `e = max(c + d, 0)` combine the
//! GEMM result `c` with one D tensor `d` of the destination's shape.
//!
//! The fused output ops of CK's fp8 lists compute in fp32 as CK's operators do, before the
//! store's conversion: ConvScale `c·s_in·s_wei·s_out`, ConvScaleRelu `relu(c·s_in·s_wei)·s_out`,
//! ConvScaleAdd `(c·s_in·s_wei + d)·s_out`, ConvInvscale `c/s_in/s_wei/s_out`
//! (`unary_element_wise_operation.hpp`, `binary_element_wise_operation.hpp`); ScaleScalePass and
//! ScaleScaleRelu are `UnaryCombinedOp<Scale{s_in}, Scale{s_wei}, PassThrough|Relu>`
//! (`combined_element_wise_operation.hpp`, scaled as CK's `convscale_reduce` example scales
//! them, each step stored in the destination's type); ScaleAdd `scale·x0 + x1`;
//! ScaleAddScaleAddRelu `relu(alpha·c + beta·d0 + d1)` (alpha1 and alpha2 in
//! `element_wise_operation.hpp`).
//!
//! A source of several tensors (CK's multiple A/B, `sources.in` / `sources.wei`) is its op on
//! the same element of each, `op(x0, x1, …)`, before the GEMM ([`source_values`]).

use crate::layout::{DescError, Role, TensorDesc, gemm_roles};
use crate::problem::{ConvProblem, ProblemError};
use crate::rng::SplitMix64;
use crate::tensor::{Tensor, int8_of, round_to};
use ck_compiler::ir::Checked;
use ck_compiler::model::{DataType, ElementOp, Layout, Op};
use serde::Serialize;

/// What is wrong with a run's element-wise ops, D tensors or extra source tensors.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ElementwiseError {
    #[error(transparent)]
    Problem(#[from] ProblemError),
    #[error("the {role}'s {op} combines {want} tensors, the run has {got}")]
    SourceOperands {
        role: Role,
        op: ElementOp,
        want: usize,
        got: usize,
    },
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
        "instance {instance} combines {declared} extra {role} tensors with the first, the run has {got}"
    )]
    SourceTensors {
        instance: String,
        role: Role,
        declared: usize,
        got: usize,
    },
    #[error(
        "{tensor} has layout {got} and lengths {got_lengths:?}, the instance needs {want} and {want_lengths:?}"
    )]
    Shape {
        tensor: Extra,
        got: Layout,
        got_lengths: Vec<u64>,
        want: Layout,
        want_lengths: Vec<u64>,
    },
    #[error("{tensor} is {got}, the instance needs {want}")]
    Type {
        tensor: Extra,
        got: DataType,
        want: DataType,
    },
}

/// One of a run's tensors besides the three of the convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// D tensor `i` of the result op.
    D(usize),
    /// Extra tensor `index` of a source (0 is the one after the source's own tensor).
    Source { role: Role, index: usize },
}

impl std::fmt::Display for Extra {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Extra::D(i) => write!(f, "D tensor {i}"),
            Extra::Source { role, index } => write!(f, "extra {role} tensor {index}"),
        }
    }
}

/// The tensors after the first of each source that reads several (CK's multiple A/B:
/// `sources.in`, `sources.wei`): shaped and laid out as the source's own tensor, in the
/// instance's types after the first.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExtraSources<'a> {
    pub input: &'a [Tensor],
    pub weight: &'a [Tensor],
}

impl<'a> ExtraSources<'a> {
    /// One tensor of each source.
    pub const NONE: ExtraSources<'static> = ExtraSources {
        input: &[],
        weight: &[],
    };

    /// The extra tensors of the source in `role` (none for the output, which no op combines).
    pub fn of(&self, role: Role) -> &'a [Tensor] {
        match role {
            Role::Input => self.input,
            Role::Weight => self.weight,
            Role::Output => &[],
        }
    }
}

/// The scalars of element-wise ops (run-time arguments in CK, as here): Scale's and ScaleAdd's
/// factor, Bilinear's alpha and beta (ScaleAddScaleAddRelu's alpha1 and alpha2), and the
/// input, weight and output scales of the ConvScale family (ScaleScalePass and ScaleScaleRelu
/// scale by the input's, then the weight's; ScaleAdd combining a source's tensors takes the
/// input's or the weight's, [`source_values`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ElementArgs {
    pub scale: f32,
    pub alpha: f32,
    pub beta: f32,
    pub scale_in: f32,
    pub scale_wei: f32,
    pub scale_out: f32,
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
        scale_in: 1.0,
        scale_wei: 1.0,
        scale_out: 1.0,
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
            scale_in: draw(),
            scale_wei: draw(),
            scale_out: draw(),
        }
    }
}

/// Whether `op` combines the result with D tensors.
pub fn is_binary(op: ElementOp) -> bool {
    op.d_tensors() > 0
}

/// The most D tensors an op combines (`ScaleAddScaleAddRelu`'s two).
pub const MAX_DS: usize = 2;

/// One destination element's D values, in the order of the instance's D tensors (zeros past
/// those the op takes).
pub type DValues = [f64; MAX_DS];

/// `op` on `v` (a loaded source element, or the GEMM result as the C-shuffle type holds it)
/// with the element's D values (a source's further tensors' values: [`source_values`]), before
/// the store converts it to the destination's type. CK's combined ops are taken into fp32
/// here; [`apply_result`] stores their steps in other destination types.
pub fn apply(op: ElementOp, v: f64, d: DValues, args: &ElementArgs) -> f64 {
    // The fused ops compute in fp32, as CK's operators do.
    let (c, d0, d1) = (v as f32, d[0] as f32, d[1] as f32);
    let (s_in, s_wei, s_out) = (args.scale_in, args.scale_wei, args.scale_out);
    let relu = |x: f32| if x > 0.0 { x } else { 0.0 };
    let fused = match op {
        ElementOp::PassThrough => return v,
        ElementOp::Scale => return f64::from(args.scale) * v,
        ElementOp::Relu => return v.max(0.0),
        ElementOp::Bilinear => return f64::from(args.alpha) * v + f64::from(args.beta) * d[0],
        ElementOp::Add => return v + d[0],
        ElementOp::AddRelu => return (v + d[0]).max(0.0),
        ElementOp::ConvScale => c * s_in * s_wei * s_out,
        ElementOp::ConvScaleRelu => relu(c * s_in * s_wei) * s_out,
        ElementOp::ConvScaleAdd => (c * s_in * s_wei + d0) * s_out,
        ElementOp::ConvInvscale => c / s_in / s_wei / s_out,
        ElementOp::ScaleScalePass | ElementOp::ScaleScaleRelu => {
            scale_scale(op, c, args, DataType::Fp32, DataType::Fp32)
        }
        ElementOp::ScaleAdd => args.scale * c + d0,
        ElementOp::ScaleAddScaleAddRelu => relu(c * args.alpha + args.beta * d0 + d1),
    };
    f64::from(fused)
}

/// The result op `op` on `c` (the GEMM's result) into a destination of storage type `e_type`,
/// with the element's D values: [`apply`], except that CK's combined ops store each step in the
/// destination's type. An op reads `c` as the C-shuffle type `c_type` holds it, rounded to a
/// 16- or 8-bit float type as the CPU back end stages it: where the D terms cancel the result,
/// that rounding is the larger part of what a run differs by, which a norm-wise tolerance does
/// not bound. A plain result (PassThrough) stays the fp64 sum, as the device's reference
/// computes it. An int8 C or E is the int8 conversion of the value, which wraps an int32 sum past
/// the range: no rounding error a tolerance could cover.
pub fn apply_result(
    op: ElementOp,
    c: f64,
    d: DValues,
    args: &ElementArgs,
    c_type: DataType,
    e_type: DataType,
) -> f64 {
    let int8 = |v: f64| f64::from(int8_of(v));
    let c = match c_type {
        DataType::Int8 => int8(c),
        DataType::Fp32 | DataType::Fp64 => c,
        _ if op == ElementOp::PassThrough => c,
        narrow => f64::from(round_to(narrow, c as f32)),
    };
    let e = match op {
        ElementOp::ScaleScalePass | ElementOp::ScaleScaleRelu => {
            f64::from(scale_scale(op, c as f32, args, c_type, e_type))
        }
        _ => apply(op, c, d, args),
    };
    if e_type == DataType::Int8 { int8(e) } else { e }
}

/// `UnaryCombinedOp<Scale{s_in}, Scale{s_wei}, PassThrough|Relu>` from a `c_type` value into
/// an `e_type` destination. CK runs the first op from the value into the destination element
/// and each later one in place, so every step's result is stored in the destination's type;
/// `Scale<half_t, half_t>` multiplies by its factor converted to half.
fn scale_scale(
    op: ElementOp,
    c: f32,
    args: &ElementArgs,
    c_type: DataType,
    e_type: DataType,
) -> f32 {
    let step = |factor: f32, x: f32, x_type: DataType| {
        let halves = x_type == DataType::Fp16 && e_type == DataType::Fp16;
        let factor = if halves {
            round_to(DataType::Fp16, factor)
        } else {
            factor
        };
        round_to(e_type, factor * x)
    };
    let y = step(args.scale_wei, step(args.scale_in, c, c_type), e_type);
    match op {
        ElementOp::ScaleScaleRelu if y > 0.0 => y,
        ElementOp::ScaleScaleRelu => 0.0,
        _ => y,
    }
}

/// The values the source in `role` feeds the GEMM, in memory order, before any rounding to
/// compute types: its op on each element of its tensor, or, for a source of several tensors,
/// on the same element of each (`op(x0, x1, …)`, CK's multiple A/B). CK's A and B ops each
/// carry their own factor: ScaleAdd on several input tensors scales by `scale_in`, on several
/// weight tensors by `scale_wei`. An int8 source's values are int8 again, as CK stores an
/// op's result in the source's (and compute) type: a conversion, not a rounding.
pub fn source_values(
    op: ElementOp,
    role: Role,
    first: &Tensor,
    extra: &[Tensor],
    args: &ElementArgs,
) -> Vec<f64> {
    let values = first.to_f32().into_iter().map(f64::from);
    let stored = |v: f64| match first.dtype() {
        DataType::Int8 => f64::from(int8_of(v)),
        _ => v,
    };
    if extra.is_empty() {
        return values
            .map(|v| stored(apply(op, v, [0.0; MAX_DS], args)))
            .collect();
    }
    let args = ElementArgs {
        scale: match role {
            Role::Input => args.scale_in,
            Role::Weight => args.scale_wei,
            Role::Output => args.scale_out,
        },
        ..*args
    };
    let rest: Vec<Vec<f32>> = extra.iter().map(Tensor::to_f32).collect();
    values
        .enumerate()
        .map(|(i, x0)| {
            let mut d = [0.0; MAX_DS];
            for (slot, t) in d.iter_mut().zip(&rest) {
                *slot = t.get(i).copied().map_or(0.0, f64::from);
            }
            stored(apply(op, x0, d, &args))
        })
        .collect()
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

/// The element-wise ops, D tensors and extra source tensors of one run.
#[derive(Clone, Copy, Debug)]
pub struct Elementwise<'a> {
    pub ops: ck_compiler::ir::ElementOps,
    pub ds: &'a [Tensor],
    /// The sources' tensors after the first, which their ops combine with it.
    pub extra: ExtraSources<'a>,
    pub args: ElementArgs,
    /// The type the result op reads the GEMM's result in ([`result_type`]).
    pub result_type: DataType,
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
        extra: ExtraSources::NONE,
        args: ElementArgs::IDENTITY,
        result_type: DataType::Fp32,
    };

    /// Checks that every extra source tensor has its source's shape and layout in `p`.
    pub fn check_extra_shapes(&self, p: &ConvProblem) -> Result<(), ElementwiseError> {
        for role in [Role::Input, Role::Weight] {
            let want = p.desc(role)?;
            for (index, t) in self.extra.of(role).iter().enumerate() {
                check_shape(t, &want, Extra::Source { role, index })?;
            }
        }
        Ok(())
    }

    /// The destination op's D values for each element of `dst`, in its memory order (zeros
    /// where the op takes fewer), checking that the result op has as many D tensors as it
    /// combines and that each source op combines as many tensors as its source has.
    pub fn d_values(&self, op: Op, dst: &TensorDesc) -> Result<Vec<DValues>, ElementwiseError> {
        let (sources, result) = ops_by_role(op, &self.ops);
        let (roles, _) = gemm_roles(op);
        for (role, source_op) in roles.into_iter().zip(sources) {
            let got = 1 + self.extra.of(role).len();
            if source_op.operands() != got {
                return Err(ElementwiseError::SourceOperands {
                    role,
                    op: source_op,
                    want: source_op.operands(),
                    got,
                });
            }
        }
        let want = result.d_tensors();
        if self.ds.len() != want {
            return Err(ElementwiseError::DCount {
                op: result,
                want,
                got: self.ds.len(),
            });
        }
        let mut values = vec![[0.0; MAX_DS]; dst.elements() as usize];
        for (slot, d) in self.ds.iter().enumerate() {
            for (v, x) in values.iter_mut().zip(in_memory_order(d, dst)?) {
                v[slot] = x;
            }
        }
        Ok(values)
    }
}

/// `t`'s values in the memory order of `like`: a tensor of the same logical lengths in any
/// layout, or a `G_K` tensor of one value per group and channel, broadcast over the rest.
fn in_memory_order(t: &Tensor, like: &TensorDesc) -> Result<Vec<f64>, ElementwiseError> {
    let lengths = &like.lengths;
    let per_channel = t.desc().layout == Layout::GK;
    let fits = if per_channel {
        t.desc().lengths.as_slice() == per_group_channel(lengths)
    } else {
        &t.desc().lengths == lengths
    };
    if !fits {
        return Err(ElementwiseError::DLengths {
            got: t.desc().lengths.clone(),
            want: lengths.clone(),
        });
    }
    let src = t.to_f32();
    let from = t.desc();
    let count = like.elements() as usize;
    let mut out = vec![0f64; count];
    let mut idx = vec![0u64; lengths.len()];
    for _ in 0..count {
        let at = if per_channel {
            from.offset(&[idx[0], idx[2]])
        } else {
            from.offset(&idx)
        };
        out[like.offset(&idx) as usize] = f64::from(src[at as usize]);
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

/// The `[G, channels]` lengths of a `G_K` tensor for a destination of `lengths`
/// (`[G, N, K, spatial…]`).
fn per_group_channel(lengths: &[u64]) -> [u64; 2] {
    [
        lengths.first().copied().unwrap_or(0),
        lengths.get(2).copied().unwrap_or(0),
    ]
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
            let desc = if layout == Layout::GK {
                Ok(TensorDesc::per_group_channel(per_group_channel(&lengths)))
            } else {
                TensorDesc::packed(role, layout, &lengths)
            };
            desc.map(|d| (d, dt))
                .map_err(|why| ElementwiseError::DLayout {
                    instance: inst.name.clone(),
                    why,
                })
        })
        .collect()
}

/// The type the instance's result op reads the GEMM's result in: forward ops stage it through
/// their C-shuffle type, the others hand it over in fp32.
pub fn result_type(inst: &Checked) -> DataType {
    match inst.op {
        Op::Fwd => inst.types.cshuffle,
        Op::BwdData | Op::BwdWeight => DataType::Fp32,
    }
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
    check_each(ds, want, Extra::D)
}

/// The descriptors and types the instance's extra tensors of the source in `role` must have
/// for `p`: the source's own shape and layout, in the declared types after the first.
pub fn source_descs(
    inst: &Checked,
    p: &ConvProblem,
    role: Role,
) -> Result<Vec<(TensorDesc, DataType)>, ElementwiseError> {
    let declared = match role {
        Role::Input => &inst.types.input_sources,
        Role::Weight => &inst.types.weight_sources,
        Role::Output => return Ok(Vec::new()),
    };
    let desc = p.desc(role)?;
    Ok(declared
        .iter()
        .skip(1)
        .map(|&dt| (desc.clone(), dt))
        .collect())
}

/// Checks the run's extra source tensors against what the instance declares for `p`.
pub fn check_sources(
    inst: &Checked,
    p: &ConvProblem,
    extra: &ExtraSources<'_>,
) -> Result<(), ElementwiseError> {
    for role in [Role::Input, Role::Weight] {
        let (want, got) = (source_descs(inst, p, role)?, extra.of(role));
        if got.len() != want.len() {
            return Err(ElementwiseError::SourceTensors {
                instance: inst.name.clone(),
                role,
                declared: want.len(),
                got: got.len(),
            });
        }
        check_each(got, want, |index| Extra::Source { role, index })?;
    }
    Ok(())
}

/// Each tensor against its descriptor and type; `which` names the `i`th in errors.
fn check_each(
    tensors: &[Tensor],
    want: Vec<(TensorDesc, DataType)>,
    which: impl Fn(usize) -> Extra,
) -> Result<(), ElementwiseError> {
    for (i, (t, (desc, dt))) in tensors.iter().zip(want).enumerate() {
        check_shape(t, &desc, which(i))?;
        if t.dtype() != dt.storage() {
            return Err(ElementwiseError::Type {
                tensor: which(i),
                got: t.dtype(),
                want: dt,
            });
        }
    }
    Ok(())
}

/// Whether `t`, the run's `tensor`, has the descriptor `want`.
fn check_shape(t: &Tensor, want: &TensorDesc, tensor: Extra) -> Result<(), ElementwiseError> {
    if t.desc() == want {
        return Ok(());
    }
    Err(ElementwiseError::Shape {
        tensor,
        got: t.desc().layout,
        got_lengths: t.desc().lengths.clone(),
        want: want.layout,
        want_lengths: want.lengths.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Role;
    use crate::tensor::TensorData;

    const ARGS: ElementArgs = ElementArgs {
        scale: 0.5,
        alpha: 2.0,
        beta: 0.5,
        scale_in: 0.5,
        scale_wei: 3.0,
        scale_out: 0.25,
    };

    fn at(op: ElementOp, c: f64, d: DValues) -> f64 {
        apply(op, c, d, &ARGS)
    }

    #[test]
    fn the_fused_ops_by_hand() {
        // ConvScale: 2 · 0.5 · 3 · 0.25; ConvInvscale: 3 / 0.5 / 3 / 0.25.
        assert_eq!(at(ElementOp::ConvScale, 2.0, [0.0; 2]), 0.75);
        assert_eq!(at(ElementOp::ConvInvscale, 3.0, [0.0; 2]), 8.0);
        // ConvScaleRelu: relu before the output scale.
        assert_eq!(at(ElementOp::ConvScaleRelu, 2.0, [0.0; 2]), 0.75);
        assert_eq!(at(ElementOp::ConvScaleRelu, -2.0, [0.0; 2]), 0.0);
        // ConvScaleAdd: (2 · 0.5 · 3 + 1) · 0.25; the D value is added before the output scale.
        assert_eq!(at(ElementOp::ConvScaleAdd, 2.0, [1.0, 0.0]), 1.0);
        // ScaleScalePass/Relu: the input's scale, then the weight's; no output scale.
        assert_eq!(at(ElementOp::ScaleScalePass, 2.0, [0.0; 2]), 3.0);
        assert_eq!(at(ElementOp::ScaleScalePass, -2.0, [0.0; 2]), -3.0);
        assert_eq!(at(ElementOp::ScaleScaleRelu, -2.0, [0.0; 2]), 0.0);
        // ScaleAdd: 0.5 · 4 + 1.
        assert_eq!(at(ElementOp::ScaleAdd, 4.0, [1.0, 0.0]), 3.0);
        // ScaleAddScaleAddRelu: relu(2 · 1 + 0.5 · 4 − 1) and relu(2 · 1 + 0.5 · 4 − 5).
        assert_eq!(at(ElementOp::ScaleAddScaleAddRelu, 1.0, [4.0, -1.0]), 3.0);
        assert_eq!(at(ElementOp::ScaleAddScaleAddRelu, 1.0, [4.0, -5.0]), 0.0);
    }

    #[test]
    fn the_fused_ops_compute_in_fp32() {
        // 1 + 2^-12 squared is 1 + 2^-11 + 2^-24, which fp32 rounds to 1 + 2^-11 (a tie, to
        // even) and fp64 keeps.
        let x = 1.0 + (-12f64).exp2();
        let args = ElementArgs {
            scale_in: x as f32,
            scale_wei: 1.0,
            scale_out: 1.0,
            ..ElementArgs::IDENTITY
        };
        let v = apply(ElementOp::ConvScale, x, [0.0; 2], &args);
        assert_eq!(v, 1.0 + (-11f64).exp2());
    }

    #[test]
    fn a_g_k_tensor_broadcasts_over_the_batch_and_positions() {
        // A destination [G=2, N=2, K=3, W=2] in NWGK and a G_K tensor of g·10 + k.
        let dst = TensorDesc::packed(Role::Output, Layout::Nwgk, &[2, 2, 3, 2]).unwrap();
        let per = TensorDesc::per_group_channel([2, 3]);
        let values: Vec<f32> = (0..2)
            .flat_map(|g| (0..3).map(move |k| (g * 10 + k) as f32))
            .collect();
        let gk = Tensor::new(per, TensorData::F32(values)).unwrap();
        let plain = Tensor::zeros(DataType::Fp32, dst.clone()).unwrap();
        let ew = Elementwise {
            ops: ck_compiler::ir::ElementOps {
                output: ElementOp::ScaleAddScaleAddRelu,
                ..Elementwise::NONE.ops
            },
            ds: &[plain, gk],
            ..Elementwise::NONE
        };
        let d = ew.d_values(Op::Fwd, &dst).unwrap();
        for g in 0..2 {
            for n in 0..2 {
                for k in 0..3 {
                    for w in 0..2 {
                        let at = dst.offset(&[g, n, k, w]) as usize;
                        assert_eq!(d[at], [0.0, (g * 10 + k) as f64]);
                    }
                }
            }
        }
        // One D tensor short of the op's two.
        let short = Elementwise {
            ds: &ew.ds[..1],
            ..ew
        };
        assert!(matches!(
            short.d_values(Op::Fwd, &dst),
            Err(ElementwiseError::DCount {
                want: 2,
                got: 1,
                ..
            })
        ));
    }
}
