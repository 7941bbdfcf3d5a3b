/// CK0511: gfx908 has no bf16 atomics.
instance bad_bf16_atomics {
    op = bwd_weight;
    kind = xdl;
    dims = 2;
    layout = nhwgc;
    dtype = bf16;
    targets = [gfx908];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
    a { cluster = [1, 4, 32, 2]; src_vector = 8; dst_vector = 4; lds_pad = true; }
    b { cluster = [1, 4, 16, 4]; src_vector = 8; dst_vector = 2; lds_pad = true; }
    c { shuffle = [1, 1]; cluster = [1, 32, 1, 8]; vector = 8; }
    split_k = 2;
}
