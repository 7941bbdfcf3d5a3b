/// CK0508: StreamK with split_k = 2.
instance bad_streamk_split_k {
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
    split_k = 2;
}
