// Families tuned for NVIDIA Hopper (sm_90): CK-Tile grouped-conv kernels whose warps run
// mma.sync m16n8k16 tiles (warp tiles are multiples of 16x8), double-buffered LDS (CompV4, one
// workgroup per SM) or single-buffered (CompV3, two per SM); on NVIDIA both run as a cp.async
// ring. On sm_90a, tiles of whole warpgroups with 64-row slices run warpgroup MMAs (wgmma) from
// swizzled shared memory instead, with as many workgroups per SM as the registers hold; tiles of
// whole 64-channel boxes copy their operands there with TMA, which leaves the registers for
// 128x256 and 256x128 tiles. They cover the benchmark suite's classes: large tiles for deep GEMM-K, split-K and
// StreamK for few output tiles, narrow-M tiles for small K, merged groups for depthwise and
// narrow grouped convolutions.
import "common.ck";

/// Hopper, wave (warp) size 32.
defaults hopper {
    targets = [sm_90];
}

/// CK-Tile kernel, CompV4 (double LDS buffer), 16-byte vectors.
defaults nv_tile : hopper {
    kind = tile;
    pipeline { scheduler = intrawave; version = compv4; }
    vector = [8, 8, 8];
}

/// Backward weight, k_batch from occupancy: M = K, N = C·Y·X, GEMM-K = N·Ho·Wo.
defaults nv_bwd_weight : nv_tile {
    op = bwd_weight;
    split_k = auto;
}

/// Backward-weight tiles, 2-D NHWGC and 3-D NDHWGC.
family nv_bwd_weight_2d : nv_bwd_weight {
    dims = 2;
    layout = nhwgc;
    over dtype = [fp16, bf16];
    over pipeline.version = [compv4, compv3];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32: deep GEMM-K with K and C·Y·X of 128 or more.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x32, K per block 64: half the barriers per MMA.
        t128x128x64 = ([128, 128, 64], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x64; on sm_90a, with TMA copies, two warpgroups of 64x256: half the
        /// shared-memory reads of B per MMA.
        t128x256x64 = ([128, 256, 64], [2, 4, 1], [64, 64, 16]);
        /// 8 warps of 64x64; on sm_90a, with TMA copies, two warpgroups of 128x128.
        t256x128x64 = ([256, 128, 64], [4, 2, 1], [64, 64, 16]);
        /// 4 warps of 64x64: twice the MMAs per fragment load.
        t128x128x32_w4 = ([128, 128, 32], [2, 2, 1], [64, 64, 16]);
        /// 4 warps of 64x32, tall.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [64, 32, 16]);
        /// 4 warps of 32x64, wide: C·Y·X much larger than K.
        t64x128x32 = ([64, 128, 32], [2, 2, 1], [32, 64, 16]);
        /// 4 warps of 32x32, K per block 64: mid-size problems.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 48x32: K = 36 in one M tile (rather than 64 with 28 idle rows).
        t48x128x64 = ([48, 128, 64], [1, 4, 1], [48, 32, 16]);
        /// 2 warps of 32x32: small K and C.
        t32x64x64 = ([32, 64, 64], [1, 2, 1], [32, 32, 16]);
    }
}

/// K a multiple of 4 but not of 8 (K = 36 and the like): 8-byte loads of the output gradient,
/// M tiles of 48 and 64, two workgroups per SM (CompV3).
family nv_bwd_weight_k4_2d : nv_bwd_weight {
    dims = 2;
    layout = nhwgc;
    vector = [4, 8, 8];
    pipeline.version = compv3;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 48x32: K = 36 in one M tile.
        t48x128x64 = ([48, 128, 64], [1, 4, 1], [48, 32, 16]);
        /// 4 warps of 48x32, K per block 32.
        t48x128x32 = ([48, 128, 32], [1, 4, 1], [48, 32, 16]);
        /// 4 warps of 32x64.
        t64x128x32 = ([64, 128, 32], [2, 2, 1], [32, 64, 16]);
        /// 4 warps of 48x16, K per block 32: small problems (rn_k36_13), whose 108 tiles of
        /// 16x64 leave SMs idle; as 36 tiles they split K in clusters.
        t48x64x32 = ([48, 64, 32], [1, 4, 1], [48, 16, 16]);
        /// 8 warps along K, each 48x32 over its own run of pixels (the sliced entry: no
        /// barrier in the K loop, the warps' sums added in LDS, no split over workgroups).
        t48x32x128 = ([48, 32, 128], [1, 1, 8], [48, 32, 16]);
    }
}

