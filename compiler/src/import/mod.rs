//! Importers: CK instance strings back to instances and `.ck` source.

pub mod allow;
pub mod ck_source;
pub mod cpp_list;
pub mod families;
pub mod traits;

#[cfg(test)]
mod samples;
#[cfg(test)]
mod tests;

pub use allow::{Compiled, Refused, compile_allowing_breaks};
pub use ck_source::{instance_source, to_ck_source};
pub use cpp_list::{CppError, CppRow, RowError, import_cpp};
pub use families::{Member, family_source};
pub use traits::{ImportError, ImportedInstance, ListEntry, import_list, import_trait};
