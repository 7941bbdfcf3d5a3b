
// ---- Backward weight with the GEMM-K split over the warps of a workgroup (tiles whose warps
// lie along K; the host picks it, see `sliced_plan`). M is K (at most MPB output channels),
// N is a column tile of NPB input channels of one filter tap, GEMM-K the output pixels. Each
// warp takes its own range of 16-pixel steps and streams them through a private cp.async ring
// of SK_STAGES steps (only warp barriers in the loop): the output gradient's pixels as
// 8-byte chunks (K a multiple of 4), the input pixels the tap reads as 16-byte chunks, both
// read with ldmatrix.trans into m16n8k16 MMAs. The warps' sums meet once in LDS and the
// workgroup stores its tile: one launch, no workspace.
#if defined(CK_MMA_SYNC)
constexpr int SK_MB = MPB / 16, SK_NB = NPB / 8;
// LDS rows in elements: 16 bytes of pad keep the eight rows of an ldmatrix in distinct banks.
constexpr int SK_AROW = MPB + 8, SK_BROW = NPB + 8;
constexpr int SK_ABYTES = 16 * SK_AROW * 2, SK_STAGE = SK_ABYTES + 16 * SK_BROW * 2;
// A lane's chunks of a step: at most 16 pixels × MPB / 4 of A, exactly 16 × NPB / 8 of B.
constexpr int SK_ACOPY = (16 * MPB / 4 + 31) / 32, SK_BCH = NPB / 8, SK_BCOPY = (16 * SK_BCH + 31) / 32;

CK_DEV void ck_sliced(const CkArgs& a, unsigned char* smem) {
    const int warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    const int K = (int)a.K, C = (int)a.C, g = (int)blockIdx.z;
    const int n0 = (int)blockIdx.x * NPB, tap = n0 / C, c0 = n0 - tap * C;
    const int fy = tap / (int)a.X, fx = tap - fy * (int)a.X;
    const int ho = (int)a.Ho, wo = (int)a.Wo, hi = (int)a.Hi, wi = (int)a.Wi;
    const int pixels = (int)a.N * ho * wo, steps = (pixels + 15) / 16;
    const int s0 = warp * steps / SK_WARPS, nst = (warp + 1) * steps / SK_WARPS - s0;
    const unsigned ring = ck_saddr(smem) + warp * SK_STAGES * SK_STAGE;
    // A: chunk j of a step is pixel j / (K / 4), channels 4 (j % (K / 4)); the host requires
    // packed pixels, so a pointer steps 16 pixels a copy. `left`: pixels from the copy's first.
    const int kc = K / 4;
    int a_px[SK_ACOPY], a_dst[SK_ACOPY], a_src[SK_ACOPY];
#pragma unroll
    for (int u = 0; u < SK_ACOPY; ++u) {
        const int j = lane + 32 * u, i = j / kc, part = j - i * kc;
        a_px[u] = j < 16 * kc ? i : 16;
        a_dst[u] = i * SK_AROW * 2 + part * 8;
        a_src[u] = i * (int)a.ys_w + part * 4;
    }
    const AT* dy = reinterpret_cast<const AT*>(a.y) + g * ck_ix(a.ys_g);
    const AT* ap = dy + s0 * 16 * ck_ix(a.ys_w);
    int left = pixels - s0 * 16;
    // B: chunk j is pixel j / SK_BCH, channels c0 + 8 (j % SK_BCH); the pixel's output
    // coordinates step 16 pixels a copy.
    const BT* x = reinterpret_cast<const BT*>(a.x) + g * ck_ix(a.xs_g) + c0;
    int b_n[SK_BCOPY], b_h[SK_BCOPY], b_w[SK_BCOPY];
#pragma unroll
    for (int u = 0; u < SK_BCOPY; ++u) {
        const int p = s0 * 16 + (lane + 32 * u) / SK_BCH;
        b_n[u] = p / (ho * wo);
        b_h[u] = p / wo - b_n[u] * ho;
        b_w[u] = p - p / wo * wo;
    }
    const int ry = fy * (int)a.dh - (int)a.ph, rx = fx * (int)a.dw - (int)a.pw;
    auto copy = [&](int slot) {
        const unsigned st = ring + slot * SK_STAGE;
#pragma unroll
        for (int u = 0; u < SK_ACOPY; ++u)
            if (a_px[u] < 16) {
                const bool ok = a_px[u] < left;
                ck_cp_async<8>(st + a_dst[u], ok ? ap + a_src[u] : dy, ok);
            }
#pragma unroll
        for (int u = 0; u < SK_BCOPY; ++u) {
            const int i = (lane + 32 * u) / SK_BCH, ch = (lane + 32 * u) % SK_BCH;
            const int ih = b_h[u] * (int)a.sh + ry, iw = b_w[u] * (int)a.sw + rx;
            const bool ok = i < left && ck_in(ih, hi) && ck_in(iw, wi);
            const BT* src = x + b_n[u] * ck_ix(a.xs_n) + ih * ck_ix(a.xs_h) + iw * ck_ix(a.xs_w) + ch * 8;
            ck_cp_async<16>(st + SK_ABYTES + i * SK_BROW * 2 + ch * 16, ok ? src : x, ok);
            b_w[u] += 16;
            while (b_w[u] >= wo) {
                b_w[u] -= wo;
                if (++b_h[u] == ho) {
                    b_h[u] = 0;
                    ++b_n[u];
                }
            }
        }
        ap += 16 * ck_ix(a.ys_w);
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
#pragma unroll
        for (int m = 0; m < SK_MB; ++m) ck_ldsm<4, true>(fa[m], st + a_ld + m * 32);
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
    const ck_i64 wbase = g * a.ws_g + (c0)*a.ws_c + fy * a.ws_y + fx * a.ws_x;
    for (int e = (int)threadIdx.x; e < K * NPB; e += SK_WARPS * 32) {
        float sum = 0.0f;
        for (int w = 0; w < SK_WARPS; ++w) sum += red[w * MPB * NPB + e];
        const int row = e / NPB, col = e - row * NPB;
        ck_store_final(a, wbase + row * a.ws_k + col * a.ws_c, sum);
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
