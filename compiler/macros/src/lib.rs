//! `conv_instance! { ... }`, a thin shell over `ck_compiler::macro_support`.
