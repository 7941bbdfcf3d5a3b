/// CK0406: an LDS write of 8 fp32 elements is 32 bytes.
instance bad_vector_bytes {
    op = bwd_weight;
    kind = xdl;
    dims = 2;
    layout = nhwgc;
    dtype = fp32;
    targets = [gfx90a, gfx942];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
    a { cluster = [1, 4, 64, 1]; src_vector = 4; dst_vector = 8; lds_pad = true; }
    b { cluster = [1, 4, 16, 4]; src_vector = 8; dst_vector = 2; lds_pad = true; }
    c { shuffle = [1, 1]; cluster = [1, 32, 1, 8]; vector = 4; }
}
