// fp32 data on Hopper (sm_90), in 16-byte vectors (channel counts a multiple of 4; others run on
// padded copies or the scalar tiles of generic.ck). The tf32 families compute in tf32: on
// sm_90a warpgroup MMAs (wgmma ... tf32) where the tile has a warpgroup layout, otherwise warps of
// mma.sync m16n8k8 TF32 MMAs, each operand rounded to 10 mantissa bits as it leaves LDS; sums
// in fp32. They serve problems that allow tf32 products (`dtype=tf32`: what PyTorch does for
// convolutions by default). The fp32 families compute exactly, on the SIMT lanes.

/// Hopper, CK-Tile kernel, 16-byte vectors of fp32.
defaults fp32_tile {
    targets = [sm_90];
    kind = tile;
    dtype = fp32;
    vector = [4, 4, 4];
    split_k = auto;
    pipeline { scheduler = intrawave; version = compv3; }
}

/// Products rounded to tf32, on the tensor cores.
defaults tf32_tile : fp32_tile {
    types.compute_a = tf32;
    types.compute_b = tf32;
}

/// Forward and backward data in tf32: M = N·Ho·Wo (N·Hi·Wi), N = K (C), GEMM-K = C·Y·X
/// (K·Y·X). An fp32 row of 32 K elements is as many bytes as a 16-bit row of 64. On sm_90a
/// K-major operands feed warpgroup MMAs (wgmma) from 128-byte-swizzled stages, copied through
/// tensor maps where the channels are whole 32-channel boxes; backward data reads its weights
/// from a copy with the output channels innermost, which its plan makes first (the tf32
/// instruction has no transposed form).
family nv_tf32_fwd_bwd_data_2d : tf32_tile {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 8]);
        /// 4 warps of 64x32: K or C of 64.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [64, 32, 8]);
        /// 4 warps of 32x32: few output pixels.
        t64x64x32 = ([64, 64, 32], [2, 2, 1], [32, 32, 8]);
    }
}

/// Forward and backward data in tf32 with a narrow GEMM N: groups of 16 or 32 channels
/// (ResNeXt, RegNet), backward data into 16 to 40 input channels, where the 64-column tiles
/// above spend most of their columns and B loads on padding.
family nv_tf32_fwd_bwd_data_narrow_2d : tf32_tile {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x16: N of 16.
        t256x16x32 = ([256, 16, 32], [4, 1, 1], [64, 16, 8]);
        /// 4 warps of 64x16: N of 32.
        t128x32x32 = ([128, 32, 32], [2, 2, 1], [64, 16, 8]);
    }
}

/// Forward's wide tf32 tiles: 128 accumulators a thread, which the warpgroup layout holds where
/// the operands copy through tensor maps.
family nv_tf32_fwd_2d : tf32_tile {
    dims = 2;
    layout = nhwgc;
    op = fwd;
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x64: K of 128 on many pixels.
        t256x128x32 = ([256, 128, 32], [4, 2, 1], [64, 64, 8]);
        /// 8 warps of 64x64, wide: K of 256 and more (on sm_90a two warpgroups of 64x256).
        t128x256x32 = ([128, 256, 32], [2, 4, 1], [64, 64, 8]);
    }
}

/// Backward data's wide tf32 tiles, forward's: the output gradient's turned-around window and
/// the weights' transposed copy through tensor maps.
family nv_tf32_bwd_data_wide_2d : tf32_tile {
    dims = 2;
    layout = nhwgc;
    op = bwd_data;
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x64: C of 128 on many pixels.
        t256x128x32 = ([256, 128, 32], [4, 2, 1], [64, 64, 8]);
        /// 8 warps of 64x64, wide: C of 256 and more.
        t128x256x32 = ([128, 256, 32], [2, 4, 1], [64, 64, 8]);
    }
}

family nv_tf32_bwd_data_wide_1d : tf32_tile {
    dims = 1;
    layout = nwgc;
    op = bwd_data;
    rows (tile, warps, warp_tile) {
        t256x128x32 = ([256, 128, 32], [4, 2, 1], [64, 64, 8]);
        t128x256x32 = ([128, 256, 32], [2, 4, 1], [64, 64, 8]);
    }
}

