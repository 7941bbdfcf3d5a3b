//! The ckdsl runtime: convolution problems, a registry of compiled instances, support checks,
//! selection, and back ends that run them.

pub mod decompose;
pub mod device;
pub mod exec;
pub mod layout;
pub mod problem;
pub mod problem_string;
pub mod reference;
pub mod support;
pub mod tensor;

pub use device::DeviceModel;
pub use exec::{Buffers, RunError, RunStats, workspace_size};
pub use layout::{LayoutFamily, Role, TensorDesc};
pub use problem::{ConvProblem, ProblemError, ProblemLayout, ProblemTypes};
pub use support::{Rule, Unsupported, supports, supports_on};
pub use tensor::{Tensor, TensorData};
