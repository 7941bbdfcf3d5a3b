/// CK0302: two waves of 64 threads cannot split a 64x48 tile into 32x32 instructions; the
/// error points at the tile.
instance no_split {
    op = bwd_weight;
    kind = xdl_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 128;
    tile = [64, 48, 32];
    k1 = 8;
    instr = [32, 32];
    a { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
    b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
    pipeline { scheduler = intrawave; version = v2; }
}