/// One to three output channels (detection heads' objectness and box layers, decoders' last
/// layers): an output gradient of K elements a pixel, read as one run of 16·K a step (the A
/// vector of 1), 16-row tiles, 8 warps along K each streaming its own pixels (the sliced
/// entry), split over workgroups where the tiles are too few to fill the device.
family nv_bwd_weight_k1_2d : nv_bwd_weight {
    dims = 2;
    layout = nhwgc;
    vector = [1, 8, 8];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 32 input channels of a tap a workgroup.
        t16x32x128 = ([16, 32, 128], [1, 1, 8], [16, 32, 16]);
        /// 64 input channels of a tap a workgroup: half the output-gradient reads.
        t16x64x128 = ([16, 64, 128], [1, 1, 8], [16, 64, 16]);
        /// 16 input channels of a tap: C a multiple of 16 only.
        t16x16x128 = ([16, 16, 128], [1, 1, 8], [16, 16, 16]);
    }
}

/// K a multiple of 4 but not of 8 with C a multiple of 8 (K = 36 against C = 256): 16-byte
/// loads along A cannot read K, so the runtime runs such unit-stride problems as their
/// transpose, whose GEMM has M = C and N = K·Y·X: the input is copied once per 128 columns of
/// K·taps (three for K = 36) rather than once per tap, and the narrow output gradient goes
/// through the taps in 8-byte loads.
family nv_bwd_weight_k4t_2d : nv_bwd_weight {
    dims = 2;
    layout = nhwgc;
    vector = [8, 4, 4];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32: C = 256 in two M tiles, K·taps = 324 in three N tiles.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 16]);
        /// 4 warps of 32x64: narrower C.
        t64x128x32 = ([64, 128, 32], [2, 2, 1], [32, 64, 16]);
    }
}

family nv_bwd_weight_3d : nv_bwd_weight {
    dims = 3;
    layout = ndhwgc;
    over dtype = [fp16, bf16];
    over pipeline.version = [compv4, compv3];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 16]);
        /// 4 warps of 32x64, wide.
        t64x128x32 = ([64, 128, 32], [2, 2, 1], [32, 64, 16]);
        /// 4 warps of 32x32, K per block 64.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
    }
}

/// Grouped convolutions with few channels per group (K and C of 4 to 16): one warp per
/// 16x16 tile with a deep K per block, 8-byte vectors, split over the long GEMM-K.
family nv_bwd_weight_grouped_2d : nv_bwd_weight {
    dims = 2;
    layout = nhwgc;
    vector = [4, 4, 4];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// C·Y·X up to 48 (C = 4 with a 3x3 filter).
        t16x48x128 = ([16, 48, 128], [1, 1, 1], [16, 48, 16]);
        /// C·Y·X up to 80 (C = 8 with a 3x3 filter).
        t16x80x64 = ([16, 80, 64], [1, 1, 1], [16, 80, 16]);
    }
}

/// Depthwise and narrow grouped convolutions (1 to 8 channels per group, 3x3 filters): merged
/// groups run the kernel's small-channel path: on sm_80+ with C = K, tensor-core MMAs over rows
/// of pixels, each input row copied once and the taps read at shifted columns; otherwise a
/// thread per 8 / C rows holding all 9 x C filter values. Other problems run the scalar-load
/// tile.
family nv_bwd_weight_merged_2d : nv_bwd_weight {
    dims = 2;
    layout = nhwgc;
    vector = [1, 1, 1];
    // CK-Tile: an odd output vector with 16-bit outputs allows no split-K.
    split_k = 1;
    merge_groups = 8;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the small-channel path does not take.
        t16x64x32 = ([16, 64, 32], [1, 4, 1], [16, 16, 16]);
    }
}

/// 1-D depthwise backward weight (the Conformer's 31-tap convolution): the 2-D kernel's
/// depthwise rows entry over NWGC, a row's taps in pieces of 7 and long rows in segments.
family nv_bwd_weight_merged_1d : nv_bwd_weight {
    dims = 1;
    layout = nwgc;
    vector = [1, 1, 1];
    split_k = 1;
    merge_groups = 8;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the rows entry does not take.
        t16x64x32 = ([16, 64, 32], [1, 4, 1], [16, 16, 16]);
    }
}

