// ckdsl portable prelude: one source for clang HIP (AMD) and NVRTC (NVIDIA).
// It defines the vendor macros, 16-bit storage types with conversions, atomics and the MMA
// availability flags; everything after it is vendor-neutral.
#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC_RTC__)
#define CK_AMD 1
#if !defined(__HIPCC_RTC__)
#include <hip/hip_runtime.h>
#endif
// Wave size is fixed by the target: wave32 on RDNA (gfx11/gfx12), wave64 on CDNA (gfx9).
#if defined(__GFX11__) || defined(__GFX12__)
#define CK_WAVE 32
#else
#define CK_WAVE 64
#endif
#if defined(__gfx90a__) || defined(__gfx942__) || defined(__gfx950__) || defined(__gfx908__)
#define CK_MFMA 1
#elif defined(__GFX12__)
#define CK_WMMA_GFX12 1
#elif defined(__GFX11__)
#define CK_WMMA_GFX11 1
#endif
#elif defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define CK_NV 1
#define CK_WAVE 32
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CK_MMA_SYNC 1
#endif
// Warpgroup MMAs (wgmma) exist on the arch-specific sm_90a target only.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CK_WGMMA_ARCH 1
#endif
// Thread-block clusters and their distributed shared memory (sm_90+).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CK_CLUSTER 1
#endif
#else
#error "ckdsl kernels need clang HIP or NVRTC"
#endif

#define CK_DEV __device__ __forceinline__
// Threads per workgroup and the workgroups per compute unit the registers are budgeted for. The
// second bound is NVIDIA's minimum blocks per SM; HIP's reads differently (waves per EU), so AMD
// keeps the thread bound only.
#if defined(CK_NV)
#define CK_LAUNCH_BOUNDS(n, b) __launch_bounds__(n, b)
#else
#define CK_LAUNCH_BOUNDS(n, b) __launch_bounds__(n)
#endif
// Kernel arguments are read in place: on NVIDIA `__grid_constant__` lets device functions take
// their address without a copy to the stack; AMD reads them from the kernarg segment anyway.
#if defined(CK_NV)
#define CK_GRID_CONST __grid_constant__
#else
#define CK_GRID_CONST
#endif
// Out of line on every compiler: HIP's own `__noinline__` expands to nothing (ROCm 5 headers),
// so clang would inline the function anyway.
#define CK_NOINLINE __device__ __attribute__((noinline))

typedef long long ck_i64;
typedef unsigned short ck_u16;

// 16-bit floats are stored as raw bits so that the layout and the LDS tiles are the same on
// every compiler; arithmetic happens in fp32.
struct ck_f16 { ck_u16 bits; };
struct ck_bf16 { ck_u16 bits; };

CK_DEV float ck_to_float(float v) { return v; }
CK_DEV float ck_to_float(ck_bf16 v) { return __uint_as_float(((unsigned)v.bits) << 16); }
CK_DEV float ck_to_float(ck_f16 v) {
#if defined(CK_NV)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v.bits));
    return f;
#else
    return (float)__builtin_bit_cast(_Float16, v.bits);
#endif
}

template <typename T> CK_DEV T ck_from_float(float v);
template <> CK_DEV float ck_from_float<float>(float v) { return v; }
template <> CK_DEV ck_f16 ck_from_float<ck_f16>(float v) {
    ck_f16 r;
#if defined(CK_NV)
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r.bits) : "f"(v));
#else
    r.bits = __builtin_bit_cast(ck_u16, (_Float16)v);
#endif
    return r;
}
// Round to nearest even; NaN stays a NaN (sm_80+ has the conversion as one instruction).
template <> CK_DEV ck_bf16 ck_from_float<ck_bf16>(float v) {
    ck_bf16 r;
#if defined(CK_NV) && __CUDA_ARCH__ >= 800
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r.bits) : "f"(v));
#else
    unsigned u = __float_as_uint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        r.bits = (ck_u16)((u >> 16) | 0x40u);
    } else {
        r.bits = (ck_u16)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
#endif
    return r;
}

template <typename T> CK_DEV T ck_zero() { return ck_from_float<T>(0.0f); }

// v of the lane whose index differs by `mask` (below 32: within a warp, and within a wave).
CK_DEV float ck_shfl_xor(float v, int mask) {
#if defined(CK_NV)
    return __shfl_xor_sync(0xffffffffu, v, mask);
#else
    return __shfl_xor(v, mask);
#endif
}

// Flags of the StreamK fix-up: release after the partial tile is stored, acquire before it is read.
CK_DEV void ck_signal(int* flag) {
    __threadfence();
    atomicExch(flag, 1);
}
CK_DEV void ck_wait(int* flag) {
    while (atomicAdd(flag, 0) == 0) {
    }
    __threadfence();
}

#if defined(CK_NV)
// The shared-window address of an LDS pointer, as PTX's shared-memory operands take it.
CK_DEV unsigned ck_saddr(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
#endif
