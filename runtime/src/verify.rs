//! One run of an instance on fresh random data, checked against the fp64 reference: what
//! `ckc run --verify`, the examples and the library tests share.

use crate::backend::Backend;
use crate::device::DeviceModel;
use crate::elementwise::{
    ElementArgs, Elementwise, ExtraSources, d_descs, result_type, source_descs,
};
use crate::exec::{Buffers, RunError, RunStats};
use crate::layout::{Role, TensorDesc, gemm_roles};
use crate::problem::ConvProblem;
use crate::reference::{
    accumulation_bound, random_tensor, reference, relative_error, term_norm, tolerance,
};
use crate::support::{Formulation, formulation};
use crate::tensor::{Tensor, round_to};
use ck_compiler::ir::{Checked, ElementOps};
use ck_compiler::model::DataType;
use serde::Serialize;
use std::fmt;

/// The three tensors of a problem, the D tensors and extra source tensors of an instance,
/// filled with random values ([`random_tensor`]; the GEMM's sources hold values of their
/// compute types), with the instance's element-wise ops and random non-trivial scalars for them.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemData {
    pub input: Tensor,
    pub weight: Tensor,
    pub output: Tensor,
    /// Destination-shaped, in the instance's D layouts and types.
    pub ds: Vec<Tensor>,
    /// The input tensors after `input` that the instance's input op combines with it
    /// (`sources.in`), input-shaped in the declared types.
    pub extra_inputs: Vec<Tensor>,
    /// As `extra_inputs`, for the weight (`sources.wei`).
    pub extra_weights: Vec<Tensor>,
    pub ops: ElementOps,
    pub args: ElementArgs,
    /// The type the instance's result op reads the GEMM's result in
    /// ([`crate::elementwise::result_type`]).
    pub result_type: DataType,
    /// The seed everything came from (input `seed`, weight `seed ^ 1`, output `seed ^ 2`, D `i`
    /// `seed ^ (3 + i)`, extra input `i` `seed ^ (0x100 + i)`, extra weight `i`
    /// `seed ^ (0x200 + i)`, scalars `seed ^ 0x5ca1e`), to reproduce a failure.
    pub seed: u64,
}

/// A result against the reference.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Verification {
    /// `‖out − ref‖₂ / ‖ref‖₂`.
    pub relative_error: f64,
    /// The bound for the destination's data type.
    pub bound: f64,
}

impl Verification {
    pub fn passed(&self) -> bool {
        self.relative_error <= self.bound
    }
}

impl fmt::Display for Verification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (op, verdict) = if self.passed() {
            ("<=", "pass")
        } else {
            (">", "FAIL")
        };
        write!(
            f,
            "relative error {:.2e} {op} {:.1e}: {verdict}",
            self.relative_error, self.bound
        )
    }
}

/// Host bytes a checked run of `inst` on `p` holds at once: the three tensors and the D tensors
/// in their types, the fp64 reference of the destination, and the copies of a run on padded
/// copies.
pub fn host_bytes(inst: &Checked, p: &ConvProblem) -> Result<u64, RunError> {
    let mut bytes: u64 = 0;
    let mut add = |elements: u64, each: u32| {
        bytes = bytes.saturating_add(elements.saturating_mul(u64::from(each)));
    };
    for role in [Role::Input, Role::Weight, Role::Output] {
        add(p.desc(role)?.elements(), p.dtype_of(role).bytes());
    }
    let extra = [
        source_descs(inst, p, Role::Input)?,
        source_descs(inst, p, Role::Weight)?,
    ];
    for (desc, dt) in d_descs(inst, p)?
        .into_iter()
        .chain(extra.into_iter().flatten())
    {
        add(desc.elements(), dt.bytes());
    }
    add(p.desc(p.destination())?.elements(), 8);
    // A run on padded copies holds those too (the CPU back end's on the host).
    if let Ok(Formulation::Padded(pd)) = formulation(inst, p, &DeviceModel::default()) {
        add(pd.staged_bytes(), 1);
    }
    Ok(bytes)
}

/// The host memory available to a new allocation, where the system says (`MemAvailable` in
/// `/proc/meminfo`); `None` elsewhere.
fn host_memory_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

