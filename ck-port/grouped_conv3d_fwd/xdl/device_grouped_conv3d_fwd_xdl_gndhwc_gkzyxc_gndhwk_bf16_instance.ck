/// CK's `device_grouped_conv_fwd_xdl_bf16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_fwd/xdl/device_grouped_conv3d_fwd_xdl_gndhwc_gkzyxc_gndhwk_bf16_instance.cpp` instantiates it.
family ck_3d_fwd_xdl_gndhwc_gkzyxc_gndhwk_bf16 {
    op = fwd;
    dims = 3;
    kind = xdl;
    layout = gndhwc;
    weight_layout = gkzyxc;
    output_layout = gndhwk;
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
    instr = [32, 32];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.dst_vector = 8;
    a.lds_pad = true;
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.dst_vector = 8;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    merge_groups = 1;
    targets = [gfx942];
    over spec = [default, filter1x1_pad0, filter1x1_stride1_pad0];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:62
        r0 = (64, [64, 64, 32], [2, 2], [4, 16, 1], 1, [4, 16, 1], 1, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:64
        r1 = (64, [64, 32, 32], [2, 1], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:65
        r2 = (256, [128, 128, 32], [2, 2], [4, 64, 1], 1, [4, 64, 1], 1, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:67
        r3 = (256, [256, 128, 32], [4, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:68
        r4 = (256, [128, 256, 32], [2, 4], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:69
        r5 = (128, [128, 128, 32], [4, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:70
        r6 = (256, [128, 128, 32], [2, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:71
        r7 = (128, [128, 64, 32], [2, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:72
        r8 = (128, [64, 128, 32], [2, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:73
        r9 = (64, [64, 64, 32], [2, 2], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:74
        r10 = (256, [128, 64, 32], [2, 1], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:75
        r11 = (256, [64, 128, 32], [1, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:76
        r12 = (128, [128, 32, 32], [2, 1], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:77
        r13 = (128, [32, 128, 32], [1, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 16, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:78
        r14 = (64, [64, 32, 32], [2, 1], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_instance.hpp:79
        r15 = (64, [32, 64, 32], [1, 2], [4, 16, 1], 8, [4, 16, 1], 8, [1, 16, 1, 4], 8);
    }
}
