/// Forward XDL V3, f16.
instance fwd_xdl_v3_f16 {
    op = fwd;
    kind = xdl_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
    pipeline { scheduler = intrawave; version = v3; }
}
