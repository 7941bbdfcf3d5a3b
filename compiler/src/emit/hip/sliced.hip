
// ---- Backward weight with the GEMM-K split over the warps of a workgroup (tiles whose warps
// lie along K; the host picks it, see `sliced_plan`). M is K (at most MPB output channels),
// N is a column tile of NPB input channels of one filter tap, GEMM-K the output pixels. Each
// warp takes its own range of 16-pixel steps and streams them through a private cp.async ring
// of SK_STAGES steps (only warp barriers in the loop): the output gradient's pixels as
// 8-byte chunks (K a multiple of 4), the input pixels the tap reads as 16-byte chunks, both
// read with ldmatrix.trans into m16n8k16 MMAs. The warps' sums meet once in LDS and the
// workgroup stores its tile; where grid y splits the pixels further (too few tiles to fill
// the device), each row of workgroups writes its slice of the fp32 workspace instead and the
// convert entry adds them.
//
// Kernels whose A vector is under 4 elements take K of 1 to 3 (and any K up to the tile's M):
// with packed pixels and K innermost, a step's output gradient is one run of 16 K elements,
// copied as 16-byte chunks (the last one cut short past the last pixel) and read into the A
// fragments element by element, since its rows are not 16-byte lines.
#if defined(CK_MMA_SYNC)
constexpr int SK_MB = MPB / 16, SK_NB = NPB / 8;
// LDS rows in elements: 16 bytes of pad keep the eight rows of an ldmatrix in distinct banks.
constexpr int SK_AROW = MPB + 8, SK_BROW = NPB + 8;
constexpr int SK_ABYTES = 16 * SK_AROW * 2, SK_STAGE = SK_ABYTES + 16 * SK_BROW * 2;
// A lane's chunks of a step: at most 16 pixels × MPB / 4 of A, exactly 16 × NPB / 8 of B.
constexpr int SK_ACOPY = (16 * MPB / 4 + 31) / 32, SK_BCH = NPB / 8, SK_BCOPY = (16 * SK_BCH + 31) / 32;
constexpr bool SK_RAW = VEC_A < 4;

// A 16-byte cp.async of which only the first `bytes` (0 to 16) are read, the rest zero-filled.
CK_DEV void ck_cp_async_part(unsigned d, const void* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(bytes));
}

// Keeps a loop invariant in a register: opaque to the compiler, which would otherwise reload
// what it was computed from out of the argument block at every copy.
CK_DEV void ck_keep(int& v) { asm("" : "+r"(v)); }
CK_DEV void ck_keep(ck_i64& v) { asm("" : "+l"(v)); }
template <typename T> CK_DEV void ck_keep(const T*& p) { asm("" : "+l"(p)); }
template <typename T, typename... R> CK_DEV void ck_keep(T& v, R&... rest) {
    ck_keep(v);
    ck_keep(rest...);
}

