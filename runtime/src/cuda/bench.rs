//! Timing one loaded kernel on one problem: a verified first run on random data, then CUDA-event
//! timing of replayed CUDA graphs of back-to-back runs. The random sources and their fp64
//! reference belong to the problem ([`BenchProblem`]) and are shared by every kernel timed on it:
//! the reference of a large shape costs far more than the timing. The sources go to the device
//! once a problem, and results are compared on every core, so that a kernel's turn costs little
//! more than its launches.

use super::reference::device_reference;
use super::{CudaBackend, CudaError, DeviceTensors, LoadedKernel};
use crate::elementwise::Elementwise;
use crate::exec::RunError;
use crate::gpu::{LaunchError, to_bytes};
use crate::layout::Role;
use crate::problem::ConvProblem;
use crate::reference::{random_tensor, reference, relative_error_of, tolerance};
use crate::tensor::{Tensor, TensorData};
use crate::verify::Verification;
use ck_compiler::emit::hip::HipKernel;
use ck_compiler::ir::Checked;
use ck_compiler::model::ElementOp;
use cudarc::driver::sys::CUevent_flags;
use half::{bf16, f16};
use std::cell::OnceCell;
use std::collections::HashMap;

/// How a kernel is timed: `warmup` runs, then `trials` replays of one CUDA graph of `reps`
/// back-to-back runs (every step of the launch plan). A kernel whose single run takes longer than
/// [`Trials::TRIAL_BUDGET_US`] divided by `reps` gets fewer runs per graph (at least one), so that
/// slow candidates do not dominate a benchmark's run time; fast ones keep every repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trials {
    pub warmup: u32,
    pub trials: u32,
    pub reps: u32,
}

impl Trials {
    /// Device time one trial aims at, in microseconds.
    pub const TRIAL_BUDGET_US: f64 = 2000.0;

    /// Launches per trial (and warm-up launches) for a kernel that takes `once_us` a launch.
    fn scaled(self, once_us: f64) -> (u32, u32) {
        let fit = (Self::TRIAL_BUDGET_US / once_us.max(1e-3)).floor();
        let fit = if fit >= f64::from(u32::MAX) {
            u32::MAX
        } else {
            fit as u32
        };
        (self.reps.min(fit).max(1), self.warmup.min(fit))
    }
}

impl Default for Trials {
    /// The cuDNN baseline's defaults (15 trials of 20), after 5 warm-up launches.
    fn default() -> Self {
        Trials {
            warmup: 5,
            trials: 15,
            reps: 20,
        }
    }
}

/// One kernel on one problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The worse of the first run's and the last timed launch's result against the reference.
    pub verification: Verification,
    /// Microseconds per launch of each trial; empty when the first run did not verify.
    pub trial_us: Vec<f64>,
}

impl Measurement {
    /// Median microseconds per launch; `None` when the kernel was not timed.
    pub fn median_us(&self) -> Option<f64> {
        let mut t = self.trial_us.clone();
        t.sort_by(f64::total_cmp);
        let n = t.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => Some(t[n / 2]),
            _ => Some((t[n / 2 - 1] + t[n / 2]) / 2.0),
        }
    }
}

/// An instance with element-wise ops or D tensors, which the bench does not time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("element-wise ops or D tensors: the bench times plain convolutions")]
pub struct NotPlain;

/// Whether the bench can time `inst`: plain convolution only (the shared reference has no
/// element-wise ops and no D tensors).
pub fn plain_convolution(inst: &Checked) -> Result<(), NotPlain> {
    let ops = inst.elementwise;
    let pass = ElementOp::PassThrough;
    if ops.input != pass || ops.weight != pass || ops.output != pass || !inst.types.ds.is_empty() {
        return Err(NotPlain);
    }
    Ok(())
}

/// Distinct kernel texts: instances that share one (they differ only in their launch plans) have
/// it compiled and loaded once.
#[derive(Clone, Debug, Default)]
pub struct KernelTexts {
    kernels: Vec<HipKernel>,
    by_source: HashMap<String, usize>,
}

