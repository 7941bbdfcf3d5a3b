/// CK's `device_grouped_conv_fwd_xdl_bf16_mem_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/xdl/mem/device_grouped_conv2d_fwd_xdl_nhwgc_gkyxc_nhwgk_bf16_mem_intra_instance.cpp` instantiates it.
family ck_2d_fwd_xdl_nhwgc_gkyxc_nhwgk_bf16_mem_intra {
    op = fwd;
    dims = 2;
    kind = xdl_v3;
    layout = nhwgc;
    weight_layout = gkyxc;
    output_layout = nhwgk;
    types.in = bf16;
    types.wei = bf16;
    types.out = bf16;
    types.acc = fp32;
    types.compute_a = bf16;
    types.compute_b = bf16;
    types.cshuffle = bf16;
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
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:63
        r0 = (128, [32, 16, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:64
        r1 = (64, [16, 16, 128], [16, 16], [1, 1], [16, 4, 1], [16, 4, 1], [1, 16, 1, 4], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:65
        r2 = (64, [16, 16, 64], [16, 16], [1, 1], [8, 8, 1], [8, 8, 1], [1, 16, 1, 4], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:66
        r3 = (128, [16, 32, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:68
        r4 = (256, [256, 32, 64], [32, 32], [2, 1], [8, 32, 1], [8, 32, 1], [1, 32, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:69
        r5 = (256, [256, 16, 64], [16, 16], [4, 1], [8, 32, 1], [8, 16, 1], [1, 32, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:70
        r6 = (128, [128, 32, 64], [32, 32], [2, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:71
        r7 = (128, [128, 16, 64], [16, 16], [4, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:72
        r8 = (128, [64, 32, 64], [32, 32], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:73
        r9 = (128, [64, 16, 64], [16, 16], [2, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:74
        r10 = (128, [32, 16, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 2, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:75
        r11 = (64, [16, 16, 128], [16, 16], [1, 1], [16, 4, 1], [16, 4, 1], [1, 16, 1, 4], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:76
        r12 = (64, [16, 16, 64], [16, 16], [1, 1], [8, 8, 1], [8, 8, 1], [1, 16, 1, 4], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:77
        r13 = (128, [16, 32, 64], [16, 16], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:78
        r14 = (128, [16, 64, 64], [16, 16], [1, 2], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:79
        r15 = (128, [32, 64, 64], [32, 32], [1, 1], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 8, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:80
        r16 = (128, [16, 128, 64], [16, 16], [1, 4], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:81
        r17 = (128, [32, 128, 64], [32, 32], [1, 2], [8, 16, 1], [8, 16, 1], [1, 16, 1, 8], 8, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:82
        r18 = (256, [16, 256, 64], [16, 16], [1, 4], [8, 16, 1], [8, 16, 1], [1, 16, 1, 16], 4, v2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_mem_instance.hpp:83
        r19 = (256, [32, 256, 64], [32, 32], [1, 2], [8, 32, 1], [8, 32, 1], [1, 16, 1, 16], 8, v2);
    }
}
