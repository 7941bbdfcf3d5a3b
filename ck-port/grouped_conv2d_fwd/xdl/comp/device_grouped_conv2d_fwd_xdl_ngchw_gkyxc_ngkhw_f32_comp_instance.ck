/// CK's `device_grouped_conv_fwd_xdl_f32_comp_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/xdl/comp/device_grouped_conv2d_fwd_xdl_ngchw_gkyxc_ngkhw_f32_comp_instance.cpp` instantiates it.
family ck_2d_fwd_xdl_ngchw_gkyxc_ngkhw_f32_comp {
    op = fwd;
    dims = 2;
    kind = xdl_v3;
    layout = ngchw;
    weight_layout = gkyxc;
    output_layout = ngkhw;
    types.in = fp32;
    types.wei = fp32;
    types.out = fp32;
    types.acc = fp32;
    types.compute_a = fp32;
    types.compute_b = fp32;
    types.cshuffle = fp32;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    spec = default;
    gemm_spec = mnk_padding;
    block = 256;
    ak1 = 8;
    bk1 = 8;
    instr = [32, 32];
    repeat = [2, 2];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.src_vector = 4;
    a.dst_vector = 4;
    a.lds_pad = false;
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.src_vector = 4;
    b.dst_vector = 4;
    b.lds_pad = false;
    c.shuffle = [1, 1];
    c.cluster = [1, 32, 1, 8];
    c.vector = 8;
    pipeline.direct_load = false;
    targets = [gfx942];
    ck_format = "49";
    rows (tile, a.cluster, b.cluster, pipeline.scheduler, pipeline.version) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:127
        r0 = ([128, 128, 32], [4, 64, 1], [4, 64, 1], intrawave, v4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:128
        r1 = ([128, 128, 64], [8, 32, 1], [8, 32, 1], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:129
        r2 = ([128, 128, 64], [8, 32, 1], [8, 32, 1], intrawave, v5);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:130
        r3 = ([128, 128, 64], [8, 32, 1], [8, 32, 1], interwave, v1);
    }
}