impl KernelTexts {
    /// The index of `k`'s text among the distinct ones, added if new.
    pub fn index(&mut self, k: &HipKernel) -> usize {
        let next = self.kernels.len();
        let idx = *self.by_source.entry(k.source.clone()).or_insert(next);
        if idx == next {
            self.kernels.push(k.clone());
        }
        idx
    }

    /// The distinct kernels, in the order of their indices.
    pub fn into_kernels(self) -> Vec<HipKernel> {
        self.kernels
    }
}

/// A problem's random host tensors and the fp64 reference of its destination.
pub struct BenchProblem {
    pub problem: ConvProblem,
    input: Tensor,
    weight: Tensor,
    output: Tensor,
    reference: Vec<f64>,
    bound: f64,
    /// The tensors as uploaded by the first [`BenchProblem::measure`], the destination filled
    /// with NaN. Each kernel runs on its own device copy, so that one that writes where it
    /// should not cannot change the next one's data.
    device: OnceCell<DeviceTensors>,
}

/// Where a problem's fp64 reference is computed.
#[derive(Clone, Copy)]
pub enum ReferenceOn<'a> {
    /// On every core of the host ([`crate::reference::reference`]).
    Host,
    /// On the device ([`device_reference`]): large layers in seconds instead of minutes.
    Device(&'a CudaBackend),
}

