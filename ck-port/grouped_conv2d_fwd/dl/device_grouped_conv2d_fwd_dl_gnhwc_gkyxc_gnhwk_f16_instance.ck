/// CK's `device_grouped_conv2d_fwd_dl_f16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/dl/device_grouped_conv2d_fwd_dl_gnhwc_gkyxc_gnhwk_f16_instance.cpp` instantiates it.
family ck_2d_fwd_dl_gnhwc_gkyxc_gnhwk_f16 {
    op = fwd;
    dims = 2;
    kind = dl;
    layout = gnhwc;
    weight_layout = gkyxc;
    output_layout = gnhwk;
    types.in = fp16;
    types.wei = fp16;
    types.out = fp16;
    types.acc = fp32;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    gemm_spec = mnk_padding;
    dl.k_per_thread = 1;
    dl.a.arrange = [1, 2, 0, 3];
    dl.a.access = [1, 2, 0, 3];
    dl.a.src_order = [1, 2, 0, 3];
    dl.b.arrange = [1, 2, 0, 3];
    dl.b.access = [1, 2, 0, 3];
    dl.b.src_order = [1, 2, 0, 3];
    dl.c_access_order = [0, 1, 2, 3, 4, 5];
    dl.c_vector_dim = 5;
    targets = [gfx942];
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0];
    rows (block, tile, k1, dl.m1_per_thread, dl.n1_per_thread, dl.cluster_m1, dl.cluster_n1, dl.a.slice, dl.a.cluster, dl.a.src_vector, dl.a.dst_vector, dl.b.slice, dl.b.cluster, dl.b.src_vector, dl.b.dst_vector, dl.c_vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_dl_instance.hpp:57
        r0 = (8, [16, 4, 2], 1, 1, 2, [4, 2], [1, 1], [2, 1, 2, 1], [1, 1, 8, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [2, 1, 4, 1], [1, 1, 1, 1], [1, 1, 1, 1], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_dl_instance.hpp:58
        r1 = (256, [128, 128, 16], 1, 4, 4, [8, 2], [8, 2], [8, 1, 1, 1], [2, 1, 128, 1], [1, 1, 1, 1], [1, 1, 1, 1], [8, 1, 1, 1], [2, 1, 128, 1], [1, 1, 1, 1], [1, 1, 1, 1], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_dl_instance.hpp:60
        r2 = (256, [128, 128, 32], 2, 4, 4, [8, 2], [8, 2], [8, 1, 1, 2], [2, 1, 128, 1], [4, 1, 1, 2], [1, 1, 1, 2], [8, 1, 1, 2], [2, 1, 128, 1], [4, 1, 1, 2], [1, 1, 1, 2], 4);
    }
}
