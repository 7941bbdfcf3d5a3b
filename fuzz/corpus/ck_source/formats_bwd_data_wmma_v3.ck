/// Backward-data multiple-D WMMA V3, f16 for RDNA4.
instance bwd_data_wmma_v3_f16 {
    op = bwd_data;
    kind = wmma_multiple_d;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx1201];
    block = 128;
    tile = [64, 64, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [2, 2];
    pipeline { scheduler = intrawave; version = v1; }
}
