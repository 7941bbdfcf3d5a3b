/// A's thread cluster spreads its 32 rows (the vector dimension) over 32 threads: each reads one.
instance scalar_a {
    op = bwd_weight;
    kind = xdl_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942];
    block = 64;
    tile = [32, 128, 32];
    k1 = 8;
    instr = [32, 32];
    a.cluster = [2, 32, 1];
    pipeline { scheduler = intrawave; version = v2; }
}
