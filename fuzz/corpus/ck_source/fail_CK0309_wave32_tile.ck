/// CK0309: Warp tile K = 16 on wave32 gfx1201.
instance bad_wave32_tile {
    op = fwd;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx1201];
    tile = [128, 128, 64];
    warps = [4, 2, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 8, 8];
}
