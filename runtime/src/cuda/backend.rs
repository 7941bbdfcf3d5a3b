//! [`Backend`] for the CUDA back end: host tensors in, host tensors out. Each instance's
//! portable kernel is compiled once (through the cubin cache) and kept loaded.

use super::{CudaBackend, CudaError, DeviceTensors, LoadedKernel};
use crate::backend::Backend;
use crate::elementwise::{ElementArgs, check_ds, is_binary, ops_by_role};
use crate::exec::{Buffers, RunError, RunStats, check_tensor};
use crate::layout::Role;
use crate::problem::ConvProblem;
use crate::support::supports_on;
use crate::tensor::{Tensor, TensorData};
use ck_compiler::emit::hip::{EntryKind, HipKernel, LaunchPlan, Schedule, Step, emit_hip};
use ck_compiler::ir::Instance;
use ck_compiler::model::{DataType, ElementOp, Op};
use half::{bf16, f16};
use std::sync::Arc;

impl From<CudaError> for RunError {
    fn from(e: CudaError) -> Self {
        RunError::Backend {
            backend: "cuda".into(),
            message: e.to_string(),
        }
    }
}

fn not_on_cuda(why: String) -> RunError {
    RunError::Backend {
        backend: "cuda".into(),
        message: why,
    }
}

