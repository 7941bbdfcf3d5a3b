/// CK's `device_grouped_conv_fwd_wmma_f16_instances`, as `library/src/tensor_operation_instance/gpu/grouped_conv2d_fwd/wmma/device_grouped_conv2d_fwd_wmma_gnhwc_gkyxc_gnhwk_f16_instance.cpp` instantiates it.
family ck_2d_fwd_wmma_gnhwc_gkyxc_gnhwk_f16 {
    op = fwd;
    dims = 2;
    kind = wmma;
    layout = gnhwc;
    weight_layout = gkyxc;
    output_layout = gnhwk;
    types.in = fp16;
    types.wei = fp16;
    types.out = fp16;
    types.acc = fp32;
    types.cshuffle = fp16;
    elementwise.in = pass_through;
    elementwise.wei = pass_through;
    elementwise.out = pass_through;
    spec = default;
    gemm_spec = mnk_padding;
    k1 = 8;
    instr = [16, 16];
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
    pipeline.version = v1;
    pipeline.prefetch = 1;
    pipeline.loop_scheduler = default;
    targets = [gfx1100];
    rows (block, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.cluster, c.vector) {
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:62
        r0 = (128, [64, 64, 32], [2, 2], [4, 32, 1], 1, [4, 32, 1], 1, [1, 32, 1, 4], 1);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:64
        r1 = (256, [128, 128, 32], [4, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:65
        r2 = (256, [64, 256, 32], [2, 4], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:66
        r3 = (256, [256, 64, 32], [8, 1], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:67
        r4 = (256, [128, 128, 64], [4, 2], [4, 64, 1], 8, [4, 64, 1], 8, [1, 32, 1, 8], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:69
        r5 = (128, [64, 64, 32], [2, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:70
        r6 = (128, [64, 64, 64], [2, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:71
        r7 = (128, [64, 128, 32], [2, 4], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:72
        r8 = (128, [64, 128, 64], [2, 4], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:73
        r9 = (128, [128, 64, 32], [4, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:74
        r10 = (128, [128, 64, 64], [4, 2], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:75
        r11 = (128, [32, 256, 32], [1, 8], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:76
        r12 = (128, [256, 32, 32], [8, 1], [4, 32, 1], 8, [4, 32, 1], 8, [1, 32, 1, 4], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:78
        r13 = (64, [32, 64, 32], [1, 4], [4, 16, 1], 8, [4, 16, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:79
        r14 = (64, [64, 32, 32], [2, 2], [4, 16, 1], 8, [4, 16, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:80
        r15 = (64, [32, 32, 64], [1, 2], [4, 16, 1], 8, [4, 16, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:81
        r16 = (64, [32, 128, 32], [1, 8], [4, 16, 1], 8, [4, 16, 1], 8, [1, 32, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:83
        r17 = (32, [16, 64, 32], [1, 4], [2, 16, 1], 8, [2, 16, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:84
        r18 = (32, [64, 16, 32], [4, 1], [2, 16, 1], 8, [2, 16, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:85
        r19 = (32, [32, 32, 32], [2, 2], [2, 16, 1], 8, [2, 16, 1], 8, [1, 16, 1, 2], 8);
        /// ck/library/tensor_operation_instance/gpu/grouped_conv_fwd/device_grouped_conv_fwd_wmma_instance.hpp:86
        r20 = (32, [16, 16, 32], [1, 1], [2, 16, 1], 8, [2, 16, 1], 8, [1, 16, 1, 2], 8);
    }
}
