/// CK0307: No 16x16x8 bf16 warp tile on gfx942.
instance bad_warp_tile {
    op = bwd_weight;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = bf16;
    targets = [gfx942];
    tile = [128, 128, 32];
    warps = [4, 1, 1];
    warp_tile = [16, 16, 8];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; }
}
