//! The device model that work distribution depends on: how many workgroups run at once.
//!
//! Auto split-K, StreamK partitioning and the selection cost model need the number of compute
//! units and the workgroups resident per unit. The CPU back end uses the same model so that it
//! executes exactly the decomposition a GPU with these numbers would.

use ck_compiler::model::Arch;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceModel {
    /// The architecture, when known: arch-specific support rules apply only then.
    pub arch: Option<Arch>,
    /// Compute units (AMD CUs, NVIDIA SMs).
    pub compute_units: u32,
    /// Workgroups resident per compute unit.
    pub occupancy: u32,
}

impl Default for DeviceModel {
    /// An MI300X-sized device (304 CUs, 2 workgroups each), no specific architecture.
    fn default() -> Self {
        DeviceModel {
            arch: None,
            compute_units: 304,
            occupancy: 2,
        }
    }
}

impl DeviceModel {
    /// Workgroups that run at the same time (at least 1).
    pub fn slots(&self) -> u64 {
        (self.compute_units as u64 * self.occupancy as u64).max(1)
    }
}

/// RDNA3 (gfx11): no packed f16/bf16 atomics, so CK's V3 and WMMA ops require k_batch == 1.
pub fn is_gfx11(arch: Arch) -> bool {
    matches!(arch, Arch::Gfx1100 | Arch::Gfx1101)
}
