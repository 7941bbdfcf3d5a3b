//! The kernel model of an instance's portable kernel: its configuration ([`KernelConfig`]: the
//! tile, operands and schedule derived from the validated instance), the device it runs on, the
//! kernel arguments, TMA plans and the host launch plans of every entry. The HIP emitter
//! renders kernel sources from it ([`crate::emit::hip`]); the runtime plans and launches with it.

pub(crate) mod args;
pub(crate) mod config;
mod device;
pub(crate) mod launch;
mod operand;
pub(crate) mod tma;

pub use args::CkArgs;
pub use args::{IMAGE_BYTES, TMA_MAP_BYTES, TMA_MAPS_OFFSET};
pub use config::{KernelConfig, PortableError, Schedule, WgmmaLayout, gcd};
pub use device::{DeviceInfo, MAX_CLUSTER, NO_CLUSTERS, Persist};
pub use launch::{
    Buffers, ConvDims, DCONV_BAND_LDS, EntryKind, LaunchPlan, PlanError, RowMap, Staged,
    StagedCopy, Step, StridePhase, Transpose, ZeroTarget, dconv_mma_suits, dconv_strip_rows,
    dconv_window, dconv_window_stride, depthwise_rows_suit, pointwise_mma_suits, pointwise_suits,
    rows_computed_taps, stride_phases, takes_stride_phases, window_mma_suits, window_suits,
};
pub use operand::{Elem, OperandCfg};
pub use tma::{MapKind, TensorMap, TmaKernel, box_channels, tensor_maps, tma_mode};
