//! Host side of a GPU run, the same on every device: which instances have a portable kernel,
//! planning, buffer checks, the argument image, tensor bytes, statistics, and the whole
//! host-tensor run over a [`HostDevice`].

use super::{LaunchError, conv_dims};
use crate::device::DeviceModel;
use crate::elementwise::{ElementArgs, check_ds, check_sources, is_binary, ops_by_role};
use crate::exec::{Buffers, RunError, RunStats, check_int8_sums, check_tensor};
use crate::layout::Role;
use crate::padded::Padded;
use crate::problem::ConvProblem;
use crate::support::{Formulation, formulation, supports_on};
use crate::tensor::{Tensor, TensorData};
use ck_compiler::emit::hip::{HipKernel, emit_hip};
use ck_compiler::ir::Checked;
use ck_compiler::kernel::{
    self, CkArgs, ConvDims, DeviceInfo, Elem, EntryKind, IMAGE_BYTES, KernelConfig, LaunchPlan,
    Schedule, Step, TMA_MAP_BYTES, TMA_MAPS_OFFSET, ZeroTarget,
};
use ck_compiler::model::{ElementOp, Op};
use half::{bf16, f16};
use std::sync::Arc;

fn not_on(backend: &str, why: String) -> RunError {
    RunError::Backend {
        backend: backend.into(),
        message: why,
    }
}

/// The portable kernel of `inst`, if a GPU back end (named `backend` in errors) can run it
/// through [`Backend::run`](crate::Backend::run). Needs no device: kernels can be compiled
/// ahead of time from it.
///
/// The kernel takes one D pointer, read at the destination's offsets in the destination's type,
/// and one `alpha` shared by Scale (`alpha` = the scale) and Bilinear.
pub fn portable_kernel(inst: &Checked, backend: &str) -> Result<HipKernel, RunError> {
    portable_checks(inst, backend)?;
    emit_hip(inst).map_err(|e| not_on(backend, e.to_string()))
}

/// Whether [`portable_kernel`] has a kernel for `inst`, without emitting its source: what
/// [`Backend::accepts`](crate::Backend::accepts) answers for every candidate of a selection.
pub fn portable_checks(inst: &Checked, backend: &str) -> Result<(), RunError> {
    for dt in [inst.types.input, inst.types.weight, inst.types.output] {
        if Elem::of(dt).is_none() {
            return Err(not_on(
                backend,
                format!("{dt} host tensors are not supported"),
            ));
        }
    }
    let (sources, result) = ops_by_role(inst.op, &inst.elementwise);
    let (dst_layout, dst_type) = match inst.op {
        Op::Fwd => (inst.layout.output, inst.types.output),
        Op::BwdData => (inst.layout.input, inst.types.input),
        Op::BwdWeight => (inst.layout.weight, inst.types.weight),
    };
    let ds: Vec<_> = inst.layout.ds.iter().zip(&inst.types.ds).collect();
    let wanted = usize::from(is_binary(result));
    if ds.len() != wanted || inst.types.ds.len() != wanted {
        return Err(not_on(
            backend,
            format!(
                "{} D tensors with result op {result}: the kernel takes {wanted}",
                inst.types.ds.len()
            ),
        ));
    }
    if let Some(&(&l, &t)) = ds.first()
        && (l != dst_layout || t != dst_type)
    {
        return Err(not_on(
            backend,
            format!(
                "the kernel reads D as {dst_layout} {dst_type} (the destination's), the instance declares {l} {t}"
            ),
        ));
    }
    let scales = sources.contains(&ElementOp::Scale) || result == ElementOp::Scale;
    if scales && result == ElementOp::Bilinear {
        return Err(not_on(
            backend,
            "Scale and Bilinear together: the kernel has one alpha for both".into(),
        ));
    }
    KernelConfig::new(inst)
        .map(drop)
        .map_err(|e| not_on(backend, e.to_string()))
}

/// The kernel's `alpha` and `beta` for the instance's ops (see [`portable_kernel`]).
fn kernel_scalars(inst: &Checked, args: &ElementArgs) -> (f64, f64) {
    let (_, result) = ops_by_role(inst.op, &inst.elementwise);
    if result == ElementOp::Bilinear {
        (f64::from(args.alpha), f64::from(args.beta))
    } else {
        (f64::from(args.scale), 0.0)
    }
}

