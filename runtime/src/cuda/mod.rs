//! The CUDA back end: NVRTC JIT of the portable kernels (with an on-disk cubin cache and
//! parallel builds), device buffers, workspaces and launches through cudarc. libcuda and
//! libnvrtc are loaded at run time; without them every call returns an error.

mod backend;
pub mod bench;
mod cache;
mod dims;
pub mod nvrtc;

pub use backend::portable_kernel;
pub use cache::KernelCache;
pub use dims::conv_dims;

use crate::device::DeviceModel;
use crate::problem::ConvProblem;
use ck_compiler::emit::hip::{
    Buffers, CkArgs, DeviceInfo, Elem, EntryKind, HipKernel, LaunchPlan, PlanError, Step,
    ZeroTarget,
};
use ck_compiler::model::DataType;
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DeviceRepr,
    DriverError, LaunchConfig, PushKernelArg, sys,
};
use cudarc::nvrtc::Ptx;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    #[error("no CUDA driver (libcuda could not be loaded)")]
    NoDriver,
    #[error("no NVRTC (libnvrtc.so.13 could not be loaded; set LD_LIBRARY_PATH)")]
    NoNvrtc,
    #[error("CUDA driver: {0}")]
    Driver(#[from] DriverError),
    #[error("NVRTC: {0}")]
    Nvrtc(String),
    #[error("NVRTC failed to compile `{instance}` for {target}:\n{log}")]
    Compile {
        instance: String,
        target: String,
        log: String,
    },
    #[error("{0}")]
    Plan(#[from] PlanError),
    #[error("unsupported problem: {0}")]
    Problem(String),
    #[error("{tensor} buffer has {have} bytes, the problem needs {need}")]
    BufferSize {
        tensor: &'static str,
        have: usize,
        need: u64,
    },
}

/// A kernel compiled and loaded on the device.
pub struct LoadedKernel {
    pub kernel: HipKernel,
    main: CudaFunction,
    convert: CudaFunction,
    _module: Arc<CudaModule>,
}

/// Device tensors of one convolution, by conv role (the op decides which one is written).
pub struct DeviceTensors {
    pub input: CudaSlice<u8>,
    pub weight: CudaSlice<u8>,
    pub output: CudaSlice<u8>,
    /// D tensor of binary output element-wise ops, in the output layout.
    pub d: Option<CudaSlice<u8>>,
}

/// The argument block as one kernel parameter.
#[repr(C, align(8))]
struct ArgImage([u8; CkArgs::BYTES]);

// SAFETY: plain bytes with the layout of the kernel's `CkArgs` (all fields 8 bytes, no padding).
unsafe impl DeviceRepr for ArgImage {}

pub struct CudaBackend {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    arch: String,
    device: DeviceInfo,
    cache: KernelCache,
    /// Kernels loaded by [`Backend::run`](crate::Backend::run), by cache key.
    loaded: Mutex<HashMap<String, Arc<LoadedKernel>>>,
}

impl CudaBackend {
    /// Opens device `ordinal` with the default kernel cache.
    pub fn new(ordinal: usize) -> Result<Self, CudaError> {
        Self::with_cache(ordinal, KernelCache::new(KernelCache::default_dir()))
    }

    pub fn with_cache(ordinal: usize, cache: KernelCache) -> Result<Self, CudaError> {
        // SAFETY: only probes whether the shared library loads.
        if !unsafe { sys::is_culib_present() } {
            return Err(CudaError::NoDriver);
        }
        if !nvrtc::available() {
            return Err(CudaError::NoNvrtc);
        }
        let ctx = CudaContext::new(ordinal)?;
        let (major, minor) = ctx.compute_capability()?;
        let attr = |a| ctx.attribute(a).map(|v| v.max(0) as u32);
        let device = DeviceInfo {
            compute_units: attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            max_lds_bytes: attr(
                sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?,
        };
        let stream = ctx.default_stream();
        Ok(CudaBackend {
            ctx,
            stream,
            arch: format!("sm_{major}{minor}"),
            device,
            cache,
            loaded: Mutex::new(HashMap::new()),
        })
    }

    /// NVRTC architecture of the device, e.g. `sm_90`.
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// The device's name, e.g. `NVIDIA H100 80GB HBM3`.
    pub fn device_name(&self) -> Result<String, CudaError> {
        Ok(self.ctx.name()?)
    }

    pub fn device_info(&self) -> DeviceInfo {
        self.device
    }

    /// Plans as if the device had `compute_units` SMs (at least 1): small counts make StreamK
    /// grids mix data-parallel and stream-K tiles on small problems.
    pub fn with_compute_units(mut self, compute_units: u32) -> Self {
        self.device.compute_units = compute_units.max(1);
        self
    }

    /// The device as support checks and selection see it: one SM is a compute unit, and the
    /// auto split-K plan fills each twice.
    pub fn device_model(&self) -> DeviceModel {
        DeviceModel {
            arch: None,
            compute_units: self.device.compute_units,
            occupancy: 2,
        }
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Compiles (in parallel, through the cache) and loads kernels; results in input order.
    pub fn build(&self, kernels: Vec<HipKernel>) -> Vec<Result<LoadedKernel, CudaError>> {
        let pairs: Vec<(&str, &str)> = kernels
            .iter()
            .map(|k| (k.name.as_str(), k.source.as_str()))
            .collect();
        let cubins = self.cache.cubins(&pairs, &self.arch);
        kernels
            .into_iter()
            .zip(cubins)
            .map(|(k, c)| self.load(k, c?))
            .collect()
    }

    fn load(&self, kernel: HipKernel, cubin: Vec<u8>) -> Result<LoadedKernel, CudaError> {
        let module = self.ctx.load_module(Ptx::from_binary(cubin))?;
        let symbol = |kind| {
            kernel
                .entry(kind)
                .map(|e| e.symbol.clone())
                .ok_or_else(|| CudaError::Nvrtc(format!("{}: no {kind:?} entry", kernel.name)))
        };
        let main = module.load_function(&symbol(EntryKind::Main)?)?;
        let convert = module.load_function(&symbol(EntryKind::Convert)?)?;
        if kernel.config.lds_bytes > 48 * 1024 {
            main.set_attribute(
                sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                kernel.config.lds_bytes as i32,
            )?;
        }
        Ok(LoadedKernel {
            kernel,
            main,
            convert,
            _module: module,
        })
    }

    pub fn alloc(&self, bytes: usize) -> Result<CudaSlice<u8>, CudaError> {
        Ok(self.stream.alloc_zeros::<u8>(bytes.max(1))?)
    }

    pub fn upload(&self, bytes: &[u8]) -> Result<CudaSlice<u8>, CudaError> {
        Ok(self.stream.clone_htod(bytes)?)
    }

    pub fn download(&self, buf: &CudaSlice<u8>) -> Result<Vec<u8>, CudaError> {
        Ok(self.stream.clone_dtoh(buf)?)
    }

    pub fn synchronize(&self) -> Result<(), CudaError> {
        Ok(self.stream.synchronize()?)
    }

    /// Plans `problem` for the kernel on this device, checking the problem's data types.
    pub fn plan(&self, kernel: &HipKernel, problem: &ConvProblem) -> Result<LaunchPlan, CudaError> {
        let want = kernel.config.tensor_elems();
        let have = [
            problem.dtype.input,
            problem.dtype.weight,
            problem.dtype.output,
        ];
        for ((w, h), tensor) in want.iter().zip(have).zip(["input", "weight", "output"]) {
            let ok = matches!(
                (w, h),
                (Elem::F32, DataType::Fp32 | DataType::Tf32)
                    | (Elem::F16, DataType::Fp16)
                    | (Elem::Bf16, DataType::Bf16)
            );
            if !ok {
                return Err(CudaError::Problem(format!(
                    "{tensor} is {h}, kernel `{}` takes {w:?}",
                    kernel.name
                )));
            }
        }
        Ok(kernel.plan(&conv_dims(problem)?, &self.device)?)
    }

    /// Enqueues every step of `plan` on the stream (no synchronisation). `alpha`/`beta` are the
    /// Scale/Bilinear factors.
    pub fn launch(
        &self,
        k: &LoadedKernel,
        plan: &LaunchPlan,
        t: &mut DeviceTensors,
        workspace: Option<&mut CudaSlice<u8>>,
        alpha: f64,
        beta: f64,
    ) -> Result<(), CudaError> {
        let op = k.kernel.config.op;
        let checks = [
            ("input", t.input.len()),
            ("weight", t.weight.len()),
            ("output", t.output.len()),
        ];
        for ((tensor, have), need) in checks.into_iter().zip(plan.tensor_bytes) {
            if (have as u64) < need {
                return Err(CudaError::BufferSize { tensor, have, need });
            }
        }
        let out_idx = match op {
            ck_compiler::model::Op::Fwd => 2,
            ck_compiler::model::Op::BwdData => 0,
            ck_compiler::model::Op::BwdWeight => 1,
        };
        if let Some(d) = &t.d
            && (d.len() as u64) < plan.tensor_bytes[out_idx]
        {
            return Err(CudaError::BufferSize {
                tensor: "d",
                have: d.len(),
                need: plan.tensor_bytes[out_idx],
            });
        }
        let ws_len = workspace.as_ref().map_or(0, |w| w.len());
        if (ws_len as u64) < plan.workspace_bytes {
            return Err(CudaError::BufferSize {
                tensor: "workspace",
                have: ws_len,
                need: plan.workspace_bytes,
            });
        }
        let mut workspace = workspace;
        // Zero-fills first (they target buffers the kernels then read or accumulate into).
        for step in &plan.steps {
            if let Step::Zero {
                target,
                offset,
                bytes,
            } = *step
            {
                let (off, len) = (offset as usize, bytes as usize);
                let buf: &mut CudaSlice<u8> = match target {
                    ZeroTarget::Workspace => {
                        workspace.as_deref_mut().ok_or(CudaError::BufferSize {
                            tensor: "workspace",
                            have: 0,
                            need: plan.workspace_bytes,
                        })?
                    }
                    ZeroTarget::Output => match out_idx {
                        0 => &mut t.input,
                        1 => &mut t.weight,
                        _ => &mut t.output,
                    },
                };
                self.stream
                    .memset_zeros(&mut buf.slice_mut(off..off + len))?;
            }
        }
        let ptr = |s: &CudaSlice<u8>| s.device_ptr(&self.stream).0;
        let bufs = Buffers {
            input: ptr(&t.input),
            weight: ptr(&t.weight),
            output: ptr(&t.output),
            d: t.d.as_ref().map_or(0, ptr),
            workspace: workspace.as_deref().map_or(0, ptr),
        };
        let mut args = plan.args_for(bufs);
        args.alpha = alpha;
        args.beta = beta;
        let bytes = args.to_bytes();
        let mut image = ArgImage([0; CkArgs::BYTES]);
        image.0.copy_from_slice(&bytes);
        for step in &plan.steps {
            if let Step::Launch {
                entry,
                grid,
                block,
                lds_bytes,
            } = *step
            {
                let func = match entry {
                    EntryKind::Main => &k.main,
                    EntryKind::Convert => &k.convert,
                };
                let cfg = LaunchConfig {
                    grid_dim: (grid[0], grid[1], grid[2]),
                    block_dim: (block[0], block[1], block[2]),
                    shared_mem_bytes: lds_bytes,
                };
                let mut builder = self.stream.launch_builder(func);
                builder.arg(&image);
                // SAFETY: the argument block matches the kernel's `CkArgs`; every address in
                // it points into a live buffer of at least the size the plan requires (checked
                // above), and the stream orders these launches after the zero-fills.
                unsafe { builder.launch(cfg) }?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_libraries_are_errors_not_panics() {
        // SAFETY: only probes whether the shared library loads.
        let driver = unsafe { sys::is_culib_present() };
        match CudaBackend::new(0) {
            Err(CudaError::NoDriver) => assert!(!driver),
            Err(CudaError::NoNvrtc) => assert!(!nvrtc::available()),
            // With both libraries, a machine without a device reports a driver error.
            Err(CudaError::Driver(_)) | Ok(_) => assert!(driver && nvrtc::available()),
            Err(other) => panic!("unexpected error: {other}"),
        }
    }
}
