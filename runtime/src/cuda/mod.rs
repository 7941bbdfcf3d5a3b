//! The CUDA back end: NVRTC JIT of the portable kernels (with an on-disk cubin cache and
//! parallel builds), device buffers, workspaces and launches through cudarc. libcuda and
//! libnvrtc are loaded at run time; without them every call returns an error.

mod backend;
pub mod bench;
mod cache;
mod cluster;
pub mod nvrtc;
pub mod reference;
mod tma;
pub mod tune;

pub use crate::gpu::{KernelCache, conv_dims};

use crate::device::DeviceModel;
use crate::gpu::{self, ArgImage, Enqueue, LaunchError, LoadedKernels, PlanWork};
use crate::problem::ConvProblem;
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::ir::Checked;
use ck_compiler::kernel::{
    Buffers, CkArgs, DCONV_BAND_LDS, DeviceInfo, EntryKind, KernelConfig, LaunchPlan, NO_CLUSTERS,
    Persist, TensorMap, tensor_maps, tma_mode,
};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaGraph, CudaModule, CudaSlice, CudaStream, DevicePtr, DeviceRepr,
    DriverError, LaunchConfig, PushKernelArg, sys,
};
use cudarc::nvrtc::Ptx;
use std::sync::{Arc, Mutex, OnceLock};

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
    #[error(transparent)]
    Launch(#[from] LaunchError),
    #[error("stream capture recorded no CUDA graph")]
    EmptyGraph,
    #[error("the device reference reads fp16, bf16 and fp32 tensors, not {0}")]
    ReferenceType(ck_compiler::model::DataType),
    #[error("a tensor map's box rows are {0} bytes: the kernels' stages take 128 or 64")]
    TensorMap(u32),
}

/// A kernel compiled and loaded on the device.
pub struct LoadedKernel {
    pub kernel: HipKernel,
    /// One function per entry of the kernel.
    functions: Vec<(EntryKind, CudaFunction)>,
    _module: Arc<CudaModule>,
}

/// Device tensors of one convolution on a CUDA device.
pub type DeviceTensors = gpu::DeviceTensors<CudaSlice<u8>>;

// SAFETY: plain bytes with the layout of the kernel's `CkArgs` (all fields 8 bytes, no padding).
unsafe impl DeviceRepr for ArgImage {}