/// Plans `problem` for the kernel of `inst` on a device, as the instance runs it there
/// ([`formulation`]: as stated, folded, transposed or on padded copies staged in the
/// workspace), checking the problem's data types.
pub fn plan(
    inst: &Checked,
    config: &KernelConfig,
    problem: &ConvProblem,
    model: &DeviceModel,
    device: &DeviceInfo,
) -> Result<LaunchPlan, LaunchError> {
    let form = formulation(inst, problem, model).unwrap_or(Formulation::Direct);
    let stated = problem;
    let problem = form.problem(problem);
    let want = config.tensor_elems();
    let have = [
        problem.dtype.input,
        problem.dtype.weight,
        problem.dtype.output,
    ];
    for ((w, h), tensor) in want.iter().zip(have).zip(["input", "weight", "output"]) {
        if Elem::of(h) != Some(*w) {
            return Err(LaunchError::Problem(format!(
                "{tensor} is {h}, the kernel of `{}` takes {w:?}",
                inst.name
            )));
        }
    }
    let dims = ConvDims {
        transposed: matches!(form, Formulation::Transposed(_)),
        ..conv_dims(problem)?
    };
    Ok(match &form {
        Formulation::Padded(pd) => match groups_as_stated(config, pd, stated, device) {
            Some(plan) => plan,
            None => config.plan_staged(&dims, pd.maps, device)?,
        },
        _ => config.plan(&dims, device)?,
    })
}

/// Where copies only add zero groups (CK's merge rule, which the GEMM tiles need) and the
/// kernel's small-channel entry runs `p` as stated, that entry's plan: it masks the vectors
/// past the last group, so the zero groups and the copies buy nothing.
fn groups_as_stated(
    config: &KernelConfig,
    pd: &Padded,
    p: &ConvProblem,
    device: &DeviceInfo,
) -> Option<LaunchPlan> {
    if !pd.adds_groups_only(p) {
        return None;
    }
    let plan = config.plan(&conv_dims(p).ok()?, device).ok()?;
    let small_channel = |s: &Step| match s {
        Step::Launch { entry, .. } => *entry == EntryKind::Direct,
        Step::Zero { .. } => true,
        _ => false,
    };
    plan.steps.iter().all(small_channel).then_some(plan)
}

/// [`plan`] on device `d`, with its model and launch limits.
pub(crate) fn plan_on<D: HostDevice>(
    d: &D,
    inst: &Checked,
    kernel: &HipKernel,
    problem: &ConvProblem,
) -> Result<LaunchPlan, LaunchError> {
    plan(
        inst,
        &kernel.config,
        problem,
        &d.device_model(),
        &d.device_info(),
    )
}

/// Whether device `d` plans `inst` on `p` ([`crate::Backend::plans`]): the kernel's
/// configuration and launch plan, without its source.
pub(crate) fn plans_on<D: HostDevice>(
    d: &D,
    inst: &Checked,
    p: &ConvProblem,
) -> Result<(), RunError> {
    let config = KernelConfig::new(inst).map_err(|e| not_on(d.backend(), e.to_string()))?;
    plan(inst, &config, p, &d.device_model(), &d.device_info())
        .map(drop)
        .map_err(|e| D::Error::from(e).into())
}

/// Device tensors of one convolution, by conv role (the op decides which one is written).
pub struct DeviceTensors<B> {
    pub input: B,
    pub weight: B,
    pub output: B,
    /// D tensor of binary output element-wise ops, in the output layout.
    pub d: Option<B>,
}

impl<B> DeviceTensors<B> {
    /// The tensor `op` writes.
    pub fn destination(&self, op: Op) -> &B {
        match op {
            Op::Fwd => &self.output,
            Op::BwdData => &self.input,
            Op::BwdWeight => &self.weight,
        }
    }

    /// The buffer a zero-fill step clears.
    pub fn zero_target<'a>(
        &'a mut self,
        workspace: Option<&'a mut B>,
        target: ZeroTarget,
        op: Op,
    ) -> Result<&'a mut B, LaunchError> {
        match target {
            ZeroTarget::Workspace => workspace.ok_or(LaunchError::BufferSize {
                tensor: "workspace",
                have: 0,
                need: 1,
            }),
            ZeroTarget::Output => Ok(match op {
                Op::Fwd => &mut self.output,
                Op::BwdData => &mut self.input,
                Op::BwdWeight => &mut self.weight,
            }),
        }
    }
}

