/// CK's `device_grouped_conv_bwd_data_xdl_scale_bf16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_data_scale/xdl/device_grouped_conv3d_bwd_data_xdl_scale_ndhwgc_gkzyxc_ndhwgk_bf16_instance.cpp` instantiates it.
family ck_3d_bwd_data_xdl_scale_ndhwgc_gkzyxc_ndhwgk_bf16 {
    op = bwd_data;
    dims = 3;
    kind = xdl_multiple_d;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    types.in = bf16;
    types.wei = bf16;
    types.out = bf16;
    types.acc = fp32;
    types.compute_a = bf16;
    types.compute_b = bf16;
    elementwise.in = scale;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    ak1 = 8;
    instr = [32, 32];
    pad = [true, true];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.dst_vector = 8;
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
    rows (block, tile, bk1, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, b.dst_vector, b.lds_pad, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:87
        r0 = (64, [64, 64, 32], 8, [2, 2], [4, 16, 1], 1, [4, 8, 1], 1, 8, true, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:89
        r1 = (256, [64, 128, 32], 8, [1, 2], [4, 64, 1], 1, [4, 16, 1], 8, 8, true, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:90
        r2 = (128, [128, 32, 32], 8, [2, 1], [4, 32, 1], 8, [4, 4, 1], 1, 8, true, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:92
        r3 = (256, [128, 256, 32], 2, [2, 4], [4, 64, 1], 8, [4, 64, 1], 4, 2, false, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:93
        r4 = (256, [256, 128, 32], 8, [4, 2], [4, 64, 1], 8, [4, 16, 1], 8, 8, true, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:94
        r5 = (256, [128, 256, 32], 8, [2, 4], [4, 64, 1], 8, [4, 32, 1], 8, 8, true, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:95
        r6 = (128, [128, 128, 32], 8, [4, 2], [4, 32, 1], 8, [4, 16, 1], 8, 8, true, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:96
        r7 = (256, [128, 128, 32], 8, [2, 2], [4, 64, 1], 8, [4, 16, 1], 8, 8, true, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:97
        r8 = (128, [128, 64, 32], 8, [2, 2], [4, 32, 1], 8, [4, 8, 1], 8, 8, true, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:98
        r9 = (128, [64, 128, 32], 8, [2, 2], [4, 32, 1], 8, [4, 16, 1], 8, 8, true, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:99
        r10 = (64, [64, 64, 32], 8, [2, 2], [4, 16, 1], 8, [4, 8, 1], 8, 8, true, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:100
        r11 = (256, [128, 64, 32], 8, [2, 1], [4, 64, 1], 8, [4, 8, 1], 8, 8, true, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:101
        r12 = (256, [64, 128, 32], 8, [1, 2], [4, 64, 1], 8, [4, 16, 1], 8, 8, true, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:102
        r13 = (128, [128, 32, 32], 8, [2, 1], [4, 32, 1], 8, [4, 4, 1], 8, 8, true, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:103
        r14 = (128, [32, 128, 32], 8, [1, 2], [4, 32, 1], 8, [4, 16, 1], 8, 8, true, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:104
        r15 = (64, [64, 32, 32], 8, [2, 1], [4, 16, 1], 8, [4, 4, 1], 8, 8, true, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_xdl_scale_instance.hpp:105
        r16 = (64, [32, 64, 32], 8, [1, 2], [4, 16, 1], 8, [4, 8, 1], 8, 8, true, [1, 16, 1, 4], 8);
    }
}
