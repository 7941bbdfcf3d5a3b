/// CK's `device_grouped_conv_fwd_wmma_i8_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/wmma/device_grouped_conv2d_fwd_wmma_nhwgc_gkyxc_nhwgk_i8_oddc_instance.cpp` instantiates it.
family ck_2d_fwd_wmma_nhwgc_gkyxc_nhwgk_i8_oddc {
    op = fwd;
    dims = 2;
    kind = wmma;
    layout = nhwgc;
    weight_layout = gkyxc;
    output_layout = nhwgk;
    types.in = int8;
    types.wei = int8;
    types.out = int8;
    types.acc = int32;
    types.cshuffle = int8;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    spec = odd_c;
    gemm_spec = mnk_padding;
    k1 = 16;
    instr = [16, 16];
    a.arrange = [1, 0, 2];
    a.access = [1, 0, 2];
    a.vector_dim = 2;
    a.dst_vector = 16;
    a.lds_pad = true;
    b.arrange = [1, 0, 2];
    b.access = [1, 0, 2];
    b.vector_dim = 2;
    b.dst_vector = 16;
    b.lds_pad = true;
    c.shuffle = [1, 1];
    pipeline.version = v1;
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    targets = [gfx1100];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:105
        r0 = (128, [64, 64, 64], [2, 2], [4, 32, 1], 1, [4, 32, 1], 1, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:107
        r1 = (256, [128, 128, 64], [4, 2], [4, 64, 1], 16, [4, 64, 1], 16, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:108
        r2 = (256, [64, 256, 64], [2, 4], [4, 64, 1], 16, [4, 64, 1], 16, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:109
        r3 = (256, [256, 64, 64], [8, 1], [4, 64, 1], 16, [4, 64, 1], 16, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:110
        r4 = (256, [128, 128, 128], [4, 2], [4, 64, 1], 16, [4, 64, 1], 16, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:112
        r5 = (128, [64, 64, 64], [2, 2], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:113
        r6 = (128, [64, 64, 128], [2, 2], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:114
        r7 = (128, [64, 128, 64], [2, 4], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:115
        r8 = (128, [64, 128, 128], [2, 4], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:116
        r9 = (128, [128, 64, 64], [4, 2], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:117
        r10 = (128, [128, 64, 128], [4, 2], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:118
        r11 = (128, [32, 256, 64], [1, 8], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:119
        r12 = (128, [256, 32, 64], [8, 1], [4, 32, 1], 16, [4, 32, 1], 16, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:121
        r13 = (64, [32, 64, 64], [1, 4], [4, 16, 1], 16, [4, 16, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:122
        r14 = (64, [64, 32, 64], [2, 2], [4, 16, 1], 16, [4, 16, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:123
        r15 = (64, [32, 32, 128], [1, 2], [4, 16, 1], 16, [4, 16, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:124
        r16 = (64, [32, 128, 64], [1, 8], [4, 16, 1], 16, [4, 16, 1], 16, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:126
        r17 = (32, [16, 64, 64], [1, 4], [2, 16, 1], 16, [2, 16, 1], 16, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:127
        r18 = (32, [64, 16, 64], [4, 1], [2, 16, 1], 16, [2, 16, 1], 16, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:128
        r19 = (32, [32, 32, 64], [2, 2], [2, 16, 1], 16, [2, 16, 1], 16, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:129
        r20 = (32, [16, 16, 64], [1, 1], [2, 16, 1], 16, [2, 16, 1], 16, [1, 16, 1, 2], 8);
    }
}