/// The loaded function of entry `kind` among a kernel's `(entry, function)` pairs.
pub fn entry_function<'a, F>(
    functions: &'a [(EntryKind, F)],
    kind: EntryKind,
    kernel: &str,
) -> Result<&'a F, LaunchError> {
    functions
        .iter()
        .find(|f| f.0 == kind)
        .map(|f| &f.1)
        .ok_or_else(|| LaunchError::Problem(format!("{kernel}: no {kind:?} entry")))
}

/// Checks that every buffer (sizes through `len`) holds what `plan` reads and writes.
pub fn check_buffers<B>(
    plan: &LaunchPlan,
    op: Op,
    t: &DeviceTensors<B>,
    workspace: Option<&B>,
    len: impl Fn(&B) -> usize,
) -> Result<(), LaunchError> {
    let need_dst = plan.tensor_bytes[match op {
        Op::Fwd => 2,
        Op::BwdData => 0,
        Op::BwdWeight => 1,
    }];
    let checks = [
        ("input", Some(&t.input), plan.tensor_bytes[0]),
        ("weight", Some(&t.weight), plan.tensor_bytes[1]),
        ("output", Some(&t.output), plan.tensor_bytes[2]),
        ("d", t.d.as_ref(), if t.d.is_some() { need_dst } else { 0 }),
        ("workspace", workspace, plan.workspace_bytes),
    ];
    for (tensor, buf, need) in checks {
        let have = buf.map_or(0, &len);
        if (have as u64) < need {
            return Err(LaunchError::BufferSize { tensor, have, need });
        }
    }
    Ok(())
}

/// One kernel launch of a plan, ready to enqueue.
pub struct Enqueue {
    pub entry: EntryKind,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub lds_bytes: u32,
    /// Workgroups a thread-block cluster; 1: none.
    pub cluster: u32,
    /// The stride phase whose stream it runs on (0: the back end's own).
    pub lane: usize,
    pub args: CkArgs,
}

impl Enqueue {
    /// Whether the launch computes the GEMM (whose operands a TMA kernel copies through tensor
    /// maps), not a repack of a staged copy.
    pub fn is_gemm(&self) -> bool {
        !matches!(self.entry, EntryKind::Repack | EntryKind::Transpose)
    }
}

/// The zero-fills of a plan, `(target, offset, bytes)`: every back end clears them first (they
/// target buffers the kernels then read or accumulate into), then issues its [`PlanWork`].
pub fn zero_fills(plan: &LaunchPlan) -> impl Iterator<Item = (ZeroTarget, u64, u64)> + '_ {
    plan.steps.iter().filter_map(|s| match *s {
        Step::Zero {
            target,
            offset,
            bytes,
        } => Some((target, offset, bytes)),
        _ => None,
    })
}

/// The launches of a plan in the order every back end issues them, after the zero-fills:
/// `packs` on the back end's own stream, then `gemms`, each on its stride phase's lane (the
/// phases write disjoint outputs and workspace regions: a back end may fork a stream per phase
/// after the packs and join them before `unpacks`), then `unpacks`.
pub struct PlanWork {
    pub packs: Vec<Enqueue>,
    pub gemms: Vec<Enqueue>,
    pub unpacks: Vec<Enqueue>,
}

impl PlanWork {
    /// The work of `plan` on these buffers, with the Scale / Bilinear factors `alpha` / `beta`.
    pub fn of(plan: &LaunchPlan, bufs: kernel::Buffers, alpha: f64, beta: f64) -> PlanWork {
        let mut work = PlanWork {
            packs: Vec::new(),
            gemms: Vec::new(),
            unpacks: Vec::new(),
        };
        for step in &plan.steps {
            match *step {
                Step::Zero { .. } => {}
                Step::Launch {
                    entry,
                    grid,
                    block,
                    lds_bytes,
                    phase,
                    cluster,
                } => work.gemms.push(Enqueue {
                    entry,
                    grid,
                    block,
                    lds_bytes,
                    cluster,
                    lane: phase,
                    args: ArgImage::args(plan, phase, bufs, alpha, beta),
                }),
                Step::Repack {
                    tensor,
                    unpack,
                    blocks,
                    threads,
                } => {
                    let launch = Enqueue {
                        entry: plan.staged[tensor].map_or(EntryKind::Repack, |st| st.copy.entry()),
                        grid: [blocks, 1, 1],
                        block: [threads, 1, 1],
                        lds_bytes: 0,
                        cluster: 1,
                        lane: 0,
                        args: plan.repack_args(bufs, tensor, unpack),
                    };
                    if unpack {
                        work.unpacks.push(launch);
                    } else {
                        work.packs.push(launch);
                    }
                }
            }
        }
        work
    }
}

