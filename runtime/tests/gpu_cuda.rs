//! Library instances on a CUDA device against the fp64 reference (see `gpu/mod.rs`). Ignored by
//! default: run with `cargo test -p ck-runtime --features cuda -- --ignored` on a machine with
//! an NVIDIA GPU, libcuda and libnvrtc.so.13.
#![cfg(feature = "cuda")]

mod gpu;

use ck_runtime::cuda::CudaBackend;

#[test]
#[ignore = "needs a CUDA device (cargo test -p ck-runtime --features cuda -- --ignored)"]
fn library_instances_match_the_reference_on_cuda() {
    let real = CudaBackend::new(0).unwrap_or_else(|e| panic!("{e}"));
    let small = CudaBackend::new(0)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_compute_units(gpu::SMALL_CUS);
    gpu::check_cases(&[(&real, real.device_model()), (&small, small.device_model())]);
}
