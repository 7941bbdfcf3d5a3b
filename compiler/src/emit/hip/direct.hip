
// ---- Small-channel backward weight, for kernels that merge groups (depthwise and narrow
// grouped convolutions: at most 8 channels per group, a 3x3 filter). A GEMM tile would be
// almost all padding there, so the host launches this entry instead. A thread owns a row set,
// VR consecutive GEMM rows (group, k), and all 9 x CH filter values of each; a block has
// DIRECT_SETS row sets and DIRECT_LANES threads per set that take turns over the block's output
// pixels (a warp reads DIRECT_SETS adjacent sets of 4 pixels). The lanes' sums are added with
// shuffles, then across warps in LDS, and land in the block's slice of the fp32 workspace; the
// convert entry adds the slices (no atomics, deterministic).

// DIRECT_SETS (row sets per block), DIRECT_LANES (threads per set) and DIRECT_SPAN (channels a
// thread covers) come from the host's launch plan, above.
constexpr int DIRECT_BLOCK = DIRECT_SETS * DIRECT_LANES;
constexpr int DIRECT_MAX_ACC = 9 * DIRECT_SPAN;
constexpr int DIRECT_WARPS = DIRECT_BLOCK / 32;

// Zeroes v unless `keep`, a 32-bit word at a time.
template <typename T, int N> CK_DEV void ck_zero_unless(ck_vec<T, N>& v, bool keep) {
    if (sizeof(v) % 4 == 0) {
        unsigned* w = reinterpret_cast<unsigned*>(&v);
#pragma unroll
        for (int i = 0; i < (int)(sizeof(v) / 4); ++i) w[i] = keep ? w[i] : 0u;
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) v.v[i] = keep ? v.v[i] : ck_zero<T>();
    }
}

