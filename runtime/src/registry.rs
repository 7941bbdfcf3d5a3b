//! A registry of instances and the selection of one for a problem.
//!
//! Instances arrive as values (the compiled instance library, `.ck` files compiled at run time,
//! instances declared with the macro) with a priority. For a problem, every instance gets a
//! verdict: its estimated cost ([`crate::select::estimate`]) or the rule that rules it out.
//! Supported instances rank by priority (higher first), then cost (lower first), then name.

use crate::backend::Backend;
use crate::device::DeviceModel;
use crate::problem::{ConvProblem, ProblemError};
use crate::select::estimate;
use crate::support::{Forms, Formulation, Rule, RunsAs, Unsupported, formulation_among, same_kind};
use crate::time_model;
use ck_compiler::ir::Checked;
use ck_compiler::model::Arch;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};

#[derive(Clone, Debug, PartialEq)]
struct Entry {
    instance: Checked,
    priority: i32,
}

/// Registered instances and the device model selection assumes.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    entries: Vec<Entry>,
    device: DeviceModel,
    memo: Memo,
}

/// A back end as the registry remembers it: its name and target (none for
/// [`Registry::select`]).
type BackendKey<'a> = (&'a str, Option<Arch>);

/// What the registry remembers for each back end: the instance selected before for a problem
/// (a problem seen again is answered by one lookup), and the back end's verdict on each
/// instance ([`Backend::accepts`] depends on the instance alone). Emptied whenever an instance
/// is registered; a clone of the registry starts empty.
#[derive(Debug, Default)]
struct Memo(RwLock<Vec<BackendMemo>>);

#[derive(Debug)]
struct BackendMemo {
    name: String,
    target: Option<Arch>,
    choices: HashMap<ConvProblem, usize>,
    /// By entry, filled as candidates reach the back end's check.
    accepted: Arc<[OnceLock<Result<(), Unsupported>>]>,
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        Memo::default()
    }
}

impl Memo {
    fn get(&self, backend: BackendKey<'_>, p: &ConvProblem) -> Option<usize> {
        let tables = self.0.read().ok()?;
        let memo = tables.iter().find(|m| m.is(backend))?;
        memo.choices.get(p).copied()
    }

    fn put(&self, backend: BackendKey<'_>, entries: usize, p: &ConvProblem, index: usize) {
        // A poisoned lock only loses the cache.
        let Ok(mut tables) = self.0.write() else {
            return;
        };
        let memo = Self::slot(&mut tables, backend, entries);
        memo.choices.insert(p.clone(), index);
    }

    /// The back end's verdicts on the `entries` registered instances, as far as known.
    fn accepted(
        &self,
        backend: BackendKey<'_>,
        entries: usize,
    ) -> Arc<[OnceLock<Result<(), Unsupported>>]> {
        if let Some(m) = self
            .0
            .read()
            .ok()
            .and_then(|t| t.iter().find(|m| m.is(backend)).map(|m| m.accepted.clone()))
        {
            return m;
        }
        match self.0.write() {
            Ok(mut tables) => Self::slot(&mut tables, backend, entries).accepted.clone(),
            // A poisoned lock only loses the cache: verdicts for this ranking alone.
            Err(_) => (0..entries).map(|_| OnceLock::new()).collect(),
        }
    }

    fn slot<'t>(
        tables: &'t mut Vec<BackendMemo>,
        backend: BackendKey<'_>,
        entries: usize,
    ) -> &'t mut BackendMemo {
        let at = tables
            .iter()
            .position(|m| m.is(backend))
            .unwrap_or_else(|| {
                tables.push(BackendMemo {
                    name: backend.0.to_string(),
                    target: backend.1,
                    choices: HashMap::new(),
                    accepted: (0..entries).map(|_| OnceLock::new()).collect(),
                });
                tables.len() - 1
            });
        &mut tables[at]
    }

    fn clear(&mut self) {
        if let Ok(t) = self.0.get_mut() {
            t.clear();
        }
    }
}

impl BackendMemo {
    fn is(&self, (name, target): BackendKey<'_>) -> bool {
        self.name == name && self.target == target
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("an instance named `{0}` is already registered")]
    Duplicate(String),
}

