/// Non-V3 WMMA bwd-weight (3-D only), f16 for RDNA3.
instance bwd_weight_wmma_f16 {
    op = bwd_weight;
    kind = wmma;
    dims = 3;
    layout = ndhwgc;
    dtype = fp16;
    targets = [gfx1100];
    block = 128;
    tile = [64, 64, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [2, 2];
}
