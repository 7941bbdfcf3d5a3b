/// CK's `device_grouped_conv_bwd_data_xdl_scale_f32_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_data_scale/xdl/device_grouped_conv3d_bwd_data_xdl_scale_ndhwgc_gkzyxc_ndhwgk_f32_instance.cpp` instantiates it.
family ck_3d_bwd_data_xdl_scale_ndhwgc_gkzyxc_ndhwgk_f32 {
    op = bwd_data;
    dims = 3;
    kind = xdl_multiple_d;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    types.in = fp32;
    types.wei = fp32;
    types.out = fp32;
    types.acc = fp32;
    types.compute_a = fp32;
    types.compute_b = fp32;
    elementwise.in = scale;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    ak1 = 8;
    instr = [32, 32];
    pad = [true, true];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.lds_pad = true;
    b.arrange = [0, 2, 1];
    b.access = [0, 2, 1];
    b.vector_dim = 1;
    c.shuffle = [1, 1];
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    transpose = [1, 1];
    targets = [gfx942];
    over spec = [default, filter1x1_stride1_pad0];
    rows (block, tile, bk1, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, b.lds_pad, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:124
        r0 = (64, [64, 64, 32], 8, [2, 2], [4, 16, 1], 1, 4, [4, 16, 1], 1, 4, true, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:126
        r1 = (256, [64, 128, 32], 8, [1, 2], [4, 64, 1], 1, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:127
        r2 = (128, [128, 32, 32], 8, [2, 1], [4, 32, 1], 4, 4, [4, 8, 1], 1, 4, true, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:129
        r3 = (256, [128, 256, 32], 2, [2, 4], [4, 64, 1], 4, 4, [4, 64, 1], 4, 2, false, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:130
        r4 = (256, [256, 128, 32], 8, [4, 2], [4, 64, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:131
        r5 = (256, [128, 256, 32], 8, [2, 4], [4, 64, 1], 4, 4, [4, 64, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:132
        r6 = (128, [128, 128, 32], 8, [4, 2], [4, 32, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:133
        r7 = (256, [128, 128, 32], 8, [2, 2], [4, 64, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:134
        r8 = (128, [128, 64, 32], 8, [2, 2], [4, 32, 1], 4, 4, [4, 16, 1], 4, 4, true, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:135
        r9 = (128, [64, 128, 32], 8, [2, 2], [4, 32, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:136
        r10 = (64, [64, 64, 32], 8, [2, 2], [4, 16, 1], 4, 4, [4, 16, 1], 4, 4, true, [1, 16, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:137
        r11 = (256, [128, 64, 32], 8, [2, 1], [4, 64, 1], 4, 4, [4, 16, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:138
        r12 = (256, [64, 128, 32], 8, [1, 2], [4, 64, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:139
        r13 = (128, [128, 32, 32], 8, [2, 1], [4, 32, 1], 4, 4, [4, 8, 1], 4, 4, true, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:140
        r14 = (128, [32, 128, 32], 8, [1, 2], [4, 32, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:141
        r15 = (64, [64, 32, 32], 8, [2, 1], [4, 16, 1], 4, 4, [4, 8, 1], 4, 4, true, [1, 16, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:142
        r16 = (64, [32, 64, 32], 8, [1, 2], [4, 16, 1], 8, 8, [4, 8, 1], 8, 8, true, [1, 16, 1, 4], 8);
    }
}
