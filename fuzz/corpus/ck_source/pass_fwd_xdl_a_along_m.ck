/// Forward XDL reading A along dimension 1 (M), which CK's forward ops accept.
instance fwd_xdl_m {
    op = fwd;
    kind = xdl;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942];
    block = 256;
    tile = [128, 128, 32];
    k1 = 8;
    instr = [32, 32];
    a { cluster = [4, 16, 4]; src_vector = 8; dst_vector = 2; vector_dim = 1; }
    pipeline { version = v1; }
}
