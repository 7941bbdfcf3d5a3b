/// WMMA CShuffle V3 f16 for RDNA3/4, CK's generic row
/// `64,32,32,32,8,16,16,2,1 | S<4,8,1>,1,2,2,0 | S<4,16,1>,1,2,2,0 | 1,1,S<1,8,1,8>,2`.
/// gfx11 has no packed f16 atomics, so split_k stays 1.
instance bwd_weight_wmma_v3_f16_generic {
    op = bwd_weight;
    kind = wmma_v3;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx1100, gfx1201];
    block = 64;
    tile = [32, 32, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [2, 1];
    a { cluster = [4, 8, 1]; src_vector = 2; dst_vector = 2; }
    b { cluster = [4, 16, 1]; src_vector = 2; dst_vector = 2; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
}

/// Two-stage WMMA V3: the generic WMMA row with an fp32 workspace.
instance bwd_weight_two_stage_wmma_f16_generic {
    op = bwd_weight;
    kind = wmma_two_stage;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx1100, gfx1201];
    block = 64;
    tile = [32, 32, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [2, 1];
    a { cluster = [4, 8, 1]; src_vector = 2; dst_vector = 2; }
    b { cluster = [4, 16, 1]; src_vector = 2; dst_vector = 2; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
}

/// Multiple-D WMMA V3: the generic WMMA row with a bilinear D epilogue
/// (CK's wmma_bilinear instances).
instance bwd_weight_wmma_multiple_d_bilinear {
    op = bwd_weight;
    kind = wmma_multiple_d;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx1100, gfx1201];
    block = 64;
    tile = [32, 32, 32];
    k1 = 8;
    instr = [16, 16];
    repeat = [2, 1];
    a { cluster = [4, 8, 1]; src_vector = 2; dst_vector = 2; }
    b { cluster = [4, 16, 1]; src_vector = 2; dst_vector = 2; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
    ds.layouts = [gkyxc];
    ds.types = [fp16];
    elementwise.wei = bilinear;
}
