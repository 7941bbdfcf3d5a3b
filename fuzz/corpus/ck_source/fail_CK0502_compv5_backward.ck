/// CK0502: compv5 is forward only.
instance bad_compv5_backward {
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
    pipeline { scheduler = intrawave; version = compv5; }
}
