/// CK-Tile backward data with the dispatcher's default key: 128x128x64, warps 2x2x1,
/// warp tile 32x32x16, compv3 intrawave, vectors 4/8/8.
instance bwd_data_tile_f16_128x128x64 {
    op = bwd_data;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942, gfx950];
    tile = [128, 128, 64];
    warps = [2, 2, 1];
    warp_tile = [32, 32, 16];
    vector = [4, 8, 8];
}
