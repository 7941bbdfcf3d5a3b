// Backward weight, XDL v1 GEMM: DeviceGroupedConvBwdWeight_Xdl_CShuffle, its multiple-D sibling
// and the explicit-GEMM op. Rows: CK's device_grouped_conv_bwd_weight_xdl_instance.hpp.
import "common.ck";

/// XDL v1, 2-D, f16 and f32: the generic rows and the large 256x128 tile of CK's f16 and f32
/// lists (32x32 XDL). Split-K accumulates into the weight with atomics.
family bwd_weight_xdl_2d : bwd_weight_xdl {
    dims = 2;
    over layout = [nhwgc, gnhwc];
    over spec = [default, filter1x1_stride1_pad0];
    rows (dtype, block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// f16 generic `64,64,64,4,8,32,32,2,2`: any C and K divisible by 2.
        f16_generic = (fp16, 64, [64, 64, 32], 8, [32, 32], [2, 2], [1, 4, 8, 2], 2, 4, [1, 4, 8, 2], 2, 4, [1, 16, 1, 4], 2);
        /// f16 `256,256,128,4,8,32,32,4,2`: the large tile for big K and C.
        f16_256x128 = (fp16, 256, [256, 128, 32], 8, [32, 32], [4, 2], [1, 4, 32, 2], 8, 4, [1, 4, 16, 4], 8, 2, [1, 32, 1, 8], 8);
        /// f32 generic `64,64,64,4,4,32,32,2,2`: scalar loads, any C and K.
        f32_generic = (fp32, 64, [64, 64, 16], 4, [32, 32], [2, 2], [1, 4, 16, 1], 1, 4, [1, 4, 16, 1], 1, 4, [1, 16, 1, 4], 1);
        /// f32 `256,256,128,4,4,32,32,4,2`: the large tile, vectors of 4.
        f32_256x128 = (fp32, 256, [256, 128, 16], 4, [32, 32], [4, 2], [1, 4, 64, 1], 4, 4, [1, 4, 32, 2], 4, 2, [1, 32, 1, 8], 4);
    }
}

/// XDL v1, 3-D: the generic f16 and f32 rows of the 2-D family over CK's 3-D layouts
/// (CK instantiates the same lists for NDimSpatial = 3).
family bwd_weight_xdl_3d : bwd_weight_xdl {
    dims = 3;
    over layout = [ndhwgc, gndhwc];
    over spec = [default, filter1x1_stride1_pad0];
    rows (dtype, block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// f16 generic `64,64,64,4,8,32,32,2,2`.
        f16_generic = (fp16, 64, [64, 64, 32], 8, [32, 32], [2, 2], [1, 4, 8, 2], 2, 4, [1, 4, 8, 2], 2, 4, [1, 16, 1, 4], 2);
        /// f32 generic `64,64,64,4,4,32,32,2,2`.
        f32_generic = (fp32, 64, [64, 64, 16], 4, [32, 32], [2, 2], [1, 4, 16, 1], 1, 4, [1, 4, 16, 1], 1, 4, [1, 16, 1, 4], 1);
    }
}

/// Multiple-D XDL with a bilinear weight epilogue, 3-D (CK's grouped_conv3d_bwd_weight bilinear
/// instances, device_grouped_conv_bwd_weight_xdl_bilinear_instance.hpp): the v1 GEMM accumulates
/// into an fp32 workspace, then `wei = alpha * acc + beta * d` with one weight-shaped D.
family bwd_weight_xdl_bilinear_3d : bwd_weight_xdl {
    kind = xdl_multiple_d;
    dims = 3;
    layout = ndhwgc;
    ds.layouts = [gkzyxc];
    elementwise.wei = bilinear;
    over spec = [default, filter1x1_stride1_pad0];
    rows (dtype, ds.types, block, tile, k1, instr, repeat, a.cluster, a.src_vector, a.dst_vector, b.cluster, b.src_vector, b.dst_vector, c.cluster, c.vector) {
        /// f32 generic `64,64,64,4,4,32,32,2,2`.
        f32_generic = (fp32, [fp32], 64, [64, 64, 16], 4, [32, 32], [2, 2], [1, 4, 16, 1], 1, 4, [1, 4, 16, 1], 1, 4, [1, 16, 1, 4], 1);
        /// f32 `256,256,128,4,4,32,32,4,2`.
        f32_256x128 = (fp32, [fp32], 256, [256, 128, 16], 4, [32, 32], [4, 2], [1, 4, 64, 1], 4, 4, [1, 4, 32, 2], 4, 2, [1, 32, 1, 8], 4);
        /// f16 generic `64,64,64,4,8,32,32,2,2`.
        f16_generic = (fp16, [fp16], 64, [64, 64, 32], 8, [32, 32], [2, 2], [1, 4, 8, 2], 2, 4, [1, 4, 8, 2], 2, 4, [1, 16, 1, 4], 2);
        /// f16 `256,256,128,4,8,32,32,4,2`.
        f16_256x128 = (fp16, [fp16], 256, [256, 128, 32], 8, [32, 32], [4, 2], [1, 4, 32, 2], 8, 4, [1, 4, 16, 4], 8, 2, [1, 32, 1, 8], 8);
    }
}

/// Explicit GEMM for 1x1, stride-1, pad-0 filters: a batched GEMM (batch G, M = K, N = C) with
/// the V3 tile `64,32,128,32,8,32,32,1,4` of CK's universal GEMM instances
/// (device_exp_gemm_xdl_universal_km_kn_mn_instance.hpp).
instance bwd_weight_explicit_gemm_1x1 : bwd_weight_cdna {
    kind = explicit_gemm;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    block = 64;
    tile = [32, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [1, 4];
    a { cluster = [4, 4, 1]; src_vector = 8; dst_vector = 8; }
    b { cluster = [4, 16, 1]; src_vector = 8; dst_vector = 8; }
    c { shuffle = [1, 1]; cluster = [1, 8, 1, 8]; vector = 2; }
    pipeline { scheduler = intrawave; version = v2; }
    spec = filter1x1_stride1_pad0;
}