impl ProblemData {
    /// Random data for running `inst` on `p`.
    /// Refuses, before allocating anything, a problem whose tensors and fp64 reference would not
    /// fit in the host memory available now (Linux's `MemAvailable`).
    pub fn random(inst: &Checked, p: &ConvProblem, seed: u64) -> Result<ProblemData, RunError> {
        if let Some(available) = host_memory_available() {
            let needed = host_bytes(inst, p)?;
            if needed > available {
                return Err(RunError::TooLarge { needed, available });
            }
        }
        let t = |role: Role, s: u64| random_tensor(p.dtype_of(role), p.desc(role)?, s);
        let fill = |descs: Vec<(TensorDesc, DataType)>, first: u64| {
            descs
                .into_iter()
                .zip(first..)
                .map(|((desc, dt), i)| random_tensor(dt, desc, seed ^ i))
                .collect::<Result<Vec<_>, _>>()
        };
        let (mut input, mut weight, mut output) = (
            t(Role::Input, seed)?,
            t(Role::Weight, seed ^ 1)?,
            t(Role::Output, seed ^ 2)?,
        );
        // The GEMM's sources hold values of their compute types, as tf32 data holds tf32
        // values: the reference then multiplies what the instance multiplies (CK's fp16 lists
        // computing in fp8 and bf8).
        let ([a, b], _) = gemm_roles(p.op);
        for (role, compute) in [(a, inst.types.compute_a), (b, inst.types.compute_b)] {
            let tensor = match role {
                Role::Input => &mut input,
                Role::Weight => &mut weight,
                Role::Output => &mut output,
            };
            if tensor.dtype() != compute.storage() {
                for (i, v) in tensor.to_f32().into_iter().enumerate() {
                    tensor.set(i, round_to(compute, v));
                }
            }
        }
        Ok(ProblemData {
            input,
            weight,
            output,
            ds: fill(d_descs(inst, p)?, 3)?,
            extra_inputs: fill(source_descs(inst, p, Role::Input)?, 0x100)?,
            extra_weights: fill(source_descs(inst, p, Role::Weight)?, 0x200)?,
            ops: inst.elementwise,
            args: ElementArgs::random(seed ^ 0x5ca1e),
            result_type: result_type(inst),
            seed,
        })
    }

    /// Runs `inst` on these tensors with a workspace of the size the back end asks for.
    pub fn run(
        &mut self,
        backend: &dyn Backend,
        inst: &Checked,
        p: &ConvProblem,
    ) -> Result<RunStats, RunError> {
        let needed = backend.workspace_size(inst, p);
        let bytes = usize::try_from(needed).map_err(|_| RunError::Workspace {
            needed,
            got: usize::MAX,
        })?;
        let mut workspace = vec![0u8; bytes];
        let mut bufs = Buffers {
            input: &mut self.input,
            weight: &mut self.weight,
            output: &mut self.output,
            ds: &self.ds,
            // Fields, not `self.extra()`: the run borrows the destination mutably.
            extra: ExtraSources {
                input: &self.extra_inputs,
                weight: &self.extra_weights,
            },
            args: self.args,
            workspace: &mut workspace,
        };
        backend.run(inst, p, &mut bufs)
    }

