/// XDL CShuffle (v1) f16 row from CK's device_grouped_conv_bwd_weight_xdl_instance.hpp:
/// `256,256,128,4,8,32,32,4,2 | S<1,4,32,2>,2,8,4,true | S<1,4,16,4>,2,8,2,true | 1,1,S<1,32,1,8>,8`.
/// The large-tile v1 instance; split-K accumulates with atomics.
instance bwd_weight_xdl_f16_256x128 {
    op = bwd_weight;
    kind = xdl;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
    a { cluster = [1, 4, 32, 2]; src_vector = 8; dst_vector = 4; lds_pad = true; }
    b { cluster = [1, 4, 16, 4]; src_vector = 8; dst_vector = 2; lds_pad = true; }
    c { shuffle = [1, 1]; cluster = [1, 32, 1, 8]; vector = 8; }
}

/// Multiple-D XDL (v1 GEMM into an fp32 workspace, then D applied): the v1 row above
/// with one weight-shaped D tensor and a bilinear epilogue (CK's xdl_bilinear instances).
instance bwd_weight_xdl_multiple_d_bilinear {
    op = bwd_weight;
    kind = xdl_multiple_d;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
    block = 256;
    tile = [256, 128, 32];
    k1 = 8;
    instr = [32, 32];
    repeat = [4, 2];
    a { cluster = [1, 4, 32, 2]; src_vector = 8; dst_vector = 4; lds_pad = true; }
    b { cluster = [1, 4, 16, 4]; src_vector = 8; dst_vector = 2; lds_pad = true; }
    c { shuffle = [1, 1]; cluster = [1, 32, 1, 8]; vector = 8; }
    ds.layouts = [gkyxc];
    ds.types = [fp16];
    elementwise.wei = bilinear;
}

/// Explicit GEMM for 1x1, stride-1, pad-0 filters: a batched GEMM (batch G, M=K, N=C)
/// with the V3 tile 64x32x128x32 of CK's universal GEMM instances.
instance bwd_weight_explicit_gemm_1x1 {
    op = bwd_weight;
    kind = explicit_gemm;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    targets = [gfx90a, gfx942];
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
