//! The host cost of selection over the whole instance library: for each layer of a shapes file
//! (default `bench/networks/sample.json`) and op, the time to select for a problem not seen
//! before as the CUDA back end on an sm_90 card does (its learned model where one exists, and
//! its check that each candidate has a portable kernel), to rank every instance's verdict with
//! the learned model (`ckc list --problem --device`) and with the analytic cost model alone,
//! and to select again for a problem selected before (the registry's cache). Needs no GPU.
//! `cargo run --release -p ck-runtime --features cuda --example select_cost [SHAPES [OP [DTYPE]]]`
//! (OP: one of fwd, bwd_data, bwd_weight, all three when not given or `all`; DTYPE: a data
//! type of problem strings, fp16 when not given; tf32 problems rank by the analytic model).

use ck_compiler::model::{Arch, DataType, Op};
use ck_runtime::testing::Selecting;
use ck_runtime::{ConvProblem, Registry, shapes};
use std::time::Instant;

/// Microseconds a problem, the least of five passes (a shared machine's noise only adds).
fn per_problem(problems: &[ConvProblem], mut f: impl FnMut(&ConvProblem)) -> f64 {
    (0..5)
        .map(|_| {
            let t0 = Instant::now();
            for p in problems {
                f(p);
            }
            t0.elapsed().as_secs_f64() * 1e6 / problems.len().max(1) as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/networks/sample.json").into()
    });
    let layers = shapes::parse(&std::fs::read_to_string(&path)?)?;
    let dev = ck_runtime::testing::h200();
    let mut reg = Registry::new(dev);
    reg.extend(ck_instances::all().iter().cloned(), 0)?;
    // Selects as the CUDA back end on an sm_90 card: the same target and the same acceptance
    // check; it runs nothing.
    let card = Selecting {
        target: Arch::Sm90,
        check: |inst| ck_runtime::gpu::portable_checks(inst, "cuda"),
    };
    let only = std::env::args().nth(2).filter(|o| o != "all");
    let dtype = match std::env::args().nth(3) {
        Some(d) => DataType::from_keyword(&d).ok_or(format!("unknown data type `{d}`"))?,
        None => DataType::Fp16,
    };
    for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
        if only.as_ref().is_some_and(|o| *o != op.to_string()) {
            continue;
        }
        let problems: Vec<_> = layers
            .iter()
            .filter(|s| s.needs(op))
            .map(|s| s.problem(op, dtype))
            .collect::<Result<_, _>>()?;
        // Each problem is new to a fresh copy of the registry (a clone keeps no choices).
        let new = (0..5)
            .map(|_| {
                let fresh = reg.clone();
                let t0 = Instant::now();
                for p in &problems {
                    let _ = std::hint::black_box(fresh.select_for(p, &card));
                }
                t0.elapsed().as_secs_f64() * 1e6 / problems.len().max(1) as f64
            })
            .fold(f64::INFINITY, f64::min);
        for p in &problems {
            let _ = reg.select_for(p, &card);
        }
        let cached = per_problem(&problems, |p| {
            let _ = std::hint::black_box(reg.select_for(p, &card));
        });
        let ranked = per_problem(&problems, |p| {
            std::hint::black_box(reg.candidates_on(p, Arch::Sm90));
        });
        let analytic = per_problem(&problems, |p| {
            std::hint::black_box(reg.candidates(p));
        });
        println!(
            "{op} {dtype}: {} problems over {} instances: select (new problem, sm_90) {new:.0} µs a problem, selected before {cached:.2} µs; every verdict ranked: sm_90 {ranked:.0} µs, analytic {analytic:.0} µs",
            problems.len(),
            reg.len(),
        );
    }
    Ok(())
}
