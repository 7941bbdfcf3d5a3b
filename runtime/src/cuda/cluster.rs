//! Thread-block clusters (sm_90+): how many workgroups that each fill an SM run at once in
//! clusters of each size (what the plans size cluster grids by; a cluster lives in one GPC),
//! and launches in clusters, which cudarc's launch builder has no parameter for.

use super::CudaError;
use crate::gpu::{ArgImage, KernelCache};
use ck_compiler::kernel::{MAX_CLUSTER, NO_CLUSTERS};
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, sys};
use cudarc::nvrtc::Ptx;
use std::ffi::c_void;
use std::sync::Arc;

const PROBE: &str = "extern \"C\" __global__ void ck_cluster_probe() {}\n";

/// Workgroups of `lds` bytes of LDS each (the most a workgroup may have: one an SM) that run at
/// once in clusters of 1 to [`MAX_CLUSTER`], from the driver's occupancy query on an empty
/// kernel compiled for `arch` (through `cache`); 0 for the sizes the device does not run.
pub(super) fn cluster_slots(
    ctx: &Arc<CudaContext>,
    cache: &KernelCache,
    arch: &str,
    lds: u32,
) -> Result<[u32; MAX_CLUSTER], CudaError> {
    let cubin = cache.cubin("ck_cluster_probe", PROBE, arch)?;
    let module = ctx.load_module(Ptx::from_binary(cubin))?;
    let func = module.load_function("ck_cluster_probe")?;
    func.set_attribute(
        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        lds as i32,
    )?;
    // Without non-portable sizes (a driver or device that refuses them) clusters stop at 8.
    let large = allow_large(&func).is_ok();
    let mut slots = NO_CLUSTERS;
    for (size, slot) in (1u32..).zip(slots.iter_mut()) {
        if size > PORTABLE && !large {
            break;
        }
        let cfg = LaunchConfig {
            grid_dim: (size, 1, 1),
            block_dim: (128, 1, 1),
            shared_mem_bytes: lds,
        };
        let mut attr = cluster_attribute(size);
        let config = launch_config(cfg, std::ptr::null_mut(), &mut attr);
        let mut clusters = 0;
        // SAFETY: `config` and the attribute it points to live across the call; `func` is a
        // loaded function of the current context.
        let query = unsafe {
            sys::cuOccupancyMaxActiveClusters(&mut clusters, func.cu_function(), &config)
        }
        .result();
        // A non-portable size the device cannot run is not an error: none run at once.
        match query {
            Ok(()) => *slot = clusters.max(0) as u32 * size,
            Err(_) if size > PORTABLE => break,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(slots)
}

/// Largest cluster every sm_90+ device runs.
const PORTABLE: u32 = 8;

/// Lets `func` run in clusters of more than [`PORTABLE`] workgroups.
pub(super) fn allow_large(func: &CudaFunction) -> Result<(), CudaError> {
    func.set_attribute(
        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
        1,
    )?;
    Ok(())
}

/// Whether a device's cluster slots (from [`cluster_slots`]) include non-portable sizes.
pub(super) fn has_large(slots: &[u32; MAX_CLUSTER]) -> bool {
    slots[PORTABLE as usize..].iter().any(|&s| s > 0)
}

/// Enqueues `func` on `stream` with `image` as its single parameter, in clusters of `cluster`
/// consecutive workgroups along x.
///
/// # Safety
/// `image` must be the argument block the kernel expects, every address in it valid for the
/// accesses the kernel makes, and `cfg.grid_dim.0` a multiple of `cluster`.
pub(super) unsafe fn launch(
    func: &CudaFunction,
    stream: &CudaStream,
    cfg: LaunchConfig,
    cluster: u32,
    image: &ArgImage,
) -> Result<(), CudaError> {
    stream.context().bind_to_thread()?;
    let mut attr = cluster_attribute(cluster);
    let config = launch_config(cfg, stream.cu_stream(), &mut attr);
    let mut params = [(image as *const ArgImage).cast_mut().cast::<c_void>()];
    // SAFETY: the caller vouches for the argument block and the grid; `config`, its attribute
    // and `params` live across the call.
    unsafe {
        sys::cuLaunchKernelEx(
            &config,
            func.cu_function(),
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
    .result()?;
    Ok(())
}

fn cluster_attribute(size: u32) -> sys::CUlaunchAttribute {
    // SAFETY: the attribute is plain data; all-zero bytes are a valid (empty) value.
    let mut attr: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
    attr.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = size;
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    attr
}

fn launch_config(
    cfg: LaunchConfig,
    stream: sys::CUstream,
    attr: &mut sys::CUlaunchAttribute,
) -> sys::CUlaunchConfig {
    sys::CUlaunchConfig {
        gridDimX: cfg.grid_dim.0,
        gridDimY: cfg.grid_dim.1,
        gridDimZ: cfg.grid_dim.2,
        blockDimX: cfg.block_dim.0,
        blockDimY: cfg.block_dim.1,
        blockDimZ: cfg.block_dim.2,
        sharedMemBytes: cfg.shared_mem_bytes,
        hStream: stream,
        attrs: attr,
        numAttrs: 1,
    }
}
