/// Forward DL, f32, in the groups-first layouts CK also ships DL forward instances for.
instance fwd_dl_f32_gnhwc {
    op = fwd;
    kind = dl;
    dims = 2;
    layout = gnhwc;
    dtype = fp32;
    targets = [gfx90a];
    block = 256;
    tile = [128, 128, 16];
    k1 = 1;
    dl {
        m1_per_thread = 4;
        n1_per_thread = 4;
        k_per_thread = 1;
        cluster_m1 = [8, 2];
        cluster_n1 = [8, 2];
        a { slice = [8, 1, 1, 1]; cluster = [2, 1, 128, 1]; arrange = [1, 2, 0, 3]; access = [1, 2, 0, 3]; src_vector = [4, 1, 1, 1]; src_order = [1, 2, 0, 3]; dst_vector = [1, 1, 1, 1]; }
        b { slice = [8, 1, 1, 1]; cluster = [2, 1, 128, 1]; arrange = [1, 2, 0, 3]; access = [1, 2, 0, 3]; src_vector = [4, 1, 1, 1]; src_order = [1, 2, 0, 3]; dst_vector = [1, 1, 1, 1]; }
        c_access_order = [0, 1, 2, 3, 4, 5];
        c_vector_dim = 5;
        c_vector = 4;
    }
}
