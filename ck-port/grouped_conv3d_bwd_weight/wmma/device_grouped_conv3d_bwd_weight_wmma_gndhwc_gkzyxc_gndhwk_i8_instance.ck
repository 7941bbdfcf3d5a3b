/// CK's `device_grouped_conv_bwd_weight_wmma_i8_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_weight/wmma/device_grouped_conv3d_bwd_weight_wmma_gndhwc_gkzyxc_gndhwk_i8_instance.cpp` instantiates it.
family ck_3d_bwd_weight_wmma_gndhwc_gkzyxc_gndhwk_i8 {
    op = bwd_weight;
    dims = 3;
    kind = wmma;
    layout = gndhwc;
    weight_layout = gkzyxc;
    output_layout = gndhwk;
    types.in = int8;
    types.wei = int8;
    types.out = int8;
    types.acc = int32;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    spec = default;
    k1 = 8;
    instr = [16, 16];
    a.arrange = [0, 2, 1];
    a.access = [0, 2, 1];
    a.vector_dim = 1;
    a.dst_vector = 8;
    a.lds_pad = true;
    b.arrange = [0, 2, 1];
    b.access = [0, 2, 1];
    b.vector_dim = 1;
    b.dst_vector = 8;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    pipeline.version = v1;
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    targets = [gfx1100];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:90
        r0 = (128, [64, 64, 32], [2, 2], [4, 32, 1], 1, [4, 32, 1], 1, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:92
        r1 = (256, [64, 256, 64], [2, 4], [8, 32, 1], 2, [8, 32, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:93
        r2 = (256, [256, 64, 64], [4, 2], [8, 32, 1], 8, [8, 32, 1], 2, [1, 64, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:95
        r3 = (128, [128, 256, 64], [4, 8], [8, 16, 1], 8, [8, 16, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:96
        r4 = (128, [64, 256, 64], [2, 8], [8, 16, 1], 4, [8, 16, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:97
        r5 = (128, [32, 256, 64], [1, 8], [8, 16, 1], 2, [8, 16, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:98
        r6 = (128, [64, 128, 64], [2, 4], [8, 16, 1], 4, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:99
        r7 = (128, [128, 64, 64], [4, 2], [8, 16, 1], 8, [8, 16, 1], 4, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:100
        r8 = (128, [256, 32, 64], [8, 1], [8, 16, 1], 16, [8, 16, 1], 2, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:101
        r9 = (128, [256, 64, 64], [8, 2], [8, 16, 1], 16, [8, 16, 1], 4, [1, 16, 1, 8], 2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:102
        r10 = (128, [256, 128, 64], [8, 4], [8, 16, 1], 16, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:104
        r11 = (64, [32, 128, 64], [1, 8], [8, 8, 1], 4, [8, 8, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:105
        r12 = (64, [64, 128, 64], [2, 8], [8, 8, 1], 8, [8, 8, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:106
        r13 = (64, [128, 64, 64], [8, 2], [8, 8, 1], 16, [8, 8, 1], 8, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:107
        r14 = (64, [128, 32, 64], [8, 1], [8, 8, 1], 16, [8, 8, 1], 4, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:109
        r15 = (32, [16, 64, 64], [1, 4], [8, 4, 1], 4, [8, 4, 1], 16, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:110
        r16 = (32, [64, 64, 64], [4, 4], [8, 4, 1], 16, [8, 4, 1], 16, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:111
        r17 = (32, [32, 32, 64], [2, 2], [8, 4, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:112
        r18 = (32, [64, 16, 64], [4, 1], [8, 4, 1], 16, [8, 4, 1], 4, [1, 16, 1, 2], 8);
    }
}