/// The argument block as the single kernel parameter: the fields, then the tensor maps of an
/// sm_90a kernel on their 64-byte boundary (zeros where unused; a kernel whose struct has no
/// maps reads only the fields).
#[repr(C, align(64))]
pub struct ArgImage(pub [u8; IMAGE_BYTES]);

/// The two operand tensor maps of a TMA launch, as the driver encoded them.
pub type TensorMapBytes = [[u8; TMA_MAP_BYTES]; 2];

impl ArgImage {
    /// The argument values of a launch of stride phase `phase` (see [`LaunchPlan::args_for`]).
    pub fn args(
        plan: &LaunchPlan,
        phase: usize,
        bufs: kernel::Buffers,
        alpha: f64,
        beta: f64,
    ) -> CkArgs {
        let mut args = plan.args_for(bufs, phase);
        args.alpha = alpha;
        args.beta = beta;
        args
    }

    /// The block the kernel receives: `args`, and where given the tensor maps its operands are
    /// copied through (`args.tma` set to match, see [`kernel::tma_mode`]).
    pub fn new(args: &CkArgs, maps: Option<&TensorMapBytes>) -> Self {
        let mut image = ArgImage([0; IMAGE_BYTES]);
        image.0[..CkArgs::BYTES].copy_from_slice(&args.to_bytes());
        if let Some(maps) = maps {
            for (i, map) in maps.iter().enumerate() {
                let at = TMA_MAPS_OFFSET + i * TMA_MAP_BYTES;
                image.0[at..at + TMA_MAP_BYTES].copy_from_slice(map);
            }
        }
        image
    }
}

