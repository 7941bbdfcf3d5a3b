/// An XDL instance that also names the H100: there only its portable kernel runs.
instance xdl_on_hopper {
    op = bwd_weight;
    kind = xdl_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942, sm_90];
    block = 64;
    tile = [32, 128, 32];
    k1 = 8;
    instr = [32, 32];
    pipeline { scheduler = intrawave; version = v2; }
}