// ACROSS (K == 1): the thread's rows are VR groups, whose input channels are one vector.
template <int CH, bool ACROSS> CK_DEV void ck_direct(const CkArgs& a, float* red) {
    constexpr int VR = CH >= DIRECT_SPAN ? 1 : DIRECT_SPAN / CH;
    constexpr int XV = ACROSS ? VR * CH : CH;
    constexpr int ACC = VR * 9 * CH;  // [v][tap][c]
    static_assert(ACC <= DIRECT_MAX_ACC, "direct accumulators exceed the reduction buffer");
    const AT* dy = reinterpret_cast<const AT*>(a.y);
    const BT* x = reinterpret_cast<const BT*>(a.x);
    const int set = threadIdx.x % DIRECT_SETS, lane = threadIdx.x / DIRECT_SETS;
    const int rows = (int)(a.G * a.K);
    const int r0 = ((int)blockIdx.x * DIRECT_SETS + set) * VR;
    const ck_idx xg = ck_ix((r0 / (int)a.K) * a.xs_g);
    float acc[ACC];
#pragma unroll
    for (int j = 0; j < ACC; ++j) acc[j] = 0.0f;

    const int pixels = (int)(a.N * a.Do * a.Ho * a.Wo);
    const int p0 = (int)blockIdx.y * (int)a.direct_pixels;
    const int p1 = p0 + (int)a.direct_pixels < pixels ? p0 + (int)a.direct_pixels : pixels;
    const ck_radix pr{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo};
    const ck_d4 step = ck_split4(DIRECT_LANES, pr);
    ck_d4 px = ck_split4(p0 + lane, pr);
    // Tap offsets, fixed for the kernel: each tap adds a constant to the pixel's base.
    const ck_idx xs_h = ck_ix(a.xs_h), xs_w = ck_ix(a.xs_w);
    int tap_h[3], tap_w[3];
#pragma unroll
    for (int i = 0; i < 3; ++i) {
        tap_h[i] = i * (int)a.dh;
        tap_w[i] = i * (int)a.dw;
    }
    if (r0 < rows) {
        for (int p = p0 + lane; p < p1; p += DIRECT_LANES, ck_advance4(px, step, pr)) {
            // The filter has one depth tap: the input plane is fixed by the output's.
            const int id = px.v[1] * (int)a.sd - (int)a.pd;
            const int h0 = px.v[2] * (int)a.sh - (int)a.ph, w0 = px.v[3] * (int)a.sw - (int)a.pw;
            const ck_idx xb = px.v[0] * ck_ix(a.xs_n) + id * ck_ix(a.xs_d) + xg + h0 * xs_h + w0 * xs_w;
            // Every load of the pixel is issued before any is used (no branch between them):
            // taps in the padding read the tensor's first vector and are zeroed after, as the
            // GEMM tiles zero them.
            const ck_vec<AT, VR> dr = *reinterpret_cast<const ck_vec<AT, VR>*>(
                dy + px.v[0] * ck_ix(a.ys_n) + px.v[1] * ck_ix(a.ys_d) + px.v[2] * ck_ix(a.ys_h) +
                px.v[3] * ck_ix(a.ys_w) + r0);
            ck_vec<BT, XV> xr[9];
            bool in[9];
            const bool din = ck_in(id, a.Di);
#pragma unroll
            for (int t = 0; t < 9; ++t) {
                const int ty = t / 3, tx = t % 3;
                in[t] = din && ck_in(h0 + tap_h[ty], a.Hi) && ck_in(w0 + tap_w[tx], a.Wi);
                const ck_idx off = in[t] ? xb + tap_h[ty] * xs_h + tap_w[tx] * xs_w : 0;
                xr[t] = *reinterpret_cast<const ck_vec<BT, XV>*>(x + off);
            }
#pragma unroll
            for (int t = 0; t < 9; ++t) ck_zero_unless(xr[t], in[t]);
            float dv[VR];
#pragma unroll
            for (int v = 0; v < VR; ++v) dv[v] = ck_to_float(dr.v[v]);
#pragma unroll
            for (int t = 0; t < 9; ++t)
#pragma unroll
                for (int v = 0; v < VR; ++v)
#pragma unroll
                    for (int c = 0; c < CH; ++c)
                        acc[(v * 9 + t) * CH + c] += dv[v] * ck_to_float(xr[t].v[ACROSS ? v * CH + c : c]);
        }
    }
    // The set's lanes within the warp (DIRECT_SETS apart), then the warps through LDS, laid out
    // [warp][j][set].
    const int warp = threadIdx.x / 32;
#pragma unroll
    for (int j = 0; j < ACC; ++j) {
        float v = acc[j];
#pragma unroll
        for (int m = DIRECT_SETS; m < 32; m <<= 1) v += ck_shfl_xor(v, m);
        acc[j] = v;
    }
    if (threadIdx.x % 32 < DIRECT_SETS) {
#pragma unroll
        for (int j = 0; j < ACC; ++j) red[(warp * ACC + j) * DIRECT_SETS + set] = acc[j];
    }
    __syncthreads();
    // Set s's values are workspace elements [s * ACC, (s + 1) * ACC) of the block's part, in the
    // same [j][set] order as LDS: the block writes them contiguously.
    const int sets = rows / VR - (int)blockIdx.x * DIRECT_SETS;
    const int n = (sets < DIRECT_SETS ? sets : DIRECT_SETS) * ACC;
    float* out = reinterpret_cast<float*>(a.ws) + (ck_i64)blockIdx.y * rows * 9 * CH +
                 (ck_i64)blockIdx.x * DIRECT_SETS * ACC;
    for (int e = threadIdx.x; e < n; e += DIRECT_BLOCK) {
        const int s = e / ACC, j = e % ACC;
        float v = 0.0f;
#pragma unroll
        for (int w = 0; w < DIRECT_WARPS; ++w) v += red[(w * ACC + j) * DIRECT_SETS + s];
        out[e] = v;
    }
}

CK_ENTRY_THREADS(direct, DIRECT_BLOCK, 2)(const CK_GRID_CONST CkArgs a) {
    __shared__ float red[DIRECT_WARPS * DIRECT_MAX_ACC * DIRECT_SETS];
    const bool across = a.K == 1;
    switch (a.direct_ch) {
    case 1: across ? ck_direct<1, true>(a, red) : ck_direct<1, false>(a, red); break;
    case 2: across ? ck_direct<2, true>(a, red) : ck_direct<2, false>(a, red); break;
    case 4: across ? ck_direct<4, true>(a, red) : ck_direct<4, false>(a, red); break;
    default: ck_direct<8, false>(a, red); break;
    }
}
