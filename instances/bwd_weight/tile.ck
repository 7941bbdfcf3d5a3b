/// CK-Tile bwd-weight from CK's builder test: 128x128x32, warps 4x1x1, warp tile 16x16x16,
/// vectors 4/4/4, COMPUTE_V3 intrawave.
instance bwd_weight_tile_bf16_128x128x32 {
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
    pipeline { scheduler = intrawave; version = compv3; }
}

/// CK-Tile StreamK (tests/nhwgc_fp16_streamk.conf): 64x64x64, warps 2x2x1, BASIC_ASYNC_V1,
/// tree reduction, not persistent; async loads need gfx950.
instance bwd_weight_tile_f16_streamk_tree {
    op = bwd_weight;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx950];
    tile = [64, 64, 64];
    warps = [2, 2, 1];
    warp_tile = [16, 16, 16];
    vector = [8, 8, 8];
    pipeline { version = basic_async_v1; }
    streamk.reduction = tree;
    streamk.persistent = false;
}
