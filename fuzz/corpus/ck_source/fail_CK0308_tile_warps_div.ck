/// CK0308: M = 96 is not a multiple of 4 x 16.
instance bad_tile_warps_div {
    op = bwd_weight;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = bf16;
    targets = [gfx942];
    tile = [96, 128, 32];
    warps = [4, 1, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; }
}