/// One instance's verdict for a problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<'a> {
    pub instance: &'a Checked,
    pub priority: i32,
    /// Estimated cost (lower is better): predicted microseconds where a learned model ranks
    /// ([`Candidate::predicted`]), else the analytic cost; or why the instance cannot run the
    /// problem.
    pub verdict: Result<f64, Unsupported>,
    /// The verdict's estimate is a learned model's prediction in microseconds
    /// ([`crate::time_model`]).
    pub predicted: bool,
    /// How the instance runs the problem ([`crate::Formulation`]); `Stated` where it cannot.
    pub runs_as: RunsAs,
}

/// Which instances [`Registry::rank`] gives verdicts for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdicts {
    All,
    /// The first of those that compute the problem's op at its rank, layouts and types
    /// ([`same_kind`]): selection needs no reasons unless none of them runs it.
    OfItsKind,
}

/// No registered instance runs the problem.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct NoInstance {
    /// Set when the problem itself is impossible.
    pub problem: Option<ProblemError>,
    /// Each instance's name and reason, by name.
    pub reasons: Vec<(String, Unsupported)>,
}

impl NoInstance {
    /// Where the instances fall short as a whole: the first of the problem's coarse
    /// properties (op, spatial rank, layout, data types) that no instance has; None when some
    /// instances have all four and reject the problem for finer reasons.
    pub fn missing(&self) -> Option<&'static str> {
        let coarse = [
            (Rule::Op, "no instance computes its op"),
            (
                Rule::SpatialRank,
                "no instance of its op has its spatial rank",
            ),
            (
                Rule::Layout,
                "no instance of its op and rank takes its layout",
            ),
            (
                Rule::DataType,
                "no instance of its op, rank and layout takes its data types",
            ),
        ];
        let mut stopped = Vec::new();
        for (rule, missing) in coarse {
            stopped.push(rule);
            if self
                .reasons
                .iter()
                .all(|(_, why)| stopped.contains(&why.rule))
            {
                return Some(missing);
            }
        }
        None
    }

    /// The rejections grouped by rule, the commonest first: each rule's count and its first
    /// instance's name and reason.
    pub fn by_rule(&self) -> Vec<(Rule, usize, &str, &Unsupported)> {
        let mut groups: Vec<(Rule, usize, &str, &Unsupported)> = Vec::new();
        for (name, why) in &self.reasons {
            match groups.iter_mut().find(|g| g.0 == why.rule) {
                Some(g) => g.1 += 1,
                None => groups.push((why.rule, 1, name, why)),
            }
        }
        groups.sort_by_key(|g| std::cmp::Reverse(g.1));
        groups
    }
}

/// A few lines: what no instance has, then the rejections grouped by rule with an example
/// each; [`NoInstance::reasons`] has every instance's.
impl fmt::Display for NoInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(e) = &self.problem {
            return write!(f, "invalid problem: {e}");
        }
        if self.reasons.is_empty() {
            return f.write_str("no instance is registered");
        }
        write!(
            f,
            "none of the {} registered instances supports the problem",
            self.reasons.len()
        )?;
        if let Some(missing) = self.missing() {
            write!(f, ": {missing}")?;
        }
        for (rule, count, name, why) in self.by_rule() {
            let others = if count > 1 {
                format!(" and {} more", count - 1)
            } else {
                String::new()
            };
            write!(
                f,
                "\n  {count} by {}: e.g. {name}{others}: {}",
                rule.name(),
                why.reason
            )?;
        }
        Ok(())
    }
}

impl Registry {
    pub fn new(device: DeviceModel) -> Registry {
        Registry {
            entries: Vec::new(),
            device,
            memo: Memo::default(),
        }
    }

    pub fn device(&self) -> &DeviceModel {
        &self.device
    }

    /// Adds one instance; names are unique.
    pub fn register(&mut self, instance: Checked, priority: i32) -> Result<(), RegistryError> {
        if self.get(&instance.name).is_some() {
            return Err(RegistryError::Duplicate(instance.name.clone()));
        }
        self.entries.push(Entry { instance, priority });
        self.memo.clear();
        Ok(())
    }

