/// CK's `device_grouped_conv_fwd_xdl_merged_groups_bf16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/xdl/merged_groups/device_grouped_conv2d_fwd_xdl_merged_groups_nhwgc_gkyxc_nhwgk_bf16_instance.cpp` instantiates it.
family ck_2d_fwd_xdl_merged_groups_nhwgc_gkyxc_nhwgk_bf16 {
    op = fwd;
    dims = 2;
    kind = xdl;
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
    block = 64;
    tile = [64, 16, 16];
    ak1 = 4;
    bk1 = 4;
    instr = [16, 16];
    repeat = [4, 1];
    a.cluster = [4, 16, 1];
    a.arrange = [0, 2, 1];
    a.access = [0, 2, 1];
    a.vector_dim = 1;
    a.src_vector = 4;
    a.dst_vector = 4;
    a.lds_pad = true;
    b.cluster = [4, 16, 1];
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.src_vector = 1;
    b.dst_vector = 4;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    c.cluster = [1, 16, 1, 4];
    c.vector = 1;
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    targets = [gfx942];
    over spec = [default, filter3x3];
    rows (merge_groups) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_merged_groups_instance.hpp:49
        r0 = (8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_merged_groups_instance.hpp:50
        r1 = (16);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_merged_groups_instance.hpp:51
        r2 = (32);
    }
}
