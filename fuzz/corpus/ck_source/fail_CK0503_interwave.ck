/// CK0503: compv3 has no interwave scheduler.
instance bad_interwave {
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
    pipeline { scheduler = interwave; version = compv3; }
}
