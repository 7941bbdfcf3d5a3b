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

/// 64-bit indexing for tensors past 2 GB (CK's f16_large_tensor and bf16_large_tensor lists, the
/// same rows for both), 2-D NHWGC: 256 threads, K per block 64, vectors 8, 4 and 2, each with its
/// own pipeline (Intrawave v4 or Interwave v1).
family bwd_weight_xdl_v3_large_tensor_2d : bwd_weight_xdl_v3 {
    dims = 2;
    layout = nhwgc;
    large_tensor = true;
    block = 256;
    k1 = 8;
    instr = [32, 32];
    a.dst_vector = 8;
    b.dst_vector = 8;
    c.cluster = [1, 32, 1, 8];
    over dtype = [fp16, bf16];
    rows (pipeline.scheduler, pipeline.version, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.vector) {
        /// `256,128,128,64,8,32,32,2,2`, vectors 8, Intrawave v4.
        v8_m128n128 = (intrawave, v4, [128, 128, 64], [2, 2], [8, 16, 1], 8, [8, 16, 1], 8, 8);
        /// `256,128,256,64,8,32,32,2,4`, vectors 8, Interwave v1.
        v8_m128n256 = (interwave, v1, [128, 256, 64], [2, 4], [8, 16, 1], 8, [8, 32, 1], 8, 8);
        /// `256,256,128,64,8,32,32,4,2`, vectors 8, Interwave v1.
        v8_m256n128 = (interwave, v1, [256, 128, 64], [4, 2], [8, 32, 1], 8, [8, 16, 1], 8, 8);
        /// `256,128,128,64,8,32,32,2,2`, vectors 4, Intrawave v4.
        v4_m128n128 = (intrawave, v4, [128, 128, 64], [2, 2], [8, 32, 1], 4, [8, 32, 1], 4, 4);
        /// `256,128,256,64,8,32,32,2,4`, vectors 4, Interwave v1.
        v4_m128n256 = (interwave, v1, [128, 256, 64], [2, 4], [8, 32, 1], 4, [4, 64, 1], 4, 4);
        /// `256,256,128,64,8,32,32,4,2`, vectors 4, Interwave v1.
        v4_m256n128 = (interwave, v1, [256, 128, 64], [4, 2], [4, 64, 1], 4, [8, 32, 1], 4, 4);
        /// `256,128,128,64,8,32,32,2,2`, vectors 2, Intrawave v4.
        v2_m128n128 = (intrawave, v4, [128, 128, 64], [2, 2], [4, 64, 1], 2, [4, 64, 1], 2, 2);
        /// `256,128,256,64,8,32,32,2,4`, vectors 2, Interwave v1.
        v2_m128n256 = (interwave, v1, [128, 256, 64], [2, 4], [4, 64, 1], 2, [4, 64, 1], 2, 2);
        /// `256,256,128,64,8,32,32,4,2`, vectors 2, Interwave v1.
        v2_m256n128 = (interwave, v1, [256, 128, 64], [4, 2], [4, 64, 1], 2, [4, 64, 1], 2, 2);
    }
}

/// The vector-8 large-tensor rows of the 2-D family over 3-D NDHWGC.
family bwd_weight_xdl_v3_large_tensor_3d : bwd_weight_xdl_v3 {
    dims = 3;
    layout = ndhwgc;
    large_tensor = true;
    block = 256;
    k1 = 8;
    instr = [32, 32];
    a.dst_vector = 8;
    b.dst_vector = 8;
    c.cluster = [1, 32, 1, 8];
    over dtype = [fp16, bf16];
    rows (pipeline.scheduler, pipeline.version, tile, repeat, a.cluster, a.src_vector, b.cluster, b.src_vector, c.vector) {
        /// `256,128,128,64,8,32,32,2,2`, vectors 8, Intrawave v4.
        v8_m128n128 = (intrawave, v4, [128, 128, 64], [2, 2], [8, 16, 1], 8, [8, 16, 1], 8, 8);
        /// `256,128,256,64,8,32,32,2,4`, vectors 8, Interwave v1.
        v8_m128n256 = (interwave, v1, [128, 256, 64], [2, 4], [8, 16, 1], 8, [8, 32, 1], 8, 8);
        /// `256,256,128,64,8,32,32,4,2`, vectors 8, Interwave v1.
        v8_m256n128 = (interwave, v1, [256, 128, 64], [4, 2], [8, 32, 1], 8, [8, 16, 1], 8, 8);
    }
}
