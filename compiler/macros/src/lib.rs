//! `conv_instance! { ... }`, a thin shell over `ck_compiler::macro_support`.
//!
//! Use it through `ck_runtime::conv_instance!`: the expansion is a `ck_runtime::Declared`.

use proc_macro::TokenStream;

/// Declares one instance in `.ck` syntax (one `instance` item, `defaults` allowed), checked at
/// compile time by the same front end as `.ck` files. Expands to a constant
/// `ck_runtime::Declared` holding the validated IR and the CK instance string; errors of every
/// stage point at the offending token.
#[proc_macro]
pub fn conv_instance(body: TokenStream) -> TokenStream {
    ck_compiler::macro_support::expand(body.into()).into()
}
