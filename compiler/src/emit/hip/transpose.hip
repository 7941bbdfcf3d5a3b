
// ---- Transposed weights (Transpose in launch/repack.rs): backward data that loads B along
// GEMM-K reads its weights from a copy with the output channels innermost. x holds the
// caller's weights [rp_rows groups][rp_blocks K][rp_src taps][rp_in C], y receives
// [groups][C][taps][K]. A workgroup moves TRANSPOSE_TILE x TRANSPOSE_TILE tiles of one tap's
// K x C matrix through LDS: it reads rows of C and writes rows of K, each a warp's consecutive
// elements. The extra LDS column keeps a column's reads on distinct banks.
CK_ENTRY_THREADS(transpose, TRANSPOSE_BLOCK, 1)(const CK_GRID_CONST CkArgs a) {
    __shared__ BT tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
    const ck_i64 groups = a.rp_rows, taps = a.rp_src, K = a.rp_blocks, C = a.rp_in;
    const ck_i64 kt = (K + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE;
    const ck_i64 ct = (C + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE;
    const ck_i64 tiles = groups * taps * kt * ct;
    const BT* src = reinterpret_cast<const BT*>(a.x);
    BT* dst = reinterpret_cast<BT*>(a.y);
    const int lane = (int)threadIdx.x % TRANSPOSE_TILE;
    const int row0 = (int)threadIdx.x / TRANSPOSE_TILE;
    constexpr int ROWS = TRANSPOSE_BLOCK / TRANSPOSE_TILE;
    for (ck_i64 b = blockIdx.x; b < tiles; b += gridDim.x) {
        const ck_i64 ci = b % ct, kr = b / ct;
        const ck_i64 ki = kr % kt, gt = kr / kt;
        const ck_i64 t = gt % taps, g = gt / taps;
        const ck_i64 k0 = ki * TRANSPOSE_TILE, c0 = ci * TRANSPOSE_TILE;
        for (int r = row0; r < TRANSPOSE_TILE; r += ROWS) {
            const ck_i64 k = k0 + r, c = c0 + lane;
            if (k < K && c < C) tile[r][lane] = src[((g * K + k) * taps + t) * C + c];
        }
        __syncthreads();
        for (int r = row0; r < TRANSPOSE_TILE; r += ROWS) {
            const ck_i64 c = c0 + r, k = k0 + lane;
            if (k < K && c < C) dst[((g * C + c) * taps + t) * K + k] = tile[lane][r];
        }
        __syncthreads();
    }
}
