defaults a : b { op = bwd_weight; }
defaults b : a { dims = 2; }
instance x : a {
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
    repeat = [1, 4];
}
