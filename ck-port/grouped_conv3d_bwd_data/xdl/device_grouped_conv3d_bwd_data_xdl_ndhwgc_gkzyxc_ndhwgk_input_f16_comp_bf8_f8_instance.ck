/// CK's `device_grouped_conv_bwd_data_xdl_input_fp16_comp_bf8f8_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_data/xdl/device_grouped_conv3d_bwd_data_xdl_ndhwgc_gkzyxc_ndhwgk_input_f16_comp_bf8_f8_instance.cpp` instantiates it.
family ck_3d_bwd_data_xdl_ndhwgc_gkzyxc_ndhwgk_input_f16_comp_bf8_f8 {
    op = bwd_data;
    dims = 3;
    kind = xdl_multiple_d;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    types.in = fp16;
    types.wei = fp16;
    types.out = fp16;
    types.acc = fp32;
    types.compute_a = bf8;
    types.compute_b = fp8;
    elementwise.in = pass_through;
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
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:163
        r0 = (64, [64, 64, 32], 8, [2, 2], [4, 16, 1], 1, 4, [4, 16, 1], 1, 4, true, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:165
        r1 = (256, [64, 128, 32], 8, [1, 2], [4, 64, 1], 1, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:166
        r2 = (128, [128, 32, 32], 8, [2, 1], [4, 32, 1], 4, 4, [4, 8, 1], 1, 4, true, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:168
        r3 = (256, [128, 256, 32], 2, [2, 4], [4, 64, 1], 4, 4, [4, 64, 1], 4, 2, false, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:169
        r4 = (256, [256, 128, 32], 8, [4, 2], [4, 64, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:170
        r5 = (256, [128, 256, 32], 8, [2, 4], [4, 64, 1], 4, 4, [4, 64, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:171
        r6 = (128, [128, 128, 32], 8, [4, 2], [4, 32, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:172
        r7 = (256, [128, 128, 32], 8, [2, 2], [4, 64, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:173
        r8 = (128, [128, 64, 32], 8, [2, 2], [4, 32, 1], 4, 4, [4, 16, 1], 4, 4, true, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:174
        r9 = (128, [64, 128, 32], 8, [2, 2], [4, 32, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:175
        r10 = (64, [64, 64, 32], 8, [2, 2], [4, 16, 1], 4, 4, [4, 16, 1], 4, 4, true, [1, 16, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:176
        r11 = (256, [128, 64, 32], 8, [2, 1], [4, 64, 1], 4, 4, [4, 16, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:177
        r12 = (256, [64, 128, 32], 8, [1, 2], [4, 64, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:178
        r13 = (128, [128, 32, 32], 8, [2, 1], [4, 32, 1], 4, 4, [4, 8, 1], 4, 4, true, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:179
        r14 = (128, [32, 128, 32], 8, [1, 2], [4, 32, 1], 4, 4, [4, 32, 1], 4, 4, true, [1, 16, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:180
        r15 = (64, [64, 32, 32], 8, [2, 1], [4, 16, 1], 4, 4, [4, 8, 1], 4, 4, true, [1, 16, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_instance.hpp:181
        r16 = (64, [32, 64, 32], 8, [1, 2], [4, 16, 1], 8, 8, [4, 8, 1], 8, 8, true, [1, 16, 1, 4], 8);
    }
}
