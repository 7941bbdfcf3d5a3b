/// CK0311: A 256x256x128 bf16 tile needs 128 KB of LDS.
instance bad_lds {
    op = bwd_weight;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = bf16;
    targets = [gfx942];
    tile = [256, 256, 128];
    warps = [2, 2, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; }
}
