//! The ckdsl runtime: convolution problems, a registry of compiled instances, support checks,
//! selection, and back ends that run them.

pub mod problem;

pub use problem::ConvProblem;
#[cfg(feature = "cuda")]
pub mod cuda;
