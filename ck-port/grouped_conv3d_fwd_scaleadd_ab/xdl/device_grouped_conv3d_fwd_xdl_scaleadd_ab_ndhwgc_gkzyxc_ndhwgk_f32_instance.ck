/// CK's `device_grouped_conv_fwd_xdl_scaleadd_ab_f32_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_fwd_scaleadd_ab/xdl/device_grouped_conv3d_fwd_xdl_scaleadd_ab_ndhwgc_gkzyxc_ndhwgk_f32_instance.cpp` instantiates it.
family ck_3d_fwd_xdl_scaleadd_ab_ndhwgc_gkzyxc_ndhwgk_f32 {
    op = fwd;
    dims = 3;
    kind = xdl;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    sources.in = [fp32, fp32];
    sources.wei = [fp32, fp32];
    types.out = fp32;
    types.acc = fp32;
    types.compute_a = fp32;
    types.compute_b = fp32;
    types.cshuffle = fp32;
    elementwise.in = scale_add;
    elementwise.wei = scale_add;
    elementwise.out = pass_through;
    gemm_spec = mnk_padding;
    ak1 = 4;
    bk1 = 4;
    instr = [32, 32];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.lds_pad = true;
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    merge_groups = 1;
    targets = [gfx942];
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0];
    rows (block, tile, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_scaleadd_ab_instance.hpp:91
        r0 = (64, [64, 64, 16], [2, 2], [4, 16, 1], 1, 1, [4, 16, 1], 1, 1, [1, 8, 1, 8], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_scaleadd_ab_instance.hpp:93
        r1 = (64, [64, 32, 16], [2, 1], [4, 16, 1], 4, 4, [4, 16, 1], 4, 4, [1, 8, 1, 8], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_scaleadd_ab_instance.hpp:94
        r2 = (256, [128, 128, 16], [2, 2], [4, 64, 1], 1, 1, [4, 64, 1], 1, 1, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_scaleadd_ab_instance.hpp:96
        r3 = (256, [256, 128, 16], [4, 2], [4, 64, 1], 4, 4, [4, 64, 1], 4, 4, [1, 16, 1, 16], 4);
    }
}
