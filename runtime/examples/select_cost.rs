//! The host cost of selection over the whole instance library: for each layer of a shapes file
//! (default `bench/networks/sample.json`) and op, the time to rank every instance as the CUDA
//! back end on an sm_90 card does (the learned model where one exists), with the analytic cost
//! model alone, and again for a problem selected before (the registry's cache). `cargo run --release -p ck-runtime --example select_cost [SHAPES]`.

use ck_compiler::model::{Arch, DataType, Op};
use ck_runtime::{DeviceModel, Registry, shapes};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/networks/sample.json").into()
    });
    let layers = shapes::parse(&std::fs::read_to_string(&path)?)?;
    let dev = DeviceModel {
        arch: None,
        compute_units: 132,
        occupancy: 2,
    };
    let mut reg = Registry::new(dev);
    reg.extend(ck_instances::all().iter().cloned(), 0)?;
    for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
        let problems: Vec<_> = layers
            .iter()
            .filter(|s| s.needs(op))
            .map(|s| s.problem(op, DataType::Fp16))
            .collect::<Result<_, _>>()?;
        let time = |target: Option<Arch>| {
            let t0 = Instant::now();
            for p in &problems {
                let ranked = match target {
                    Some(t) => reg.candidates_on(p, t),
                    None => reg.candidates(p),
                };
                std::hint::black_box(ranked);
            }
            t0.elapsed().as_secs_f64() * 1e6 / problems.len().max(1) as f64
        };
        // A problem selected before: one lookup.
        for p in &problems {
            let _ = reg.select(p);
        }
        let t0 = Instant::now();
        for p in &problems {
            let _ = std::hint::black_box(reg.select(p));
        }
        let cached = t0.elapsed().as_secs_f64() * 1e6 / problems.len().max(1) as f64;
        println!(
            "{op}: {} problems over {} instances: sm_90 ranking {:.0} µs a problem, analytic {:.0} µs, selected before {cached:.2} µs",
            problems.len(),
            reg.len(),
            time(Some(Arch::Sm90)),
            time(None)
        );
    }
    Ok(())
}
