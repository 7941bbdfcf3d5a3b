// Backward weight, CK-Tile: GroupedConvolutionBackwardWeightKernel instances from CK's builder
// tests and tile-instance configs (the dispatcher's default sets are in ../dispatcher.ck).
import "common.ck";

/// The builder test's string (test_bwd_weight_instance_traits.cpp): 128x128x32, warps 4x1x1,
/// warp tile 16x16x16, vectors 4/4/4, COMPUTE_V3 intrawave, bf16.
instance bwd_weight_tile_bf16_128x128x32 : bwd_weight_cdna {
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = bf16;
    tile = [128, 128, 32];
    warps = [4, 1, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; }
}

/// StreamK over the StreamK test's kernel (test_ckb_conv_bwd_weight_2d_fp16_streamk.cpp):
/// 128x128x32, warps 4x1x1, warp tile 16x16x16, vectors 4/4/4, CompV3 intrawave, f16, with both
/// fix-up strategies (Linear: the owning block sums partials in order; Tree: pairwise) and both
/// grid shapes (persistent: max active workgroups; not: DP tiles + SK blocks). The test itself
/// runs Tree, not persistent.
family bwd_weight_tile_streamk : bwd_weight_cdna {
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    tile = [128, 128, 32];
    warps = [4, 1, 1];
    warp_tile = [16, 16, 16];
    vector = [4, 4, 4];
    pipeline { scheduler = intrawave; version = compv3; }
    name = "{family}_{streamk.reduction}_persistent_{streamk.persistent}";
    over streamk.reduction = [linear, tree];
    over streamk.persistent = [false, true];
}

/// StreamK from tests/nhwgc_fp16_streamk.conf: 64x64x64, warps 2x2x1, warp tile 16x16x16,
/// vectors 8/8/8, BASIC_ASYNC_V1, Tree, not persistent; async loads need gfx950.
instance bwd_weight_tile_f16_streamk_async : bwd_weight_cdna, cdna4 {
    kind = tile;
    dims = 2;
    layout = nhwgc;
    dtype = fp16;
    tile = [64, 64, 64];
    warps = [2, 2, 1];
    warp_tile = [16, 16, 16];
    vector = [8, 8, 8];
    pipeline { version = basic_async_v1; }
    streamk.reduction = tree;
    streamk.persistent = false;
}