/// Why a problem's data or reference could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    #[error(transparent)]
    Host(#[from] RunError),
    #[error("on the device: {0}")]
    Device(#[from] CudaError),
}

impl BenchProblem {
    /// Uniform `[-1, 1)` sources from `seed` (never zeros) and their reference, computed `on`
    /// the host (every core) or the device.
    pub fn new(
        problem: &ConvProblem,
        seed: u64,
        on: ReferenceOn<'_>,
    ) -> Result<BenchProblem, ReferenceError> {
        let p = problem.clone();
        let t = |role: Role, s: u64| random_tensor(p.dtype_of(role), p.desc(role)?, s);
        let (input, weight, output) = (
            t(Role::Input, seed)?,
            t(Role::Weight, seed ^ 1)?,
            t(Role::Output, seed ^ 2)?,
        );
        let bound = tolerance(p.dtype_of(p.destination()), p.gemm().2);
        let mut data = BenchProblem {
            problem: p,
            input,
            weight,
            output,
            reference: Vec::new(),
            bound,
            device: OnceCell::new(),
        };
        data.reference = match on {
            ReferenceOn::Host => reference(
                &data.problem,
                &data.input,
                &data.weight,
                &data.output,
                &Elementwise::NONE,
            )?,
            ReferenceOn::Device(be) => {
                let t = data.on_device(be)?;
                let host = [&data.input, &data.weight, &data.output];
                device_reference(be, &data.problem, t, host)?
            }
        };
        Ok(data)
    }

    /// The problem's tensors on the device (uploaded on first use): the sources, and the
    /// destination filled with NaN, so unwritten elements fail.
    fn on_device(&self, be: &CudaBackend) -> Result<&DeviceTensors, CudaError> {
        if let Some(t) = self.device.get() {
            return Ok(t);
        }
        let dst = self.problem.destination();
        let upload = |role: Role, t: &Tensor| -> Result<_, CudaError> {
            let bytes = to_bytes(t);
            if role == dst {
                // All-ones bytes are NaN in fp16, bf16 and fp32, 0x80 in fp8 and bf8 (and
                // -128 in int8, which has no NaN: a value few sums land on everywhere).
                let poison = if t.dtype().bytes() == 1 { 0x80 } else { 0xff };
                be.upload(&vec![poison; bytes.len()])
            } else {
                be.upload(&bytes)
            }
        };
        let t = DeviceTensors {
            input: upload(Role::Input, &self.input)?,
            weight: upload(Role::Weight, &self.weight)?,
            output: upload(Role::Output, &self.output)?,
            d: None,
        };
        Ok(self.device.get_or_init(|| t))
    }

    /// The fp64 destination, in its memory order.
    pub fn reference(&self) -> &[f64] {
        &self.reference
    }

    /// The relative-error bound of the destination's type over the problem's GEMM-K.
    pub fn bound(&self) -> f64 {
        self.bound
    }

    /// Runs `k` once on a device copy of the problem's tensors with the launch plan of
    /// `kernel`, the kernel of `inst` (instances that share the loaded code may still plan
    /// differently, e.g. by split-K) and checks it; if it passes, times it. Zero-fills of the
    /// output and the workspace are part of every timed launch.
    pub fn measure(
        &self,
        be: &CudaBackend,
        inst: &Checked,
        k: &LoadedKernel,
        kernel: &HipKernel,
        trials: Trials,
    ) -> Result<Measurement, CudaError> {
        let p = &self.problem;
        let plan = be.plan(inst, kernel, p)?;
        let fresh = self.on_device(be)?;
        let mut t = DeviceTensors {
            input: be.copy(&fresh.input)?,
            weight: be.copy(&fresh.weight)?,
            output: be.copy(&fresh.output)?,
            d: None,
        };
        let mut ws = match usize::try_from(plan.workspace_bytes) {
            Ok(0) => None,
            Ok(n) => Some(be.alloc(n)?),
            Err(_) => {
                return Err(CudaError::from(LaunchError::Problem(format!(
                    "workspace of {} bytes",
                    plan.workspace_bytes
                ))));
            }
        };
        let mut launch = |t: &mut DeviceTensors| be.launch(k, &plan, t, ws.as_mut(), 1.0, 0.0);
        launch(&mut t)?;
        let first = self.check(be, &t)?;
        if !first.passed() {
            return Ok(Measurement {
                verification: first,
                trial_us: Vec::new(),
            });
        }
        // Launches per trial (fewer for slow kernels), measured on one plain launch.
        let once = {
            let start = be
                .stream
                .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
            launch(&mut t)?;
            let end = be
                .stream
                .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
            f64::from(start.elapsed_ms(&end)?) * 1e3
        };
        let (reps, warmup) = trials.scaled(once);
        // A trial replays a graph of `reps` runs (every step of the plan), as the cuDNN baseline
        // does: host launch overhead is out of both measurements.
        let graph = be.capture(|| (0..reps).try_for_each(|_| launch(&mut t)))?;
        let timed = |graphs: u32| -> Result<f64, CudaError> {
            let start = be
                .stream
                .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
            for _ in 0..graphs {
                graph.launch()?;
            }
            let end = be
                .stream
                .record_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
            Ok(f64::from(start.elapsed_ms(&end)?) * 1e3 / f64::from(graphs * reps))
        };
        if warmup > 0 {
            timed(warmup.div_ceil(reps))?;
        }
        let mut trial_us = Vec::with_capacity(trials.trials as usize);
        for _ in 0..trials.trials.max(1) {
            trial_us.push(timed(1)?);
        }
        let last = self.check(be, &t)?;
        let verification = if last.relative_error > first.relative_error {
            last
        } else {
            first
        };
        Ok(Measurement {
            verification,
            trial_us,
        })
    }

    /// The device destination against the reference.
    fn check(&self, be: &CudaBackend, t: &DeviceTensors) -> Result<Verification, CudaError> {
        be.synchronize()?;
        let (buf, host) = match self.problem.destination() {
            Role::Input => (&t.input, &self.input),
            Role::Weight => (&t.weight, &self.weight),
            Role::Output => (&t.output, &self.output),
        };
        let bytes = be.download(buf)?;
        let relative_error = match host.data() {
            TensorData::F16(_) => {
                bytes_error(&bytes, &self.reference, |b| f16::from_le_bytes(b).to_f64())
            }
            TensorData::Bf16(_) => {
                bytes_error(&bytes, &self.reference, |b| bf16::from_le_bytes(b).to_f64())
            }
            TensorData::F32(_) => bytes_error(&bytes, &self.reference, |b| {
                f64::from(f32::from_le_bytes(b))
            }),
            TensorData::F8(_) => bytes_error(&bytes, &self.reference, |[b]: [u8; 1]| {
                f64::from(crate::fp8::FP8.decode(b))
            }),
            TensorData::Bf8(_) => bytes_error(&bytes, &self.reference, |[b]: [u8; 1]| {
                f64::from(crate::fp8::BF8.decode(b))
            }),
            TensorData::I8(_) => {
                bytes_error(&bytes, &self.reference, |b| f64::from(i8::from_le_bytes(b)))
            }
        };
        Ok(Verification {
            relative_error,
            bound: self.bound,
        })
    }
}

/// The relative error of a destination downloaded as little-endian elements of `N` bytes,
/// decoded where they lie (a large output is not copied into a host tensor first).
fn bytes_error<const N: usize>(
    bytes: &[u8],
    reference: &[f64],
    decode: impl Fn([u8; N]) -> f64 + Sync,
) -> f64 {
    if bytes.len() != N * reference.len() {
        return f64::INFINITY;
    }
    relative_error_of(reference, |i| {
        let mut b = [0; N];
        b.copy_from_slice(&bytes[i * N..(i + 1) * N]);
        decode(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_kernels_run_fewer_launches_per_trial() {
        let t = Trials::default();
        // 1 µs: every repetition and warm-up launch.
        assert_eq!(t.scaled(1.0), (20, 5));
        // 500 µs: 4 launches fill the 2 ms budget.
        assert_eq!(t.scaled(500.0), (4, 4));
        // 10 ms: one launch a trial, no warm-up beyond the first timing.
        assert_eq!(t.scaled(10_000.0), (1, 0));
    }
    use crate::testing::{Variant, changed, instance};
    use ck_compiler::model::{DataType, Op};

    #[test]
    fn median_of_odd_and_even_counts() {
        let v = |r: f64| Verification {
            relative_error: r,
            bound: 1.0,
        };
        let m = |t: &[f64]| Measurement {
            verification: v(0.0),
            trial_us: t.to_vec(),
        };
        assert_eq!(m(&[]).median_us(), None);
        assert_eq!(m(&[3.0, 1.0, 2.0]).median_us(), Some(2.0));
        assert_eq!(m(&[4.0, 1.0, 3.0, 2.0]).median_us(), Some(2.5));
    }

    #[test]
    fn problem_data_is_random_and_referenced() {
        let p = ConvProblem::new(Op::Fwd, 1, 2, 8, 4, &[3, 3], &[5, 5], DataType::Fp16)
            .unwrap()
            .with_pads(&[1], &[1])
            .unwrap();
        let b = BenchProblem::new(&p, 11, ReferenceOn::Host).unwrap();
        assert!(b.input.to_f32().iter().all(|v| v.abs() < 1.0));
        assert!(b.input.to_f32().iter().any(|&v| v != 0.0));
        assert_eq!(b.reference.len(), b.output.len());
        assert!(b.reference.iter().any(|&v| v != 0.0));
        assert_eq!(b.bound, tolerance(DataType::Fp16, 4 * 9));
    }

    #[test]
    fn shared_kernel_texts_compile_once() {
        let fp16 = crate::gpu::portable_kernel(&instance(Variant::FwdTile), "cuda").unwrap();
        let split = changed(&instance(Variant::FwdTile), |i| {
            i.name = "split".into();
            i.work.split_k = ck_compiler::ir::SplitK::Fixed(3);
        });
        let same = crate::gpu::portable_kernel(&split, "cuda").unwrap();
        let other = crate::gpu::portable_kernel(&instance(Variant::BwdDataTile), "cuda").unwrap();
        let mut texts = KernelTexts::default();
        assert_eq!(
            [&fp16, &other, &same].map(|k| texts.index(k)),
            [0, 1, 0],
            "split-K is in the plan, not the text"
        );
        assert_eq!(texts.into_kernels().len(), 2);
    }

    #[test]
    fn only_plain_convolutions() {
        let inst = instance(Variant::FwdXdl);
        assert!(plain_convolution(&inst).is_ok());
        let relu = changed(&inst, |i| i.elementwise.output = ElementOp::Relu);
        assert!(plain_convolution(&relu).is_err());
    }
}
