//! Declare an instance in Rust, register it next to the instance library, and dispatch a
//! backward-weight problem on the CPU back end, verified against the fp64 reference.
//!
//! ```sh
//! cargo run --release -p ck-runtime --example dispatch
//! ```

use ck_runtime::reference::fresh_seed;
use ck_runtime::{ConvProblem, CpuBackend, Declared, ProblemData, Registry, conv_instance};
use std::process::ExitCode;

/// Checked when this file compiles: a mistake here is a compile error at the offending token.
static SMALL_TILE: Declared = conv_instance! {
    /// A 32x64 XDL V3 tile for small backward-weight problems.
    instance bwd_weight_xdl_v3_f16_32x64 {
        op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
        targets = [gfx90a, gfx942];
        block = 64; tile = [32, 64, 32]; k1 = 8; instr = [32, 32]; repeat = [1, 2];
        a { cluster = [4, 16, 1]; src_vector = 2; dst_vector = 8; }
        b { cluster = [4, 16, 1]; src_vector = 2; dst_vector = 8; }
        c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
        pipeline { scheduler = intrawave; version = v1; }
    }
};

fn main() -> ExitCode {
    match dispatch() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch() -> Result<bool, Box<dyn std::error::Error>> {
    let cpu = CpuBackend::default();
    let mut registry = Registry::new(cpu.device.clone());
    // The declared instance outranks the library (higher priority first, then cost).
    registry.register(SMALL_TILE.instance(), 1)?;
    registry.extend(ck_instances::all().iter().cloned(), 0)?;

    let problem: ConvProblem =
        "bwd_weight 2d G=2 N=4 K=34 C=34 filter=3x3 input=14x14 pad=1 dtype=fp16".parse()?;
    let inst = registry.select_for(&problem, &cpu)?;
    println!(
        "declared: {} = {}",
        SMALL_TILE.name(),
        SMALL_TILE.instance_string()
    );
    println!("problem:  {problem}");
    println!("selected: {}", inst.name);

    let mut data = ProblemData::random(inst, &problem, fresh_seed())?;
    let stats = data.run(&cpu, inst, &problem)?;
    let check = data.verify(&problem)?;
    println!(
        "ran {} workgroups (k_batch {}); {check}",
        stats.workgroups, stats.k_batch
    );
    Ok(check.passed())
}
