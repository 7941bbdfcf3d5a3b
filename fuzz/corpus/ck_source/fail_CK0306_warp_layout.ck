/// CK0306: 8x1x1 warps are not a gfx942 warp config.
instance bad_warp_layout {
    op = bwd_weight;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = bf16;
    targets = [gfx942];
    tile = [256, 128, 32];
    warps = [8, 1, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; }
}
