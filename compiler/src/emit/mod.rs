//! Back ends over validated instances: CK instance strings, CK C++, dispatcher names, the
//! manifest and build files.

pub mod access;
pub mod format;
pub mod spelling;
pub mod traits;

pub use format::{CkFormat, check_format};
pub use traits::{instance_string, instance_string_as};
