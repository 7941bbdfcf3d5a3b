//! What a kernel's configuration and launch plan need to know about the device.

use serde::{Deserialize, Serialize};

/// What the plan needs to know about the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// Compute units / SMs: the StreamK and auto split-K grids are sized from it.
    pub compute_units: u32,
    /// Largest dynamic LDS a workgroup may use.
    pub max_lds_bytes: u32,
    /// The device runs the kernels' `cp.async` ring (NVIDIA sm_80+), with its LDS layout.
    pub async_copy: bool,
    /// The kernels are compiled for sm_90a and run their `wgmma` path where they have one,
    /// with its LDS layout.
    pub wgmma: bool,
    /// When unsplit GEMMs of kernels with TMA copies run on persistent workgroups (the
    /// persistent entry, on devices with the warpgroup path).
    pub persistent: Persist,
    /// Thread-block clusters (NVIDIA sm_90+): entry `i` is how many workgroups that each fill
    /// a compute unit run at once in clusters of `i + 1` (a cluster lives in one GPC, so
    /// sizes that do not divide a GPC leave compute units idle); all 0 without clusters.
    pub cluster_slots: [u32; MAX_CLUSTER],
}

/// When plans take the persistent entry ([`DeviceInfo::persistent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Persist {
    /// Never: a workgroup a tile.
    Off,
    /// Where a workgroup takes several tiles of a short K loop, whose epilogues are a large
    /// part of their time and so gain from overlapping the next tile's copies.
    Planned,
    /// Wherever the entry can run (side-by-side comparisons).
    Always,
}

/// Largest thread-block cluster planned: 8 is the portable limit, 16 what the H100 runs where
/// a kernel allows non-portable sizes (the driver's occupancy query says which sizes run).
pub const MAX_CLUSTER: usize = 16;
/// A device without thread-block clusters.
pub const NO_CLUSTERS: [u32; MAX_CLUSTER] = [0; MAX_CLUSTER];
