//! The HIP back end: hiprtc JIT of the portable kernels for AMD GPUs (with the shared on-disk
//! kernel cache and parallel builds), device buffers, workspaces and launches through the HIP
//! runtime. libamdhip64 (and libhiprtc from ROCm 6 on) are loaded at run time; without them, or
//! without a device, construction returns an error.

mod api;
mod backend;
pub mod hiprtc;

pub use crate::gpu::{KernelCache, conv_dims};

use crate::device::DeviceModel;
use crate::gpu::{self, ArgImage, LaunchError, LoadedKernels, PlanWork};
use crate::problem::ConvProblem;
use api::{Api, Function, Module, api};
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::ir::Checked;
use ck_compiler::kernel::{Buffers, DeviceInfo, EntryKind, LaunchPlan, NO_CLUSTERS, Persist};
use std::ffi::{CString, c_int, c_void};

/// `hipErrorNoDevice` and `hipErrorInvalidDevice`: what `hipInit` and `hipGetDeviceCount`
/// return on a machine without an AMD GPU (or without access to `/dev/kfd`).
const NO_DEVICE_CODES: [i32; 2] = [100, 101];

/// Maps the runtime's "no device" statuses to [`HipError::NoDevice`].
fn device_found(r: Result<(), HipError>) -> Result<(), HipError> {
    match r {
        Err(HipError::Runtime {
            call,
            code,
            message,
        }) if NO_DEVICE_CODES.contains(&code) => {
            Err(HipError::NoDevice(format!("{call}: {message}")))
        }
        other => other,
    }
}

/// Why the HIP libraries could not be loaded; the first failure is reported again on every
/// later call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error(
        "libamdhip64 not found (tried libamdhip64.so, .so.6, .so.5: install ROCm or Debian's libamdhip64-5)"
    )]
    NoLibrary,
    #[error("the HIP libraries lack {0}")]
    Symbol(String),
}

#[derive(Debug, thiserror::Error)]
pub enum HipError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("no HIP device: {0}")]
    NoDevice(String),
    #[error("{call}: {message} (status {code})")]
    Runtime {
        call: &'static str,
        code: i32,
        message: String,
    },
    #[error("hiprtc failed to compile `{instance}` for {target}:\n{log}")]
    Compile {
        instance: String,
        target: String,
        log: String,
    },
    #[error("{0}")]
    Device(String),
    #[error(transparent)]
    Launch(#[from] LaunchError),
}

/// Device memory, freed on drop.
pub struct DeviceBuffer {
    ptr: *mut c_void,
    len: usize,
    api: &'static Api,
}

impl DeviceBuffer {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device address.
    pub fn address(&self) -> u64 {
        self.ptr as u64
    }
}

// SAFETY: a device address is valid from any host thread of the process.
unsafe impl Send for DeviceBuffer {}
// SAFETY: `&DeviceBuffer` only reads the address and length.
unsafe impl Sync for DeviceBuffer {}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from hipMalloc and is freed exactly once.
        let _ = unsafe { (self.api.free)(self.ptr) };
    }
}

/// A kernel compiled and loaded on the device; the module is unloaded on drop.
pub struct LoadedKernel {
    pub kernel: HipKernel,
    /// One function per entry of the kernel.
    functions: Vec<(EntryKind, HipEntry)>,
    module: Module,
    api: &'static Api,
}

/// A loaded entry: its function and the most threads a workgroup of it may have on this
/// device. A wave-64 target holds a 1,024-thread workgroup only at 128 registers a lane, which
/// a kernel that spills into accumulation registers exceeds; such a launch is refused with
/// that reason rather than failing in the driver.
#[derive(Clone, Copy)]
struct HipEntry {
    function: Function,
    max_threads: u32,
}

// SAFETY: module and function handles are process-wide; the HIP runtime API is thread-safe and
// makes the owning device current itself (`HipBackend::current` before every use).
unsafe impl Send for LoadedKernel {}
// SAFETY: as above; the handles are never mutated after loading.
unsafe impl Sync for LoadedKernel {}

