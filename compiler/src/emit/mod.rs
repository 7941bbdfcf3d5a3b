//! Emitters: validated IR → generated artifacts.

pub mod hip;
