/// CK0210: D layouts and D types of different lengths.
instance bad_ds {
    op = bwd_weight;
    kind = xdl_multiple_d;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
    a { cluster = [1, 4, 32, 2]; src_vector = 8; dst_vector = 4; lds_pad = true; }
    b { cluster = [1, 4, 16, 4]; src_vector = 8; dst_vector = 2; lds_pad = true; }
    c { shuffle = [1, 1]; cluster = [1, 32, 1, 8]; vector = 8; }
    ds { layouts = [gkyxc]; types = [fp16, fp16]; }
    elementwise { wei = bilinear; }
}
