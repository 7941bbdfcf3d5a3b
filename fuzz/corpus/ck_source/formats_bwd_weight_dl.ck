/// DL bwd-weight, f32, CK's generic DL row
/// `256,128,128,16,1,4,4,1 | S<8,2>,S<8,2> | S<1,8,1,1,1>,S<1,2,1,128,1>,... | S<0,1,2,3,4,5>,5,1`.
instance bwd_weight_dl_f32 {
    op = bwd_weight;
    kind = dl;
    dims = 2;
    layout = nhwgc;
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
        a { slice = [1, 8, 1, 1, 1]; cluster = [1, 2, 1, 128, 1]; arrange = [0, 2, 3, 1, 4]; access = [0, 2, 3, 1, 4]; src_vector = [1, 1, 1, 1, 1]; src_order = [0, 2, 3, 1, 4]; dst_vector = [1, 1, 1, 1, 1]; }
        b { slice = [1, 1, 1, 8, 1]; cluster = [1, 16, 1, 16, 1]; arrange = [0, 1, 4, 2, 3]; access = [0, 1, 4, 2, 3]; src_vector = [1, 1, 1, 1, 1]; src_order = [0, 1, 4, 2, 3]; dst_vector = [1, 1, 1, 1, 1]; }
        c_access_order = [0, 1, 2, 3, 4, 5];
        c_vector_dim = 5;
        c_vector = 1;
    }
}
