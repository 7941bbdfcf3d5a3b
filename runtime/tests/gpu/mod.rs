//! GPU checks shared by the CUDA and HIP test files: a handful of library instances, one per
//! work schedule (split-K 1 and auto / more, StreamK linear / tree / atomic, a D tensor), each on the
//! first small problem it supports, against the fp64 reference.

use ck_compiler::ir::{Checked, SplitK};
use ck_compiler::load::Session;
use ck_compiler::model::{Op, Reduction};
use ck_runtime::subset::ScheduleKind;
use ck_runtime::{Backend, DeviceModel, Formulation, ProblemData, formulation, probe};

/// Compute units of the small planning device: small problems then split K and mix
/// data-parallel and stream-K tiles.
pub const SMALL_CUS: u32 = 3;

/// The StreamK atomic instances of `tests/gpu/streamk_atomic.ck` (the library has none).
fn atomic_streamk() -> Vec<Checked> {
    let mut session = Session::new();
    session.add_path(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/gpu/streamk_atomic.ck"
    )));
    ck_compiler::compile(&session)
        .unwrap_or_else(|d| panic!("{}", d.render(session.sources())))
        .into_instances()
}

/// One instance per case, the first the back end accepts.
pub fn cases(backend: &dyn Backend) -> Vec<(&'static str, Checked)> {
    let lib = ck_instances::all();
    let atomic = atomic_streamk();
    let pick = |what: &'static str, insts: &[Checked], f: &dyn Fn(&Checked) -> bool| {
        let inst = insts
            .iter()
            .find(|i| f(i) && backend.accepts(i).is_ok())
            .unwrap_or_else(|| panic!("no {what} instance that {} accepts", backend.name()));
        (what, inst.clone())
    };
    let streamk = |r: Reduction| move |i: &Checked| matches!(ScheduleKind::of(i), ScheduleKind::StreamK { reduction, .. } if reduction == r);
    let plain = |i: &Checked| i.types.ds.is_empty() && i.work.streamk.is_none();
    vec![
        pick("split-K 1", lib, &|i| {
            plain(i) && i.work.split_k == SplitK::Fixed(1)
        }),
        // The library's split instances choose their count at run time (auto).
        pick("split-K > 1", lib, &|i| {
            plain(i) && matches!(i.work.split_k, SplitK::Auto | SplitK::Fixed(2..))
        }),
        pick("StreamK linear", lib, &streamk(Reduction::Linear)),
        pick("StreamK tree", lib, &streamk(Reduction::Tree)),
        pick("StreamK atomic", &atomic, &streamk(Reduction::Atomic)),
        pick("D tensor", lib, &|i| !i.types.ds.is_empty()),
        // A vectors wider than B's and C's: problems with K for B only run as the transpose.
        pick("transposed", lib, &|i| {
            let [a, b, c] = probe::vectors(i);
            plain(i) && i.op == Op::BwdWeight && a > b.max(c)
        }),
    ]
}

/// Runs every case on each back end (with the device model it plans for), on every problem
/// the shared problem builder finds for it, and checks the results. On the small device the
/// split and stream-K cases must really split on at least one problem.
pub fn check_cases(backends: &[(&dyn Backend, DeviceModel)]) {
    let mut failures = Vec::new();
    for (what, inst) in cases(backends[0].0) {
        for (be, device) in backends {
            let problems = probe::problems_for(&inst, device);
            if problems.is_empty() {
                failures.push(format!("{what} {}: no problem supported", inst.name));
            }
            let (mut split, mut transposed) = (false, false);
            for (shape, p) in problems {
                transposed |= matches!(
                    formulation(&inst, &p, device),
                    Ok(Formulation::Transposed(_))
                );
                let mut data = ProblemData::random(&inst, &p, 1).expect("random data");
                let line = match data.run(*be, &inst, &p) {
                    Ok(s) => {
                        split |= s.k_batch > 1 || s.sk_ctas > 0;
                        match data.verify(&p) {
                            Ok(v) if v.passed() => continue,
                            Ok(v) => format!("mismatch {v}"),
                            Err(e) => format!("verify: {e}"),
                        }
                    }
                    Err(e) => format!("run: {e}"),
                };
                failures.push(format!(
                    "{what} {} ({} CUs, {shape}, {p}): {line}",
                    inst.name, device.compute_units
                ));
            }
            if what == "transposed" && !transposed {
                failures.push(format!("{what} {}: no problem ran transposed", inst.name));
            }
            let splits = what.starts_with("split-K >") || what.starts_with("StreamK");
            if splits && device.compute_units == SMALL_CUS && !split {
                failures.push(format!(
                    "{what} {}: no problem split K on {SMALL_CUS} CUs",
                    inst.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
