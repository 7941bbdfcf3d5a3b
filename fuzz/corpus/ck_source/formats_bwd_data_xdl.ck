/// Backward-data multiple-D XDL, f16.
instance bwd_data_xdl_f16 {
    op = bwd_data;
    kind = xdl_multiple_d;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
}