pub struct CudaBackend {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    arch: String,
    device: DeviceInfo,
    /// Kernels with a TMA path copy through tensor maps where the problem allows (on unless
    /// `CK_TMA=0`, which keeps every copy on `cp.async` for comparison).
    tma: bool,
    cache: KernelCache,
    /// Kernels loaded by [`Backend::run`](crate::Backend::run), by source.
    loaded: LoadedKernels<LoadedKernel>,
    /// Streams of the stride phases after the first (which runs on `stream`), created as
    /// plans need them.
    phase_streams: Mutex<Vec<Arc<CudaStream>>>,
    /// The fp64 reference kernel, loaded on first use.
    reference: OnceLock<reference::ReferenceKernel>,
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
        let wgmma = (major, minor) == (9, 0);
        let arch = format!("sm_{major}{minor}{}", if wgmma { "a" } else { "" });
        let max_lds_bytes =
            attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?;
        let device = DeviceInfo {
            compute_units: attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            max_lds_bytes,
            // cp.async arrived with sm_80.
            async_copy: major >= 8,
            // Warpgroup MMAs are sm_90a only: the arch-specific target above.
            wgmma,
            persistent: persist_setting(wgmma),
            // Thread-block clusters arrived with sm_90; `CK_CLUSTERS=0` plans without them
            // (for side-by-side comparisons).
            cluster_slots: if major >= 9 && enabled("CK_CLUSTERS") {
                cluster::cluster_slots(&ctx, &cache, &arch, max_lds_bytes)?
            } else {
                NO_CLUSTERS
            },
        };
        // An own stream rather than the legacy default one: graphs can only be captured from
        // other streams. Every buffer of the backend is used on this one stream, so cudarc's
        // cross-stream event tracking is not needed (and would add nodes to captured graphs).
        // SAFETY: no buffer of this context is shared with another stream.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream()?;
        Ok(CudaBackend {
            ctx,
            stream,
            arch,
            device,
            tma: enabled("CK_TMA"),
            cache,
            loaded: LoadedKernels::default(),
            phase_streams: Mutex::new(Vec::new()),
            reference: OnceLock::new(),
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

    /// What measured times on this device depend on: the card, the driver's and NVRTC's
    /// versions and the target.
    pub fn device_id(&self) -> Result<crate::backend::DeviceId, CudaError> {
        let mut driver = 0;
        // SAFETY: writes one int; the driver library was loaded by `with_cache`.
        unsafe { sys::cuDriverGetVersion(&mut driver) }.result()?;
        let (major, minor) = nvrtc::version()?;
        Ok(crate::backend::DeviceId {
            card: self.device_name()?,
            driver: format!("{}.{}", driver / 1000, driver % 1000 / 10),
            compiler: format!("NVRTC {major}.{minor} {}", self.arch),
        })
    }

    pub fn device_info(&self) -> DeviceInfo {
        self.device
    }

    /// Plans as if the device had `compute_units` SMs (at least 1): small counts make StreamK
    /// grids mix data-parallel and stream-K tiles on small problems. Clusters keep to whole
    /// clusters of those SMs.
    pub fn with_compute_units(mut self, compute_units: u32) -> Self {
        let n = compute_units.max(1);
        self.device.compute_units = n;
        for (size, slots) in (1u32..).zip(self.device.cluster_slots.iter_mut()) {
            *slots = (*slots).min(n / size * size);
        }
        self
    }

    /// The device as support checks and selection see it.
    pub fn device_model(&self) -> DeviceModel {
        crate::gpu::device_model_of(&self.device)
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Compiles (in parallel, through the cache) and loads kernels; results in input order.
    /// `done` is called once per kernel compiled.
    pub fn build(
        &self,
        kernels: Vec<HipKernel>,
        done: &(dyn Fn() + Sync),
    ) -> Vec<Result<LoadedKernel, CudaError>> {
        let pairs: Vec<(&str, &str)> = kernels
            .iter()
            .map(|k| (k.name.as_str(), k.source.as_str()))
            .collect();
        let cubins = self.cache.cubins(&pairs, &self.arch, done);
        kernels
            .into_iter()
            .zip(cubins)
            .map(|(k, c)| self.load(k, c?))
            .collect()
    }

    fn load(&self, kernel: HipKernel, cubin: Vec<u8>) -> Result<LoadedKernel, CudaError> {
        let module = self.ctx.load_module(Ptx::from_binary(cubin))?;
        let functions = kernel
            .entries
            .iter()
            .map(|e| Ok((e.kind, module.load_function(&e.symbol)?)))
            .collect::<Result<Vec<_>, CudaError>>()?;
        // The main, persistent, sliced, tensor-core pointwise and window and small-channel entries may need
        // more than the default 48 KB of dynamic LDS (the tensor-core ones up to the device's
        // limit, by the problem's channels and window; the small-channel one for depthwise
        // bands).
        let main = gpu::entry_function(&functions, EntryKind::Main, &kernel.name)?;
        let entry = |kind| functions.iter().find(|(k, _)| *k == kind).map(|(_, f)| f);
        let limits = [
            (Some(main), kernel.config.lds_bytes_on(&self.device)),
            (
                entry(EntryKind::Persistent),
                kernel.config.persist_layout().map_or(0, |p| p.lds_bytes),
            ),
            (entry(EntryKind::Sliced), kernel.config.sliced_lds_bytes()),
            (entry(EntryKind::PointwiseMma), self.device.max_lds_bytes),
            (entry(EntryKind::WindowMma), self.device.max_lds_bytes),
            (
                entry(EntryKind::Direct),
                (DCONV_BAND_LDS as u32).min(self.device.max_lds_bytes),
            ),
        ];
        for (function, lds) in limits {
            if let Some(f) = function.filter(|_| lds > 48 * 1024) {
                f.set_attribute(
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    lds as i32,
                )?;
            }
        }
        // Plans may put split-K slices in clusters of every size the device runs.
        if cluster::has_large(&self.device.cluster_slots) {
            cluster::allow_large(main)?;
        }
        Ok(LoadedKernel {
            kernel,
            functions,
            _module: module,
        })
    }

    pub fn alloc(&self, bytes: usize) -> Result<CudaSlice<u8>, CudaError> {
        Ok(self.stream.alloc_zeros::<u8>(bytes.max(1))?)
    }

    pub fn upload(&self, bytes: &[u8]) -> Result<CudaSlice<u8>, CudaError> {
        Ok(self.stream.clone_htod(bytes)?)
    }

    /// A new device buffer holding `buf`'s bytes.
    pub fn copy(&self, buf: &CudaSlice<u8>) -> Result<CudaSlice<u8>, CudaError> {
        Ok(self.stream.clone_dtod(buf)?)
    }

    pub fn download(&self, buf: &CudaSlice<u8>) -> Result<Vec<u8>, CudaError> {
        Ok(self.stream.clone_dtoh(buf)?)
    }

    pub fn synchronize(&self) -> Result<(), CudaError> {
        Ok(self.stream.synchronize()?)
    }

    /// Records the work `enqueue` puts on the stream into a graph (nothing runs while it is
    /// recorded) and instantiates it, ready to replay with [`CudaGraph::launch`].
    pub fn capture(
        &self,
        enqueue: impl FnOnce() -> Result<(), CudaError>,
    ) -> Result<CudaGraph, CudaError> {
        self.stream
            .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)?;
        // The capture must end even when enqueueing failed, or the stream stays unusable.
        let recorded = enqueue();
        let graph = self.stream.end_capture(sys::CUgraphInstantiate_flags(0))?;
        recorded?;
        let graph = graph.ok_or(CudaError::EmptyGraph)?;
        graph.upload()?;
        Ok(graph)
    }

    /// Plans `problem` for `kernel`, the kernel of `inst`, on this device (see [`gpu::plan`]).
    pub fn plan(
        &self,
        inst: &Checked,
        kernel: &HipKernel,
        problem: &ConvProblem,
    ) -> Result<LaunchPlan, CudaError> {
        Ok(gpu::plan_on(self, inst, kernel, problem)?)
    }

    /// The operand maps of a launch with `args`, where the kernel has a TMA path that this
    /// device runs and the problem fits it; `None` copies with `cp.async`.
    fn tma_maps(&self, cfg: &KernelConfig, args: &CkArgs) -> Option<[TensorMap; 2]> {
        let tma_kernel = cfg.wgmma.is_some_and(|l| l.tma) && self.device.wgmma && self.tma;
        tma_kernel
            .then(|| tensor_maps(cfg.tma_kernel(), args))
            .flatten()
    }

    /// Whether the GEMMs of `plan` copy their operands with the tensor-memory accelerator
    /// (given 16-byte aligned buffers, as the back end allocates them).
    pub fn uses_tma(&self, kernel: &HipKernel, plan: &LaunchPlan) -> bool {
        self.tma_maps(&kernel.config, &plan.args).is_some()
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
        gpu::check_buffers(plan, op, t, workspace.as_deref(), |b| b.len())?;
        let mut workspace = workspace;
        for (target, offset, bytes) in gpu::zero_fills(plan) {
            let (off, len) = (offset as usize, bytes as usize);
            let buf = t.zero_target(workspace.as_deref_mut(), target, op)?;
            self.stream
                .memset_zeros(&mut buf.slice_mut(off..off + len))?;
        }
        let ptr = |s: &CudaSlice<u8>| s.device_ptr(&self.stream).0;
        let bufs = Buffers {
            input: ptr(&t.input),
            weight: ptr(&t.weight),
            output: ptr(&t.output),
            d: t.d.as_ref().map_or(0, ptr),
            workspace: workspace.as_deref().map_or(0, ptr),
        };
        let work = PlanWork::of(plan, bufs, alpha, beta);
        for l in &work.packs {
            self.enqueue(k, l, &self.stream)?;
        }
        // Stride phases write disjoint outputs and workspace regions: each runs on a stream of
        // its own, forked from this one after the zero-fills and copies and joined back before
        // the destination's copy is unpacked (in a captured graph, parallel branches).
        let lanes = self.phase_lanes(plan.phases.len())?;
        if lanes.len() > 1 {
            let forked = self.stream.record_event(None)?;
            for lane in &lanes[1..] {
                lane.wait(&forked)?;
            }
        }
        // Every lane rejoins this stream even when a launch fails, so that nothing is left
        // running on a lane the caller does not wait for.
        let launched = work.gemms.iter().try_for_each(|l| {
            let lane = lanes.get(l.lane).ok_or_else(|| {
                LaunchError::Problem(format!("a launch of phase {} in a plan without it", l.lane))
            })?;
            self.enqueue(k, l, lane)
        });
        for lane in &lanes[1..] {
            self.stream.join(lane)?;
        }
        launched?;
        for l in &work.unpacks {
            self.enqueue(k, l, &self.stream)?;
        }
        Ok(())
    }

    /// Enqueues one launch on `stream`, its GEMM operands copied through tensor maps where the
    /// kernel and the device have that path.
    fn enqueue(
        &self,
        k: &LoadedKernel,
        l: &Enqueue,
        stream: &Arc<CudaStream>,
    ) -> Result<(), CudaError> {
        let mut args = l.args;
        let maps = l
            .is_gemm()
            .then(|| self.tma_maps(&k.kernel.config, &args))
            .flatten();
        if let Some(m) = &maps {
            args.tma = tma_mode(m);
        }
        let maps = maps.map(|m| tma::encode_pair(&m)).transpose()?;
        let image = ArgImage::new(&args, maps.as_ref());
        let func = gpu::entry_function(&k.functions, l.entry, &k.kernel.name)?;
        let cfg = LaunchConfig {
            grid_dim: (l.grid[0], l.grid[1], l.grid[2]),
            block_dim: (l.block[0], l.block[1], l.block[2]),
            shared_mem_bytes: l.lds_bytes,
        };
        // The argument block matches the kernel's `CkArgs`; every address in it points into a
        // live buffer of at least the size the plan requires (`launch` checked them), and the
        // streams order the launch after the zero-fills and the copies it reads.
        if l.cluster > 1 {
            // SAFETY: as above; a cluster plan's grid is whole clusters.
            unsafe { cluster::launch(func, stream, cfg, l.cluster, &image) }?;
        } else {
            let mut builder = stream.launch_builder(func);
            builder.arg(&image);
            // SAFETY: as above.
            unsafe { builder.launch(cfg) }?;
        }
        Ok(())
    }

    /// The streams that phases 0 to `phases - 1` launch on (at least one): this back end's
    /// stream, then one of its own for each further phase.
    fn phase_lanes(&self, phases: usize) -> Result<Vec<Arc<CudaStream>>, CudaError> {
        let mut pool = self
            .phase_streams
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while pool.len() + 1 < phases {
            pool.push(self.ctx.new_stream()?);
        }
        let extra = phases.saturating_sub(1);
        Ok(std::iter::once(self.stream.clone())
            .chain(pool[..extra].iter().cloned())
            .collect())
    }
}

/// Whether a path that an environment switch can turn off is on: unless `var` is `0`.
fn enabled(var: &str) -> bool {
    std::env::var(var).map_or(true, |v| v != "0")
}

/// When plans take persistent workgroups: where they pay ([`Persist::Planned`]), with
/// `CK_PERSISTENT=all` wherever they can run (side-by-side comparisons), never with
/// `CK_PERSISTENT=0`. The entry copies through tensor maps only, so `CK_TMA=0` keeps it off too.
fn persist_setting(wgmma: bool) -> Persist {
    if !wgmma || !enabled("CK_TMA") {
        return Persist::Off;
    }
    match std::env::var("CK_PERSISTENT").as_deref() {
        Ok("0") => Persist::Off,
        Ok("all") => Persist::Always,
        _ => Persist::Planned,
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
