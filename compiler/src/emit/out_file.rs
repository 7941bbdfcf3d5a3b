//! A generated file, as the CK C++ and build-file emitters return it.

/// One generated file, its path relative to the output root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutFile {
    pub path: String,
    pub contents: String,
}
