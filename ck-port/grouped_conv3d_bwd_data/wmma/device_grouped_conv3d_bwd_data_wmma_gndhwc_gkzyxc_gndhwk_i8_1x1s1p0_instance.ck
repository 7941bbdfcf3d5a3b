/// CK's `device_grouped_conv_bwd_data_wmma_i8_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_data/wmma/device_grouped_conv3d_bwd_data_wmma_gndhwc_gkzyxc_gndhwk_i8_1x1s1p0_instance.cpp` instantiates it.
family ck_3d_bwd_data_wmma_gndhwc_gkzyxc_gndhwk_i8_1x1s1p0 {
    op = bwd_data;
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
    spec = filter1x1_stride1_pad0;
    k1 = 16;
    instr = [16, 16];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.dst_vector = 16;
    a.lds_pad = true;
    b.arrange = [0, 2, 1];
    b.access = [0, 2, 1];
    b.vector_dim = 1;
    b.dst_vector = 16;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    pipeline.version = v1;
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    targets = [gfx1100];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:93
        r0 = (128, [64, 64, 64], [2, 2], [4, 32, 1], 1, [4, 32, 1], 1, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:95
        r1 = (256, [64, 256, 128], [2, 4], [4, 64, 1], 16, [8, 32, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:97
        r2 = (128, [64, 256, 128], [2, 8], [4, 32, 1], 16, [8, 16, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:98
        r3 = (128, [64, 128, 128], [2, 4], [4, 32, 1], 16, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:99
        r4 = (128, [128, 256, 128], [4, 8], [4, 32, 1], 16, [8, 16, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:100
        r5 = (128, [32, 256, 128], [1, 8], [4, 32, 1], 16, [8, 16, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:101
        r6 = (128, [256, 128, 128], [8, 4], [4, 32, 1], 16, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:103
        r7 = (64, [32, 128, 128], [1, 8], [4, 16, 1], 16, [8, 8, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:104
        r8 = (64, [64, 128, 128], [2, 8], [4, 16, 1], 16, [8, 8, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:106
        r9 = (64, [32, 64, 128], [1, 4], [4, 16, 1], 16, [8, 8, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:108
        r10 = (32, [16, 64, 128], [1, 4], [2, 16, 1], 16, [8, 4, 1], 16, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:109
        r11 = (32, [64, 64, 128], [4, 4], [2, 16, 1], 16, [8, 4, 1], 16, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_i8_instance.hpp:110
        r12 = (32, [32, 32, 128], [2, 2], [2, 16, 1], 16, [8, 4, 1], 8, [1, 16, 1, 2], 8);
    }
}
