/// A multiple-D op with an empty D tuple, as CK's scale backward-weight instances are.
instance bwd_weight_wmma_multiple_d_scale {
    op = bwd_weight;
    dims = 3;
    kind = wmma_multiple_d;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    types { in = fp16; wei = fp16; out = fp16; acc = fp32; compute_a = fp16; compute_b = fp16; }
    elementwise { in = pass_through; wei = scale; out = pass_through; }
    spec = default;
    block = 64;
    tile = [64, 64, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [4, 2];
    a { cluster = [4, 8, 1]; arrange = [2, 0, 1]; access = [1, 0, 2]; vector_dim = 1; src_vector = 1; dst_vector = 4; lds_pad = true; }
    b { cluster = [4, 8, 1]; arrange = [2, 0, 1]; access = [1, 0, 2]; vector_dim = 1; src_vector = 1; dst_vector = 4; lds_pad = true; }
    c { shuffle = [1, 1]; cluster = [1, 16, 1, 4]; vector = 1; }
    pipeline { scheduler = intrawave; version = v1; }
    targets = [gfx1201];
}
