/// CK's `device_grouped_conv_bwd_weight_xdl_c_shuffle_f32_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_weight/xdl/device_grouped_conv3d_bwd_weight_xdl_gndhwc_gkzyxc_gndhwk_f32_instance.cpp` instantiates it.
family ck_3d_bwd_weight_xdl_gndhwc_gkzyxc_gndhwk_f32 {
    op = bwd_weight;
    dims = 3;
    kind = xdl;
    layout = gndhwc;
    weight_layout = gkzyxc;
    output_layout = gndhwk;
    types.in = fp32;
    types.wei = fp32;
    types.out = fp32;
    types.acc = fp32;
    types.compute_a = fp32;
    types.compute_b = fp32;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    k1 = 4;
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
    transpose = [1, 1];
    targets = [gfx942];
    over spec = [default, filter1x1_stride1_pad0];
    rows (block, tile, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:55
        r0 = (64, [64, 64, 16], [2, 2], [1, 4, 16, 1], 1, 4, [1, 4, 16, 1], 1, 4, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:57
        r1 = (128, [128, 32, 16], [2, 1], [1, 4, 32, 1], 4, 4, [1, 4, 8, 4], 1, 1, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:58
        r2 = (64, [32, 64, 16], [1, 2], [1, 4, 8, 2], 1, 2, [1, 4, 16, 1], 4, 4, [1, 16, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:60
        r3 = (256, [256, 128, 16], [4, 2], [1, 4, 64, 1], 4, 4, [1, 4, 32, 2], 4, 2, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:61
        r4 = (256, [128, 256, 16], [2, 4], [1, 4, 32, 2], 4, 2, [1, 4, 64, 1], 4, 4, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:62
        r5 = (128, [128, 128, 16], [4, 2], [1, 4, 32, 1], 4, 4, [1, 4, 32, 1], 4, 4, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:63
        r6 = (256, [128, 128, 16], [2, 2], [1, 4, 32, 2], 4, 2, [1, 4, 32, 2], 4, 2, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:64
        r7 = (128, [128, 64, 16], [2, 2], [1, 4, 32, 1], 4, 4, [1, 4, 16, 2], 4, 2, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:65
        r8 = (128, [64, 128, 16], [2, 2], [1, 4, 16, 2], 4, 2, [1, 4, 32, 1], 4, 4, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:66
        r9 = (64, [64, 64, 16], [2, 2], [1, 4, 16, 1], 4, 4, [1, 4, 16, 1], 4, 4, [1, 16, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:67
        r10 = (256, [128, 64, 16], [2, 1], [1, 4, 32, 2], 4, 2, [1, 4, 16, 4], 4, 1, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:68
        r11 = (256, [64, 128, 16], [1, 2], [1, 4, 16, 4], 4, 1, [1, 4, 32, 2], 4, 2, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:69
        r12 = (128, [128, 32, 16], [2, 1], [1, 4, 32, 1], 4, 4, [1, 4, 8, 4], 4, 1, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:70
        r13 = (128, [32, 128, 16], [1, 2], [1, 4, 8, 4], 4, 1, [1, 4, 32, 1], 4, 4, [1, 32, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:71
        r14 = (64, [64, 32, 16], [2, 1], [1, 4, 16, 1], 4, 4, [1, 4, 8, 2], 4, 2, [1, 16, 1, 4], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_xdl_instance.hpp:72
        r15 = (64, [32, 64, 16], [1, 2], [1, 4, 8, 2], 4, 2, [1, 4, 16, 1], 4, 4, [1, 16, 1, 4], 4);
    }
}
