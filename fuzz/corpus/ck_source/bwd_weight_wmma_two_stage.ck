// Backward weight, two-stage WMMA V3 (RDNA3/4): DeviceGroupedConvBwdWeightTwoStage_Wmma_CShuffleV3.
// Rows: CK's device_grouped_conv_bwd_weight_two_stage_wmma_instance.hpp.
import "common.ck";

/// Two-stage WMMA V3, f16, 2-D NHWGC: a V3 WMMA GEMM into an fp32 workspace, then a convert
/// (CK's device_grouped_conv_bwd_weight_two_stage_wmma_instance.hpp, first f16 list), each row
/// with its own NumGroupsToMerge.
family bwd_weight_two_stage_wmma_2d : bwd_weight_wmma_v3 {
    kind = wmma_two_stage;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    c.vector = 1;
    rows (block, tile, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, merge_groups) {
        /// `32,16,16,32,8,16,16,1,1`: one wave, scalar loads; the generic row.
        m16n16 = (32, [16, 16, 32], [1, 1], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, [1, 4, 1, 8], 1);
        /// `64,32,64,32,8,16,16,2,2`, vectors 2, two groups per block.
        m32n64_v2_merge2 = (64, [32, 64, 32], [2, 2], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// `64,32,32,32,8,16,16,2,1`, two groups per block.
        m32n32_merge2 = (64, [32, 32, 32], [2, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// `64,32,64,32,8,16,16,2,2`, vectors 4, four groups per block.
        m32n64_merge4 = (64, [32, 64, 32], [2, 2], [4, 8, 1], 4, 4, [4, 16, 1], 4, 4, [1, 8, 1, 8], 4);
        /// `64,32,128,32,8,16,16,2,4`, eight groups per block.
        m32n128_merge8 = (64, [32, 128, 32], [2, 4], [4, 4, 1], 8, 8, [4, 16, 1], 8, 8, [1, 8, 1, 8], 8);
        /// `64,32,32,32,8,16,16,2,1` with the A cluster along M, two groups per block.
        m32n32_am_merge2 = (64, [32, 32, 32], [2, 1], [4, 16, 1], 2, 2, [4, 8, 1], 2, 2, [1, 8, 1, 8], 2);
        /// `64,64,32,32,8,16,16,2,2`, four groups per block.
        m64n32_merge4 = (64, [64, 32, 32], [2, 2], [4, 16, 1], 4, 4, [4, 8, 1], 4, 4, [1, 8, 1, 8], 4);
        /// `64,128,32,32,8,16,16,4,2`, eight groups per block.
        m128n32_merge8 = (64, [128, 32, 32], [4, 2], [4, 16, 1], 8, 8, [4, 4, 1], 8, 8, [1, 8, 1, 8], 8);
    }
}

/// Two-stage WMMA V3, the generic row over 3-D NDHWGC.
instance bwd_weight_two_stage_wmma_3d_generic : bwd_weight_wmma_v3 {
    kind = wmma_two_stage;
    dims = 3;
    layout = ndhwgc;
    dtype = fp16;
    block = 32;
    tile = [16, 16, 32];
    repeat = [1, 1];
    a { cluster = [4, 8, 1]; src_vector = 1; dst_vector = 4; }
    b { cluster = [4, 8, 1]; src_vector = 1; dst_vector = 4; }
    c { cluster = [1, 4, 1, 8]; vector = 1; }
}
