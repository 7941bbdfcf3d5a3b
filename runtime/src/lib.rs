//! The ckdsl runtime: convolution problems, a registry of compiled instances, support checks,
//! selection, and back ends that run them.

pub mod backend;
pub mod declared;
pub mod decompose;
pub mod device;
pub mod dims;
pub mod elementwise;
pub mod entry_estimate;
pub mod exec;
pub mod features;
pub mod fp8;
pub mod gbdt;
pub mod layout;
pub mod padded;
pub mod probe;
pub mod problem;
pub mod problem_string;
pub mod reference;
pub mod registry;
pub mod rng;
pub mod select;
pub mod shapes;
pub mod subset;
pub mod support;
pub mod tensor;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod time_model;
pub mod timings;
pub mod tuning;
pub mod verify;

/// The README's Rust example, compiled as a doctest so that it stays true.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeExamples;

// The expansion names `::ck_runtime::Declared`, which must resolve inside this crate too.
extern crate self as ck_runtime;

pub use backend::{Backend, CpuBackend, DeviceId};
pub use ck_macros::conv_instance;
pub use declared::Declared;
pub use device::DeviceModel;
pub use elementwise::{ElementArgs, Elementwise, ExtraSources};
pub use exec::{Buffers, RunError, RunStats, workspace_size};
pub use layout::{LayoutFamily, Role, TensorDesc};
pub use problem::{ConvProblem, ProblemError, ProblemLayout, ProblemTypes};
pub use registry::{Candidate, NoInstance, Registry, RegistryError};
pub use support::{Formulation, Rule, RunsAs, Unsupported, formulation, supports, supports_on};
pub use tensor::{Tensor, TensorData};
pub use verify::{ProblemData, Verification};
#[cfg(feature = "cuda")]
pub mod cuda;
#[cfg(any(feature = "cuda", feature = "hip"))]
pub mod gpu;
#[cfg(feature = "hip")]
pub mod hip;
