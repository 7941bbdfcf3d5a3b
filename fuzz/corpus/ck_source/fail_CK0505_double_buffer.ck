/// CK0505: compv3 has no double LDS buffer.
instance bad_double_buffer {
    op = bwd_weight;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = bf16;
    targets = [gfx942];
    tile = [128, 128, 32];
    warps = [4, 1, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; double_buffer = true; }
}
