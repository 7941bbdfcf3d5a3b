/// CK's `device_grouped_conv_fwd_xdl_f32_mem_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_fwd/xdl/mem/device_grouped_conv3d_fwd_xdl_ndhwgc_gkzyxc_ndhwgk_f32_mem_intra_instance.cpp` instantiates it.
family ck_3d_fwd_xdl_ndhwgc_gkzyxc_ndhwgk_f32_mem_intra {
    op = fwd;
    dims = 3;
    kind = xdl_v3;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
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
    gemm_spec = mnk_padding;
    ak1 = 8;
    bk1 = 8;
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
    pipeline.scheduler = intrawave;
    pipeline.direct_load = false;
    targets = [gfx942];
    ck_format = "49";
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0];
    rows (block, tile, instr, repeat, a.cluster, b.cluster, c.cluster, c.vector, pipeline.version) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:137
        r0 = (128, [32, 16, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:138
        r1 = (64, [16, 16, 128], [16, 16], [1, 1], [16, 4, 1], [16, 4, 1], [1, 16, 1, 4], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:139
        r2 = (64, [16, 16, 64], [16, 16], [1, 1], [8, 8, 1], [8, 8, 1], [1, 16, 1, 4], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:140
        r3 = (128, [16, 32, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:142
        r4 = (128, [128, 32, 64], [32, 32], [2, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:143
        r5 = (128, [128, 16, 64], [16, 16], [4, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:144
        r6 = (128, [64, 32, 64], [32, 32], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:145
        r7 = (128, [64, 16, 64], [16, 16], [2, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:146
        r8 = (128, [32, 16, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:147
        r9 = (64, [16, 16, 128], [16, 16], [1, 1], [16, 4, 1], [16, 4, 1], [1, 16, 1, 4], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:148
        r10 = (64, [16, 16, 64], [16, 16], [1, 1], [8, 8, 1], [8, 8, 1], [1, 16, 1, 4], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:149
        r11 = (128, [16, 32, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:150
        r12 = (128, [16, 64, 64], [16, 16], [1, 2], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:151
        r13 = (128, [32, 64, 64], [32, 32], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 8, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:152
        r14 = (128, [16, 128, 64], [16, 16], [1, 4], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:153
        r15 = (128, [32, 128, 64], [32, 32], [1, 2], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 8, v2);
    }
}
