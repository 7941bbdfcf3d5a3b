/// CK's `device_grouped_conv_bwd_weight_wmma_f16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv3d_bwd_weight/wmma/device_grouped_conv3d_bwd_weight_wmma_gndhwc_gkzyxc_gndhwk_f16_instance.cpp` instantiates it.
family ck_3d_bwd_weight_wmma_gndhwc_gkzyxc_gndhwk_f16 {
    op = bwd_weight;
    dims = 3;
    kind = wmma;
    layout = gndhwc;
    weight_layout = gkzyxc;
    output_layout = gndhwk;
    types.in = fp16;
    types.wei = fp16;
    types.out = fp16;
    types.acc = fp32;
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
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:48
        r0 = (128, [64, 64, 32], [2, 2], [4, 32, 1], 1, [4, 32, 1], 1, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:50
        r1 = (256, [128, 256, 64], [2, 8], [8, 32, 1], 4, [8, 32, 1], 8, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:51
        r2 = (256, [256, 128, 64], [8, 2], [8, 32, 1], 8, [8, 32, 1], 4, [1, 32, 1, 8], 2);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:52
        r3 = (256, [256, 64, 64], [4, 2], [8, 32, 1], 8, [8, 32, 1], 2, [1, 32, 1, 8], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:53
        r4 = (256, [64, 256, 64], [2, 4], [8, 32, 1], 2, [8, 32, 1], 8, [1, 16, 1, 16], 4);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:55
        r5 = (128, [64, 128, 64], [2, 4], [8, 16, 1], 4, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:56
        r6 = (128, [128, 64, 64], [4, 2], [8, 16, 1], 8, [8, 16, 1], 4, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:57
        r7 = (128, [128, 128, 64], [4, 4], [8, 16, 1], 8, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:58
        r8 = (128, [32, 256, 64], [1, 8], [8, 16, 1], 2, [8, 16, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:59
        r9 = (128, [256, 32, 64], [8, 1], [8, 16, 1], 8, [8, 16, 1], 2, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:61
        r10 = (64, [64, 32, 64], [4, 1], [8, 8, 1], 8, [8, 8, 1], 4, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:62
        r11 = (64, [32, 64, 64], [1, 4], [8, 8, 1], 4, [8, 8, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:63
        r12 = (64, [64, 64, 64], [2, 4], [8, 8, 1], 8, [8, 8, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:64
        r13 = (64, [128, 32, 64], [8, 1], [8, 8, 1], 8, [8, 8, 1], 4, [1, 16, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:65
        r14 = (64, [32, 128, 64], [1, 8], [8, 8, 1], 4, [8, 8, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:67
        r15 = (32, [16, 32, 64], [1, 2], [8, 4, 1], 4, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:68
        r16 = (32, [16, 64, 64], [1, 4], [8, 4, 1], 4, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:69
        r17 = (32, [32, 64, 64], [2, 4], [8, 4, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:70
        r18 = (32, [32, 32, 64], [2, 2], [8, 4, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:71
        r19 = (32, [64, 32, 64], [4, 2], [8, 4, 1], 8, [8, 4, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:72
        r20 = (32, [64, 16, 64], [4, 1], [8, 4, 1], 8, [8, 4, 1], 4, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_bwd_weight/device_grouped_conv_bwd_weight_wmma_instance.hpp:73
        r21 = (32, [32, 16, 64], [2, 1], [8, 4, 1], 8, [8, 4, 1], 4, [1, 16, 1, 2], 8);
    }
}
