//! `conv_instance!` UI tests: each failing body's errors point at the offending token (the
//! `.stderr` files hold the compiler's output), and a valid one compiles.

#[test]
fn conv_instance_ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass_*.rs");
    for case in [
        "parse_error",
        "unknown_key",
        "validation_error",
        "body_rules",
    ] {
        t.compile_fail(format!("ui/{case}.rs"));
    }
}