    /// The extra source tensors, as runs and the reference take them.
    pub fn extra(&self) -> ExtraSources<'_> {
        ExtraSources {
            input: &self.extra_inputs,
            weight: &self.extra_weights,
        }
    }

    /// The tensor `p`'s op writes.
    pub fn destination(&self, p: &ConvProblem) -> &Tensor {
        match p.destination() {
            Role::Input => &self.input,
            Role::Weight => &self.weight,
            Role::Output => &self.output,
        }
    }

    /// The destination against the fp64 reference computed from the two sources, the D tensors
    /// and the element-wise ops.
    pub fn verify(&self, p: &ConvProblem) -> Result<Verification, RunError> {
        Ok(self.verify_against(p, &self.reference(p)?))
    }

    /// The fp64 reference of `p`'s destination from these sources (extra tensors included), D
    /// tensors and element-wise ops: the same for every run on data of the same seed, ops and D tensors.
    pub fn reference(&self, p: &ConvProblem) -> Result<Vec<f64>, RunError> {
        let ew = Elementwise {
            ops: self.ops,
            ds: &self.ds,
            extra: self.extra(),
            args: self.args,
            result_type: self.result_type,
        };
        reference(p, &self.input, &self.weight, &self.output, &ew)
    }

    /// The destination against `reference`, [`ProblemData::reference`] of data like these,
    /// within [`ProblemData::bound`].
    pub fn verify_against(&self, p: &ConvProblem, reference: &[f64]) -> Verification {
        let relative_error = relative_error(self.destination(p), reference);
        Verification {
            relative_error,
            bound: self.bound(p, relative_error, reference),
        }
    }

    /// The bound on a relative error `error` of `p`'s destination against `expected` (the
    /// reference, or another run's result): [`tolerance`], and where the error is larger, the
    /// accumulation's share of it relative to the sums' terms ([`term_norm`]) rather than to
    /// the sums. Where the terms of a small problem's few sums cancel, their rounding is a
    /// fraction of the terms, not of the result (an fp32 backward weight of two outputs that
    /// summed 128 products each was 1.4e-5 off).
    pub fn bound(&self, p: &ConvProblem, error: f64, expected: &[f64]) -> f64 {
        let reduction = p.gemm().2;
        let bound = tolerance(p.dtype_of(p.destination()), reduction);
        let norm = expected.iter().map(|r| r * r).sum::<f64>().sqrt();
        if error <= bound || norm == 0.0 {
            return bound;
        }
        match term_norm(p, &self.input, &self.weight, &self.output) {
            Ok(terms) => bound.max(accumulation_bound(reduction) * terms / norm),
            Err(_) => bound,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::testing::{Variant, for_problem, instance};
    use crate::testing::{changed, forced};

    #[test]
    fn a_run_verifies_and_a_corrupted_result_fails() {
        let p = ConvProblem::parse("fwd 2d N=2 K=8 C=4 filter=3 input=6 pad=1").unwrap();
        let inst = for_problem(instance(Variant::FwdXdl), &p);
        let mut data = ProblemData::random(&inst, &p, 5).unwrap();
        data.run(&CpuBackend::default(), &inst, &p).unwrap();
        let v = data.verify(&p).unwrap();
        assert!(v.passed(), "{v}");
        assert!(v.to_string().ends_with("pass"), "{v}");
        // The output's initial random contents, not the result: far off.
        let fresh = ProblemData::random(&inst, &p, 5).unwrap();
        let v = fresh.verify(&p).unwrap();
        assert!(!v.passed() && v.to_string().ends_with("FAIL"), "{v}");
    }

    #[test]
    fn cancelling_sums_are_bounded_by_their_terms() {
        // One output of two fp32 products that nearly cancel: 1 · 0.5 + 1 · (−0.4999).
        let p = ConvProblem::parse("fwd 2d N=1 K=1 C=2 filter=1 input=1 in=fp32 wei=fp32 out=fp32")
            .unwrap();
        let inst = for_problem(instance(Variant::FwdXdl), &p);
        let mut data = ProblemData::random(&inst, &p, 3).unwrap();
        for (i, (x, w)) in [(1.0, 0.5), (1.0, -0.4999)].into_iter().enumerate() {
            data.input.set(i, x);
            data.weight.set(i, w);
        }
        let reference = data.reference(&p).unwrap();
        let sum = reference[0];
        assert!(sum.abs() < 2e-4, "{sum}");
        let with = |out: f64| {
            let mut d = data.clone();
            d.output.set(0, out as f32);
            d.verify_against(&p, &reference)
        };
        // 1e-3 of the sum is 1e-7 of the terms: within the sum's rounding, past fp32's 1e-5
        // of the sum.
        let v = with(sum * (1.0 + 1e-3));
        assert!(
            v.passed() && v.relative_error > tolerance(DataType::Fp32, 2),
            "{v}"
        );
        // Off by the sum itself, or by its sign: wrong.
        assert!(!with(2.0 * sum).passed());
        assert!(!with(-sum).passed());
        assert!(with(sum).passed());
    }

    #[test]
    fn host_bytes_count_the_padded_copies() {
        let p = ConvProblem::parse("fwd 2d N=2 K=8 C=3 filter=3 input=6 pad=1").unwrap();
        let scalar = for_problem(instance(Variant::FwdXdl), &p);
        let scalar = changed(&scalar, |i| (i.a.src_vector, i.b.src_vector) = (1, 1));
        let vector = scalar.clone();
        let vector = forced(&vector, |i| (i.a.src_vector, i.b.src_vector) = (4, 4));
        // Input 2·36·3 → 2·36·4 and weights 8·9·3 → 8·9·4 fp16 elements copied.
        let copies = (2 * 36 * 4 + 8 * 9 * 4) * 2;
        assert_eq!(
            host_bytes(&vector, &p).unwrap(),
            host_bytes(&scalar, &p).unwrap() + copies
        );
    }
}
