//! Encodes the compiler's tensor-map descriptions ([`TensorMap`]) with the CUDA driver, for the
//! TMA copies of sm_90a kernels.

use super::CudaError;
use crate::gpu::TensorMapBytes;
use ck_compiler::kernel::{Elem, MapKind, TMA_MAP_BYTES, TensorMap};
use cudarc::driver::sys;
use std::mem::MaybeUninit;

fn encode(map: &TensorMap) -> Result<[u8; TMA_MAP_BYTES], CudaError> {
    use sys::CUtensorMapDataType as Ty;
    let ty = match map.elem {
        Elem::F16 => Ty::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        Elem::Bf16 => Ty::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        Elem::F32 => Ty::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        // Raw bytes (one-byte kernels have no TMA path; a map would copy them unchanged).
        Elem::I8 | Elem::F8 | Elem::Bf8 => Ty::CU_TENSOR_MAP_DATA_TYPE_UINT8,
    };
    let interleave = sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE;
    use sys::CUtensorMapSwizzle as Swizzle;
    // The compiler plans boxes of a 128-byte line or half of one; anything else has no
    // stage layout in the kernels.
    let swizzle = match map.swizzle_bytes() {
        128 => Swizzle::CU_TENSOR_MAP_SWIZZLE_128B,
        64 => Swizzle::CU_TENSOR_MAP_SWIZZLE_64B,
        bytes => return Err(CudaError::TensorMap(bytes)),
    };
    let l2 = sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
    // Out-of-bounds elements (padding, rows past the tensor) read as zero.
    let fill = sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
    let mut out = MaybeUninit::<sys::CUtensorMap>::uninit();
    let address = map.address as *mut std::ffi::c_void;
    let result = match map.kind {
        // SAFETY: every array holds at least `rank` (strides `rank - 1`) elements, `out` is
        // writable and aligned as the driver requires; the driver only reads the arrays and
        // writes `out`, and keeps no pointer to any of them.
        MapKind::Tiled { box_dims } => unsafe {
            sys::cuTensorMapEncodeTiled(
                out.as_mut_ptr(),
                ty,
                map.rank,
                address,
                map.dims.as_ptr(),
                map.strides.as_ptr(),
                box_dims.as_ptr(),
                map.element_strides.as_ptr(),
                interleave,
                swizzle,
                l2,
                fill,
            )
        },
        MapKind::Im2col {
            lower,
            upper,
            channels,
            pixels,
        } =>
        // SAFETY: as above; the corners hold the rank's two spatial dimensions.
        unsafe {
            sys::cuTensorMapEncodeIm2col(
                out.as_mut_ptr(),
                ty,
                map.rank,
                address,
                map.dims.as_ptr(),
                map.strides.as_ptr(),
                lower.as_ptr(),
                upper.as_ptr(),
                channels,
                pixels,
                map.element_strides.as_ptr(),
                interleave,
                swizzle,
                l2,
                fill,
            )
        },
    };
    result.result()?;
    // SAFETY: the driver wrote the whole map on success.
    let map = unsafe { out.assume_init() };
    let mut bytes = [0u8; TMA_MAP_BYTES];
    for (chunk, word) in bytes.chunks_exact_mut(8).zip(map.opaque) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    Ok(bytes)
}

/// The encoded A and B maps.
pub fn encode_pair(maps: &[TensorMap; 2]) -> Result<TensorMapBytes, CudaError> {
    Ok([encode(&maps[0])?, encode(&maps[1])?])
}