CK_DEV void ck_sliced(const CkArgs& a, unsigned char* smem) {
    const int warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    const int K = (int)a.K, C = (int)a.C, g = (int)blockIdx.z;
    const int n0 = (int)blockIdx.x * NPB, tap = n0 / C, c0 = n0 - tap * C;
    const int fy = tap / (int)a.X, fx = tap - fy * (int)a.X;
    int ho = (int)a.Ho, wo = (int)a.Wo, hi = (int)a.Hi, wi = (int)a.Wi;
    const int pixels = (int)a.N * ho * wo, steps = (pixels + 15) / 16;
    // Warp `wk` of all the slices' warps takes its share of the steps.
    const ck_i64 workers = (ck_i64)SK_WARPS * gridDim.y, wk = (ck_i64)blockIdx.y * SK_WARPS + warp;
    const int s0 = (int)(wk * steps / workers), nst = (int)((wk + 1) * steps / workers) - s0;
    const unsigned ring = ck_saddr(smem) + warp * SK_STAGES * SK_STAGE;
    int sh = (int)a.sh, sw = (int)a.sw;
    ck_idx ys_w = ck_ix(a.ys_w);
    const ck_idx xs_n = ck_ix(a.xs_n), xs_h = ck_ix(a.xs_h), xs_w = ck_ix(a.xs_w);
    // A: chunk j of a step is pixel j / (K / 4), channels 4 (j % (K / 4)); the host requires
    // packed pixels, so the step's first pixel is an offset stepping 16 pixels a copy.
    // `left`: pixels from the copy's first on.
    const int kc = SK_RAW ? 1 : K / 4;
    int a_px[SK_ACOPY], a_dst[SK_ACOPY], a_src[SK_ACOPY];
#pragma unroll
    for (int u = 0; u < SK_ACOPY; ++u) {
        const int j = lane + 32 * u, i = j / kc, part = j - i * kc;
        a_px[u] = j < 16 * kc ? i : 16;
        a_dst[u] = i * SK_AROW * 2 + part * 8;
        a_src[u] = i * (int)ys_w + part * 4;
    }
    const AT* dy = reinterpret_cast<const AT*>(a.y) + g * ck_ix(a.ys_g);
    const BT* x = reinterpret_cast<const BT*>(a.x) + g * ck_ix(a.xs_g) + c0;
    ck_idx aoff = s0 * 16 * ys_w;
    int left = pixels - s0 * 16;
    // B: chunk j is pixel j / SK_BCH, channels c0 + 8 (j % SK_BCH). The input row and column
    // the tap reads for the chunk's pixel and their offset step 16 output pixels a copy: along
    // the row, then to the next output row, then to the next image.
    const int ry = fy * (int)a.dh - (int)a.ph, rx = fx * (int)a.dw - (int)a.pw;
    int iw_end = wo * sw + rx, ih_end = ho * sh + ry, ry_k = ry, wsw = wo * sw;
    ck_idx dcol = 16 * sw * xs_w, drow = sh * xs_h - wo * sw * xs_w, dimg = xs_n - ho * sh * xs_h;
    ck_keep(dy, x, hi, wi, sh, sw, ys_w, iw_end, ih_end, ry_k, wsw, dcol, drow, dimg);
    int b_h[SK_BCOPY], b_w[SK_BCOPY];
    ck_idx boff[SK_BCOPY];
#pragma unroll
    for (int u = 0; u < SK_BCOPY; ++u) {
        const int p = s0 * 16 + (lane + 32 * u) / SK_BCH, n = p / (ho * wo);
        b_h[u] = (p / wo - n * ho) * sh + ry;
        b_w[u] = (p - p / wo * wo) * sw + rx;
        boff[u] = n * xs_n + b_h[u] * xs_h + b_w[u] * xs_w + (lane + 32 * u) % SK_BCH * 8;
    }
    auto copy = [&](int slot) {
        const unsigned st = ring + slot * SK_STAGE;
#pragma unroll
        for (int u = 0; u < SK_ACOPY; ++u)
            if (SK_RAW) {
                // Chunk j holds elements 8 j to 8 j + 7 of the step's run of 16 K.
                const int j = lane + 32 * u, valid = left * K - 8 * j;
                const int bytes = j < 2 * K ? (valid < 0 ? 0 : valid > 8 ? 16 : 2 * valid) : -1;
                if (bytes >= 0) ck_cp_async_part(st + 16 * j, dy + (bytes > 0 ? aoff + 8 * j : 0), bytes);
            } else if (a_px[u] < 16) {
                const bool ok = a_px[u] < left;
                ck_cp_async<8>(st + a_dst[u], dy + (ok ? aoff + a_src[u] : 0), ok);
            }
#pragma unroll
        for (int u = 0; u < SK_BCOPY; ++u) {
            const int i = (lane + 32 * u) / SK_BCH, ch = (lane + 32 * u) % SK_BCH;
            const bool ok = i < left && ck_in(b_h[u], hi) && ck_in(b_w[u], wi);
            ck_cp_async<16>(st + SK_ABYTES + i * SK_BROW * 2 + ch * 16, x + (ok ? boff[u] : 0), ok);
            boff[u] += dcol;
            b_w[u] += 16 * sw;
            while (b_w[u] >= iw_end) {
                b_w[u] -= wsw;
                b_h[u] += sh;
                boff[u] += drow;
                if (b_h[u] == ih_end) {
                    b_h[u] = ry_k;
                    boff[u] += dimg;
                }
            }
        }
        aoff += 16 * ys_w;
        left -= 16;
    };
    // ldmatrix.trans rows: lane l gives row l % 8 of matrix l / 8. A (pixel rows of channels):
    // matrices (pixels 0-7, channels 0-7), (0-7, 8-15), (8-15, 0-7), (8-15, 8-15) are the
    // fragment's a0..a3; B (pixel rows of input channels): (0-7, 0-7), (8-15, 0-7), (0-7, 8-15),
    // (8-15, 8-15) are b0, b1 of two n8 blocks.
    const int q = lane / 8, r = lane % 8;
    const unsigned a_ld = (r + (q >> 1) * 8) * SK_AROW * 2 + (q & 1) * 16;
    const unsigned b_ld = SK_ABYTES + (r + (q & 1) * 8) * SK_BROW * 2 + (q >> 1) * 16;
    float acc[SK_MB][SK_NB][4] = {};
#pragma unroll
    for (int i = 0; i < SK_STAGES - 1; ++i) {
        if (i < nst) copy(i);
        ck_cp_commit();
    }
    for (int i = 0, rd = 0, wr = SK_STAGES - 1; i < nst; ++i) {
        ck_cp_wait<SK_STAGES - 2>();
        // Every lane's copies of step i have landed, and every lane is past step i - 1's reads
        // of the slot the next copy fills.
        __syncwarp();
        if (i + SK_STAGES - 1 < nst) copy(wr);
        ck_cp_commit();
        const unsigned st = ring + rd * SK_STAGE;
        unsigned fa[SK_MB][4], fb[SK_NB / 2][4];
        if (SK_RAW) {
            // Element (k, pixel p) of the run is at p K + k; rows past K are zero.
            const unsigned short* run = reinterpret_cast<const unsigned short*>(smem + (warp * SK_STAGES + rd) * SK_STAGE);
            const int g4 = lane / 4, c2 = 2 * (lane % 4);
            auto pair = [&](int k, int p) -> unsigned {
                return k < K ? run[p * K + k] | (unsigned)run[(p + 1) * K + k] << 16 : 0u;
            };
#pragma unroll
            for (int m = 0; m < SK_MB; ++m) {
                const int k0 = m * 16 + g4;
                fa[m][0] = pair(k0, c2);
                fa[m][1] = pair(k0 + 8, c2);
                fa[m][2] = pair(k0, c2 + 8);
                fa[m][3] = pair(k0 + 8, c2 + 8);
            }
        } else {
#pragma unroll
            for (int m = 0; m < SK_MB; ++m) ck_ldsm<4, true>(fa[m], st + a_ld + m * 32);
        }
#pragma unroll
        for (int n = 0; n < SK_NB / 2; ++n) ck_ldsm<4, true>(fb[n], st + b_ld + n * 32);
#pragma unroll
        for (int m = 0; m < SK_MB; ++m)
#pragma unroll
            for (int n = 0; n < SK_NB; ++n) {
                const unsigned b[4] = {fb[n / 2][(n % 2) * 2], fb[n / 2][(n % 2) * 2 + 1], 0, 0};
                ck_mma(acc[m][n], fa[m], b);
            }
        rd = rd + 1 == SK_STAGES ? 0 : rd + 1;
        wr = wr + 1 == SK_STAGES ? 0 : wr + 1;
    }
    ck_cp_wait<0>();
    __syncthreads();
    // Lane (g4, t4) holds rows g4 and g4 + 8 of each m16 block, columns 2 t4 and 2 t4 + 1.
    float* red = reinterpret_cast<float*>(smem);
    const int g4 = lane / 4, t4 = lane % 4;
#pragma unroll
    for (int m = 0; m < SK_MB; ++m)
#pragma unroll
        for (int n = 0; n < SK_NB; ++n)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int row = m * 16 + g4 + (e >> 1) * 8, col = n * 8 + 2 * t4 + (e & 1);
                red[(warp * MPB + row) * NPB + col] = acc[m][n][e];
            }
    __syncthreads();
    const ck_i64 wbase = g * a.ws_g + c0 * a.ws_c + fy * a.ws_y + fx * a.ws_x;
    // A slice of the workspace [slices][G][K][taps · C], as the convert entry reads it.
    float* ws = reinterpret_cast<float*>(a.ws) + blockIdx.y * a.G * a.M * a.Ng + g * K * a.Ng + n0;
    for (int e = (int)threadIdx.x; e < K * NPB; e += SK_WARPS * 32) {
        float sum = 0.0f;
        for (int w = 0; w < SK_WARPS; ++w) sum += red[w * MPB * NPB + e];
        const int row = e / NPB, col = e - row * NPB;
        if (gridDim.y > 1) ws[row * a.Ng + col] = sum;
        else ck_store_final(a, wbase + row * a.ws_k + col * a.ws_c, sum);
    }
}
#endif

// LDS from the launch: the warps' rings, then their sums.
CK_ENTRY_THREADS(sliced, SK_WARPS * 32, 1)(const CK_GRID_CONST CkArgs a) {
#if defined(CK_MMA_SYNC)
    extern __shared__ __align__(16) unsigned char ck_smem[];
    if (sizeof(AT) == 2 && sizeof(BT) == 2 && ck_is_bf16<AT>::value == ck_is_bf16<BT>::value) ck_sliced(a, ck_smem);
#endif
}