pub(crate) fn to_bytes(t: &Tensor) -> Vec<u8> {
    match t.data() {
        TensorData::F16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::Bf16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::F8(v) | TensorData::Bf8(v) => v.clone(),
        TensorData::I8(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

/// Replaces `t`'s elements with `bytes` (little-endian, `t`'s type).
pub(crate) fn from_bytes(t: &mut Tensor, bytes: &[u8]) -> Result<(), RunError> {
    let data = match t.data() {
        TensorData::F16(_) => TensorData::F16(
            bytes
                .chunks_exact(2)
                .map(|c| f16::from_le_bytes([c[0], c[1]]))
                .collect(),
        ),
        TensorData::Bf16(_) => TensorData::Bf16(
            bytes
                .chunks_exact(2)
                .map(|c| bf16::from_le_bytes([c[0], c[1]]))
                .collect(),
        ),
        TensorData::F32(_) => TensorData::F32(
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        TensorData::F8(_) => TensorData::F8(bytes.to_vec()),
        TensorData::Bf8(_) => TensorData::Bf8(bytes.to_vec()),
        TensorData::I8(_) => {
            TensorData::I8(bytes.iter().map(|&b| i8::from_le_bytes([b])).collect())
        }
    };
    *t = Tensor::new(t.desc().clone(), data).map_err(|e| RunError::Internal(e.to_string()))?;
    Ok(())
}

/// What a plan launches, in the CPU back end's terms. A plan by stride phase counts the tiles
/// and K iterations of every phase (its split-K factor is the first phase's).
fn stats(k: &HipKernel, plan: &LaunchPlan, p: &ConvProblem) -> RunStats {
    let a = &plan.args;
    let pos = |v: i64| v.max(0) as u64;
    let tiles: u64 = plan
        .arg_blocks()
        .map(|a| pos(a.tiles_m) * pos(a.tiles_n))
        .sum();
    let k_tiles: u64 = plan
        .arg_blocks()
        .map(|a| pos(a.k_iters) * pos(a.tiles_m) * pos(a.tiles_n))
        .sum();
    let batches = p.g.div_ceil(u64::from(k.config.merge_groups));
    // Every launch but the convert's runs the problem's workgroups.
    let workgroups = plan
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Launch { entry, grid, .. } if *entry != EntryKind::Convert => {
                Some(grid.iter().map(|&g| u64::from(g)).product::<u64>())
            }
            _ => None,
        })
        .sum();
    let streamk = matches!(k.config.schedule, Schedule::StreamK { .. });
    RunStats {
        k_batch: pos(a.k_iters).div_ceil(pos(a.split_iters).max(1)).max(1) as u32,
        batches,
        tiles,
        workgroups,
        dp_tiles: if streamk { pos(a.dp_tiles) } else { tiles },
        sk_ctas: if streamk { pos(a.sk_blocks) } else { 0 },
        iterations: k_tiles * batches,
    }
}

/// A device as [`run_on_host`] drives it.
pub(crate) trait HostDevice {
    /// Device memory.
    type Buf;
    /// A compiled, loaded kernel.
    type Kernel;
    type Error: From<LaunchError> + Into<RunError>;

    /// Back end name, for errors.
    fn backend(&self) -> &'static str;
    /// The device's architecture where the library names it ([`crate::Backend::target`]).
    fn target(&self) -> Option<ck_compiler::model::Arch>;
    /// See [`Backend::device_id`](crate::Backend::device_id).
    fn device_id(&self) -> Option<crate::backend::DeviceId> {
        None
    }
    fn device_model(&self) -> DeviceModel;
    fn device_info(&self) -> DeviceInfo;
    /// The loaded kernel, compiled (or read from the cache) on first use.
    fn loaded(&self, k: HipKernel) -> Result<Arc<Self::Kernel>, Self::Error>;
    fn alloc(&self, bytes: usize) -> Result<Self::Buf, Self::Error>;
    fn upload(&self, bytes: &[u8]) -> Result<Self::Buf, Self::Error>;
    fn download(&self, buf: &Self::Buf) -> Result<Vec<u8>, Self::Error>;
    /// Enqueues every step of the plan.
    fn launch(
        &self,
        k: &Self::Kernel,
        plan: &LaunchPlan,
        t: &mut DeviceTensors<Self::Buf>,
        workspace: Option<&mut Self::Buf>,
        alpha: f64,
        beta: f64,
    ) -> Result<(), Self::Error>;
    fn synchronize(&self) -> Result<(), Self::Error>;
}

/// The [`HostDevice`] methods that a back end's public inherent methods of the same names and
/// signatures already are (device model, buffers, launch, synchronize), forwarded to them:
/// written in the back end's `impl HostDevice` block, so that each signature is stated once.
macro_rules! forward_to_inherent {
    () => {
        fn device_model(&self) -> $crate::device::DeviceModel {
            Self::device_model(self)
        }

        fn alloc(&self, bytes: usize) -> Result<Self::Buf, Self::Error> {
            Self::alloc(self, bytes)
        }

        fn upload(&self, bytes: &[u8]) -> Result<Self::Buf, Self::Error> {
            Self::upload(self, bytes)
        }

        fn download(&self, buf: &Self::Buf) -> Result<Vec<u8>, Self::Error> {
            Self::download(self, buf)
        }

        fn launch(
            &self,
            k: &Self::Kernel,
            plan: &ck_compiler::kernel::LaunchPlan,
            t: &mut $crate::gpu::DeviceTensors<Self::Buf>,
            workspace: Option<&mut Self::Buf>,
            alpha: f64,
            beta: f64,
        ) -> Result<(), Self::Error> {
            Self::launch(self, k, plan, t, workspace, alpha, beta)
        }

        fn synchronize(&self) -> Result<(), Self::Error> {
            Self::synchronize(self)
        }
    };
}
pub(crate) use forward_to_inherent;

/// `impl Backend` for a [`HostDevice`] named `$name`: its portable kernels, no host workspace,
/// runs through [`run_on_host`].
macro_rules! device_backend {
    ($ty:ty, $name:literal) => {
        impl $crate::backend::Backend for $ty {
            fn name(&self) -> &str {
                $name
            }

            fn accepts(
                &self,
                inst: &ck_compiler::ir::Checked,
            ) -> Result<(), $crate::exec::RunError> {
                $crate::gpu::portable_checks(inst, $name)
            }

            fn plans(
                &self,
                inst: &ck_compiler::ir::Checked,
                p: &$crate::problem::ConvProblem,
            ) -> Result<(), $crate::exec::RunError> {
                $crate::gpu::plans_on(self, inst, p)
            }

            fn target(&self) -> Option<ck_compiler::model::Arch> {
                $crate::gpu::HostDevice::target(self)
            }

            fn device_id(&self) -> Option<$crate::backend::DeviceId> {
                $crate::gpu::HostDevice::device_id(self)
            }

            /// The device workspace is the back end's own; host runs need none.
            fn workspace_size(
                &self,
                _inst: &ck_compiler::ir::Checked,
                _p: &$crate::problem::ConvProblem,
            ) -> u64 {
                0
            }

            fn run(
                &self,
                inst: &ck_compiler::ir::Checked,
                p: &$crate::problem::ConvProblem,
                bufs: &mut $crate::exec::Buffers<'_>,
            ) -> Result<$crate::exec::RunStats, $crate::exec::RunError> {
                $crate::gpu::run_on_host(self, inst, p, bufs)
            }
        }
    };
}
pub(crate) use device_backend;

/// [`Backend::run`](crate::Backend::run) on a device: host tensors in, host tensors out.
pub(crate) fn run_on_host<D: HostDevice>(
    d: &D,
    inst: &Checked,
    p: &ConvProblem,
    bufs: &mut Buffers<'_>,
) -> Result<RunStats, RunError> {
    p.validate()?;
    supports_on(inst, p, &d.device_model()).map_err(|why| RunError::Unsupported {
        name: inst.name.clone(),
        why,
    })?;
    let kernel = portable_kernel(inst, d.backend())?;
    check_tensor(p, Role::Input, bufs.input)?;
    check_tensor(p, Role::Weight, bufs.weight)?;
    check_tensor(p, Role::Output, bufs.output)?;
    check_ds(inst, p, bufs.ds)?;
    check_sources(inst, p, &bufs.extra)?;
    check_int8_sums(inst, p, bufs)?;
    let plan = plan_on(d, inst, &kernel, p).map_err(|e| D::Error::from(e).into())?;
    let stats = stats(&kernel, &plan, p);
    let (alpha, beta) = kernel_scalars(inst, &bufs.args);
    let device_err = |e: D::Error| e.into();
    let loaded = d.loaded(kernel).map_err(device_err)?;
    let mut t = DeviceTensors {
        input: d.upload(&to_bytes(bufs.input)).map_err(device_err)?,
        weight: d.upload(&to_bytes(bufs.weight)).map_err(device_err)?,
        output: d.upload(&to_bytes(bufs.output)).map_err(device_err)?,
        d: bufs
            .ds
            .first()
            .map(|t| d.upload(&to_bytes(t)))
            .transpose()
            .map_err(device_err)?,
    };
    let mut ws = match plan.workspace_bytes {
        0 => None,
        n => {
            let bytes = usize::try_from(n).map_err(|_| RunError::Workspace {
                needed: n,
                got: usize::MAX,
            })?;
            Some(d.alloc(bytes).map_err(device_err)?)
        }
    };
    d.launch(&loaded, &plan, &mut t, ws.as_mut(), alpha, beta)
        .map_err(device_err)?;
    d.synchronize().map_err(device_err)?;
    let host = match p.destination() {
        Role::Input => &mut *bufs.input,
        Role::Weight => &mut *bufs.weight,
        Role::Output => &mut *bufs.output,
    };
    from_bytes(host, &d.download(t.destination(p.op)).map_err(device_err)?)?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::TensorDesc;
    use ck_compiler::model::{DataType, Layout};

    #[test]
    fn tensors_round_trip_through_bytes() {
        let desc = TensorDesc::packed(Role::Input, Layout::Nwgc, &[1, 1, 2, 3]).unwrap();
        for dt in [
            DataType::Fp16,
            DataType::Bf16,
            DataType::Fp32,
            DataType::Int8,
            DataType::Fp8,
            DataType::Bf8,
        ] {
            let mut t = Tensor::zeros(dt, desc.clone()).unwrap();
            (0..t.len()).for_each(|i| t.set(i, i as f32 - 2.5));
            let mut back = Tensor::zeros(dt, desc.clone()).unwrap();
            from_bytes(&mut back, &to_bytes(&t)).unwrap();
            assert_eq!(back, t);
        }
    }

    #[test]
    fn argument_image_holds_the_fields_then_the_maps() {
        let args = CkArgs {
            x: 0x1234,
            tma: 2,
            ..CkArgs::default()
        };
        let maps = [[1u8; TMA_MAP_BYTES], [2u8; TMA_MAP_BYTES]];
        let image = ArgImage::new(&args, Some(&maps));
        assert_eq!(&image.0[..CkArgs::BYTES], &args.to_bytes()[..]);
        assert!(
            image.0[CkArgs::BYTES..TMA_MAPS_OFFSET]
                .iter()
                .all(|b| *b == 0)
        );
        let (first, second) = image.0[TMA_MAPS_OFFSET..].split_at(TMA_MAP_BYTES);
        assert_eq!((first, second), (&maps[0][..], &maps[1][..]));
        let plain = ArgImage::new(&args, None);
        assert!(plain.0[TMA_MAPS_OFFSET..].iter().all(|b| *b == 0));
        assert_eq!(std::mem::align_of::<ArgImage>(), 64);
    }

    fn plan_with(tensor_bytes: [u64; 3], workspace_bytes: u64) -> LaunchPlan {
        LaunchPlan {
            steps: Vec::new(),
            workspace_bytes,
            flags_offset: 0,
            tensor_bytes,
            args: CkArgs::default(),
            phases: Vec::new(),
            transposed: None,
            staged: [None; 3],
        }
    }

    #[test]
    fn stats_count_every_stride_phase() {
        use crate::testing::{Variant, for_problem, instance};
        let p: ConvProblem =
            "bwd_data 2d G=1 N=2 K=64 C=64 filter=3x3 input=13x13 stride=2 pad=1 dtype=fp16"
                .parse()
                .unwrap();
        let inst = for_problem(instance(Variant::BwdDataTile), &p);
        let k = emit_hip(&inst).unwrap();
        let dev = DeviceInfo {
            compute_units: 8,
            max_lds_bytes: 64 * 1024,
            async_copy: false,
            wgmma: false,
            persistent: kernel::Persist::Off,
            cluster_slots: kernel::NO_CLUSTERS,
        };
        let plan = plan(&inst, &k.config, &p, &DeviceModel::default(), &dev).unwrap();
        assert_eq!(plan.phases.len(), 4);
        let s = stats(&k, &plan, &p);
        let per: Vec<u64> = plan
            .phases
            .iter()
            .map(|ph| (ph.args.tiles_m * ph.args.tiles_n) as u64)
            .collect();
        assert_eq!(s.tiles, per.iter().sum::<u64>());
        let iters: u64 = plan
            .phases
            .iter()
            .zip(&per)
            .map(|(ph, t)| ph.args.k_iters as u64 * t)
            .sum();
        assert_eq!(s.iterations, iters);
        // Phases run only their own taps: fewer K iterations than all nine taps on every pixel.
        let whole = (2 * 13 * 13_u64).div_ceil(u64::from(k.config.tile[0]))
            * 64_u64.div_ceil(u64::from(k.config.tile[1]))
            * (64 * 9_u64).div_ceil(u64::from(k.config.tile[2]));
        assert!(s.iterations < whole, "{} vs {whole}", s.iterations);
    }

    /// Groups off the merge run on copies with zero groups, except where the small-channel
    /// entry runs the problem as stated: it masks the vectors past the last group.
    #[test]
    fn zero_groups_are_not_copied_for_the_small_channel_entry() {
        use crate::testing::{Variant, for_problem, forced, instance};
        let dev = DeviceInfo {
            compute_units: 132,
            max_lds_bytes: 227 * 1024,
            async_copy: true,
            wgmma: false,
            persistent: kernel::Persist::Off,
            cluster_slots: kernel::NO_CLUSTERS,
        };
        let cases = [
            ("fwd", Variant::FwdXdl, "G=13 N=2 K=8 C=8"),
            ("bwd_data", Variant::BwdDataXdl, "G=13 N=2 K=8 C=8"),
            ("fwd", Variant::FwdXdl, "G=9 N=2 K=16 C=16"),
            ("bwd_data", Variant::BwdDataXdl, "G=9 N=2 K=16 C=16"),
        ];
        for (op, variant, groups) in cases {
            let p: ConvProblem =
                format!("{op} 2d {groups} filter=3x3 input=14x14 pad=1 layout=nhwgc dtype=fp16")
                    .parse()
                    .unwrap();
            let inst = forced(&for_problem(instance(variant), &p), |i| {
                i.work.merge_groups = 8
            });
            let Ok(Formulation::Padded(pd)) = formulation(&inst, &p, &DeviceModel::default())
            else {
                panic!("{op} {groups}: not whole merges of 8");
            };
            assert!(pd.adds_groups_only(&p));
            let k = emit_hip(&inst).unwrap();
            let stated = plan(&inst, &k.config, &p, &DeviceModel::default(), &dev).unwrap();
            assert_eq!(stated.staged, [None; 3], "{op}");
            assert_eq!(stated.args.G, p.g as i64, "{op}");
            assert!(matches!(
                stated.steps[..],
                [Step::Launch {
                    entry: EntryKind::Direct,
                    ..
                }]
            ));
            // A 5x5 filter runs on GEMM tiles, which need the copies.
            let wide: ConvProblem =
                format!("{op} 2d {groups} filter=5x5 input=14x14 pad=2 layout=nhwgc dtype=fp16")
                    .parse()
                    .unwrap();
            let copied = plan(&inst, &k.config, &wide, &DeviceModel::default(), &dev).unwrap();
            assert!(copied.staged.iter().any(Option::is_some), "{op}");
            assert_eq!(copied.args.G, 16, "{op}");
        }
    }

    #[test]
    fn one_byte_instances_plan_as_stated_and_never_on_copies() {
        use crate::testing::{Variant, for_problem, forced, instance};
        let dev = DeviceInfo {
            compute_units: 132,
            max_lds_bytes: 227 * 1024,
            async_copy: true,
            wgmma: true,
            persistent: kernel::Persist::Off,
            cluster_slots: kernel::NO_CLUSTERS,
        };
        for dtype in ["int8", "fp8", "bf8"] {
            let p: ConvProblem = format!(
                "fwd 2d G=1 N=2 K=32 C=32 filter=3x3 input=9x9 pad=1 layout=nhwgc dtype={dtype}"
            )
            .parse()
            .unwrap();
            let inst = for_problem(instance(Variant::FwdXdl), &p);
            portable_checks(&inst, "cuda").unwrap();
            let k = emit_hip(&inst).unwrap();
            let stated = plan(&inst, &k.config, &p, &DeviceModel::default(), &dev).unwrap();
            assert_eq!(stated.staged, [None; 3], "{dtype}");
            // Channels off the vectors: the padded copies the repack entry would make.
            let odd: ConvProblem = format!(
                "fwd 2d G=1 N=2 K=32 C=30 filter=3x3 input=9x9 pad=1 layout=nhwgc dtype={dtype}"
            )
            .parse()
            .unwrap();
            let vec16 = forced(&for_problem(instance(Variant::FwdXdl), &odd), |i| {
                i.a.src_vector = 16;
                i.b.src_vector = 16;
            });
            let form = formulation(&vec16, &odd, &DeviceModel::default());
            assert!(
                matches!(form, Ok(Formulation::Padded(_))),
                "{dtype}: {form:?}"
            );
            let k = emit_hip(&vec16).unwrap();
            let copied = plan(&vec16, &k.config, &odd, &DeviceModel::default(), &dev);
            assert!(
                matches!(copied, Err(LaunchError::Plan(kernel::PlanError::Staged(_)))),
                "{dtype}: {copied:?}"
            );
        }
    }

    #[test]
    fn short_buffers_are_named() {
        let t = DeviceTensors {
            input: 10usize,
            weight: 20,
            output: 30,
            d: Some(5),
        };
        let ok = plan_with([10, 20, 30], 0);
        assert!(check_buffers(&ok, Op::BwdData, &t, None, |&n| n).is_err());
        let no_d = DeviceTensors { d: None, ..t };
        assert!(check_buffers(&ok, Op::BwdData, &no_d, None, |&n| n).is_ok());
        let short = |tb, ws, w: Option<&usize>| match check_buffers(
            &plan_with(tb, ws),
            Op::Fwd,
            &no_d,
            w,
            |&n| n,
        ) {
            Err(LaunchError::BufferSize { tensor, .. }) => tensor,
            other => panic!("{other:?}"),
        };
        assert_eq!(short([11, 20, 30], 0, None), "input");
        assert_eq!(short([10, 20, 31], 0, None), "output");
        assert_eq!(short([10, 20, 30], 8, None), "workspace");
        assert_eq!(short([10, 20, 30], 8, Some(&4)), "workspace");
    }
}
