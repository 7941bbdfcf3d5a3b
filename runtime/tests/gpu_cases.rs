//! The GPU test cases (see `gpu/mod.rs`) on the CPU back end: checks their selection and
//! harness on machines without a GPU.

mod gpu;

use ck_runtime::CpuBackend;

#[test]
fn the_gpu_cases_pass_on_the_cpu_back_end() {
    let cpu = CpuBackend::default();
    let small = CpuBackend {
        device: ck_runtime::DeviceModel {
            compute_units: gpu::SMALL_CUS,
            ..cpu.device.clone()
        },
        target: None,
    };
    gpu::check_cases(&[(&cpu, cpu.device.clone()), (&small, small.device.clone())]);
}