impl Drop for LoadedKernel {
    fn drop(&mut self) {
        // SAFETY: `module` came from hipModuleLoadData and is unloaded exactly once; its
        // functions are not used after this.
        let _ = unsafe { (self.api.module_unload)(self.module) };
    }
}

/// Device tensors of one convolution on a HIP device.
pub type DeviceTensors = gpu::DeviceTensors<DeviceBuffer>;

pub struct HipBackend {
    api: &'static Api,
    ordinal: i32,
    /// The device's full target name, e.g. `gfx90a:sramecc+:xnack-` (what hiprtc compiles for).
    arch: String,
    device: DeviceInfo,
    cache: KernelCache,
    /// Kernels loaded by [`Backend::run`](crate::Backend::run), by source.
    loaded: LoadedKernels<LoadedKernel>,
}

impl HipBackend {
    /// Opens device `ordinal` with the default kernel cache.
    pub fn new(ordinal: usize) -> Result<Self, HipError> {
        Self::with_cache(ordinal, KernelCache::new(KernelCache::default_dir()))
    }

    pub fn with_cache(ordinal: usize, cache: KernelCache) -> Result<Self, HipError> {
        let api = api()?;
        // SAFETY: hipInit takes flags 0 and may be called any number of times.
        device_found(api.check("hipInit", unsafe { (api.init)(0) }))?;
        let mut count = 0;
        // SAFETY: `count` is valid for writes.
        let status = unsafe { (api.get_device_count)(&mut count) };
        device_found(api.check("hipGetDeviceCount", status))?;
        if count <= 0 {
            return Err(HipError::NoDevice("hipGetDeviceCount found none".into()));
        }
        let ordinal = i32::try_from(ordinal)
            .ok()
            .filter(|&o| o < count)
            .ok_or_else(|| HipError::NoDevice(format!("device {ordinal} of {count}")))?;
        // SAFETY: the ordinal is in range.
        api.check("hipSetDevice", unsafe { (api.set_device)(ordinal) })?;
        let mut props = vec![0u8; api::DEVICE_PROP_BYTES];
        // SAFETY: the buffer is larger than any `hipDeviceProp_t` layout the symbol fills.
        api.check("hipGetDeviceProperties", unsafe {
            (api.get_device_properties)(props.as_mut_ptr().cast(), ordinal)
        })?;
        let name = &props[api::PROP_GCN_ARCH_NAME..api::PROP_GCN_ARCH_NAME + 256];
        let arch = name
            .iter()
            .position(|&b| b == 0)
            .and_then(|end| std::str::from_utf8(&name[..end]).ok())
            .filter(|a| a.starts_with("gfx"))
            .ok_or_else(|| {
                HipError::Device(
                    "hipDeviceProp_t has an unexpected layout (no gfx target name where HIP 5 puts it)"
                        .into(),
                )
            })?
            .to_string();
        let compute_units = api
            .attribute(api::ATTR_MULTIPROCESSOR_COUNT, ordinal)?
            .max(1) as u32;
        let lds = api.attribute(api::ATTR_MAX_SHARED_MEMORY_PER_BLOCK, ordinal)?;
        Ok(HipBackend {
            api,
            ordinal,
            arch,
            device: DeviceInfo {
                compute_units,
                max_lds_bytes: u32::try_from(lds).unwrap_or(0),
                async_copy: false,
                wgmma: false,
                persistent: Persist::Off,
                cluster_slots: NO_CLUSTERS,
            },
            cache,
            loaded: LoadedKernels::default(),
        })
    }

    /// The device's target, e.g. `gfx90a:sramecc+:xnack-`.
    pub fn arch(&self) -> &str {
        &self.arch
    }

    pub fn device_info(&self) -> DeviceInfo {
        self.device
    }

    /// Plans as if the device had `compute_units` CUs (at least 1): small counts make StreamK
    /// grids mix data-parallel and stream-K tiles on small problems.
    pub fn with_compute_units(mut self, compute_units: u32) -> Self {
        self.device.compute_units = compute_units.max(1);
        self
    }

    /// The device as support checks and selection see it.
    pub fn device_model(&self) -> DeviceModel {
        crate::gpu::device_model_of(&self.device)
    }

