// Scalar-load tiles for every problem the vector tiles cannot read: odd or small channel counts
// (RGB stems with C = 3, a 3-channel last layer, 17 or 33 channels), 1-D convolutions, grouped
// convolutions of any width, and fp32 data. One load per element, so they are the library's
// floor rather than its speed: every op, rank and data type has them, so no layer of a real
// network is refused.

/// CK-Tile kernel, single LDS buffer, scalar loads.
defaults generic {
    kind = tile;
    vector = [1, 1, 1];
    pipeline { scheduler = intrawave; version = compv3; }
}

/// 16-bit forward and backward data: CDNA (MFMA warp tiles) and Hopper. CK-Tile splits no
/// GEMM-K into a 16-bit destination through scalar stores.
defaults generic16 : generic {
    targets = [gfx90a, gfx942, gfx950, sm_90];
    split_k = 1;
}

/// 16-bit backward weight: the long GEMM-K (N·Ho·Wo) is split over workgroups into an fp32
/// workspace (two stages), which a convert pass rounds into the weights.
defaults generic16_bwd_weight : generic {
    targets = [gfx90a, gfx942, gfx950, sm_90];
    op = bwd_weight;
    split_k = auto;
    two_stage = true;
}

/// fp32: Hopper (CK-Tile has no fp32 MFMA warp tiles for these ops); split-K adds into the fp32
/// destination.
defaults generic32 : generic {
    targets = [sm_90];
    dtype = fp32;
    split_k = auto;
}

/// 1-D convolutions (audio and sequence models), NWGC: forward and backward data, fp16 and bf16.
family generic_1d : generic16 {
    dims = 1;
    layout = nwgc;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 1-D convolutions (audio and sequence models), NWGC: backward weight, fp16 and bf16.
family generic_bwd_weight_1d : generic16_bwd_weight {
    dims = 1;
    layout = nwgc;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 1-D convolutions (audio and sequence models), NWGC: fp32.
family generic_fp32_1d : generic32 {
    dims = 1;
    layout = nwgc;
    over op = [fwd, bwd_data, bwd_weight];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 2-D convolutions, NHWGC: forward and backward data, fp16 and bf16.
family generic_2d : generic16 {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 2-D convolutions, NHWGC: backward weight, fp16 and bf16.
family generic_bwd_weight_2d : generic16_bwd_weight {
    dims = 2;
    layout = nhwgc;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 2-D convolutions, NHWGC: fp32.
family generic_fp32_2d : generic32 {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data, bwd_weight];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 3-D convolutions (video and volumes), NDHWGC: forward and backward data, fp16 and bf16.
family generic_3d : generic16 {
    dims = 3;
    layout = ndhwgc;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 3-D convolutions (video and volumes), NDHWGC: backward weight, fp16 and bf16.
family generic_bwd_weight_3d : generic16_bwd_weight {
    dims = 3;
    layout = ndhwgc;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 3-D convolutions (video and volumes), NDHWGC: fp32.
family generic_fp32_3d : generic32 {
    dims = 3;
    layout = ndhwgc;
    over op = [fwd, bwd_data, bwd_weight];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 32x32, two blocks each along M.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 16x16: a GEMM N of a few channels (K = 1 to 16 outputs).
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}
