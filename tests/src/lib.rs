//! Integration tests of ckdsl live in `tests/`; this crate has no library code.
