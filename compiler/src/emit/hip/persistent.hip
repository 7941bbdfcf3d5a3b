
// ---- Persistent tiles (sm_90a kernels with TMA copies, plans without split-K): a grid of at
// most the workgroups the SMs hold at once, workgroup w taking tiles w, w + grid, ... With TMA
// copies the ring runs on across tiles: one thread copies the K-tiles of this workgroup's tiles
// in sequence, so the next tile's first K-tiles land while this tile's epilogue runs, and each
// warp sends its own rows of the finished tile through a strip of LDS outside the ring, with no
// block barrier between tiles. The host plans it only where the copies go through tensor maps;
// other targets compile an empty entry.
#if defined(CK_TMA)
static_assert(MATH_THREADS == BLOCK, "every thread of a TMA kernel is a math thread");
// A strip row: 128 bytes of one output row (PS_COLS outputs), padded so that the lanes' pair
// writes fall in distinct banks.
constexpr int PS_COLS = 128 / (int)sizeof(OT), PS_ROW = 128 + 8 * (int)sizeof(OT), PS_STRIP = 16 * PS_ROW;
constexpr int PS_VEC = 16 / (int)sizeof(OT);

// This warp's rows of tile (g, m0, n0): for each of its 64-row slices and each PS_COLS-wide
// column chunk of its warpgroup's columns, the lanes write their final values into the strip,
// then send 16-byte runs of whole rows (the host plans this entry only where the output's
// columns are contiguous and every other stride a multiple of 8, as for the staged epilogue).
CK_DEV void ck_store_warp(const CkArgs& a, const ck_block& b, OT* strip, ck_i64 g, ck_i64 m0, ck_i64 n0,
                          const ck_acc& acc) {
    // Only binary ops read the D tensor, at the output offset; unary ones need none.
    constexpr bool NEEDS_OFF = EOP_OUT != CK_EOP_PASS && EOP_OUT != CK_EOP_SCALE && EOP_OUT != CK_EOP_RELU;
    constexpr int LD = PS_ROW / (int)sizeof(OT);
    const int lr = b.lane / 4, wc = b.cb - (b.lane % 4) * 2;
    OT* out = ck_out(a);
#pragma unroll
    for (int f = 0; f < WG_FM; ++f) {
        const int wr = ck_row(b, 2 * f) - lr;
#pragma unroll
        for (int q = 0; q * PS_COLS < WG_NW; ++q) {
            // Accumulator columns j of the chunk: 8 (j / 2) of the warpgroup's in it.
            constexpr int CHUNK_J = PS_COLS / 4;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const ck_i64 m = m0 + ck_row(b, 2 * f + h);
                const ck_i64 row = NEEDS_OFF && m < a.M ? ck_c_row(a, g, m) + n0 : 0;
#pragma unroll
                for (int j = q * CHUNK_J; j < (q + 1) * CHUNK_J && j < AC; j += 2) {
                    const int c = ck_col(b, j);
                    const bool in = !NEEDS_OFF || (m < a.M && n0 + c < a.Ng);
                    ck_vec<OT, 2> v;
                    v.v[0] = in ? ck_final(a, row + c, acc.v[2 * f + h][j]) : ck_zero<OT>();
                    v.v[1] = in ? ck_final(a, row + c + 1, acc.v[2 * f + h][j + 1]) : ck_zero<OT>();
                    *reinterpret_cast<ck_vec<OT, 2>*>(strip + (lr + 8 * h) * LD + (c - wc - q * PS_COLS)) = v;
                }
            }
            __syncwarp();
            const int W = (WG_NW - q * PS_COLS < PS_COLS ? WG_NW - q * PS_COLS : PS_COLS) / PS_VEC;
            for (int v = b.lane; v < 16 * W; v += 32) {
                const int r = v / W, c = (v % W) * PS_VEC;
                const ck_i64 m = m0 + wr + r, n = n0 + wc + q * PS_COLS + c;
                if (m < a.M && n < a.Ng)
                    *reinterpret_cast<ck_vec<OT, PS_VEC>*>(out + ck_c_row(a, g, m) + n) =
                        *reinterpret_cast<const ck_vec<OT, PS_VEC>*>(strip + r * LD + c);
            }
            __syncwarp();
        }
    }
}

// The copying thread's place in this workgroup's sequence of K-tiles: the tile it copies for
// and that tile's coordinates, the K-tile within it, and the ring stage and round of the next
// copy. It lives in LDS: only thread 0 reads it, and in registers it would be held through
// the MMAs by every thread.
struct ck_ps_copier {
    ck_tma_prod p;
    ck_i64 t, g, m0, n0, k, q;
    int stage, round;
};

