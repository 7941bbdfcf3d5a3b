/// CK's `device_grouped_conv_fwd_xdl_f16_mem_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/xdl/mem/device_grouped_conv2d_fwd_xdl_nhwgc_gkyxc_nhwgk_f16_mem_intra_instance.cpp` instantiates it.
family ck_2d_fwd_xdl_nhwgc_gkyxc_nhwgk_f16_mem_intra {
    op = fwd;
    dims = 2;
    kind = xdl_v3;
    layout = nhwgc;
    weight_layout = gkyxc;
    output_layout = nhwgk;
    types.in = fp16;
    types.wei = fp16;
    types.out = fp16;
    types.acc = fp32;
    types.compute_a = fp16;
    types.compute_b = fp16;
    types.cshuffle = fp16;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    gemm_spec = mnk_padding;
    ak1 = 8;
    bk1 = 8;
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.src_vector = 8;
    a.dst_vector = 8;
    a.lds_pad = false;
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.src_vector = 8;
    b.dst_vector = 8;
    b.lds_pad = false;
    c.shuffle = [1, 1];
    pipeline.scheduler = intrawave;
    pipeline.direct_load = false;
    targets = [gfx942];
    ck_format = "49";
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0, odd_c];
    rows (block, tile, instr, repeat, a.cluster, b.cluster, c.cluster, c.vector, pipeline.version) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:100
        r0 = (128, [32, 16, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:101
        r1 = (64, [16, 16, 128], [16, 16], [1, 1], [16, 4, 1], [16, 4, 1], [1, 16, 1, 4], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:102
        r2 = (64, [16, 16, 64], [16, 16], [1, 1], [8, 8, 1], [8, 8, 1], [1, 16, 1, 4], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:103
        r3 = (128, [16, 32, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:105
        r4 = (256, [256, 32, 64], [32, 32], [2, 1], [8, 32, 1], [8, 32, 1], [1, 32, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:106
        r5 = (256, [256, 16, 64], [16, 16], [4, 1], [8, 32, 1], [8, 16, 1], [1, 32, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:107
        r6 = (128, [128, 32, 64], [32, 32], [2, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:108
        r7 = (128, [128, 16, 64], [16, 16], [4, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:109
        r8 = (128, [64, 32, 64], [32, 32], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:110
        r9 = (128, [64, 16, 64], [16, 16], [2, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:111
        r10 = (128, [32, 16, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:112
        r11 = (64, [16, 16, 128], [16, 16], [1, 1], [16, 4, 1], [16, 4, 1], [1, 16, 1, 4], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:113
        r12 = (64, [16, 16, 64], [16, 16], [1, 1], [8, 8, 1], [8, 8, 1], [1, 16, 1, 4], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:114
        r13 = (128, [16, 32, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:115
        r14 = (128, [16, 64, 64], [16, 16], [1, 2], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:116
        r15 = (128, [32, 64, 64], [32, 32], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 8, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:117
        r16 = (128, [16, 128, 64], [16, 16], [1, 4], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:118
        r17 = (128, [32, 128, 64], [32, 32], [1, 2], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 8, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:119
        r18 = (256, [16, 256, 64], [16, 16], [1, 4], [8, 16, 1], [8, 16, 1], [1, 16, 1, 16], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:120
        r19 = (256, [32, 256, 64], [32, 32], [1, 2], [8, 32, 1], [8, 32, 1], [1, 16, 1, 16], 8, v2);
    }
}
