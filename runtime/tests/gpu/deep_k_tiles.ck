/// Forward and backward data with 128-deep K-tiles that copy with TMA on sm_90a (the
/// library's TMA tiles are 64 deep; its 128-deep tiles have 4-element vectors and no TMA path):
/// two 64-channel boxes a K-tile, the second past the last filter tap where GEMM-K is an odd
/// number of boxes.
defaults gpu_check_deep_k {
    targets = [sm_90];
    kind = tile;
    dims = 2;
    layout = nhwgc;
    vector = [8, 8, 8];
    split_k = auto;
    pipeline { scheduler = intrawave; version = compv4; }
}

family gpu_check_deep_k_tiles : gpu_check_deep_k {
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// One warpgroup of 64x64.
        t64x64x128 = ([64, 64, 128], [2, 2, 1], [32, 32, 16]);
        /// Two warpgroups of 64x128.
        t128x128x128 = ([128, 128, 128], [2, 4, 1], [64, 32, 16]);
    }
}
