/// CK0517: four single-channel groups per block read with 4-wide vectors from GNHWC.
instance merged_gnhwc {
    op = bwd_weight;
    kind = xdl_two_stage;
    dims = 2;
    layout = gnhwc;
    dtype = fp16;
    targets = [gfx942];
    block = 64;
    tile = [32, 64, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [1, 2];
    a { cluster = [4, 8, 1]; src_vector = 4; dst_vector = 4; }
    b { cluster = [4, 16, 1]; src_vector = 4; dst_vector = 4; }
    c { cluster = [1, 8, 1, 8]; vector = 1; }
    merge_groups = 4;
}
