//! The fp64 reference on the device (`reference.cu`): the same direct definition as
//! [`crate::reference::reference`] for plain convolutions, which on the layers of real networks
//! (up to 1e11 multiply-adds) costs the device a fraction of what it costs the host's cores, so
//! that benchmarks and tuning verify every run of every layer. `gpu_check --reference` compares it with the host
//! reference on every probe problem.

use super::{CudaBackend, CudaError, DeviceTensors, conv_dims};
use crate::gpu::LaunchError;
use crate::layout::Role;
use crate::problem::ConvProblem;
use crate::tensor::{Tensor, TensorData};
use ck_compiler::model::Op;
use cudarc::driver::{
    CudaFunction, CudaModule, DevicePtr, DeviceRepr, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use std::sync::Arc;

const SOURCE: &str = include_str!("reference.cu");

/// Threads a block, and the threads a launch aims at (a few waves of a large card).
const BLOCK: u32 = 256;
const THREADS: u64 = 1 << 22;
/// Products a thread sums at least before the reduction is split further.
const MIN_TERMS: u64 = 256;

/// The kernel's argument block: `CkRefArgs` of `reference.cu`, field for field.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct RefArgs {
    op: i64,
    ty: [i64; 3],
    g: i64,
    n: i64,
    k: i64,
    c: i64,
    input: [i64; 3],
    filter: [i64; 3],
    output: [i64; 3],
    stride: [i64; 3],
    dilation: [i64; 3],
    left_pad: [i64; 3],
    xs: [i64; 6],
    ws: [i64; 6],
    ys: [i64; 6],
    dest: i64,
    chunks: i64,
    chunk: i64,
    x: u64,
    w: u64,
    y: u64,
    result: u64,
}

// SAFETY: plain integers with the layout of the kernel's `CkRefArgs` (all fields 8 bytes).
unsafe impl DeviceRepr for RefArgs {}

/// The compiled reference kernel, loaded once a back end.
pub struct ReferenceKernel {
    function: CudaFunction,
    _module: Arc<CudaModule>,
}

impl CudaBackend {
    fn reference_kernel(&self) -> Result<&ReferenceKernel, CudaError> {
        if let Some(k) = self.reference.get() {
            return Ok(k);
        }
        let cubin = self.cache.cubin("ck_reference", SOURCE, &self.arch)?;
        let module = self.ctx.load_module(Ptx::from_binary(cubin))?;
        let function = module.load_function("ck_reference")?;
        Ok(self.reference.get_or_init(|| ReferenceKernel {
            function,
            _module: module,
        }))
    }
}

impl RefArgs {
    /// The arguments of `p`'s reference with the element types `ty` (input, weight, output:
    /// 0 fp16, 1 bf16, 2 fp32), its buffers still unset, and the launch's block count.
    fn new(p: &ConvProblem, ty: [i64; 3]) -> Result<(RefArgs, u32), String> {
        p.validate().map_err(|e| e.to_string())?;
        let desc = |role| p.desc(role).map_err(|e| e.to_string());
        let (xd, wd, yd) = (desc(Role::Input)?, desc(Role::Weight)?, desc(Role::Output)?);
        let dest = desc(p.destination())?.elements();
        // Spatial sizes at rank 3, leading unit dimensions first.
        let d = conv_dims(p).map_err(|e| e.to_string())?;
        let int = |v: u64| v as i64;
        let rank3 = |v: [u64; 3]| v.map(int);
        // (g, outer, channel) strides, then the spatial ones at rank 3 (unit dimensions 0).
        let strides = |s: &[u64]| -> [i64; 6] {
            let mut out = [0; 6];
            for (o, &x) in out[..3].iter_mut().zip(s) {
                *o = int(x);
            }
            for (o, &x) in out[6 - (s.len() - 3)..].iter_mut().zip(&s[3..]) {
                *o = int(x);
            }
            out
        };
        let spatial = |v: [u64; 3]| v.iter().product::<u64>();
        // The reduction each destination element sums, and the products of one of its steps.
        let (reduced, terms) = match p.op {
            Op::Fwd => (p.c, spatial(d.filter)),
            Op::BwdData => (p.k, spatial(d.filter)),
            Op::BwdWeight => (p.n * spatial(d.output), 1),
        };
        let chunks = (reduced * terms / MIN_TERMS)
            .min(THREADS.div_ceil(dest.max(1)))
            .clamp(1, reduced.max(1));
        let args = RefArgs {
            op: match p.op {
                Op::Fwd => 0,
                Op::BwdData => 1,
                Op::BwdWeight => 2,
            },
            ty,
            g: int(p.g),
            n: int(p.n),
            k: int(p.k),
            c: int(p.c),
            input: rank3(d.input),
            filter: rank3(d.filter),
            output: rank3(d.output),
            stride: rank3(d.stride),
            dilation: rank3(d.dilation),
            left_pad: rank3(d.pad),
            xs: strides(&xd.strides),
            ws: strides(&wd.strides),
            ys: strides(&yd.strides),
            dest: int(dest),
            chunks: int(chunks),
            chunk: int(reduced.div_ceil(chunks)),
            ..RefArgs::default()
        };
        let blocks = (dest * chunks).div_ceil(u64::from(BLOCK)).clamp(1, 1 << 20) as u32;
        Ok((args, blocks))
    }
}

