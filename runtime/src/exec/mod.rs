//! The CPU back end: runs an instance as the instance says — its block tiles, K steps, merged
//! groups, split-K slices (atomic or two-stage) and StreamK partition with its fixup — on host
//! tensors, with fp32 accumulation, in parallel with rayon.
//!
//! The decomposition changes only the order of fp32 sums, so every configuration matches the
//! fp64 reference within the data type's bound, and StreamK Linear/Tree results are bitwise
//! deterministic.

mod block;
mod operands;
mod split_k;
mod streamk;
mod workspace;

use crate::decompose::{GemmShape, StreamKPlan, is_two_stage, k_batch};
use crate::device::DeviceModel;
use crate::elementwise::{
    ElementArgs, Elementwise, ElementwiseError, ExtraSources, apply_result, check_ds,
    check_sources, ops_by_role, result_type, source_values,
};
use crate::layout::{Role, gemm_roles};
use crate::padded::Padded;
use crate::problem::{ConvProblem, ProblemError};
use crate::support::{Formulation, Unsupported, formulation};
use crate::tensor::{Tensor, round_to};
use ck_compiler::ir::Checked;
use ck_compiler::model::{DataType, ElementOp, Layout, Op, Reduction};
use operands::{Operands, OperandsSpec, Source};
use serde::Serialize;

/// The tensors of one run. The op reads two of them and writes the third (fwd writes `output`,
/// bwd_data `input`, bwd_weight `weight`).
pub struct Buffers<'a> {
    pub input: &'a mut Tensor,
    pub weight: &'a mut Tensor,
    pub output: &'a mut Tensor,
    /// The D tensors the instance declares (destination-shaped, its `ds` layouts and types).
    pub ds: &'a [Tensor],
    /// The input and weight tensors after `input` and `weight` that the instance's
    /// `sources.in` / `sources.wei` combine with them (shaped as they are, in the declared types
    /// after the first); [`ExtraSources::NONE`] for one tensor of each.
    pub extra: ExtraSources<'a>,
    /// Scalars of the instance's element-wise ops.
    pub args: ElementArgs,
    /// At least [`workspace_size`] bytes.
    pub workspace: &'a mut [u8],
}

/// What a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RunStats {
    pub k_batch: u32,
    /// GEMM batches: `ceil(G / merge_groups)`.
    pub batches: u64,
    /// Block tiles per batch.
    pub tiles: u64,
    /// Workgroups launched (all batches).
    pub workgroups: u64,
    /// Tiles per batch computed whole by one workgroup (all of them without StreamK).
    pub dp_tiles: u64,
    /// Stream-K workgroups per batch.
    pub sk_ctas: u64,
    /// Block K-loop iterations over all tiles and batches.
    pub iterations: u64,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Problem(#[from] ProblemError),
    #[error("instance {name} does not support this problem: {why}")]
    Unsupported { name: String, why: Unsupported },
    #[error("the {role} tensor is {got}, the problem needs {expected}")]
    DataType {
        role: Role,
        expected: DataType,
        got: DataType,
    },
    #[error(
        "the {role} tensor has layout {got} and lengths {got_lengths:?}, the problem needs {expected} and {expected_lengths:?}"
    )]
    Shape {
        role: Role,
        expected: Layout,
        expected_lengths: Vec<u64>,
        got: Layout,
        got_lengths: Vec<u64>,
    },
    #[error("element-wise ops: {0}")]
    Elementwise(#[from] ElementwiseError),
    #[error("workspace of {got} bytes is too small: this run needs {needed}")]
    Workspace { needed: u64, got: usize },
    #[error("the CPU back end does not run {0}")]
    NotSupportedOnCpu(String),
    #[error(
        "int8 sums of up to {bound} pass 2^24, which the fp32 accumulators of this back end hold exactly"
    )]
    Int8Sums { bound: f64 },
    #[error("the {backend} back end: {message}")]
    Backend { backend: String, message: String },
    #[error(
        "the problem's tensors and their fp64 reference need {needed} bytes of host memory, {available} are available"
    )]
    TooLarge { needed: u64, available: u64 },
    #[error("internal error: {0}")]
    Internal(String),
}

/// How accumulators become destination values.
pub(crate) struct Epilogue {
    dst: DataType,
    /// Forward ops stage the accumulator through the C-shuffle type.
    staging: Option<DataType>,
}

impl Epilogue {
    fn staged(&self, v: f32) -> f32 {
        self.staging.map_or(v, |s| round_to(s, v))
    }

    /// A finished accumulator as stored in the destination.
    pub fn stage(&self, v: f32) -> f32 {
        round_to(self.dst, self.staged(v))
    }

    /// An atomic add of a partial into a destination value.
    pub fn atomic_add(&self, current: f32, partial: f32) -> f32 {
        round_to(self.dst, current + self.staged(partial))
    }
}

