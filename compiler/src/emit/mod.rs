//! Back ends over validated instances: CK instance strings, CK C++, dispatcher names, the
//! manifest, build files and portable HIP kernels.

pub mod access;
pub mod ck_cpp;
pub mod cmake;
pub mod format;
pub mod hip;
pub mod manifest;
pub mod names;
pub mod out_file;
pub mod spelling;
mod template;
pub mod traits;

pub use ck_cpp::{CkCppError, CkRelease, CkSources, emit_ck, emit_ck_for};
pub use format::{CkFormat, FormatError, check_format};
pub use manifest::{ManifestError, manifest, manifest_json};
pub use names::dispatcher_name;
pub use out_file::OutFile;
pub use traits::{instance_string, instance_string_as};

#[cfg(test)]
mod tests;