/// StreamK over the GEMM-K iterations of few output tiles: Linear and Tree fix-up.
family nv_bwd_weight_streamk_2d : nv_bwd_weight {
    dims = 2;
    layout = nhwgc;
    split_k = 1;
    over dtype = [fp16, bf16];
    over streamk.reduction = [linear, tree];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x64; on sm_90a, with TMA copies, two warpgroups of 128x128: balances
        /// a round and a fraction of large tiles.
        t256x128x64 = ([256, 128, 64], [4, 2, 1], [64, 64, 16]);
        /// 4 warps of 32x32.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
    }
}

/// Forward and backward data: M = N·Ho·Wo (N·Hi·Wi), N = K (C), GEMM-K = C·Y·X (K·Y·X).
/// k_batch from occupancy: problems with fewer output tiles than the GPU holds at once split
/// their GEMM-K (CK-Tile picks k_batch at launch; the kernel is the same).
family nv_fwd_bwd_data_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    split_k = auto;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    over pipeline.version = [compv4, compv3];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x32, K per block 64; on sm_90a two warpgroups of 64x128.
        t128x128x64 = ([128, 128, 64], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x64; on sm_90a, with TMA copies, two warpgroups of 64x256.
        t128x256x64 = ([128, 256, 64], [2, 4, 1], [64, 64, 16]);
        /// 4 warps of 32x64, K per block 64; on sm_90a one warpgroup of 64x128.
        t64x128x64 = ([64, 128, 64], [2, 2, 1], [32, 64, 16]);
        /// 4 warps of 64x64: twice the MMAs per fragment load.
        t128x128x32_w4 = ([128, 128, 32], [2, 2, 1], [64, 64, 16]);
        /// 4 warps of 64x32: K or C of 64.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [64, 32, 16]);
        /// 4 warps of 32x32, K per block 64: few output pixels.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 64x16: K or C of 36 and other narrow N.
        t128x48x64 = ([128, 48, 64], [2, 2, 1], [64, 24, 16]);
        /// 8 warps of 64x64; on sm_90a, with TMA copies, two warpgroups of 128x128: K or C of
        /// 128 on many pixels.
        t256x128x64 = ([256, 128, 64], [4, 2, 1], [64, 64, 16]);
        /// 8 warps of 64x32; on sm_90a two warpgroups of 128x64: K or C of 64.
        t256x64x64 = ([256, 64, 64], [4, 2, 1], [64, 32, 16]);
        /// 4 warps of 64x32, K per block 64; on sm_90a one warpgroup of 128x64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
        /// 12 warps of 64x32; on sm_90a, with TMA copies, three warpgroups of 64x128: 32 images
        /// of 28x28 or 14x14 pixels are 131 or 33 tiles of 192 (K or C of 128).
        t192x128x64 = ([192, 128, 64], [3, 4, 1], [64, 32, 16]);
        /// 12 warps of 64x16; on sm_90a, with TMA copies, three warpgroups of 64x64: the same
        /// row counts with the GEMM N split in two.
        t192x64x64 = ([192, 64, 64], [3, 4, 1], [64, 16, 16]);
    }
}

/// Forward and backward data with a narrow GEMM N: groups of 16 or 32 channels, and backward
/// data into 16 to 40 input channels, where the 48- and 64-column tiles above spend most of
/// their columns and B loads on padding.
family nv_fwd_bwd_data_narrow_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    split_k = auto;
    pipeline { version = compv3; }
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x16: N of 16.
        t256x16x64 = ([256, 16, 64], [4, 1, 1], [64, 16, 16]);
        /// 4 warps of 64x16, K per block 32: N of 32.
        t128x32x32 = ([128, 32, 32], [2, 2, 1], [64, 16, 16]);
    }
}

/// Depthwise and narrow grouped forward and backward data (C = K: 1 or 2 channels per group with
/// any filter whose weights fit the LDS, 4, 8 or 16 with 3x3 filters): merged groups run the
/// kernel's small-channel path, a warp per 8 output channels and 32 pixels, the block's weights
/// in LDS (4, 8 and 16 channels a group: tensor-core MMAs over 16-pixel runs on sm_80+, 16 only
/// there). Other problems run the scalar-load tile.
family nv_fwd_bwd_data_merged_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    vector = [1, 1, 1];
    pipeline.version = compv3;
    merge_groups = 8;
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the small-channel path does not take.
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// Forward with K a multiple of 4 but not of 8 (K = 36): 8-byte output stores.
family nv_fwd_k4_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    op = fwd;
    vector = [8, 8, 4];
    pipeline.version = compv3;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x24: N = K = 36 in one tile.
        t128x48x64 = ([128, 48, 64], [2, 2, 1], [64, 24, 16]);
        /// 4 warps of 32x24: few output pixels.
        t64x48x64 = ([64, 48, 64], [2, 2, 1], [32, 24, 16]);
    }
}

