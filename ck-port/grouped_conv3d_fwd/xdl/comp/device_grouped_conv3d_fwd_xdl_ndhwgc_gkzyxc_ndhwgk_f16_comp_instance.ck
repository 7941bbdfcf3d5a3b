/// CK's `device_grouped_conv_fwd_xdl_f16_comp_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_fwd/xdl/comp/device_grouped_conv3d_fwd_xdl_ndhwgc_gkzyxc_ndhwgk_f16_comp_instance.cpp` instantiates it.
family ck_3d_fwd_xdl_ndhwgc_gkzyxc_ndhwgk_f16_comp {
    op = fwd;
    dims = 3;
    kind = xdl_v3;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
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
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0];
    rows (tile, instr, repeat, a.cluster, b.cluster, c.shuffle, c.cluster, pipeline.scheduler, pipeline.version) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:98
        r0 = ([256, 256, 32], [32, 32], [4, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:99
        r1 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:100
        r2 = ([128, 128, 32], [32, 32], [2, 2], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:101
        r3 = ([256, 256, 32], [32, 32], [4, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:102
        r4 = ([256, 256, 32], [32, 32], [4, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], intrawave, v5);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:103
        r5 = ([256, 256, 32], [16, 16], [8, 8], [4, 64, 1], [4, 64, 1], [1, 2], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:105
        r6 = ([224, 256, 64], [16, 16], [7, 8], [8, 32, 1], [8, 32, 1], [1, 2], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:106
        r7 = ([256, 224, 64], [16, 16], [8, 7], [8, 32, 1], [8, 32, 1], [2, 1], [1, 64, 1, 4], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:107
        r8 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v3);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:108
        r9 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], intrawave, v5);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:109
        r10 = ([128, 256, 32], [32, 32], [2, 4], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], interwave, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:110
        r11 = ([256, 128, 32], [32, 32], [4, 2], [4, 64, 1], [4, 64, 1], [1, 1], [1, 32, 1, 8], interwave, v1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_comp_instance.hpp:111
        r12 = ([128, 128, 64], [32, 32], [2, 2], [8, 32, 1], [8, 32, 1], [1, 1], [1, 32, 1, 8], interwave, v1);
    }
}
