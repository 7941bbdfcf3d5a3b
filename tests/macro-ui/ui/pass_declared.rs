// A valid declaration compiles to a constant `Declared`, usable in a static.
use ck_runtime::{Declared, conv_instance};

static INLINE: Declared = conv_instance! {
    defaults xdl_f16 {
        op = bwd_weight; dims = 2; layout = nhwgc; dtype = fp16; targets = [gfx942];
    }
    /// Declared in Rust.
    instance ui_pass : xdl_f16 {
        kind = xdl_v3;
        block = 64; tile = [32, 128, 32]; k1 = 8; instr = [32, 32]; repeat = [1, 4];
        a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
        b.cluster = [4, 16, 1]; b.src_vector = 8; b.dst_vector = 8;
        c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
    }
};

fn main() {
    assert_eq!(INLINE.instance().name, "ui_pass");
}
