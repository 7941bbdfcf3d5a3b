// Backward weight, XDL V3 with direct global-to-LDS loads (gfx950): the f16_direct_load and
// bf16_direct_load lists of CK's device_grouped_conv_bwd_weight_v3_xdl_instance.hpp.
import "common.ck";

/// Direct global-to-LDS loads (gfx950), rows shared by CK's f16_direct_load and bf16_direct_load
/// lists: arrange and access S<0,2,1>, K per block 64, Intrawave v1, 2-D NHWGC, Default spec.
family bwd_weight_xdl_v3_direct_load : bwd_weight_xdl_v3, cdna4 {
    dims = 2;
    layout = nhwgc;
    pipeline.direct_load = true;
    a { arrange = [0, 2, 1]; access = [0, 2, 1]; }
    b { arrange = [0, 2, 1]; access = [0, 2, 1]; }
    over dtype = [fp16, bf16];
    rows (block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// `128,16,32,64,8,16,16,1,1`: thin tile for small K.
        m16n32 = (128, [16, 32, 64], 8, [16, 16], [1, 1], [8, 2, 8], 8, 8, [4, 4, 8], 8, 8, [1, 16, 1, 8], 4);
        /// `128,16,64,64,8,16,16,1,2`.
        m16n64 = (128, [16, 64, 64], 8, [16, 16], [1, 2], [8, 2, 8], 8, 8, [2, 8, 8], 8, 8, [1, 16, 1, 8], 4);
        /// `256,256,32,64,8,32,32,2,1`: tall tile for large K.
        m256n32 = (256, [256, 32, 64], 8, [32, 32], [2, 1], [4, 32, 2], 8, 8, [8, 4, 8], 8, 8, [1, 64, 1, 4], 8);
        /// `256,64,128,64,8,32,32,1,2`.
        m64n128 = (256, [64, 128, 64], 8, [32, 32], [1, 2], [4, 8, 8], 8, 8, [4, 16, 4], 8, 8, [1, 32, 1, 8], 8);
        /// `256,64,64,64,8,16,16,2,2`, C vector 8.
        m64n64 = (256, [64, 64, 64], 8, [16, 16], [2, 2], [4, 8, 8], 8, 8, [4, 8, 8], 8, 8, [1, 32, 1, 4], 8);
        /// `256,64,64,64,8,16,16,2,2`, C vector 2 (C divisible by 2 only).
        m64n64_c2 = (256, [64, 64, 64], 8, [16, 16], [2, 2], [4, 8, 8], 8, 8, [4, 8, 8], 8, 8, [1, 32, 1, 4], 2);
        /// `256,64,64,64,8,16,16,2,2` with vectors 2/1: the direct-load fallback for small C and K.
        m64n64_v2 = (256, [64, 64, 64], 8, [16, 16], [2, 2], [4, 32, 2], 2, 1, [4, 32, 2], 2, 1, [1, 32, 1, 4], 4);
    }
}

/// The rows CK's f16_direct_load list repeats with NumGroupsToMerge = 2 (f16 only).
family bwd_weight_xdl_v3_direct_load_merge2 : bwd_weight_xdl_v3, cdna4 {
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    merge_groups = 2;
    pipeline.direct_load = true;
    a { arrange = [0, 2, 1]; access = [0, 2, 1]; }
    b { arrange = [0, 2, 1]; access = [0, 2, 1]; }
    rows (block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// `128,16,32,64,8,16,16,1,1`, two groups per block.
        m16n32 = (128, [16, 32, 64], 8, [16, 16], [1, 1], [8, 2, 8], 8, 8, [4, 4, 8], 8, 8, [1, 16, 1, 8], 4);
        /// `128,16,64,64,8,16,16,1,2`, two groups per block.
        m16n64 = (128, [16, 64, 64], 8, [16, 16], [1, 2], [8, 2, 8], 8, 8, [2, 8, 8], 8, 8, [1, 16, 1, 8], 4);
        /// `256,64,128,64,8,32,32,1,2`, two groups per block.
        m64n128 = (256, [64, 128, 64], 8, [32, 32], [1, 2], [4, 8, 8], 8, 8, [4, 16, 4], 8, 8, [1, 32, 1, 8], 8);
    }
}
