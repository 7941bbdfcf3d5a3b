/// CK's `device_grouped_conv_bwd_weight_two_stage_xdl_c_shuffle_bf16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_bwd_weight/xdl/device_grouped_conv2d_bwd_weight_two_stage_xdl_nhwgc_gkyxc_nhwgk_bf16_pipev5_instance.cpp` instantiates it.
family ck_2d_bwd_weight_two_stage_xdl_nhwgc_gkyxc_nhwgk_bf16_pipev5 {
    op = bwd_weight;
    dims = 2;
    kind = xdl_two_stage;
    layout = nhwgc;
    weight_layout = gkyxc;
    output_layout = nhwgk;
    types.in = bf16;
    types.wei = bf16;
    types.out = bf16;
    types.acc = fp32;
    types.compute_a = bf16;
    types.compute_b = bf16;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    spec = default;
    block = 64;
    k1 = 8;
    a.arrange = [2, 0, 1];
    a.access = [1, 0, 2];
    a.vector_dim = 1;
    a.lds_pad = false;
    b.arrange = [2, 0, 1];
    b.access = [1, 0, 2];
    b.vector_dim = 1;
    b.lds_pad = false;
    c.shuffle = [1, 1];
    c.cluster = [1, 8, 1, 8];
    c.vector = 1;
    pipeline.scheduler = intrawave;
    pipeline.version = v5;
    transpose = [1, 1];
    targets = [gfx942];
    rows (tile, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, merge_groups) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp:73
        r0 = ([16, 16, 32], [16, 16], [1, 1], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp:75
        r1 = ([32, 32, 32], [32, 32], [1, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, 2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp:76
        r2 = ([32, 64, 32], [32, 32], [1, 2], [4, 8, 1], 4, 4, [4, 16, 1], 4, 4, 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp:77
        r3 = ([32, 128, 32], [32, 32], [1, 4], [4, 4, 1], 8, 8, [4, 16, 1], 8, 8, 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp:79
        r4 = ([32, 32, 32], [32, 32], [1, 1], [4, 16, 1], 2, 2, [4, 8, 1], 2, 2, 2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp:80
        r5 = ([64, 32, 32], [32, 32], [2, 1], [4, 16, 1], 4, 4, [4, 8, 1], 4, 4, 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_two_stage_xdl_instance.hpp:81
        r6 = ([128, 32, 32], [32, 32], [4, 1], [4, 16, 1], 8, 8, [4, 4, 1], 8, 8, 8);
    }
}
