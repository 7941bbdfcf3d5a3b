//! Library instances on a HIP (AMD) device against the fp64 reference (see `gpu/mod.rs`). Ignored by
//! default: run with `cargo test -p ck-runtime --features hip -- --ignored` on a machine with
//! an AMD GPU and ROCm (libamdhip64, hiprtc).
#![cfg(feature = "hip")]

mod gpu;

use ck_runtime::hip::HipBackend;

#[test]
#[ignore = "needs a HIP (AMD) device (cargo test -p ck-runtime --features hip -- --ignored)"]
fn library_instances_match_the_reference_on_hip() {
    let real = HipBackend::new(0).unwrap_or_else(|e| panic!("{e}"));
    let small = HipBackend::new(0)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_compute_units(gpu::SMALL_CUS);
    gpu::check_cases(&[(&real, real.device_model()), (&small, small.device_model())]);
}
