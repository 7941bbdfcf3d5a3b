/// CK's `device_grouped_conv_bwd_data_wmma_f16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_bwd_data/wmma/device_grouped_conv2d_bwd_data_wmma_gnhwc_gkyxc_gnhwk_f16_1x1s1p0_instance.cpp` instantiates it.
family ck_2d_bwd_data_wmma_gnhwc_gkyxc_gnhwk_f16_1x1s1p0 {
    op = bwd_data;
    dims = 2;
    kind = wmma;
    layout = gnhwc;
    weight_layout = gkyxc;
    output_layout = gnhwk;
    types.in = fp16;
    types.wei = fp16;
    types.out = fp16;
    types.acc = fp32;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    spec = filter1x1_stride1_pad0;
    k1 = 8;
    instr = [16, 16];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
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
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:53
        r0 = (128, [64, 64, 32], [2, 2], [4, 32, 1], 1, [4, 32, 1], 1, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:55
        r1 = (256, [128, 256, 64], [4, 4], [4, 64, 1], 8, [8, 32, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:56
        r2 = (256, [64, 256, 64], [2, 4], [4, 64, 1], 8, [8, 32, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:58
        r3 = (256, [128, 64, 64], [4, 1], [4, 64, 1], 8, [8, 32, 1], 2, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:60
        r4 = (128, [64, 128, 64], [2, 4], [4, 32, 1], 8, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:62
        r5 = (128, [128, 64, 64], [4, 2], [4, 32, 1], 8, [8, 16, 1], 2, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:63
        r6 = (128, [128, 128, 64], [4, 4], [4, 32, 1], 8, [8, 16, 1], 4, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:64
        r7 = (128, [32, 256, 64], [1, 8], [4, 32, 1], 8, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:66
        r8 = (64, [32, 64, 64], [1, 4], [4, 16, 1], 8, [8, 8, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:67
        r9 = (64, [64, 64, 64], [2, 4], [4, 16, 1], 8, [8, 8, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:69
        r10 = (64, [32, 128, 64], [1, 8], [4, 16, 1], 8, [8, 8, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:71
        r11 = (32, [16, 64, 64], [1, 4], [2, 16, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:72
        r12 = (32, [64, 32, 64], [4, 2], [2, 16, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:73
        r13 = (32, [32, 32, 64], [2, 2], [2, 16, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_data/device_grouped_conv_bwd_data_wmma_f16_instance.hpp:74
        r14 = (32, [16, 32, 64], [1, 2], [2, 16, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
    }
}
