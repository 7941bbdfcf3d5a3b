/// CK's `device_grouped_conv_fwd_xdl_outelementop_bf8_f8_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_fwd_convscale/xdl/device_grouped_conv3d_fwd_xdl_convscale_ndhwgc_gkzyxc_ndhwgk_bf8_f8_instance.cpp` instantiates it.
family ck_3d_fwd_xdl_convscale_ndhwgc_gkzyxc_ndhwgk_bf8_f8 {
    op = fwd;
    dims = 3;
    kind = xdl;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    types.in = bf8;
    types.wei = fp8;
    types.out = fp8;
    types.acc = fp32;
    types.compute_a = bf8;
    types.compute_b = fp8;
    types.cshuffle = fp32;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = conv_scale;
    gemm_spec = mnk_padding;
    ak1 = 8;
    bk1 = 8;
    instr = [32, 32];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.dst_vector = 8;
    a.lds_pad = true;
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.dst_vector = 8;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    merge_groups = 1;
    targets = [gfx942];
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:165
        r0 = (64, [64, 64, 32], [2, 2], [4, 16, 1], 1, [4, 16, 1], 1, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:167
        r1 = (64, [64, 32, 32], [2, 1], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:168
        r2 = (256, [128, 128, 32], [2, 2], [4, 64, 1], 1, [4, 64, 1], 1, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:170
        r3 = (256, [256, 128, 32], [4, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:171
        r4 = (256, [128, 256, 32], [2, 4], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:172
        r5 = (128, [128, 128, 32], [4, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:173
        r6 = (256, [128, 128, 32], [2, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:174
        r7 = (128, [128, 64, 32], [2, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:175
        r8 = (128, [64, 128, 32], [2, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:176
        r9 = (64, [64, 64, 32], [2, 2], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:177
        r10 = (256, [128, 64, 32], [2, 1], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:178
        r11 = (256, [64, 128, 32], [1, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:179
        r12 = (128, [128, 32, 32], [2, 1], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:180
        r13 = (128, [32, 128, 32], [1, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:181
        r14 = (64, [64, 32, 32], [2, 1], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_outelementop_instance.hpp:182
        r15 = (64, [32, 64, 32], [1, 2], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 8);
    }
}