/// The portable kernel of `inst`, if the CUDA back end can run it through [`Backend::run`].
/// Needs no device: kernels can be compiled ahead of time from it.
///
/// The kernel takes one D pointer, read at the destination's offsets in the destination's type,
/// and one `alpha` shared by Scale (`alpha` = the scale) and Bilinear.
pub fn portable_kernel(inst: &Instance) -> Result<HipKernel, RunError> {
    for dt in [inst.types.input, inst.types.weight, inst.types.output] {
        if !matches!(dt, DataType::Fp16 | DataType::Bf16 | DataType::Fp32) {
            return Err(not_on_cuda(format!("{dt} host tensors are not supported")));
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
        return Err(not_on_cuda(format!(
            "{} D tensors with result op {result}: the kernel takes {wanted}",
            inst.types.ds.len()
        )));
    }
    if let Some(&(&l, &t)) = ds.first()
        && (l != dst_layout || t != dst_type)
    {
        return Err(not_on_cuda(format!(
            "the kernel reads D as {dst_layout} {dst_type} (the destination's), the instance declares {l} {t}"
        )));
    }
    let scales = sources.contains(&ElementOp::Scale) || result == ElementOp::Scale;
    if scales && result == ElementOp::Bilinear {
        return Err(not_on_cuda(
            "Scale and Bilinear together: the kernel has one alpha for both".into(),
        ));
    }
    emit_hip(inst).map_err(|e| not_on_cuda(e.to_string()))
}

/// The kernel's `alpha` and `beta` for the instance's ops (see [`portable_kernel`]).
fn kernel_scalars(inst: &Instance, args: &ElementArgs) -> (f64, f64) {
    let (_, result) = ops_by_role(inst.op, &inst.elementwise);
    if result == ElementOp::Bilinear {
        (f64::from(args.alpha), f64::from(args.beta))
    } else {
        (f64::from(args.scale), 0.0)
    }
}

pub(super) fn to_bytes(t: &Tensor) -> Vec<u8> {
    match t.data() {
        TensorData::F16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::Bf16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

/// Replaces `t`'s elements with `bytes` (little-endian, `t`'s type).
pub(super) fn from_bytes(t: &mut Tensor, bytes: &[u8]) -> Result<(), RunError> {
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
    };
    *t = Tensor::new(t.desc().clone(), data).map_err(|e| RunError::Internal(e.to_string()))?;
    Ok(())
}

/// What a plan launches, in the CPU back end's terms.
fn stats(k: &HipKernel, plan: &LaunchPlan, p: &ConvProblem) -> RunStats {
    let a = &plan.args;
    let pos = |v: i64| v.max(0) as u64;
    let tiles = pos(a.tiles_m) * pos(a.tiles_n);
    let batches = p.g.div_ceil(u64::from(k.config.merge_groups.max(1)));
    let workgroups = plan
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Launch {
                entry: EntryKind::Main,
                grid,
                ..
            } => Some(grid.iter().map(|&g| u64::from(g)).product::<u64>()),
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
        iterations: pos(a.k_iters) * tiles * batches,
    }
}

impl CudaBackend {
    /// The loaded kernel of `k`, compiled (or read from the cubin cache) on first use.
    fn loaded(&self, k: HipKernel) -> Result<Arc<LoadedKernel>, CudaError> {
        let key = super::KernelCache::key(&k.source, &self.arch, super::nvrtc::version()?);
        let mut memo = self
            .loaded
            .lock()
            .map_err(|_| CudaError::Nvrtc("kernel table poisoned by an earlier panic".into()))?;
        if let Some(l) = memo.get(&key) {
            return Ok(l.clone());
        }
        let cubin = self.cache.cubin(&k.name, &k.source, &self.arch)?;
        let l = Arc::new(self.load(k, cubin)?);
        memo.insert(key, l.clone());
        Ok(l)
    }
}

impl Backend for CudaBackend {
    fn name(&self) -> &str {
        "cuda"
    }

    fn accepts(&self, inst: &Instance) -> Result<(), RunError> {
        portable_kernel(inst).map(|_| ())
    }

    /// The device workspace is the back end's own; host runs need none.
    fn workspace_size(&self, _inst: &Instance, _p: &ConvProblem) -> u64 {
        0
    }

    fn run(
        &self,
        inst: &Instance,
        p: &ConvProblem,
        bufs: &mut Buffers<'_>,
    ) -> Result<RunStats, RunError> {
        p.validate()?;
        supports_on(inst, p, &self.device_model()).map_err(|why| RunError::Unsupported {
            name: inst.name.clone(),
            why,
        })?;
        let kernel = portable_kernel(inst)?;
        check_tensor(p, Role::Input, bufs.input)?;
        check_tensor(p, Role::Weight, bufs.weight)?;
        check_tensor(p, Role::Output, bufs.output)?;
        check_ds(inst, p, bufs.ds)?;
        let plan = self.plan(&kernel, p)?;
        let stats = stats(&kernel, &plan, p);
        let loaded = self.loaded(kernel)?;
        let mut t = DeviceTensors {
            input: self.upload(&to_bytes(bufs.input))?,
            weight: self.upload(&to_bytes(bufs.weight))?,
            output: self.upload(&to_bytes(bufs.output))?,
            d: bufs
                .ds
                .first()
                .map(|d| self.upload(&to_bytes(d)))
                .transpose()?,
        };
        let mut ws = match plan.workspace_bytes {
            0 => None,
            n => Some(
                self.alloc(usize::try_from(n).map_err(|_| RunError::Workspace {
                    needed: n,
                    got: usize::MAX,
                })?)?,
            ),
        };
        let (alpha, beta) = kernel_scalars(inst, &bufs.args);
        self.launch(&loaded, &plan, &mut t, ws.as_mut(), alpha, beta)?;
        self.synchronize()?;
        let (dst, host) = match p.destination() {
            Role::Input => (&t.input, &mut *bufs.input),
            Role::Weight => (&t.weight, &mut *bufs.weight),
            Role::Output => (&t.output, &mut *bufs.output),
        };
        from_bytes(host, &self.download(dst)?)?;
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::TensorDesc;
    use ck_compiler::model::Layout;

    #[test]
    fn tensors_round_trip_through_bytes() {
        let desc = TensorDesc::packed(Role::Input, Layout::Nwgc, &[1, 1, 2, 3]).unwrap();
        for dt in [DataType::Fp16, DataType::Bf16, DataType::Fp32] {
            let mut t = Tensor::zeros(dt, desc.clone()).unwrap();
            (0..t.len()).for_each(|i| t.set(i, i as f32 - 2.5));
            let mut back = Tensor::zeros(dt, desc.clone()).unwrap();
            from_bytes(&mut back, &to_bytes(&t)).unwrap();
            assert_eq!(back, t);
        }
    }
}
