/// CK0507: StreamK is bwd-weight only.
instance bad_streamk {
    op = fwd;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942, gfx950];
    tile = [128, 128, 64];
    warps = [2, 2, 1];
    warp_tile = [32, 32, 16];
    vector = [4, 8, 8];
    streamk.reduction = linear;
}
