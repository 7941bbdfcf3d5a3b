/// CK's `device_grouped_conv_bwd_weight_xdl_c_shuffle_f16_bilinear_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_weight_bilinear/xdl/device_grouped_conv3d_bwd_weight_xdl_bilinear_ndhwgc_gkzyxc_ndhwgk_f16_instance.cpp` instantiates it.
family ck_3d_bwd_weight_xdl_bilinear_ndhwgc_gkzyxc_ndhwgk_f16 {
    op = bwd_weight;
    dims = 3;
    kind = xdl_multiple_d;
    layout = ndhwgc;
    weight_layout = gkzyxc;
    output_layout = ndhwgk;
    ds.layouts = [gkzyxc];
    ds.types = [fp16];
    types.in = fp16;
    types.wei = fp16;
    types.out = fp16;
    types.acc = fp32;
    types.compute_a = fp16;
    types.compute_b = fp16;
    elementwise.in = pass_through;
    elementwise.wei = bilinear;
    elementwise.out = pass_through;
    k1 = 8;
    instr = [32, 32];
    a.arrange = [0, 3, 1, 2];
    a.access = [0, 2, 1, 3];
    a.vector_dim = 2;
    a.lds_pad = true;
    b.arrange = [0, 3, 1, 2];
    b.access = [0, 2, 1, 3];
    b.vector_dim = 2;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    targets = [gfx942];
    over spec = [default, filter1x1_stride1_pad0];
    rows (block, tile, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:89
        r0 = (64, [64, 64, 32], [2, 2], [1, 4, 8, 2], 1, 4, [1, 4, 8, 2], 1, 4, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:90
        r1 = (64, [64, 64, 32], [2, 2], [1, 4, 8, 2], 2, 4, [1, 4, 8, 2], 2, 4, [1, 16, 1, 4], 2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:94
        r2 = (128, [128, 32, 32], [2, 1], [1, 4, 16, 2], 8, 4, [1, 4, 4, 8], 2, 1, [1, 32, 1, 4], 2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:95
        r3 = (64, [32, 64, 32], [1, 2], [1, 4, 4, 4], 2, 2, [1, 4, 8, 2], 8, 4, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:97
        r4 = (256, [256, 128, 32], [4, 2], [1, 4, 32, 2], 8, 4, [1, 4, 16, 4], 8, 2, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:98
        r5 = (256, [128, 256, 32], [2, 4], [1, 4, 16, 4], 8, 2, [1, 4, 32, 2], 8, 4, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:99
        r6 = (128, [128, 128, 32], [4, 2], [1, 4, 16, 2], 8, 4, [1, 4, 16, 2], 8, 4, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:100
        r7 = (256, [128, 128, 32], [2, 2], [1, 4, 16, 4], 8, 2, [1, 4, 16, 4], 8, 2, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:101
        r8 = (128, [128, 64, 32], [2, 2], [1, 4, 16, 2], 8, 4, [1, 4, 8, 4], 8, 2, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:102
        r9 = (128, [64, 128, 32], [2, 2], [1, 4, 8, 4], 8, 2, [1, 4, 16, 2], 8, 4, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:103
        r10 = (64, [64, 64, 32], [2, 2], [1, 4, 8, 2], 8, 4, [1, 4, 8, 2], 8, 4, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:104
        r11 = (256, [128, 64, 32], [2, 1], [1, 4, 16, 4], 8, 2, [1, 4, 8, 8], 8, 1, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:105
        r12 = (256, [64, 128, 32], [1, 2], [1, 4, 8, 8], 8, 1, [1, 4, 16, 4], 8, 2, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:106
        r13 = (128, [128, 32, 32], [2, 1], [1, 4, 16, 2], 8, 4, [1, 4, 4, 8], 8, 1, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:107
        r14 = (128, [32, 128, 32], [1, 2], [1, 4, 4, 8], 8, 1, [1, 4, 16, 2], 8, 4, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:108
        r15 = (64, [64, 32, 32], [2, 1], [1, 4, 8, 2], 8, 4, [1, 4, 4, 4], 8, 2, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp:109
        r16 = (64, [32, 64, 32], [1, 2], [1, 4, 4, 4], 8, 2, [1, 4, 8, 2], 8, 4, [1, 16, 1, 4], 8);
    }
}
