// A misspelt key: resolution points at the key.
fn main() {
    let _ = ck_runtime::conv_instance! {
        instance ui_unknown_key {
            op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
            targets = [gfx942]; block = 64; tiel = [32, 128, 32];
        }
    };
}
