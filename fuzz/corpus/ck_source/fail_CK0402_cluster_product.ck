/// CK0402: A wavelet cluster of 128 threads with a 256-thread load group.
instance bad_cluster_product {
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
    pipeline { prefetch = 1; }
    a { cluster = [4, 16, 2]; src_vector = 8; dst_vector = 4; }
    b { cluster = [4, 32, 2]; src_vector = 4; dst_vector = 4; }
    c { cluster = [1, 32, 1, 8]; }
}
