/// CK's `device_grouped_conv_fwd_xdl_bilinear_f32_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_fwd_bilinear/xdl/device_grouped_conv3d_fwd_xdl_bilinear_ndhwgc_gkzyxc_ndhwgk_f32_instance.cpp` instantiates it.
family ck_3d_fwd_xdl_bilinear_ndhwgc_gkzyxc_ndhwgk_f32 {
    op = fwd;
    dims = 3;
    kind = xdl;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    ds.layouts = [ndhwgk];
    ds.types = [fp32];
    types.in = fp32;
    types.wei = fp32;
    types.out = fp32;
    types.acc = fp32;
    types.compute_a = fp32;
    types.compute_b = fp32;
    types.cshuffle = fp32;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = bilinear;
    gemm_spec = mnk_padding;
    ak1 = 4;
    bk1 = 4;
    instr = [32, 32];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.dst_vector = 4;
    a.lds_pad = true;
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.dst_vector = 4;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    merge_groups = 1;
    targets = [gfx942];
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:121
        r0 = (64, [64, 64, 16], [2, 2], [4, 16, 1], 1, [4, 16, 1], 1, [1, 8, 1, 8], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:123
        r1 = (64, [64, 32, 16], [2, 1], [4, 16, 1], 4, [4, 16, 1], 4, [1, 8, 1, 8], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:124
        r2 = (256, [128, 128, 16], [2, 2], [4, 64, 1], 1, [4, 64, 1], 1, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:126
        r3 = (256, [256, 128, 16], [4, 2], [4, 64, 1], 4, [4, 64, 1], 4, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:127
        r4 = (256, [128, 256, 16], [2, 4], [4, 64, 1], 4, [4, 64, 1], 4, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:128
        r5 = (128, [128, 128, 16], [4, 2], [4, 32, 1], 4, [4, 32, 1], 4, [1, 8, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:129
        r6 = (256, [128, 128, 16], [2, 2], [4, 64, 1], 4, [4, 64, 1], 4, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:130
        r7 = (128, [128, 64, 16], [2, 2], [4, 32, 1], 4, [4, 32, 1], 4, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:131
        r8 = (128, [64, 128, 16], [2, 2], [4, 32, 1], 4, [4, 32, 1], 4, [1, 8, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:132
        r9 = (64, [64, 64, 16], [2, 2], [4, 16, 1], 4, [4, 16, 1], 4, [1, 8, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:133
        r10 = (256, [128, 64, 16], [2, 1], [4, 64, 1], 4, [4, 64, 1], 4, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:134
        r11 = (256, [64, 128, 16], [1, 2], [4, 64, 1], 4, [4, 64, 1], 4, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:135
        r12 = (128, [128, 32, 16], [2, 1], [4, 32, 1], 4, [4, 32, 1], 4, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:136
        r13 = (128, [32, 128, 16], [1, 2], [4, 32, 1], 4, [4, 32, 1], 4, [1, 8, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:137
        r14 = (64, [64, 32, 16], [2, 1], [4, 16, 1], 4, [4, 16, 1], 4, [1, 8, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_bilinear_instance.hpp:138
        r15 = (64, [32, 64, 16], [1, 2], [4, 16, 1], 4, [4, 16, 1], 4, [1, 8, 1, 8], 4);
    }
}
