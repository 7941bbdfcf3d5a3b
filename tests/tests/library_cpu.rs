//! Every instance of the library on the CPU back end: problems built from the instance's own
//! parameters (padding, stride, dilation, groups, depthwise, odd channels, 1x1) match the fp64
//! reference within the data type's bound on fresh random data; split-K and StreamK runs equal
//! the unsplit run; StreamK Linear/Tree runs are bitwise deterministic. Multiple-D instances run
//! with their D tensors and random non-trivial element-op scalars. The CPU back end must accept
//! every instance. Runs of one problem with the same element-wise ops and D tensors share their
//! fresh data's seed, so the fp64 reference of each is computed once a test run.

use ck_compiler::ir::{Checked, SplitK};
use ck_compiler::model::{Kind, Op, Reduction};
use ck_runtime::probe::{fit, shapes, vectors};
use ck_runtime::reference::{fresh_seed, relative_error};
use ck_runtime::support::Rule;
use ck_runtime::{Backend, ConvProblem, CpuBackend, DeviceModel, ProblemData, RunStats};
use rayon::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// A reference, computed once by the first run that needs it.
type Reference = Arc<OnceLock<Result<Vec<f64>, String>>>;

/// The fp64 references of one test run, by problem, element-wise ops and D tensors.
struct References {
    /// This run's seed, from which each key's data seed derives.
    seed: u64,
    computed: Mutex<HashMap<String, Reference>>,
}

impl References {
    /// What decides `inst`'s random data on `p` besides the seed (the sources hold values of
    /// their compute types).
    fn key(inst: &Checked, p: &ConvProblem) -> String {
        let (ew, ty, lay) = (&inst.elementwise, &inst.types.ds, &inst.layout.ds);
        let compute = [inst.types.compute_a, inst.types.compute_b];
        format!("{p} {ew:?} {ty:?} {lay:?} {compute:?}")
    }

    fn seed_of(&self, key: &str) -> u64 {
        let mut h = DefaultHasher::new();
        key.hash(&mut h);
        self.seed ^ h.finish()
    }

    /// The reference of `key`'s data, computed by the first run that asks.
    fn get(&self, key: &str, compute: impl FnOnce() -> Result<Vec<f64>, String>) -> Reference {
        let cell = {
            let mut map = self.computed.lock().expect("no run panicked holding it");
            map.entry(key.to_string()).or_default().clone()
        };
        cell.get_or_init(compute);
        cell
    }
}

/// A small device, so that small problems still split K and stream.
fn device() -> DeviceModel {
    DeviceModel {
        arch: None,
        compute_units: 3,
        occupancy: 1,
    }
}

/// The same instance without split-K or StreamK.
fn unsplit(inst: &Checked) -> Checked {
    let mut plain = inst.clone().into_instance();
    plain.work.split_k = SplitK::Fixed(1);
    plain.work.streamk = None;
    plain.work.two_stage = false;
    ck_compiler::validate::validate_instance(plain).unwrap_or_else(|e| panic!("{e}"))
}

/// What one instance did across its shapes.
#[derive(Default)]
struct Outcome {
    runs: usize,
    split: bool,
    streamed: bool,
    rejections: Vec<String>,
}

/// Runs one supported problem and checks it; failures go to `errors`.
fn check_run(
    inst: &Checked,
    p: &ConvProblem,
    cpu: &CpuBackend,
    refs: &References,
    out: &mut Outcome,
    errors: &mut Vec<String>,
) {
    let at = format!("{} on `{p}`", inst.name);
    let key = References::key(inst, p);
    let fresh = match ProblemData::random(inst, p, refs.seed_of(&key)) {
        Ok(d) => d,
        Err(e) => return errors.push(format!("{at}: {e}")),
    };
    let run = |inst: &Checked| -> Result<(ProblemData, RunStats), String> {
        let mut d = fresh.clone();
        let stats = d.run(cpu, inst, p).map_err(|e| e.to_string())?;
        Ok((d, stats))
    };
    let (data, stats) = match run(inst) {
        Ok(r) => r,
        Err(e) => return errors.push(format!("{at}: {e}")),
    };
    out.runs += 1;
    let reference = refs.get(&key, || fresh.reference(p).map_err(|e| e.to_string()));
    match reference.get().expect("computed") {
        Ok(r) => match data.verify_against(p, r) {
            v if v.passed() => {}
            v => errors.push(format!("{at} (seed {}): {v}", data.seed)),
        },
        Err(e) => errors.push(format!("{at}: {e}")),
    }
    let split = stats.k_batch > 1 || stats.sk_ctas > 0;
    out.split |= stats.k_batch > 1;
    out.streamed |= stats.sk_ctas > 0;
    if split {
        match run(&unsplit(inst)) {
            Ok((plain, _)) => {
                let plain: Vec<f64> = plain
                    .destination(p)
                    .to_f32()
                    .into_iter()
                    .map(f64::from)
                    .collect();
                let err = relative_error(data.destination(p), &plain);
                let bound = data.bound(p, err, &plain);
                if err > bound {
                    errors.push(format!(
                        "{at}: k_batch {} / {} SK workgroups differ from the unsplit run by {err:.2e} > {bound:.1e}",
                        stats.k_batch, stats.sk_ctas
                    ));
                }
            }
            Err(e) => errors.push(format!("{at}, unsplit: {e}")),
        }
    }
    let fixup = inst.work.streamk.map(|sk| sk.reduction);
    if matches!(fixup, Some(Reduction::Linear | Reduction::Tree)) {
        match run(inst) {
            Ok((again, _)) if again.destination(p) == data.destination(p) => {}
            Ok(_) => errors.push(format!(
                "{at}: StreamK {fixup:?} is not bitwise deterministic"
            )),
            Err(e) => errors.push(format!("{at}, second run: {e}")),
        }
    }
}