/// Backward data with K a multiple of 4 but not of 8: 8-byte loads of the output gradient.
family nv_bwd_data_k4_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    op = bwd_data;
    vector = [4, 8, 8];
    pipeline.version = compv3;
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x32.
        t128x64x32 = ([128, 64, 32], [2, 2, 1], [64, 32, 16]);
        /// 4 warps of 32x32, K per block 64: few input pixels.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
        /// 8 warps of 64x64: many input pixels (K = 36 on 50x50 and larger inputs).
        t128x256x64 = ([128, 256, 64], [2, 4, 1], [64, 64, 16]);
    }
}

/// 3-D forward and backward data with K or C of 64 (c3d_3x3x3): tall tiles of one N tile, the
/// GEMM-K split where the output tiles leave SMs idle.
family nv_fwd_bwd_data_3d_n64 : nv_tile {
    dims = 3;
    layout = ndhwgc;
    split_k = auto;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32; on sm_90a two warpgroups of 128x64.
        t256x64x64 = ([256, 64, 64], [4, 2, 1], [64, 32, 16]);
        /// 4 warps of 64x32; on sm_90a one warpgroup of 128x64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
        /// 12 warps of 64x16; on sm_90a three warpgroups of 64x64: 25,088 output pixels are
        /// 131 tiles on 132 SMs.
        t192x64x64 = ([192, 64, 64], [3, 4, 1], [64, 16, 16]);
    }
}

/// 3-D forward and backward data with a narrow GEMM N (K or C of 16 or 32: the U-Net, UNETR and
/// SegResNet layers of medical models), where the 64-column tiles above spend most of their
/// columns on padding.
family nv_fwd_bwd_data_narrow_3d : nv_tile {
    dims = 3;
    layout = ndhwgc;
    split_k = auto;
    pipeline { version = compv3; }
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x16: N of 16.
        t256x16x64 = ([256, 16, 64], [4, 1, 1], [64, 16, 16]);
        /// 4 warps of 64x16, K per block 32: N of 32.
        t128x32x32 = ([128, 32, 32], [2, 2, 1], [64, 16, 16]);
    }
}

family nv_fwd_bwd_data_3d : nv_tile {
    dims = 3;
    layout = ndhwgc;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x32, K per block 64; on sm_90a two warpgroups of 64x128.
        t128x128x64 = ([128, 128, 64], [2, 4, 1], [64, 32, 16]);
        /// 4 warps of 32x32, K per block 64.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
    }
}

/// 1-D forward and backward data (audio and sequence models: wav2vec 2.0's feature encoder,
/// Whisper's stem): the 2-D tiles over NWGC, whose kernels are the 2-D ones (a 1-D problem is a
/// 2-D one of unit height, so the kernel text does not change).
family nv_fwd_bwd_data_1d : nv_tile {
    dims = 1;
    layout = nwgc;
    split_k = auto;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    over pipeline.version = [compv4, compv3];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32, K per block 64.
        t128x128x64 = ([128, 128, 64], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x64; on sm_90a, with TMA copies, two warpgroups of 128x128.
        t256x128x64 = ([256, 128, 64], [4, 2, 1], [64, 64, 16]);
        /// 4 warps of 64x32, K per block 64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
        /// 4 warps of 32x32, K per block 64: short sequences.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 64x16: K or C of 36 to 48 (grouped positional convolutions).
        t128x48x64 = ([128, 48, 64], [2, 2, 1], [64, 24, 16]);
    }
}

/// 1-D depthwise forward and backward data (the Conformer's 31-tap convolution): the 2-D
/// small-channel kernels over NWGC.
family nv_fwd_bwd_data_merged_1d : nv_tile {
    dims = 1;
    layout = nwgc;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    vector = [1, 1, 1];
    pipeline.version = compv3;
    merge_groups = 8;
    rows (tile, warps, warp_tile) {
        /// Four warps of 16x16 for the problems the small-channel path does not take.
        t64x16x32 = ([64, 16, 32], [4, 1, 1], [16, 16, 16]);
    }
}