    /// Adds instances in order, all with one priority; stops at the first duplicate name.
    pub fn extend(
        &mut self,
        instances: impl IntoIterator<Item = Checked>,
        priority: i32,
    ) -> Result<(), RegistryError> {
        instances
            .into_iter()
            .try_for_each(|i| self.register(i, priority))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&Checked> {
        self.entries
            .iter()
            .find(|e| e.instance.name == name)
            .map(|e| &e.instance)
    }

    /// Registered instances in registration order.
    pub fn instances(&self) -> impl Iterator<Item = &Checked> {
        self.entries.iter().map(|e| &e.instance)
    }

    /// A fingerprint of the registered instances (every parameter and priority, in name
    /// order): 16 hex digits of a 64-bit FNV-1a hash, stable across builds and platforms, which
    /// keys measurements and tuning results to the library they were taken with.
    pub fn fingerprint(&self) -> String {
        let mut entries: Vec<&Entry> = self.entries.iter().collect();
        entries.sort_by(|a, b| a.instance.name.cmp(&b.instance.name));
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for e in entries {
            // Serialising a validated instance cannot fail; an empty text would still hash.
            let text = serde_json::to_string(&(&e.instance, e.priority)).unwrap_or_default();
            for b in text.bytes().chain([0]) {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{hash:016x}")
    }

    /// Every instance's verdict, best first: supported ones ranked (priority, cost, name), then
    /// unsupported ones by name.
    pub fn candidates(&self, p: &ConvProblem) -> Vec<Candidate<'_>> {
        self.rank(p, None, None, Verdicts::All)
    }

    /// Like [`Registry::candidates`], also ruling out instances `backend` cannot run
    /// ([`Rule::Backend`]); among equal priorities, instances that target the back end's device
    /// ([`Backend::target`]) rank first.
    pub fn candidates_for(&self, p: &ConvProblem, backend: &dyn Backend) -> Vec<Candidate<'_>> {
        self.rank(p, Some(backend), backend.target(), Verdicts::All)
    }

    /// Like [`Registry::candidates`], ranked as a back end whose device is `target` would
    /// rank them (its learned model, or its own instances first), without that back end.
    pub fn candidates_on(&self, p: &ConvProblem, target: Arch) -> Vec<Candidate<'_>> {
        self.rank(p, None, Some(target), Verdicts::All)
    }

