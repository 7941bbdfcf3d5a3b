/// CK's `device_grouped_conv_fwd_xdl_merged_groups_f16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_fwd/xdl/merged_groups/device_grouped_conv3d_fwd_xdl_merged_groups_ndhwgc_gkzyxc_ndhwgk_f16_instance.cpp` instantiates it.
family ck_3d_fwd_xdl_merged_groups_ndhwgc_gkzyxc_ndhwgk_f16 {
    op = fwd;
    dims = 3;
    kind = xdl;
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
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_merged_groups_instance.hpp:68
        r0 = (8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_merged_groups_instance.hpp:69
        r1 = (16);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_xdl_merged_groups_instance.hpp:70
        r2 = (32);
    }
}
