// The CK-Tile dispatcher's default kernel sets (dispatcher/codegen, grouped_config_rules_default.py)
// for forward, backward data and backward weight, 2-D and 3-D, fp16 and bf16. The default key:
// CompV3 intrawave, CShuffle epilogue, vectors 4/8/8, Default spec. Each warp tile has its own
// tiles; the warp layout puts wave_m = tile_m / warp_tile_m and takes the rest along N from the
// arch's warp configs. Wave32 targets (gfx1100, gfx1201) are left out: their only fp16/bf16 warp
// tile is 16x16x16, and the rules need warp_tile_k >= 32 there.
import "common.ck";

/// The dispatcher's default key.
defaults dispatcher : cdna {
    kind = tile;
    pipeline { scheduler = intrawave; version = compv3; }
    vector = [4, 8, 8];
}

/// The default tiles, 2-D NHWGC.
family dispatcher_2d : dispatcher {
    dims = 2;
    layout = nhwgc;
    over op = [fwd, bwd_data, bwd_weight];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// Warp tile 16x16x16, 16x64x64.
        t16x64x64 = ([16, 64, 64], [1, 4, 1], [16, 16, 16]);
        /// Warp tile 16x16x16, 32x64x64.
        t32x64x64 = ([32, 64, 64], [2, 2, 1], [16, 16, 16]);
        /// Warp tile 16x16x16, 64x64x64.
        t64x64x64 = ([64, 64, 64], [4, 1, 1], [16, 16, 16]);
        /// Warp tile 32x32x16, 32x128x64.
        t32x128x64 = ([32, 128, 64], [1, 4, 1], [32, 32, 16]);
        /// Warp tile 32x32x16, 64x128x64.
        t64x128x64 = ([64, 128, 64], [2, 2, 1], [32, 32, 16]);
        /// Warp tile 32x32x16, 128x128x64.
        t128x128x64 = ([128, 128, 64], [4, 1, 1], [32, 32, 16]);
        /// Warp tile 16x16x32, 16x64x128.
        t16x64x128 = ([16, 64, 128], [1, 4, 1], [16, 16, 32]);
        /// Warp tile 16x16x32, 32x64x128.
        t32x64x128 = ([32, 64, 128], [2, 2, 1], [16, 16, 32]);
        /// Warp tile 16x16x32, 64x64x128.
        t64x64x128 = ([64, 64, 128], [4, 1, 1], [16, 16, 32]);
    }
}

/// The default tiles, 3-D NDHWGC (the same table as 2-D).
family dispatcher_3d : dispatcher {
    dims = 3;
    layout = ndhwgc;
    over op = [fwd, bwd_data, bwd_weight];
    over dtype = [fp16, bf16];
    rows (tile, warps, warp_tile) {
        /// Warp tile 16x16x16, 16x64x64.
        t16x64x64 = ([16, 64, 64], [1, 4, 1], [16, 16, 16]);
        /// Warp tile 16x16x16, 32x64x64.
        t32x64x64 = ([32, 64, 64], [2, 2, 1], [16, 16, 16]);
        /// Warp tile 16x16x16, 64x64x64.
        t64x64x64 = ([64, 64, 64], [4, 1, 1], [16, 16, 16]);
        /// Warp tile 32x32x16, 32x128x64.
        t32x128x64 = ([32, 128, 64], [1, 4, 1], [32, 32, 16]);
        /// Warp tile 32x32x16, 64x128x64.
        t64x128x64 = ([64, 128, 64], [2, 2, 1], [32, 32, 16]);
        /// Warp tile 32x32x16, 128x128x64.
        t128x128x64 = ([128, 128, 64], [4, 1, 1], [32, 32, 16]);
        /// Warp tile 16x16x32, 16x64x128.
        t16x64x128 = ([16, 64, 128], [1, 4, 1], [16, 16, 32]);
        /// Warp tile 16x16x32, 32x64x128.
        t32x64x128 = ([32, 64, 128], [2, 2, 1], [16, 16, 32]);
        /// Warp tile 16x16x32, 64x64x128.
        t64x64x128 = ([64, 64, 128], [4, 1, 1], [16, 16, 32]);
    }
}

/// Warp tile 16x16x32, 128x64x128, 2-D NHWGC: 8 warps along M, a warp layout (8x2x1) only
/// gfx950 has.
family dispatcher_2d_gfx950 : dispatcher, cdna4 {
    name = "dispatcher_2d_{op}_{dtype}_t128x64x128";
    dims = 2;
    layout = nhwgc;
    tile = [128, 64, 128];
    warps = [8, 2, 1];
    warp_tile = [16, 16, 32];
    over op = [fwd, bwd_data, bwd_weight];
    over dtype = [fp16, bf16];
}

/// Warp tile 16x16x32, 128x64x128, 3-D NDHWGC (gfx950 only, as in 2-D).
family dispatcher_3d_gfx950 : dispatcher, cdna4 {
    name = "dispatcher_3d_{op}_{dtype}_t128x64x128";
    dims = 3;
    layout = ndhwgc;
    tile = [128, 64, 128];
    warps = [8, 2, 1];
    warp_tile = [16, 16, 32];
    over op = [fwd, bwd_data, bwd_weight];
    over dtype = [fp16, bf16];
}