/// The fp64 destination of `p` in its memory order, computed on the device from the sources
/// in `t` (the destination buffer is not read), whose host copies `host` give the element
/// types.
pub fn device_reference(
    be: &CudaBackend,
    p: &ConvProblem,
    t: &DeviceTensors,
    host: [&Tensor; 3],
) -> Result<Vec<f64>, CudaError> {
    let code = |t: &Tensor| match t.data() {
        TensorData::F16(_) => Ok(0),
        TensorData::Bf16(_) => Ok(1),
        TensorData::F32(_) => Ok(2),
        TensorData::F8(_) | TensorData::Bf8(_) | TensorData::I8(_) => {
            Err(CudaError::ReferenceType(t.dtype()))
        }
    };
    let ty = [code(host[0])?, code(host[1])?, code(host[2])?];
    let (mut args, blocks) =
        RefArgs::new(p, ty).map_err(|e| CudaError::from(LaunchError::Problem(e)))?;
    // The destination's packed elements, zeroed.
    let result = be.alloc(args.dest as usize * 8)?;
    let ptr = |s: &cudarc::driver::CudaSlice<u8>| s.device_ptr(&be.stream).0;
    (args.x, args.w, args.y, args.result) =
        (ptr(&t.input), ptr(&t.weight), ptr(&t.output), ptr(&result));
    let k = be.reference_kernel()?;
    let mut launch = be.stream.launch_builder(&k.function);
    launch.arg(&args);
    let cfg = LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: the argument block matches `CkRefArgs`; the three sources are live buffers of the
    // problem's tensors (their offsets stay within the descriptors' extents, which the kernel
    // checks against the problem's sizes), and `result` holds every destination element.
    unsafe { launch.launch(cfg) }?;
    let bytes = be.download(&result)?;
    Ok(bytes
        .chunks_exact(8)
        .map(|b| b.try_into().map_or(f64::NAN, f64::from_le_bytes))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cuda::nvrtc;
    use ck_compiler::model::DataType;

    #[test]
    fn the_reference_kernel_compiles_for_sm_90a() {
        if !nvrtc::available() {
            let required = std::env::var("CK_REQUIRE_TOOLCHAINS").is_ok_and(|v| v == "1");
            assert!(!required, "CK_REQUIRE_TOOLCHAINS=1 but NVRTC does not load");
            eprintln!("skipped: no NVRTC");
            return;
        }
        let cubin = nvrtc::compile_cubin("ck_reference", SOURCE, "sm_90a").unwrap();
        assert!(!cubin.is_empty());
    }

    #[test]
    fn a_1d_problem_runs_at_rank_3_with_unit_leading_dimensions() {
        let p = ConvProblem::new(Op::Fwd, 1, 2, 8, 4, &[3], &[17], DataType::Fp16)
            .unwrap()
            .with_pads(&[1], &[1])
            .unwrap();
        let (a, blocks) = RefArgs::new(&p, [0; 3]).unwrap();
        assert_eq!(
            (a.input, a.filter, a.output),
            ([1, 1, 17], [1, 1, 3], [1, 1, 17])
        );
        assert_eq!(
            (a.stride, a.dilation, a.left_pad),
            ([1, 1, 1], [1, 1, 1], [0, 0, 1])
        );
        // NWGC input (G = 1, C = 4): the width's stride is a pixel of G·C elements; no depth or
        // height.
        assert_eq!(a.xs[3..], [0, 0, 4]);
        assert_eq!(a.dest, 2 * 8 * 17);
        // Forward sums C·taps = 12 products: no slices.
        assert_eq!((a.chunks, a.chunk, blocks), (1, 4, 2));
    }

    #[test]
    fn a_long_weight_reduction_is_sliced_and_every_slice_counted() {
        let p = ConvProblem::new(
            Op::BwdWeight,
            1,
            64,
            16,
            16,
            &[3, 3],
            &[56, 56],
            DataType::Fp16,
        )
        .unwrap()
        .with_pads(&[1, 1], &[1, 1])
        .unwrap();
        let (a, _) = RefArgs::new(&p, [0; 3]).unwrap();
        let reduced = 64 * 56 * 56;
        assert!(a.chunks > 1 && a.chunks * a.chunk >= reduced);
        assert!((a.chunks - 1) * a.chunk < reduced, "no slice is empty");
        assert!(a.chunk >= MIN_TERMS as i64);
    }
}