family nv_tf32_bwd_data_wide_3d : tf32_tile {
    dims = 3;
    layout = ndhwgc;
    op = bwd_data;
    rows (tile, warps, warp_tile) {
        t256x128x32 = ([256, 128, 32], [4, 2, 1], [64, 64, 8]);
        t128x256x32 = ([128, 256, 32], [2, 4, 1], [64, 64, 8]);
    }
}

/// Backward data in tf32 on 16-deep K-tiles, `mma.sync` from the weights as they are: the
/// problems whose weights run on padded copies (channels not a multiple of 4), which the
/// warpgroup tiles' own transposed copy does not take, and wide layers with few pixels.
family nv_tf32_bwd_data_2d : tf32_tile {
    dims = 2;
    layout = nhwgc;
    op = bwd_data;
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x64: half the loads a thread issues per MMA of 8-warp tiles.
        t128x128x16_w4 = ([128, 128, 16], [2, 2, 1], [64, 64, 8]);
        /// 4 warps of 32x32: few pixels or channels.
        t64x64x16_w4 = ([64, 64, 16], [2, 2, 1], [32, 32, 8]);
    }
}

family nv_tf32_bwd_data_1d : tf32_tile {
    dims = 1;
    layout = nwgc;
    op = bwd_data;
    rows (tile, warps, warp_tile) {
        t128x128x16_w4 = ([128, 128, 16], [2, 2, 1], [64, 64, 8]);
        t64x64x16_w4 = ([64, 64, 16], [2, 2, 1], [32, 32, 8]);
    }
}

family nv_tf32_bwd_data_3d : tf32_tile {
    dims = 3;
    layout = ndhwgc;
    op = bwd_data;
    rows (tile, warps, warp_tile) {
        t128x128x16_w4 = ([128, 128, 16], [2, 2, 1], [64, 64, 8]);
        t64x64x16_w4 = ([64, 64, 16], [2, 2, 1], [32, 32, 8]);
    }
}

/// 1-D (NWGC) and 3-D (NDHWGC) forward and backward data in tf32: the 2-D kernels.
family nv_tf32_fwd_bwd_data_1d : tf32_tile {
    dims = 1;
    layout = nwgc;
    over op = [fwd, bwd_data];
    rows (tile, warps, warp_tile) {
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 8]);
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [64, 32, 8]);
        t64x64x32 = ([64, 64, 32], [2, 2, 1], [32, 32, 8]);
    }
}

family nv_tf32_fwd_1d : tf32_tile {
    dims = 1;
    layout = nwgc;
    op = fwd;
    rows (tile, warps, warp_tile) {
        t256x128x32 = ([256, 128, 32], [4, 2, 1], [64, 64, 8]);
        t128x256x32 = ([128, 256, 32], [2, 4, 1], [64, 64, 8]);
    }
}

family nv_tf32_fwd_bwd_data_3d : tf32_tile {
    dims = 3;
    layout = ndhwgc;
    over op = [fwd, bwd_data];
    rows (tile, warps, warp_tile) {
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 8]);
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [64, 32, 8]);
        t64x64x32 = ([64, 64, 32], [2, 2, 1], [32, 32, 8]);
    }
}

family nv_tf32_fwd_3d : tf32_tile {
    dims = 3;
    layout = ndhwgc;
    op = fwd;
    rows (tile, warps, warp_tile) {
        t256x128x32 = ([256, 128, 32], [4, 2, 1], [64, 64, 8]);
        t128x256x32 = ([128, 256, 32], [2, 4, 1], [64, 64, 8]);
    }
}

/// Backward weight in tf32: M = K, N = C·Y·X, GEMM-K = N·Ho·Wo, split over workgroups, the
/// slices added into the fp32 weights.
family nv_tf32_bwd_weight_2d : tf32_tile {
    dims = 2;
    layout = nhwgc;
    op = bwd_weight;
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 8]);
        /// 4 warps of 64x32, tall.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [64, 32, 8]);
        /// 4 warps of 32x64, wide: C·Y·X much larger than K.
        t64x128x32 = ([64, 128, 32], [2, 2, 1], [32, 64, 8]);
        /// 4 warps of 32x32: small K and C.
        t64x64x32 = ([64, 64, 32], [2, 2, 1], [32, 32, 8]);
    }
}

family nv_tf32_bwd_weight_1d : tf32_tile {
    dims = 1;
    layout = nwgc;
    op = bwd_weight;
    rows (tile, warps, warp_tile) {
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 8]);
        t64x64x32 = ([64, 64, 32], [2, 2, 1], [32, 32, 8]);
    }
}

