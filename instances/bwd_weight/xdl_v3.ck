/// XDL CShuffle V3 f16, from CK's configs (tests/nhwgc_fp16.conf):
/// `64,32,128,32,8,32,32,1,4 | S<4,4,1>,1,8,8 | S<4,16,1>,1,8,8 | S<1,8,1,8>,2`, Intrawave v2.
instance bwd_weight_xdl_v3_f16_32x128 {
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
    repeat = [1, 4];
    a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
    b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
    pipeline { scheduler = intrawave; version = v2; }
}

/// Two-stage XDL: the same row into an fp32 workspace, then converted;
/// merges 8 groups (tests/nhwgc_fp16.conf, two-stage line).
instance bwd_weight_two_stage_xdl_f16_32x128 {
    op = bwd_weight;
    kind = xdl_two_stage;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 64;
    tile = [32, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [1, 4];
    a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
    b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 1; }
    pipeline { scheduler = intrawave; version = v1; }
    merge_groups = 8;
}
