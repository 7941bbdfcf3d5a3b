// Backward weight, XDL V3 with 64-bit indexing: the f16_large_tensor and bf16_large_tensor lists
// of CK's device_grouped_conv_bwd_weight_v3_xdl_instance.hpp (LargeTensors = true).
import "common.ck";

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
