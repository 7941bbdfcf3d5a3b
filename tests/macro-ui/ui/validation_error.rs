// A B-transfer cluster of 192 threads in a 64-thread block: validation points at the cluster.
fn main() {
    let _ = ck_runtime::conv_instance! {
        instance ui_validation {
            op = bwd_weight; kind = xdl_v3; dims = 2; layout = nhwgc; dtype = fp16;
            targets = [gfx942]; block = 64; tile = [32, 128, 32]; k1 = 8;
            instr = [32, 32]; repeat = [1, 4];
            a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
            b { cluster = [4, 16, 3]; src_vector = 8; dst_vector = 8; }
            c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
        }
    };
}
