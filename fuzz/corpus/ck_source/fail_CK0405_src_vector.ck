/// CK0405: 8 does not divide the 4 elements per thread.
instance bad_src_vector {
    op = bwd_weight;
    kind = wmma_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx1100, gfx1201];
    block = 64;
    tile = [32, 32, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [2, 1];
    a { cluster = [4, 8, 1]; src_vector = 8; dst_vector = 2; }
    b { cluster = [4, 16, 1]; src_vector = 2; dst_vector = 2; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
}