    fn rank(
        &self,
        p: &ConvProblem,
        backend: Option<&dyn Backend>,
        target: Option<Arch>,
        verdicts: Verdicts,
    ) -> Vec<Candidate<'_>> {
        let accepted = backend.map(|b| {
            let key = (b.name(), b.target());
            (b, self.memo.accepted(key, self.entries.len()))
        });
        let runs = |at: usize, inst: &Checked| match &accepted {
            Some((b, verdicts)) => verdicts[at]
                .get_or_init(|| {
                    b.accepts(inst).map_err(|e| Unsupported {
                        rule: Rule::Backend,
                        reason: format!("the {} back end: {e}", b.name()),
                    })
                })
                .clone(),
            None => Ok(()),
        };
        // A learned model of the device's run times ranks where one fits; the analytic cost
        // model elsewhere.
        let model = target.and_then(|t| time_model::model_for(t, p));
        let forms = Forms::of(p);
        // Each instance's formulation, then the estimates of those that run (the model's all
        // at once).
        let judged: Vec<(&Entry, Result<Formulation, Unsupported>, RunsAs)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| verdicts == Verdicts::All || same_kind(&e.instance, p))
            .map(|(at, e)| {
                let form = formulation_among(&e.instance, &forms, &self.device);
                let runs_as = form.as_ref().map_or(RunsAs::Stated, Formulation::runs_as);
                let form = form.and_then(|f| runs(at, &e.instance).map(|()| f));
                (e, form, runs_as)
            })
            .collect();
        let running: Vec<(&Checked, &Formulation)> = judged
            .iter()
            .filter_map(|(e, f, _)| f.as_ref().ok().map(|f| (&e.instance, f)))
            .collect();
        let mut estimates = match model {
            Some(m) => {
                // A choice needs only the fastest run's estimate exact, where all are of one
                // priority (which orders before the estimates).
                let mut priorities = judged
                    .iter()
                    .filter(|(_, f, _)| f.is_ok())
                    .map(|(e, _, _)| e.priority);
                let first = priorities.next();
                let one_priority = priorities.all(|q| Some(q) == first);
                let walk = match verdicts {
                    Verdicts::OfItsKind if one_priority => time_model::Walk::Fastest,
                    _ => time_model::Walk::Exact,
                };
                time_model::predict_all(m, &running, p, &self.device, target, walk)
            }
            None => running
                .iter()
                .map(|(inst, f)| estimate(inst, f.problem(p), &self.device))
                .collect(),
        }
        .into_iter();
        let mut out: Vec<Candidate<'_>> = judged
            .into_iter()
            .map(|(e, form, runs_as)| Candidate {
                instance: &e.instance,
                priority: e.priority,
                runs_as,
                predicted: model.is_some(),
                // One estimate for each formulation that runs, in order.
                verdict: form.map(|_| estimates.next().unwrap_or(f64::INFINITY)),
            })
            .collect();
        // Without a model, instances tuned for the back end's device first among equal
        // priorities (a model knows which instances target the device).
        let native = |c: &Candidate<'_>| {
            model.is_none() && target.is_some_and(|t| c.instance.targets.contains(&t))
        };
        let order = |a: &Candidate<'_>, b: &Candidate<'_>| match (&a.verdict, &b.verdict) {
            (Ok(ca), Ok(cb)) => b
                .priority
                .cmp(&a.priority)
                .then(native(b).cmp(&native(a)))
                .then(ca.total_cmp(cb))
                .then_with(|| a.instance.name.cmp(&b.instance.name)),
            (Ok(_), Err(_)) => std::cmp::Ordering::Less,
            (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
            (Err(_), Err(_)) => a.instance.name.cmp(&b.instance.name),
        };
        match verdicts {
            Verdicts::All => out.sort_by(order),
            Verdicts::OfItsKind => {
                if let Some((best, _)) = out.iter().enumerate().min_by(|a, b| order(a.1, b.1)) {
                    out.swap(0, best);
                    out.truncate(1);
                }
            }
        }
        out
    }

    /// The best supported instance.
    pub fn select(&self, p: &ConvProblem) -> Result<&Checked, NoInstance> {
        self.pick(p, None)
    }

    /// The best supported instance that `backend` can run.
    pub fn select_for(
        &self,
        p: &ConvProblem,
        backend: &dyn Backend,
    ) -> Result<&Checked, NoInstance> {
        self.pick(p, Some(backend))
    }

    fn pick(&self, p: &ConvProblem, backend: Option<&dyn Backend>) -> Result<&Checked, NoInstance> {
        let target = backend.and_then(|b| b.target());
        let key = (backend.map_or("", |b| b.name()), target);
        // Only valid problems were chosen for.
        if let Some(i) = self.memo.get(key, p) {
            return Ok(&self.entries[i].instance);
        }
        if let Err(e) = p.validate() {
            return Err(NoInstance {
                problem: Some(e),
                reasons: Vec::new(),
            });
        }
        let candidates = self.rank(p, backend, target, Verdicts::OfItsKind);
        // The best supported candidate the back end can also plan (checked lazily: the first
        // is nearly always it).
        let plans = |c: &&Candidate<'_>| backend.is_none_or(|b| b.plans(c.instance, p).is_ok());
        if let Some(best) = candidates.iter().filter(|c| c.verdict.is_ok()).find(plans) {
            if let Some(i) = self
                .entries
                .iter()
                .position(|e| std::ptr::eq(&e.instance, best.instance))
            {
                self.memo.put(key, self.entries.len(), p, i);
            }
            return Ok(best.instance);
        }
        // Every instance's reason, the ones of other kinds too, and the back end's where it
        // could not plan a supported one.
        let reasons = self
            .rank(p, backend, target, Verdicts::All)
            .into_iter()
            .filter_map(|c| {
                let why = match (c.verdict, backend) {
                    (Err(why), _) => why,
                    (Ok(_), Some(b)) => Unsupported {
                        rule: Rule::Backend,
                        reason: b.plans(c.instance, p).err()?.to_string(),
                    },
                    (Ok(_), None) => return None,
                };
                Some((c.instance.name.clone(), why))
            })
            .collect();
        Err(NoInstance {
            problem: None,
            reasons,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::testing::{FakeDevice, Variant, changed, forced, instance};
    use ck_compiler::model::ElementOp;

    #[test]
    fn a_problem_selected_before_is_answered_from_the_cache_until_the_registry_changes() {
        let mut reg = Registry::default();
        reg.register(instance(Variant::XdlV3), 0).unwrap();
        let p = ConvProblem::parse("bwd_weight 2d N=2 K=16 C=16 filter=3 input=8 pad=1").unwrap();
        let first = reg.select(&p).unwrap().name.clone();
        assert_eq!(reg.memo.get(("", None), &p), Some(0));
        assert_eq!(reg.select(&p).unwrap().name, first);
        // Another back end keys its own choices.
        let cpu = CpuBackend::default();
        assert_eq!(reg.memo.get(("cpu", None), &p), None);
        reg.select_for(&p, &cpu).unwrap();
        assert!(reg.memo.get(("cpu", None), &p).is_some());
        // A higher-priority instance registered later wins at once.
        let better = changed(&instance(Variant::XdlV1), |i| i.name = "better".into());
        reg.register(better, 5).unwrap();
        assert_eq!(reg.memo.get(("", None), &p), None);
        assert_eq!(reg.select(&p).unwrap().name, "better");
        // A clone starts without choices.
        assert_eq!(reg.clone().memo.get(("", None), &p), None);
    }

    #[test]
    fn selection_passes_over_a_candidate_the_back_end_cannot_plan() {
        let mut reg = Registry::default();
        reg.register(instance(Variant::XdlV3), 0).unwrap();
        reg.register(instance(Variant::XdlV1), 0).unwrap();
        let p = ConvProblem::parse("bwd_weight 2d N=2 K=16 C=16 filter=3 input=8 pad=1").unwrap();
        let best = reg
            .clone()
            .select_for(&p, &FakeDevice::default())
            .unwrap()
            .name
            .clone();
        let refusing = FakeDevice {
            unplanned: Some(best.clone()),
            ..FakeDevice::default()
        };
        // The only supported candidate: no choice, and the reason is the back end's.
        let none = reg.clone().select_for(&p, &refusing).unwrap_err();
        let (name, why) = none
            .reasons
            .iter()
            .find(|r| r.1.rule == Rule::Backend)
            .unwrap();
        assert_eq!(*name, best);
        assert!(why.reason.contains("cannot be planned"), "{why:?}");
        // With another supported candidate, that one is chosen.
        let second = changed(&instance(Variant::XdlV3), |i| i.name = "second".into());
        reg.register(second, 0).unwrap();
        assert_eq!(reg.select_for(&p, &refusing).unwrap().name, "second");
    }

    #[test]
    fn a_back_end_is_asked_about_each_instance_once_until_the_registry_changes() {
        let added = forced(&instance(Variant::XdlV3), |i| {
            i.name = "added".into();
            i.elementwise.output = ElementOp::Add;
        });
        let mut reg = Registry::default();
        reg.register(added, 0).unwrap();
        reg.register(instance(Variant::XdlV1), 0).unwrap();
        let counting = FakeDevice::default();
        let problems = ["pad=1", "pad=0", "stride=2"].map(|s| {
            ConvProblem::parse(&format!("bwd_weight 2d N=2 K=16 C=16 filter=3 input=8 {s}"))
                .unwrap()
        });
        let first = reg.candidates_for(&problems[0], &counting);
        assert_eq!(counting.asked.get(), 2);
        for p in &problems {
            reg.select_for(p, &counting).unwrap();
        }
        assert_eq!(counting.asked.get(), 2);
        // The remembered verdicts are the back end's own.
        assert_eq!(reg.candidates_for(&problems[0], &counting), first);
        assert_eq!(
            first[1].verdict.as_ref().unwrap_err().rule,
            Rule::Backend,
            "{first:?}"
        );
        // A new instance: every instance is asked about again.
        let more = changed(&instance(Variant::XdlV1), |i| i.name = "more".into());
        reg.register(more, 0).unwrap();
        reg.select_for(&problems[0], &counting).unwrap();
        assert_eq!(counting.asked.get(), 5);
        // A clone asks again.
        reg.clone().select_for(&problems[0], &counting).unwrap();
        assert_eq!(counting.asked.get(), 8);
    }

    #[test]
    fn a_refusal_groups_reasons_by_rule_and_names_what_no_instance_has() {
        let mut reg = Registry::default();
        reg.register(instance(Variant::XdlV3), 0).unwrap();
        reg.register(instance(Variant::XdlV1), 0).unwrap();
        // Both compute backward weight in 2-D: a forward problem has no instance of its op.
        let fwd = ConvProblem::parse("fwd 2d N=2 K=16 C=16 filter=3 input=8 pad=1").unwrap();
        let none = reg.select(&fwd).unwrap_err();
        assert_eq!(none.missing(), Some("no instance computes its op"));
        let groups = none.by_rule();
        assert_eq!(groups.len(), 1);
        assert_eq!((groups[0].0, groups[0].1), (Rule::Op, 2));
        let text = none.to_string();
        assert!(text.starts_with("none of the 2 registered instances supports the problem: no instance computes its op\n  2 by op: e.g. "), "{text}");
        assert!(
            text.contains(" and 1 more: instance computes bwd_weight"),
            "{text}"
        );
        // 3-D: the op matches, the rank does not.
        let three =
            ConvProblem::parse("bwd_weight 3d N=2 K=16 C=16 filter=3 input=8 pad=1").unwrap();
        let none = reg.select(&three).unwrap_err();
        assert_eq!(
            none.missing(),
            Some("no instance of its op has its spatial rank")
        );
        // Finer reasons (K = 63 against vector widths): no coarse property is missing.
        let odd = ConvProblem::parse("bwd_weight 2d N=2 K=63 C=63 filter=3 input=8 pad=1").unwrap();
        if let Err(none) = reg.select(&odd) {
            assert_eq!(none.missing(), None, "{none}");
        }
    }

    #[test]
    fn impossible_problems_get_no_verdict_but_their_reason() {
        let mut reg = Registry::default();
        reg.register(instance(Variant::XdlV3), 0).unwrap();
        let p = ConvProblem::parse("bwd_weight 2d N=2 K=16 C=16 filter=3 input=8 pad=1").unwrap();
        let zero = ConvProblem { k: 0, ..p.clone() };
        let short = ConvProblem {
            filter: vec![3],
            ..p.clone()
        };
        for bad in [zero, short] {
            for c in reg.candidates(&bad) {
                assert_eq!(c.verdict.unwrap_err().rule, Rule::Problem, "{bad:?}");
            }
            let inst = instance(Variant::XdlV3);
            assert_eq!(
                crate::supports(&inst, &bad).unwrap_err().rule,
                Rule::Problem
            );
            let streamk = instance(Variant::TileStreamKLinear);
            for i in [&inst, &streamk] {
                assert_eq!(crate::workspace_size(i, &bad, reg.device()), 0);
            }
            assert!(reg.select(&bad).is_err());
        }
    }

    #[test]
    fn selection_for_a_back_end_skips_what_it_cannot_run() {
        let p = ConvProblem::parse("bwd_weight 2d N=2 K=16 C=16 filter=3 input=8 pad=1").unwrap();
        // A binary op on a bwd_weight source: nothing for the CPU to combine it with.
        let added = forced(&instance(Variant::XdlV3), |i| {
            i.name = "added".into();
            i.elementwise.output = ElementOp::Add;
        });
        let mut reg = Registry::default();
        reg.register(added, 1).unwrap();
        reg.register(instance(Variant::XdlV1), 0).unwrap();
        assert_eq!(reg.select(&p).unwrap().name, "added");
        let cpu = CpuBackend::default();
        assert_eq!(reg.select_for(&p, &cpu).unwrap().name, "test_xdl_v1");
        let rejected = &reg.candidates_for(&p, &cpu)[1];
        let why = rejected.verdict.as_ref().unwrap_err();
        assert_eq!(why.rule, Rule::Backend);
        assert!(
            why.reason.contains("cpu back end") && why.reason.contains("add on a source"),
            "{why}"
        );
        // A back end on a device without a learned model (gfx1100) ranks an instance tuned
        // for it first, though dearer.
        let device = |target| FakeDevice {
            cpu: cpu.clone(),
            target: Some(target),
            ..FakeDevice::default()
        };
        use ck_compiler::model::Arch;
        let tuned = forced(&instance(Variant::XdlV1), |i| {
            i.name = "tuned".into();
            i.targets = vec![Arch::Gfx942, Arch::Gfx1100];
            (i.tile.m, i.tile.n) = (32, 32);
        });
        reg.register(tuned, 0).unwrap();
        let rdna = device(Arch::Gfx1100);
        let ranked = reg.candidates_for(&p, &rdna);
        assert!(!ranked[0].predicted);
        assert!(ranked[0].verdict.as_ref().unwrap() > ranked[1].verdict.as_ref().unwrap());
        assert_eq!(reg.select_for(&p, &rdna).unwrap().name, "tuned");
        assert_eq!(reg.select_for(&p, &cpu).unwrap().name, "test_xdl_v1");
        // On sm_90 the learned model ranks: predicted microseconds, ascending.
        let hopper = device(Arch::Sm90);
        let ranked = reg.candidates_for(&p, &hopper);
        let us: Vec<f64> = ranked
            .iter()
            .filter_map(|c| c.verdict.as_ref().ok().copied())
            .collect();
        assert!(ranked.iter().all(|c| c.predicted));
        assert!(us.len() >= 2 && us.iter().all(|u| u.is_finite() && *u > 0.0));
        assert!(us.windows(2).all(|w| w[0] <= w[1]), "{us:?}");
    }
}
