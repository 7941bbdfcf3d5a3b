/// Forward WMMA (non-V3), f16 for RDNA3.
instance fwd_wmma_f16 {
    op = fwd;
    kind = wmma;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx1100];
    block = 128;
    tile = [64, 64, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [2, 2];
}