family nv_tf32_bwd_weight_3d : tf32_tile {
    dims = 3;
    layout = ndhwgc;
    op = bwd_weight;
    rows (tile, warps, warp_tile) {
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 8]);
        t64x128x32 = ([64, 128, 32], [2, 2, 1], [32, 64, 8]);
        t64x64x32 = ([64, 64, 32], [2, 2, 1], [32, 32, 8]);
    }
}

/// Exact fp32, every op and rank: 8 x 8 outputs a thread (4 x 4 on the small tile) on the
/// SIMT lanes, operands in 16-byte vectors.
family nv_fp32_2d : fp32_tile {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data, bwd_weight];
    rows (tile, warps, warp_tile) {
        t128x128x16 = ([128, 128, 16], [2, 4, 1], [64, 32, 1]);
        t64x64x16 = ([64, 64, 16], [2, 2, 1], [32, 32, 1]);
    }
}

family nv_fp32_1d : fp32_tile {
    dims = 1;
    layout = nwgc;
    over op = [fwd, bwd_data, bwd_weight];
    rows (tile, warps, warp_tile) {
        t128x128x16 = ([128, 128, 16], [2, 4, 1], [64, 32, 1]);
        t64x64x16 = ([64, 64, 16], [2, 2, 1], [32, 32, 1]);
    }
}

family nv_fp32_3d : fp32_tile {
    dims = 3;
    layout = ndhwgc;
    over op = [fwd, bwd_data, bwd_weight];
    rows (tile, warps, warp_tile) {
        t128x128x16 = ([128, 128, 16], [2, 4, 1], [64, 32, 1]);
        t64x64x16 = ([64, 64, 16], [2, 2, 1], [32, 32, 1]);
    }
}

/// Depthwise and narrow grouped forward and backward data in fp32 (1 or 2 channels per group
/// with any filter whose weights fit the LDS, 4 or 8 with 3x3 filters): merged groups run the
/// kernel's small-channel path on the SIMT lanes (exact fp32 products), a thread a vector of 8
/// output channels; other problems run the scalar-load tile.
family nv_fp32_fwd_bwd_data_merged_2d : fp32_tile {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data];
    vector = [1, 1, 1];
    merge_groups = 8;
    // The small-channel entry sums a destination's taps in one pass.
    split_k = 1;
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the small-channel path does not take.
        t64x16x16 = ([64, 16, 16], [4, 1, 1], [16, 16, 1]);
    }
}

/// 1-D depthwise forward and backward data in fp32 (the Conformer's 31-tap convolution): the
/// 2-D family's kernels over NWGC.
family nv_fp32_fwd_bwd_data_merged_1d : fp32_tile {
    dims = 1;
    layout = nwgc;
    over op = [fwd, bwd_data];
    vector = [1, 1, 1];
    merge_groups = 8;
    split_k = 1;
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the small-channel path does not take.
        t64x16x16 = ([64, 16, 16], [4, 1, 1], [16, 16, 1]);
    }
}

/// Depthwise and narrow grouped backward weight in fp32 (1 to 8 channels per group, 3x3
/// filters; 1 or 2 with any filter whose weights a thread holds): merged groups run the
/// kernel's small-channel path on the SIMT lanes (exact fp32 products), a thread per 8 / C
/// rows holding its filter values. Other problems run the scalar-load tile.
family nv_fp32_bwd_weight_merged_2d : fp32_tile {
    dims = 2;
    layout = nhwgc;
    op = bwd_weight;
    vector = [1, 1, 1];
    merge_groups = 8;
    // The small-channel entry sums a weight's pixels in one pass.
    split_k = 1;
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the small-channel path does not take.
        t16x64x16 = ([16, 64, 16], [1, 4, 1], [16, 16, 1]);
    }
}

/// 1-D depthwise backward weight in fp32 (the Conformer's 31-tap convolution): the 2-D
/// family's kernel over NWGC.
family nv_fp32_bwd_weight_merged_1d : fp32_tile {
    dims = 1;
    layout = nwgc;
    op = bwd_weight;
    vector = [1, 1, 1];
    merge_groups = 8;
    split_k = 1;
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the small-channel path does not take.
        t16x64x16 = ([16, 64, 16], [1, 4, 1], [16, 16, 1]);
    }
}
