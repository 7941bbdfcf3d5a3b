// The body declares one instance: families and imports belong in `.ck` files.
fn main() {
    let _ = ck_runtime::conv_instance! {
        import "common.ck";
        family ui_family { over tile = [[32, 128, 32]]; }
    };
}