/// 1-D backward weight: GEMM-K = N·Wo, long for audio, split over workgroups.
family nv_bwd_weight_1d : nv_bwd_weight {
    dims = 1;
    layout = nwgc;
    over dtype = [fp16, bf16];
    over pipeline.version = [compv4, compv3];
    rows (tile, warps, warp_tile) {
        /// 8 warps of 64x32.
        t128x128x32 = ([128, 128, 32], [2, 4, 1], [64, 32, 16]);
        /// 8 warps of 64x64; on sm_90a, with TMA copies, two warpgroups of 128x128.
        t256x128x64 = ([256, 128, 64], [4, 2, 1], [64, 64, 16]);
        /// 4 warps of 32x64, wide: C·X much larger than K.
        t64x128x32 = ([64, 128, 32], [2, 2, 1], [32, 64, 16]);
        /// 4 warps of 32x32, K per block 64.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
        /// 4 warps of 48x32: K of 36 to 48 in one M tile.
        t48x128x64 = ([48, 128, 64], [1, 4, 1], [48, 32, 16]);
    }
}

/// Channel counts that are multiples of 4 or 2 but not of 8 on both sides (ShuffleNet's 58 and
/// 116, RegNet's 12 and 18, squeeze-excite layers of 6 to 40): 8-byte or 4-byte vectors along
/// every operand, four or two times fewer loads than the scalar tiles, in all three ops.
family nv_narrow_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    split_k = auto;
    pipeline.version = compv3;
    over vector = [[4, 4, 4], [2, 2, 2]];
    over op = [fwd, bwd_data, bwd_weight];
    over dtype = [fp16, bf16];
    name = "nv_narrow_2d_{op}_{dtype}_v{vector}_{row}";
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x32, K per block 64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
        /// 4 warps of 32x32, K per block 64: few pixels, or backward weight's short M.
        t64x64x64 = ([64, 64, 64], [2, 2, 1], [32, 32, 16]);
    }
}

/// Pointwise (1x1, unit stride, no pad) forward and backward data with few channels: the
/// inverted-residual expansions and projections of mobile networks, 1x1 heads and 3-channel
/// outputs padded to 8. With up to a few hundred channels on each side a 1x1 convolution is a
/// pass over its tensors; the kernels' pointwise entry streams pixels with a group's weights in
/// LDS. Problems whose weights do not fit it run the 128x64 tile.
family nv_pointwise_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    spec = filter1x1_stride1_pad0;
    pipeline.version = compv3;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x32, K per block 64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
    }
}

/// The same over NWGC (1x1 layers of audio encoders); the kernels are the 2-D ones.
family nv_pointwise_1d : nv_tile {
    dims = 1;
    layout = nwgc;
    spec = filter1x1_stride1_pad0;
    pipeline.version = compv3;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x32, K per block 64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
    }
}

/// The same with channel counts that are even but not whole 8-channel vectors (ShuffleNet's 58
/// and 116, HRNet's 18, GhostNet's 12): the tensor-core pointwise body copies and stores them in
/// pairs where 16-byte vectors do not fit, rather than through padded copies of both tensors.
/// Past its weights the GEMM tile reads 4-byte vectors.
family nv_pointwise_pairs_2d : nv_tile {
    dims = 2;
    layout = nhwgc;
    spec = filter1x1_stride1_pad0;
    pipeline.version = compv3;
    vector = [2, 2, 2];
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x32, K per block 64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
    }
}

/// The same over NWGC; the kernels are the 2-D ones.
family nv_pointwise_pairs_1d : nv_tile {
    dims = 1;
    layout = nwgc;
    spec = filter1x1_stride1_pad0;
    pipeline.version = compv3;
    vector = [2, 2, 2];
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x32, K per block 64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
    }
}

/// The same over NDHWGC (1x1x1 layers of 3-D segmentation networks).
family nv_pointwise_3d : nv_tile {
    dims = 3;
    layout = ndhwgc;
    spec = filter1x1_stride1_pad0;
    pipeline.version = compv3;
    over op = [fwd, bwd_data];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// 4 warps of 64x32, K per block 64.
        t128x64x64 = ([128, 64, 64], [2, 2, 1], [64, 32, 16]);
    }
}
