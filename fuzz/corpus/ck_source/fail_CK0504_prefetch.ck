/// CK0504: 3 prefetch stages.
instance bad_prefetch {
    op = bwd_weight;
    kind = wavelet;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx942];
    tile = [128, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [2, 2];
    wavelet.load = 256;
    wavelet.math = 256;
    pipeline { prefetch = 3; }
    a { cluster = [4, 32, 2]; src_vector = 4; dst_vector = 4; }
    b { cluster = [4, 32, 2]; src_vector = 4; dst_vector = 4; }
    c { cluster = [1, 32, 1, 8]; }
}
