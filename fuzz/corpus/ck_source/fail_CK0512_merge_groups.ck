/// CK0512: 12 is not a power of two.
instance bad_merge_groups {
    op = bwd_weight;
    kind = xdl_two_stage;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 64;
    tile = [32, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [1, 4];
    a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
    b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 1; }
    pipeline { scheduler = intrawave; version = v1; }
    merge_groups = 12;
}
