// Backward weight on RDNA3/4 with WMMA (16x16x16, wave32): one-stage V3 and multiple-D V3
// (two-stage V3 is in wmma_two_stage.ck). gfx11 has no packed f16/bf16 atomics, so k_batch stays
// 1 (split_k = 1), and CK's WMMA ops take no split_k < 0.
import "common.ck";

/// WMMA V3, 2-D NHWGC, f16 and bf16 (CK's device_grouped_conv_bwd_weight_v3_wmma_instance.hpp;
/// the f16 and bf16 lists hold the same rows).
family bwd_weight_wmma_v3_2d : bwd_weight_wmma_v3 {
    dims = 2;
    layout = nhwgc;
    over dtype = [fp16, bf16];
    rows (block, tile, repeat, a.cluster, a.src_vector, a.dst_vector, a.lds_pad, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// Generic `64,32,32,32,8,16,16,2,1`: C and K divisible by 2.
        generic = (64, [32, 32, 32], [2, 1], [4, 8, 1], 2, 2, false, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// `128,128,128,32,8,16,16,8,2`.
        m128n128 = (128, [128, 128, 32], [8, 2], [4, 32, 1], 4, 8, false, [4, 32, 1], 4, 8, [1, 16, 1, 8], 8);
        /// `128,128,128,32,8,16,16,8,2` with A LDS padding.
        m128n128_pad = (128, [128, 128, 32], [8, 2], [4, 32, 1], 4, 8, true, [4, 32, 1], 4, 8, [1, 16, 1, 8], 8);
        /// `64,64,64,64,8,16,16,4,2`, vectors 8.
        m64n64 = (64, [64, 64, 64], [4, 2], [8, 8, 1], 8, 8, false, [8, 8, 1], 8, 8, [1, 16, 1, 4], 8);
        /// `256,128,256,64,8,16,16,8,2`: the largest tile.
        m128n256 = (256, [128, 256, 64], [8, 2], [8, 32, 1], 4, 8, true, [8, 32, 1], 8, 8, [1, 16, 1, 16], 8);
        /// `128,48,64,128,8,16,16,3,1`: M = 48 for K = 3·16k.
        m48n64 = (128, [48, 64, 128], [3, 1], [16, 8, 1], 6, 8, true, [16, 8, 1], 8, 8, [1, 16, 1, 8], 8);
        /// `128,96,128,64,8,16,16,6,2`.
        m96n128 = (128, [96, 128, 64], [6, 2], [8, 16, 1], 6, 8, true, [8, 16, 1], 8, 8, [1, 16, 1, 8], 8);
        /// `128,64,64,128,8,16,16,4,1`: deep K per block.
        m64n64k128 = (128, [64, 64, 128], [4, 1], [16, 8, 1], 8, 8, false, [16, 8, 1], 8, 8, [1, 16, 1, 8], 8);
        /// `256,96,128,128,8,16,16,6,1`.
        m96n128k128 = (256, [96, 128, 128], [6, 1], [16, 16, 1], 6, 8, true, [16, 16, 1], 8, 8, [1, 16, 1, 16], 8);
    }
}

/// WMMA V3, the generic row over 3-D NDHWGC (CK instantiates the same list for
/// NDimSpatial = 3).
family bwd_weight_wmma_v3_3d : bwd_weight_wmma_v3 {
    dims = 3;
    layout = ndhwgc;
    over dtype = [fp16, bf16];
    over spec = [default, filter1x1_stride1_pad0];
    rows (block, tile, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// Generic `64,32,32,32,8,16,16,2,1`.
        generic = (64, [32, 32, 32], [2, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
    }
}

/// Multiple-D WMMA V3 with a bilinear weight epilogue, f16, 3-D NDHWGC (CK's grouped_conv3d
/// bwd-weight bilinear instances, device_grouped_conv_bwd_weight_wmma_bilinear_instance.hpp;
/// the current header keeps these rows commented out).
family bwd_weight_wmma_bilinear_3d : bwd_weight_wmma_v3 {
    kind = wmma_multiple_d;
    dims = 3;
    layout = ndhwgc;
    dtype = fp16;
    ds.layouts = [gkzyxc];
    ds.types = [fp16];
    elementwise.wei = bilinear;
    a.lds_pad = true;
    b.lds_pad = true;
    rows (block, tile, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// Generic `64,64,64,32,8,16,16,4,2`, scalar loads.
        generic = (64, [64, 64, 32], [4, 2], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, [1, 16, 1, 4], 1);
        /// `64,64,64,32,8,16,16,4,2`, vectors 2.
        v2 = (64, [64, 64, 32], [4, 2], [4, 8, 1], 2, 4, [4, 8, 1], 2, 4, [1, 16, 1, 4], 2);
        /// `128,128,128,32,8,16,16,4,4`, vectors 8.
        m128n128 = (128, [128, 128, 32], [4, 4], [4, 16, 1], 8, 4, [4, 16, 1], 8, 4, [1, 32, 1, 4], 8);
    }
}
