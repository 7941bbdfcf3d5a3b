/// StreamK with atomic fix-ups (the library has none), persistent and not: the GPU checks and
/// their sanitizer subsets run these so that every StreamK fix-up is covered.
family gpu_check_streamk_atomic {
    op = bwd_weight;
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    tile = [64, 64, 32];
    warps = [2, 2, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; }
    streamk.reduction = atomic;
    name = "{family}_persistent_{streamk.persistent}";
    over streamk.persistent = [false, true];
}
