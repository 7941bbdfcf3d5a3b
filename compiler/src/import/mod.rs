//! Importers: CK instance strings back to instances and `.ck` source.

pub mod ck_source;
pub mod traits;

pub use ck_source::{instance_source, to_ck_source};
pub use traits::{ImportError, ImportedInstance, ListEntry, import_list, import_trait};