// Copies this workgroup's K-tiles up to sequence index `last` (and below `total`) into the
// ring. A stage's r-th fill (r >= 1) waits for every warp to release its (r - 1)-th.
CK_DEV void ck_ps_copy(const CkArgs& a, const ck_block& b, ck_ps_copier& s, ck_i64 last, ck_i64 total,
                       unsigned long long* full, unsigned long long* empty) {
    for (; s.q <= last && s.q < total; ++s.q) {
        if (s.round > 0) ck_bar_wait(&empty[s.stage], (unsigned)((s.round - 1) & 1));
        if (s.k == 0) {
            ck_tile_coords(a, s.t, s.g, s.m0, s.n0);
            s.p = ck_tma_begin(a, s.g, s.m0, s.n0, 0);
        }
        ck_tma_issue(a, b, s.g, s.m0, s.n0, s.p, s.stage, &full[s.stage]);
        if (++s.k == a.k_iters) {
            s.k = 0;
            s.t += gridDim.x;
        }
        if (++s.stage == PS_STAGES) {
            s.stage = 0;
            ++s.round;
        }
    }
}

CK_DEV void ck_tma_persistent(const CkArgs& a, const ck_block& block) {
    constexpr int WARPS = MATH_THREADS / 32;
    __shared__ unsigned long long full[PS_STAGES], empty[PS_STAGES];
    __shared__ ck_ps_copier cp;
    ck_block b = block;
    unsigned char* base = reinterpret_cast<unsigned char*>(block.As);
    b.Bs = reinterpret_cast<BT*>(base + PS_LDS_B_OFFSET);
    OT* strip = reinterpret_cast<OT*>(base + PS_STRIP_OFFSET + (b.tid / 32) * PS_STRIP);
    const ck_i64 tiles = a.G * a.tiles_m * a.tiles_n, first = blockIdx.x;
    const ck_i64 mine = first < tiles ? (tiles - 1 - first) / gridDim.x + 1 : 0;
    const ck_i64 total = mine * a.k_iters;
    if (b.tid == 0) {
        asm volatile("prefetch.tensormap [%0];" ::"l"(&a.tma_map[0]) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"(&a.tma_map[1]) : "memory");
#pragma unroll
        for (int s = 0; s < PS_STAGES; ++s) {
            ck_bar_init(&full[s], 1);
            ck_bar_init(&empty[s], WARPS);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        cp.t = first;
        cp.k = cp.q = 0;
        cp.stage = cp.round = 0;
    }
    __syncthreads();
    ck_acc acc;
    int rs = 0;
    unsigned parity = 0;
    ck_i64 q = 0;
    for (ck_i64 t = first; t < tiles; t += gridDim.x) {
        ck_i64 g, m0, n0;
        ck_tile_coords(a, t, g, m0, n0);
#pragma unroll
        for (int i = 0; i < AR; ++i)
#pragma unroll
            for (int j = 0; j < AC; ++j) acc.v[i][j] = 0.0f;
        for (ck_i64 kt = 0; kt < a.k_iters; ++kt, ++q) {
            // The copies run PS_STAGES - 2 K-tiles ahead, as in ck_tma_gemm (the MMAs of the
            // K-tile before may still read theirs), on across the tile's end: the next tile's
            // first K-tiles land during this one's epilogue. One call site keeps the loop short.
            if (b.tid == 0) ck_ps_copy(a, b, cp, q + PS_STAGES - 2, total, full, empty);
            ck_bar_wait(&full[rs], parity);
            ck_tma_wg_issue(a, acc, b.As + rs * A_STAGE, b.Bs + rs * B_STAGE, b);
            ck_wg_wait<1>();
            if (kt > 0 && b.lane == 0) ck_bar_arrive(&empty[rs == 0 ? PS_STAGES - 1 : rs - 1]);
            if (++rs == PS_STAGES) {
                rs = 0;
                parity ^= 1;
            }
        }
        ck_wg_wait<0>();
        ck_acc_pin(acc);
        // The tile's last stage is free.
        if (b.lane == 0) ck_bar_arrive(&empty[rs == 0 ? PS_STAGES - 1 : rs - 1]);
        ck_store_warp(a, b, strip, g, m0, n0, acc);
    }
    __syncthreads();
    if (b.tid == 0) {
#pragma unroll
        for (int s = 0; s < PS_STAGES; ++s) {
            ck_bar_inval(&full[s]);
            ck_bar_inval(&empty[s]);
        }
    }
}
#endif

CK_ENTRY(persistent)(const CK_GRID_CONST CkArgs a) {
#if defined(CK_TMA)
    extern __shared__ __align__(16) unsigned char ck_smem[];
    // The host plans this entry only where it copies through tensor maps.
    if (!a.tma) __trap();
    ck_tma_persistent(a, ck_make_block(ck_smem));
#endif
}