/// Workspace bytes the instance needs for this problem on `dev`: StreamK Linear/Tree partials
/// and flags per batch, the fp32 destination of two-stage instances, else 0 (and 0 for an
/// impossible problem, which no instance runs).
pub fn workspace_size(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> u64 {
    if p.validate().is_err() {
        return 0;
    }
    // A problem run as its transpose partitions the transpose's GEMM.
    let form = formulation(inst, p, dev).unwrap_or(Formulation::Direct);
    let p = form.problem(p);
    if let Some(sk) = inst.work.streamk {
        if sk.reduction == Reduction::Atomic {
            return 0;
        }
        let plan = StreamKPlan::of(inst, p, dev);
        return plan.workspace_bytes(inst.tile.m, inst.tile.n) * GemmShape::of(inst, p).batches;
    }
    if is_two_stage(inst) {
        return p.desc(p.destination()).map_or(0, |d| d.elements() * 4);
    }
    0
}

/// Whether the CPU back end computes this instance's types, element-wise ops and tensors:
/// fp16/bf16/fp32, int8 and fp8/bf8 data, each source's op combining its tensors (one, or CK's
/// multiple A/B), a result op with as many D tensors as it combines.
pub fn cpu_types(inst: &Checked) -> Result<(), RunError> {
    let computed = |dt: DataType| {
        matches!(
            dt,
            DataType::Fp16
                | DataType::Bf16
                | DataType::Fp32
                | DataType::Fp8
                | DataType::Bf8
                | DataType::Int8
        )
    };
    let t = &inst.types;
    let sources = t.input_sources.iter().chain(&t.weight_sources);
    for &dt in [t.input, t.weight, t.output].iter().chain(sources) {
        if !computed(dt) {
            return Err(RunError::NotSupportedOnCpu(format!("{dt} tensors")));
        }
    }
    for dt in [t.compute_a, t.compute_b, t.cshuffle] {
        if !computed(dt) && dt != DataType::Tf32 {
            return Err(RunError::NotSupportedOnCpu(format!("{dt} compute")));
        }
    }
    let (ops, result) = ops_by_role(inst.op, &inst.elementwise);
    let (roles, _) = gemm_roles(inst.op);
    for (role, op) in roles.into_iter().zip(ops) {
        let declared = match role {
            Role::Input => t.input_sources.len(),
            Role::Weight => t.weight_sources.len(),
            Role::Output => 0,
        };
        let tensors = declared.max(1);
        if op.operands() != tensors {
            let plural = if tensors == 1 { "" } else { "s" };
            return Err(RunError::NotSupportedOnCpu(format!(
                "element-wise op {op} on a source of {tensors} {role} tensor{plural}"
            )));
        }
    }
    let ds = t.ds.len();
    if ds != result.d_tensors() || inst.layout.ds.len() != ds {
        return Err(RunError::NotSupportedOnCpu(format!(
            "{ds} D tensors with result op {result}"
        )));
    }
    for &dt in &t.ds {
        if !computed(dt) {
            return Err(RunError::NotSupportedOnCpu(format!("{dt} D tensors")));
        }
    }
    if inst.tile.m == 0 || inst.tile.n == 0 || inst.tile.k == 0 {
        return Err(RunError::Internal(format!(
            "instance {} has an empty tile",
            inst.name
        )));
    }
    Ok(())
}

/// CK's int8 GEMMs accumulate in int32; the CPU back end and the portable kernels (SIMT path)
/// accumulate in fp32, which holds integers exactly below 2^24: a run whose sums could pass that
/// (the largest operands' product times GEMM-K) is refused rather than computed inexactly.
pub(crate) fn check_int8_sums(
    inst: &Checked,
    p: &ConvProblem,
    bufs: &Buffers<'_>,
) -> Result<(), RunError> {
    let t = &inst.types;
    if t.compute_a != DataType::Int8 && t.compute_b != DataType::Int8 {
        return Ok(());
    }
    let (ops, _) = ops_by_role(p.op, &inst.elementwise);
    let ([a, b], _) = gemm_roles(p.op);
    // The largest magnitude a source feeds the GEMM (its op applied); an int8 compute type
    // holds at most 128.
    let largest = |role: Role, op: ElementOp| -> f64 {
        let tensor = match role {
            Role::Input => &*bufs.input,
            Role::Weight => &*bufs.weight,
            Role::Output => &*bufs.output,
        };
        let values = source_values(op, role, tensor, bufs.extra.of(role), &bufs.args);
        values
            .into_iter()
            .fold(0f64, |m, v| m.max(v.abs()))
            .min(128.0)
    };
    let bound = largest(a, ops[0]) * largest(b, ops[1]) * p.gemm().2 as f64;
    if bound >= f64::from(1u32 << 24) {
        return Err(RunError::Int8Sums { bound });
    }
    Ok(())
}

pub(crate) fn check_tensor(p: &ConvProblem, role: Role, t: &Tensor) -> Result<(), RunError> {
    let want = p.desc(role)?;
    if t.desc() != &want {
        return Err(RunError::Shape {
            role,
            expected: want.layout,
            expected_lengths: want.lengths,
            got: t.desc().layout,
            got_lengths: t.desc().lengths.clone(),
        });
    }
    let expected = p.dtype_of(role).storage();
    if t.dtype() != expected {
        return Err(RunError::DataType {
            role,
            expected,
            got: t.dtype(),
        });
    }
    Ok(())
}

/// Runs `inst` on `p` with the CPU back end, using `dev` for auto split-K and StreamK. A problem
/// the instance runs as its transpose ([`Formulation::Transposed`]) computes the transpose's
/// weights, then places each where the problem's layout holds it.
pub fn run(
    inst: &Checked,
    p: &ConvProblem,
    bufs: &mut Buffers<'_>,
    dev: &DeviceModel,
) -> Result<RunStats, RunError> {
    p.validate()?;
    let form = formulation(inst, p, dev).map_err(|why| RunError::Unsupported {
        name: inst.name.clone(),
        why,
    })?;
    cpu_types(inst)?;
    check_tensor(p, Role::Input, bufs.input)?;
    check_tensor(p, Role::Weight, bufs.weight)?;
    check_tensor(p, Role::Output, bufs.output)?;
    check_ds(inst, p, bufs.ds)?;
    check_sources(inst, p, &bufs.extra)?;
    check_int8_sums(inst, p, bufs)?;
    let ew = Elementwise {
        ops: inst.elementwise,
        ds: bufs.ds,
        extra: bufs.extra,
        args: bufs.args,
        result_type: result_type(inst),
    };
    let d = ew.d_values(p.op, &p.desc(p.destination())?)?;
    let (source_ops, result) = ops_by_role(p.op, &inst.elementwise);
    let needed = workspace_size(inst, p, dev);
    if (bufs.workspace.len() as u64) < needed {
        return Err(RunError::Workspace {
            needed,
            got: bufs.workspace.len(),
        });
    }
    if let Formulation::Padded(pd) = &form {
        return run_padded(inst, pd, bufs, dev);
    }
    let q = form.problem(p);
    let shape = GemmShape::of(inst, q);
    let t = &inst.types;
    let source = |role: Role, tensor| Source {
        role,
        tensor,
        extra: bufs.extra.of(role),
    };
    // (A, B, destination) tensors by op.
    let (a, b, dst, stage) = match p.op {
        Op::Fwd => (
            source(Role::Input, &*bufs.input),
            source(Role::Weight, &*bufs.weight),
            &mut *bufs.output,
            Some(t.cshuffle),
        ),
        Op::BwdData => (
            source(Role::Output, &*bufs.output),
            source(Role::Weight, &*bufs.weight),
            &mut *bufs.input,
            None,
        ),
        Op::BwdWeight => (
            source(Role::Output, &*bufs.output),
            source(Role::Input, &*bufs.input),
            &mut *bufs.weight,
            None,
        ),
    };
    // The transpose reads the input as its output gradient and the output gradient through
    // the taps.
    let transposed = matches!(form, Formulation::Transposed(_));
    let (a, b) = if transposed { (b, a) } else { (a, b) };
    // The roles A and B play in the problem the GEMM computes (a transpose's A is the caller's
    // input in its output-gradient role).
    let ([a_role, b_role], _) = gemm_roles(p.op);
    let ops = Operands::new(OperandsSpec {
        op: p.op,
        shape,
        problem: q,
        a,
        b,
        a_desc: q.desc(a_role)?,
        b_desc: q.desc(b_role)?,
        c_desc: q.desc(q.destination())?,
        compute: [t.compute_a, t.compute_b],
        load_ops: source_ops,
        args: bufs.args,
    });
    let mut ws = workspace::Workspace::new(bufs.workspace);
    let mut gemm = |dst: &mut Tensor| {
        let epi = Epilogue {
            dst: dst.dtype(),
            staging: stage,
        };
        match inst.work.streamk {
            Some(sk) => {
                let plan = StreamKPlan::of(inst, q, dev);
                streamk::run(&ops, inst.tile, sk, &plan, &epi, dst, &mut ws)
            }
            None => {
                let plan = split_k::SplitK {
                    k_batch: k_batch(inst, q, dev),
                    two_stage: is_two_stage(inst),
                };
                Ok(split_k::run(&ops, inst.tile, &plan, &epi, dst, &mut ws))
            }
        }
    };
    if result == ElementOp::PassThrough && !transposed {
        return gemm(dst);
    }
    // As CK's multiple-D kernels: the GEMM (split or streamed) completes into an fp32
    // accumulator, then one element-wise pass applies the op with the D values, so that the op
    // sees each finished sum exactly once. A transpose's plain results keep the destination's
    // type, rounded as its stores round them.
    let acc_type = if result == ElementOp::PassThrough {
        dst.dtype()
    } else {
        DataType::Fp32
    };
    let internal = |e: crate::tensor::TensorError| RunError::Internal(e.to_string());
    let mut acc = Tensor::zeros(acc_type, q.desc(q.destination())?).map_err(internal)?;
    let stats = gemm(&mut acc)?;
    // A fold holds its destination in the same memory (padded runs returned above).
    let places = match &form {
        Formulation::Transposed(t) => transposed_places(p, t)?,
        _ => (0..dst.len()).collect(),
    };
    let (c_type, e_type) = (ew.result_type, dst.dtype());
    for (c, j) in acc.to_f32().into_iter().zip(places) {
        let v = if result == ElementOp::PassThrough {
            c
        } else {
            apply_result(result, f64::from(c), d[j], &bufs.args, c_type, e_type) as f32
        };
        dst.set(j, v);
    }
    Ok(stats)
}

/// Runs the padded problem of `pd` on host copies of the tensors it stages
/// ([`Formulation::Padded`]), then copies the destination's back.
fn run_padded(
    inst: &Checked,
    pd: &Padded,
    bufs: &mut Buffers<'_>,
    dev: &DeviceModel,
) -> Result<RunStats, RunError> {
    let q = &pd.problem;
    let internal = |e: crate::tensor::TensorError| RunError::Internal(e.to_string());
    let stage = |role: Role, t: &Tensor| -> Result<Option<Tensor>, RunError> {
        let Some(map) = pd.maps[role.index()] else {
            return Ok(None);
        };
        let mut copy = Tensor::zeros(t.dtype(), q.desc(role)?).map_err(internal)?;
        let values = t.to_f32();
        for i in 0..map.staged_len() {
            if let Some(j) = map.source_of(i) {
                copy.set(i as usize, values[j as usize]);
            }
        }
        Ok(Some(copy))
    };
    let mut input = stage(Role::Input, bufs.input)?;
    let mut weight = stage(Role::Weight, bufs.weight)?;
    let mut output = stage(Role::Output, bufs.output)?;
    // A source's extra tensors lie as its own does.
    let stage_extra = |role: Role| -> Result<Option<Vec<Tensor>>, RunError> {
        bufs.extra.of(role).iter().map(|t| stage(role, t)).collect()
    };
    let (extra_input, extra_weight) = (stage_extra(Role::Input)?, stage_extra(Role::Weight)?);
    let stats = run(
        inst,
        q,
        &mut Buffers {
            input: input.as_mut().unwrap_or(&mut *bufs.input),
            weight: weight.as_mut().unwrap_or(&mut *bufs.weight),
            output: output.as_mut().unwrap_or(&mut *bufs.output),
            ds: bufs.ds,
            extra: ExtraSources {
                input: extra_input.as_deref().unwrap_or(bufs.extra.input),
                weight: extra_weight.as_deref().unwrap_or(bufs.extra.weight),
            },
            args: bufs.args,
            workspace: &mut *bufs.workspace,
        },
        dev,
    )?;
    let dst = q.destination();
    let (staged, user) = match dst {
        Role::Input => (input, &mut *bufs.input),
        Role::Weight => (weight, &mut *bufs.weight),
        Role::Output => (output, &mut *bufs.output),
    };
    if let (Some(staged), Some(map)) = (staged, pd.maps[dst.index()]) {
        let values = staged.to_f32();
        for i in 0..map.source_len() {
            user.set(i as usize, values[map.staged_of(i) as usize]);
        }
    }
    Ok(stats)
}

/// Where each element of the transpose `t`'s weights (storage order) lies in `p`'s: K and C
/// swapped, the filter reversed.
fn transposed_places(p: &ConvProblem, t: &ConvProblem) -> Result<Vec<usize>, RunError> {
    let (held, want) = (t.desc(Role::Weight)?, p.desc(Role::Weight)?);
    let mut places = vec![0; held.elements() as usize];
    let lengths = &held.lengths;
    let mut index = vec![0u64; lengths.len()];
    for _ in 0..held.elements() {
        let mut turned = index.clone();
        turned.swap(1, 2);
        for (i, &f) in turned[3..].iter_mut().zip(&p.filter) {
            *i = f - 1 - *i;
        }
        places[held.offset(&index) as usize] = want.offset(&turned) as usize;
        // The next logical index, last axis fastest.
        for (i, &len) in index.iter_mut().zip(lengths).rev() {
            *i += 1;
            if *i < len {
                break;
            }
            *i = 0;
        }
    }
    Ok(places)
}
