//! The JSON manifest: one entry per instance with its key, instance string, dispatcher name,
//! targets and the full IR parameters the runtime needs.

use super::names::dispatcher_name;
use super::traits::instance_string_as;
use crate::ir::{Checked, Validated};
use crate::model::Arch;
use serde::Serialize;

/// Bumped whenever an entry's shape changes.
pub const MANIFEST_VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize)]
pub struct Manifest<'a> {
    pub version: u32,
    pub instances: Vec<ManifestEntry<'a>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ManifestEntry<'a> {
    /// The instance name, unique within the set.
    pub key: &'a str,
    /// The CK instance string in the instance's format variant.
    pub instance_string: String,
    /// The format variant's `ck_format` name.
    pub ck_format: &'static str,
    /// The CK-Tile dispatcher name (absent for DL instances).
    pub dispatcher_name: Option<String>,
    pub archs: &'a [Arch],
    pub params: &'a Checked,
}

pub fn manifest(set: &Validated) -> Manifest<'_> {
    let instances = set
        .instances()
        .iter()
        .map(|inst| ManifestEntry {
            key: &inst.name,
            instance_string: instance_string_as(inst, inst.format()),
            ck_format: inst.format().variant_name(),
            dispatcher_name: dispatcher_name(inst),
            archs: &inst.targets,
            params: inst,
        })
        .collect();
    Manifest {
        version: MANIFEST_VERSION,
        instances,
    }
}

/// Why the manifest cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot write the manifest as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The manifest as pretty JSON (field order fixed by the types, so output is deterministic).
pub fn manifest_json(set: &Validated) -> Result<String, ManifestError> {
    Ok(serde_json::to_string_pretty(&manifest(set))?)
}