    /// Makes this back end's device current on the calling thread (HIP's current device is
    /// per thread).
    fn current(&self) -> Result<&'static Api, HipError> {
        // SAFETY: the ordinal was checked when the back end was opened.
        self.api.check("hipSetDevice", unsafe {
            (self.api.set_device)(self.ordinal)
        })?;
        Ok(self.api)
    }

    /// Compiles (in parallel, through the cache) and loads kernels; results in input order.
    pub fn build(&self, kernels: Vec<HipKernel>) -> Vec<Result<LoadedKernel, HipError>> {
        let pairs: Vec<(&str, &str)> = kernels
            .iter()
            .map(|k| (k.name.as_str(), k.source.as_str()))
            .collect();
        let objects = self.cache.code_objects(&pairs, &self.arch);
        kernels
            .into_iter()
            .zip(objects)
            .map(|(k, c)| self.load(k, c?))
            .collect()
    }

    fn load(&self, kernel: HipKernel, code: Vec<u8>) -> Result<LoadedKernel, HipError> {
        let api = self.current()?;
        let mut module: Module = std::ptr::null_mut();
        // SAFETY: `code` is a code object hiprtc produced; HIP copies what it needs.
        api.check("hipModuleLoadData", unsafe {
            (api.module_load_data)(&mut module, code.as_ptr().cast())
        })?;
        // Owns the module from here on, so an error below unloads it.
        let mut loaded = LoadedKernel {
            kernel,
            functions: Vec::new(),
            module,
            api,
        };
        for entry in &loaded.kernel.entries {
            let symbol = CString::new(entry.symbol.as_str())
                .map_err(|_| HipError::Device("bad entry symbol".into()))?;
            let mut f: Function = std::ptr::null_mut();
            // SAFETY: the module is loaded; `symbol` is NUL-terminated.
            api.check("hipModuleGetFunction", unsafe {
                (api.module_get_function)(&mut f, loaded.module, symbol.as_ptr())
            })?;
            let mut max_threads: c_int = 0;
            // SAFETY: `f` is a function of the loaded module; `max_threads` is writable.
            api.check("hipFuncGetAttribute", unsafe {
                (api.func_get_attribute)(&mut max_threads, api::FUNC_ATTR_MAX_THREADS_PER_BLOCK, f)
            })?;
            let loaded_entry = HipEntry {
                function: f,
                max_threads: u32::try_from(max_threads).unwrap_or(0),
            };
            loaded.functions.push((entry.kind, loaded_entry));
        }
        Ok(loaded)
    }

    /// Zeroed device memory of `bytes` bytes (at least one).
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, HipError> {
        let api = self.current()?;
        let mut ptr = std::ptr::null_mut();
        // SAFETY: `ptr` is valid for writes.
        api.check("hipMalloc", unsafe { (api.malloc)(&mut ptr, bytes.max(1)) })?;
        let buf = DeviceBuffer {
            ptr,
            len: bytes,
            api,
        };
        // SAFETY: the allocation holds at least `bytes` bytes.
        api.check("hipMemsetAsync", unsafe {
            (api.memset_async)(ptr, 0, bytes, std::ptr::null_mut())
        })?;
        Ok(buf)
    }

    pub fn upload(&self, bytes: &[u8]) -> Result<DeviceBuffer, HipError> {
        let buf = self.alloc(bytes.len())?;
        // SAFETY: both regions hold `bytes.len()` bytes; the copy is synchronous.
        self.api.check("hipMemcpy", unsafe {
            (self.api.memcpy)(
                buf.ptr,
                bytes.as_ptr().cast(),
                bytes.len(),
                api::MEMCPY_HOST_TO_DEVICE,
            )
        })?;
        Ok(buf)
    }

    pub fn download(&self, buf: &DeviceBuffer) -> Result<Vec<u8>, HipError> {
        let api = self.current()?;
        let mut out = vec![0u8; buf.len];
        // SAFETY: both regions hold `buf.len` bytes; hipMemcpy on the null stream waits for
        // the work before it.
        api.check("hipMemcpy", unsafe {
            (api.memcpy)(
                out.as_mut_ptr().cast(),
                buf.ptr,
                buf.len,
                api::MEMCPY_DEVICE_TO_HOST,
            )
        })?;
        Ok(out)
    }

    pub fn synchronize(&self) -> Result<(), HipError> {
        let api = self.current()?;
        // SAFETY: no arguments.
        api.check("hipDeviceSynchronize", unsafe {
            (api.device_synchronize)()
        })
    }

    /// Plans `problem` for `kernel`, the kernel of `inst`, on this device (see [`gpu::plan`]).
    pub fn plan(
        &self,
        inst: &Checked,
        kernel: &HipKernel,
        problem: &ConvProblem,
    ) -> Result<LaunchPlan, HipError> {
        Ok(gpu::plan_on(self, inst, kernel, problem)?)
    }

    /// Enqueues every step of `plan` on the null stream (no synchronisation). `alpha`/`beta`
    /// are the Scale/Bilinear factors.
    pub fn launch(
        &self,
        k: &LoadedKernel,
        plan: &LaunchPlan,
        t: &mut DeviceTensors,
        workspace: Option<&mut DeviceBuffer>,
        alpha: f64,
        beta: f64,
    ) -> Result<(), HipError> {
        let api = self.current()?;
        let op = k.kernel.config.op;
        gpu::check_buffers(plan, op, t, workspace.as_deref(), DeviceBuffer::len)?;
        let mut workspace = workspace;
        for (target, offset, bytes) in gpu::zero_fills(plan) {
            let buf = t.zero_target(workspace.as_deref_mut(), target, op)?;
            let end = offset.saturating_add(bytes);
            if end > buf.len as u64 {
                return Err(LaunchError::BufferSize {
                    tensor: "zero-filled",
                    have: buf.len,
                    need: end,
                }
                .into());
            }
            // SAFETY: `offset + bytes` lies inside the allocation (checked above); the
            // null stream orders the fill before the launches.
            api.check("hipMemsetAsync", unsafe {
                (api.memset_async)(
                    buf.ptr.cast::<u8>().wrapping_add(offset as usize).cast(),
                    0,
                    bytes as usize,
                    std::ptr::null_mut(),
                )
            })?;
        }
        let bufs = Buffers {
            input: t.input.address(),
            weight: t.weight.address(),
            output: t.output.address(),
            d: t.d.as_ref().map_or(0, DeviceBuffer::address),
            workspace: workspace.as_deref().map_or(0, DeviceBuffer::address),
        };
        // The null stream runs the copies and the stride phases one after another.
        let work = PlanWork::of(plan, bufs, alpha, beta);
        for l in work.packs.iter().chain(&work.gemms).chain(&work.unpacks) {
            if l.cluster > 1 {
                return Err(HipError::Launch(LaunchError::Problem(format!(
                    "the plan launches clusters of {} workgroups, which HIP devices do not have",
                    l.cluster
                ))));
            }
            let image = ArgImage::new(&l.args, None);
            let entry = *gpu::entry_function(&k.functions, l.entry, &k.kernel.name)?;
            let threads = l.block.iter().product::<u32>();
            if threads > entry.max_threads {
                return Err(HipError::Launch(LaunchError::Problem(format!(
                    "{}: the {:?} entry's registers and LDS allow workgroups of {} threads on this device, the plan launches {threads}",
                    k.kernel.name, l.entry, entry.max_threads
                ))));
            }
            let func = entry.function;
            let mut params = [(&image as *const ArgImage).cast_mut().cast::<c_void>()];
            // SAFETY: the single parameter is the argument block with the kernel's `CkArgs`
            // layout; every address in it points into a live buffer of at least the size the
            // plan requires (checked above); the null stream orders the launches after the
            // zero-fills and before later copies.
            api.check("hipModuleLaunchKernel", unsafe {
                (api.module_launch_kernel)(
                    func,
                    l.grid[0],
                    l.grid[1],
                    l.grid[2],
                    l.block[0],
                    l.block[1],
                    l.block[2],
                    l.lds_bytes,
                    std::ptr::null_mut(),
                    params.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
