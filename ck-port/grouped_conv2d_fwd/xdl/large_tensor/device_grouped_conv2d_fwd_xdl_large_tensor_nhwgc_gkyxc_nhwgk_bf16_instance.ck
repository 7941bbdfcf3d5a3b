/// CK's `device_grouped_conv_fwd_xdl_large_tensor_bf16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/xdl/large_tensor/device_grouped_conv2d_fwd_xdl_large_tensor_nhwgc_gkyxc_nhwgk_bf16_instance.cpp` instantiates it.
family ck_2d_fwd_xdl_large_tensor_nhwgc_gkyxc_nhwgk_bf16 {
    op = fwd;
    dims = 2;
    kind = xdl_large_tensor;
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
    spec = default;
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
    targets = [gfx942];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_large_tensor_instance.hpp:47
        r0 = (64, [64, 64, 32], [2, 2], [4, 16, 1], 1, [4, 16, 1], 1, [1, 16, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_large_tensor_instance.hpp:49
        r1 = (256, [256, 128, 32], [4, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
    }
}
