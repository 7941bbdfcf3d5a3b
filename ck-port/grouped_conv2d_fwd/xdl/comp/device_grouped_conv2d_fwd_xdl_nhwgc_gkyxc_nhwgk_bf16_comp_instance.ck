/// CK's `device_grouped_conv_fwd_xdl_bf16_comp_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/xdl/comp/device_grouped_conv2d_fwd_xdl_nhwgc_gkyxc_nhwgk_bf16_comp_instance.cpp` instantiates it.
family ck_2d_fwd_xdl_nhwgc_gkyxc_nhwgk_bf16_comp {
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
    block = 256;
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
    c.vector = 8;
    pipeline.direct_load = false;
    targets = [gfx942];
    ck_format = "49";
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0, odd_c];
    rows (tile, instr, repeat, a.cluster, b.cluster, c.shuffle, c.cluster, pipeline.scheduler, pipeline.version) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:65
        r0 = ([256, 256, 32], [32, 32], [4, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:66
        r1 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:67
        r2 = ([128, 128, 32], [32, 32], [2, 2], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:68
        r3 = ([256, 256, 32], [32, 32], [4, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:69
        r4 = ([256, 256, 32], [32, 32], [4, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v5);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:70
        r5 = ([256, 256, 32], [16, 16], [8, 8], [4, 64, 1], [4, 64, 1], [1, 2], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:72
        r6 = ([224, 256, 64], [16, 16], [7, 8], [8, 32, 1], [8, 32, 1], [1, 2], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:73
        r7 = ([256, 224, 64], [16, 16], [8, 7], [8, 32, 1], [8, 32, 1], [2, 1], [1, 64, 1, 4], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:74
        r8 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:75
        r9 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v5);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:76
        r10 = ([128, 256, 32], [32, 32], [2, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], interwave, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:77
        r11 = ([256, 128, 32], [32, 32], [4, 2], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], interwave, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:78
        r12 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], interwave, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:79
        r13 = ([128, 64, 64], [32, 32], [2, 1], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:80
        r14 = ([64, 128, 64], [32, 32], [1, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:81
        r15 = ([64, 64, 64], [32, 32], [1, 1], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v3);
    }
}
