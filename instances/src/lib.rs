//! The ckdsl instance library.
