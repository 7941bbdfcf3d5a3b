//! Portable HIP kernels: a self-contained implicit-GEMM source per instance that compiles under
//! clang HIP (AMD) and NVRTC (NVIDIA), plus the host launch plan that runs it.

pub mod cover;
#[cfg(test)]
mod samples;
mod source;

pub use source::{KernelText, fnv1a, kernel_text};

use crate::ir::Checked;
use crate::kernel::{
    ConvDims, DeviceInfo, EntryKind, KernelConfig, LaunchPlan, PlanError, PortableError,
};
use crate::model::Op;
use serde::Serialize;

/// One entry point of a kernel source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub kind: EntryKind,
    /// The `extern "C"` symbol.
    pub symbol: String,
}

/// A portable kernel: its source, entry points and the derived configuration the launch plan
/// is computed from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HipKernel {
    /// The instance's name (compilers report errors under it).
    pub name: String,
    /// The kernel text, a function of the configuration only: instances that derive the same
    /// constants share it, so the back ends and their caches compile it once for all of them.
    pub source: String,
    pub entries: Vec<Entry>,
    pub config: KernelConfig,
}

impl HipKernel {
    pub fn entry(&self, kind: EntryKind) -> Option<&Entry> {
        self.entries.iter().find(|e| e.kind == kind)
    }

    /// Plans one run on `dims`; see [`KernelConfig::plan`].
    pub fn plan(&self, dims: &ConvDims, dev: &DeviceInfo) -> Result<LaunchPlan, PlanError> {
        self.config.plan(dims, dev)
    }
}

/// Emits the portable kernel of one validated instance.
pub fn emit_hip(inst: &Checked) -> Result<HipKernel, PortableError> {
    let config = KernelConfig::new(inst)?;
    let kernel = source::kernel_text(&config);
    let base = &kernel.symbol_base;
    let direct = config.has_direct().then_some((EntryKind::Direct, "direct"));
    let direct_bwd_weight = [
        (EntryKind::DirectMma, "direct_mma"),
        (EntryKind::DirectRows, "direct_rows"),
        (EntryKind::DirectRowTaps, "direct_row_taps"),
    ]
    .into_iter()
    .filter(|_| config.has_direct() && config.op == Op::BwdWeight);
    let sliced = config.has_sliced().then_some((EntryKind::Sliced, "sliced"));
    let pointwise = [
        (EntryKind::Pointwise, "pointwise"),
        (EntryKind::PointwiseMma, "pointwise_mma"),
    ]
    .into_iter()
    .filter(|_| config.has_pointwise());
    let window = [
        (EntryKind::Window, "window"),
        (EntryKind::WindowMma, "window_mma"),
    ]
    .into_iter()
    .filter(|_| config.has_window());
    let persistent = config
        .persist_layout()
        .map(|_| (EntryKind::Persistent, "persistent"));
    let transpose = config
        .weights_transposed()
        .then_some((EntryKind::Transpose, "transpose"));
    let entries = [
        (EntryKind::Main, "main"),
        (EntryKind::Convert, "convert"),
        (EntryKind::Repack, "repack"),
    ]
    .into_iter()
    .chain(direct)
    .chain(direct_bwd_weight)
    .chain(sliced)
    .chain(pointwise)
    .chain(window)
    .chain(transpose)
    .chain(persistent)
    .map(|(kind, suffix)| Entry {
        kind,
        symbol: format!("{base}_{suffix}"),
    })
    .collect();
    Ok(HipKernel {
        name: inst.name.clone(),
        source: kernel.text,
        entries,
        config,
    })
}
#[cfg(test)]
mod tests;