/// Every shape of one instance: `(problems run, errors)`.
fn check_instance(inst: &Checked, cpu: &CpuBackend, refs: &References) -> (usize, Vec<String>) {
    let mut errors = Vec::new();
    if let Err(e) = cpu.accepts(inst) {
        return (0, vec![format!("{}: {e}", inst.name)]);
    }
    let mut out = Outcome::default();
    let wide = vectors(inst).iter().any(|&w| w > 1);
    for s in shapes(inst) {
        let (p, verdict) = match fit(inst, s, &cpu.device) {
            Ok(found) => found,
            Err(e) => {
                errors.push(format!("{}: shape {s:?}: {e}", inst.name));
                continue;
            }
        };
        match verdict {
            Ok(()) => check_run(inst, &p, cpu, refs, &mut out, &mut errors),
            Err(why) => {
                let vector = matches!(why.rule, Rule::VectorA | Rule::VectorB | Rule::VectorC);
                // Two-stage kernels read single-channel groups with any vector width; forward A
                // read along the groups (CK's merged lists) needs one channel a group first.
                let exempt = (s.what == "depthwise"
                    && matches!(inst.kind, Kind::XdlTwoStage | Kind::WmmaTwoStage))
                    || (inst.op == Op::Fwd && inst.a.vector_dim == 1);
                if matches!(s.what, "depthwise" | "odd channels") && wide && !vector && !exempt {
                    errors.push(format!(
                        "{}: {} channels should fail a vector rule, got {why}",
                        inst.name, s.what
                    ));
                }
                let numbers = why.reason.contains("is not divisible by the")
                    || why.reason.contains("reads A vectors along C only");
                if vector && !numbers {
                    errors.push(format!(
                        "{}: vector reason without numbers: {why}",
                        inst.name
                    ));
                }
                out.rejections.push(format!("{}: {why}", s.what));
            }
        }
    }
    if out.runs == 0 {
        errors.push(format!(
            "{} ran no problem:\n    {}",
            inst.name,
            out.rejections.join("\n    ")
        ));
    }
    let splits =
        inst.work.split_k == SplitK::Auto || matches!(inst.work.split_k, SplitK::Fixed(k) if k > 1);
    if inst.work.streamk.is_some() && !out.streamed {
        errors.push(format!("{} never ran stream-K workgroups", inst.name));
    }
    if inst.work.streamk.is_none() && splits && !out.split {
        errors.push(format!("{} never split K", inst.name));
    }
    (out.runs, errors)
}

/// Runs `instances` on every core (the reference's sums are parallel too, but short):
/// `(problems run, distinct references, errors)`.
fn check_all(instances: &[&Checked]) -> (usize, usize, Vec<String>) {
    let cpu = CpuBackend {
        device: device(),
        target: None,
    };
    let refs = References {
        seed: fresh_seed(),
        computed: Mutex::default(),
    };
    let outcomes: Vec<(usize, Vec<String>)> = instances
        .par_iter()
        .map(|inst| check_instance(inst, &cpu, &refs))
        .collect();
    let runs: usize = outcomes.iter().map(|o| o.0).sum();
    let errors: Vec<String> = outcomes.into_iter().flat_map(|o| o.1).collect();
    let distinct = refs.computed.lock().expect("the runs are done").len();
    (runs, distinct, errors)
}

#[test]
fn every_library_instance_matches_the_reference_on_the_cpu() {
    let library = ck_instances::all();
    assert!(!library.is_empty());
    let (runs, distinct, errors) = check_all(&library.iter().collect::<Vec<_>>());
    let with_ds = library.iter().filter(|i| !i.types.ds.is_empty()).count();
    eprintln!(
        "{} instances ({with_ds} with D tensors) ran {runs} problems on the CPU against \
         {distinct} references",
        library.len()
    );
    assert!(with_ds > 0, "the library has multiple-D instances");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// CK's own library in `.ck` (`ck-port/`): the first instance of each kind of computation it
/// holds (op, rank, kind, layouts, every type, element-wise ops, ConvSpec), each on its probe
/// shapes. Its instances differ otherwise only in tiles and transfers, which the library's
/// instances cover; every data type CK ships for convolutions is among them (int8, fp8 and
/// bf8 too).
#[test]
fn each_kind_of_ck_port_instance_matches_the_reference_on_the_cpu() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let mut session = ck_compiler::load::Session::new();
    session.add_path(&root.join("ck-port"));
    let port = ck_compiler::compile(&session)
        .unwrap_or_else(|d| panic!("ck-port does not compile:\n{}", d.render(session.sources())));
    let mut kinds = BTreeSet::new();
    let sample: Vec<&Checked> = port
        .instances()
        .iter()
        .filter(|i| {
            kinds.insert(format!(
                "{:?} {} {:?} {:?} {:?} {:?} {:?}",
                i.op, i.ndim, i.kind, i.layout, i.types, i.elementwise, i.spec
            ))
        })
        .collect();
    let types: BTreeSet<_> = sample.iter().map(|i| i.types.input).collect();
    let (runs, distinct, errors) = check_all(&sample);
    eprintln!(
        "{} of ck-port's {} instances ran {runs} problems on the CPU against {distinct} \
         references; input types {types:?}",
        sample.len(),
        port.instances().len()
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
