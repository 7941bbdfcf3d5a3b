/// The same tile with every transfer, repeat and C-shuffle derived.
instance v3_derived {
    op = bwd_weight;
    kind = xdl_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 64;
    tile = [32, 128, 32];
    k1 = 8;
    instr = [32, 32];
    pipeline { scheduler = intrawave; version = v2; }
}
