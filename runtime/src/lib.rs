//! The ckdsl runtime: convolution problems, a registry of compiled instances, support checks,
//! selection, and back ends that run them.

pub mod layout;
pub mod problem;
pub mod problem_string;

pub use layout::{LayoutFamily, Role, TensorDesc};
pub use problem::{ConvProblem, ProblemError, ProblemLayout, ProblemTypes};
