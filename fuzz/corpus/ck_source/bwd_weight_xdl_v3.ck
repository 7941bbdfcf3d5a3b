// Backward weight, XDL V3: DeviceGroupedConvBwdWeight_Xdl_CShuffleV3. Rows: CK's
// device_grouped_conv_bwd_weight_v3_xdl_instance.hpp. K per block is the third tile entry
// (AK0 = K / K1); clusters are [K0, M|N, K1] with arrange S<2,0,1> and access S<1,0,2> unless a
// row says otherwise. Every family picks k_batch from occupancy (split_k = auto).
import "common.ck";

/// The generic rows (f16, bf16: CK's f16_base / bf16_base lists; f32: the f32 list) over every
/// layout V3 accepts, Intrawave v1: the fallback for any C and K divisible by the vectors.
family bwd_weight_xdl_v3_generic_2d : bwd_weight_xdl_v3 {
    dims = 2;
    over layout = [nhwgc, gnhwc];
    over spec = [default, filter1x1_stride1_pad0];
    rows (dtype, block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// f16 `64,32,32,32,8,32,32,1,1`: C and K divisible by 2.
        f16 = (fp16, 64, [32, 32, 32], 8, [32, 32], [1, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// bf16 `64,32,32,32,8,32,32,1,1`: C and K divisible by 2.
        bf16 = (bf16, 64, [32, 32, 32], 8, [32, 32], [1, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// f32 `64,16,16,32,8,16,16,1,1`: scalar loads, any C and K.
        f32 = (fp32, 64, [16, 16, 32], 8, [16, 16], [1, 1], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, [1, 8, 1, 8], 2);
    }
}

/// The generic rows of the 2-D family over the 3-D layouts (CK instantiates the same lists for
/// NDimSpatial = 3).
family bwd_weight_xdl_v3_generic_3d : bwd_weight_xdl_v3 {
    dims = 3;
    over layout = [ndhwgc, gndhwc];
    over spec = [default, filter1x1_stride1_pad0];
    rows (dtype, block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// f16 `64,32,32,32,8,32,32,1,1`.
        f16 = (fp16, 64, [32, 32, 32], 8, [32, 32], [1, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// bf16 `64,32,32,32,8,32,32,1,1`.
        bf16 = (bf16, 64, [32, 32, 32], 8, [32, 32], [1, 1], [4, 8, 1], 2, 2, [4, 16, 1], 2, 2, [1, 8, 1, 8], 2);
        /// f32 `64,16,16,32,8,16,16,1,1`.
        f32 = (fp32, 64, [16, 16, 32], 8, [16, 16], [1, 1], [4, 8, 1], 1, 4, [4, 8, 1], 1, 4, [1, 8, 1, 8], 2);
    }
}

/// The tuned 64-thread rows of CK's f16_base / bf16_base lists and the high_reg_usage row
/// (identical for f16 and bf16), 2-D NHWGC, Default spec, with the pipelines of CK's
/// `_default_pipev2` and `_default_pipev5` instance files (the generic families cover
/// Filter1x1Stride1Pad0).
family bwd_weight_xdl_v3_2d : bwd_weight_xdl_v3 {
    dims = 2;
    layout = nhwgc;
    over dtype = [fp16, bf16];
    over pipeline.version = [v2, v5];
    rows (block, tile, k1, instr, repeat, a.cluster, a.access, a.src_vector, a.dst_vector, b.cluster, b.access, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// `64,32,64,32,8,32,32,1,2`: vectors of 4.
        m32n64 = (64, [32, 64, 32], 8, [32, 32], [1, 2], [4, 8, 1], [1, 0, 2], 4, 4, [4, 16, 1], [1, 0, 2], 4, 4, [1, 8, 1, 8], 2);
        /// `64,32,128,32,8,32,32,1,4`: vectors of 8, wide N (large C·Y·X).
        m32n128 = (64, [32, 128, 32], 8, [32, 32], [1, 4], [4, 4, 1], [1, 0, 2], 8, 8, [4, 16, 1], [1, 0, 2], 8, 8, [1, 8, 1, 8], 2);
        /// `64,64,32,32,8,32,32,2,1`: vectors of 4, tall M (large K).
        m64n32 = (64, [64, 32, 32], 8, [32, 32], [2, 1], [4, 16, 1], [1, 0, 2], 4, 4, [4, 8, 1], [1, 0, 2], 4, 4, [1, 8, 1, 8], 2);
        /// `64,64,112,32,8,16,16,4,7`: 16x16 XDL, N = 112 for C·Y·X = 7·16k; access S<2,0,1>.
        m64n112 = (64, [64, 112, 32], 8, [16, 16], [4, 7], [4, 16, 1], [2, 0, 1], 4, 4, [4, 16, 1], [2, 0, 1], 7, 4, [1, 8, 1, 8], 2);
        /// high_reg_usage `64,128,32,32,8,32,32,4,1`: many accumulators per wave.
        high_reg = (64, [128, 32, 32], 8, [32, 32], [4, 1], [4, 16, 1], [1, 0, 2], 8, 8, [4, 4, 1], [1, 0, 2], 8, 8, [1, 8, 1, 8], 2);
    }
}
