
// ---- Small-channel backward weight, for kernels that merge groups (depthwise and narrow
// grouped convolutions: at most 8 channels per group, a 3x3 filter). A GEMM tile would be
// almost all padding there, so the host launches this entry instead: a thread owns VR
// consecutive GEMM rows (group, k) and all 9 x CH filter values of each; DIRECT_LANES threads
// share a row set and take turns over the block's output pixels. The block's sums land in its
// slice of the fp32 workspace; the convert entry adds the slices (no atomics, deterministic).

constexpr int DIRECT_ROWS = 64;  // row sets per block
constexpr int DIRECT_LANES = 4;  // threads per row set
constexpr int DIRECT_BLOCK = DIRECT_ROWS * DIRECT_LANES;
constexpr int DIRECT_MAX_ACC = 72;

// N consecutive elements (one aligned vector, checked by the host) as floats.
template <typename T, int N> CK_DEV void ck_load_floats(const T* p, float (&out)[N]) {
    const ck_vec<T, N> v = *reinterpret_cast<const ck_vec<T, N>*>(p);
#pragma unroll
    for (int i = 0; i < N; ++i) out[i] = ck_to_float(v.v[i]);
}

template <int CH> CK_DEV void ck_direct(const CkArgs& a, float* red) {
    constexpr int VR = CH >= 8 ? 1 : 8 / CH;
    constexpr int ACC = VR * 9 * CH;  // [v][tap][c]
    static_assert(ACC <= DIRECT_MAX_ACC, "direct accumulators exceed the reduction buffer");
    const AT* dy = reinterpret_cast<const AT*>(a.y);
    const BT* x = reinterpret_cast<const BT*>(a.x);
    const int rt = threadIdx.x % DIRECT_ROWS, lane = threadIdx.x / DIRECT_ROWS;
    const int rows = (int)(a.G * a.K);
    const int r0 = ((int)blockIdx.x * DIRECT_ROWS + rt) * VR;
    // K == 1: the rows are groups, and their input channels are one vector of VR x CH.
    const bool across = a.K == 1;
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
    if (r0 < rows) {
        for (int p = p0 + lane; p < p1; p += DIRECT_LANES, ck_advance4(px, step, pr)) {
            // The filter has one depth tap: the input plane is fixed by the output's.
            const int id = px.v[1] * (int)a.sd - (int)a.pd;
            if (!ck_in(id, a.Di)) continue;
            float dv[VR];
            ck_load_floats<AT, VR>(dy + px.v[0] * ck_ix(a.ys_n) + px.v[1] * ck_ix(a.ys_d) + px.v[2] * ck_ix(a.ys_h) +
                                       px.v[3] * ck_ix(a.ys_w) + r0,
                                   dv);
            const ck_idx xb = px.v[0] * ck_ix(a.xs_n) + id * ck_ix(a.xs_d) + xg;
#pragma unroll
            for (int ty = 0; ty < 3; ++ty) {
                const int ih = px.v[2] * (int)a.sh - (int)a.ph + ty * (int)a.dh;
                if (!ck_in(ih, a.Hi)) continue;
#pragma unroll
                for (int tx = 0; tx < 3; ++tx) {
                    const int iw = px.v[3] * (int)a.sw - (int)a.pw + tx * (int)a.dw;
                    if (!ck_in(iw, a.Wi)) continue;
                    const BT* src = x + xb + ih * ck_ix(a.xs_h) + iw * ck_ix(a.xs_w);
                    const int t = ty * 3 + tx;
                    if (across) {
                        float xv[VR * CH];
                        ck_load_floats<BT, VR * CH>(src, xv);
#pragma unroll
                        for (int v = 0; v < VR; ++v)
#pragma unroll
                            for (int c = 0; c < CH; ++c) acc[(v * 9 + t) * CH + c] += dv[v] * xv[v * CH + c];
                    } else {
                        float xv[CH];
                        ck_load_floats<BT, CH>(src, xv);
#pragma unroll
                        for (int v = 0; v < VR; ++v)
#pragma unroll
                            for (int c = 0; c < CH; ++c) acc[(v * 9 + t) * CH + c] += dv[v] * xv[c];
                    }
                }
            }
        }
    }
    // Lanes 1.. hand their sums to lane 0 through LDS ([j][row set]: no bank conflicts).
    for (int l = 1; l < DIRECT_LANES; ++l) {
        if (lane == l) {
#pragma unroll
            for (int j = 0; j < ACC; ++j) red[j * DIRECT_ROWS + rt] = acc[j];
        }
        __syncthreads();
        if (lane == 0) {
#pragma unroll
            for (int j = 0; j < ACC; ++j) acc[j] += red[j * DIRECT_ROWS + rt];
        }
        __syncthreads();
    }
    if (lane == 0) {
#pragma unroll
        for (int j = 0; j < ACC; ++j) red[j * DIRECT_ROWS + rt] = acc[j];
    }
    __syncthreads();
    // Row set s's values are workspace elements [s * ACC, (s + 1) * ACC) of the block's part: the
    // whole block writes them contiguously.
    const int sets = rows / VR - (int)blockIdx.x * DIRECT_ROWS;
    const int n = (sets < DIRECT_ROWS ? sets : DIRECT_ROWS) * ACC;
    float* out = reinterpret_cast<float*>(a.ws) + (ck_i64)blockIdx.y * rows * 9 * CH +
                 (ck_i64)blockIdx.x * DIRECT_ROWS * ACC;
    for (int e = threadIdx.x; e < n; e += DIRECT_BLOCK) out[e] = red[(e % ACC) * DIRECT_ROWS + e / ACC];
}

CK_ENTRY_THREADS(direct, DIRECT_BLOCK)(const CK_GRID_CONST CkArgs a) {
    __shared__ float red[DIRECT_MAX_ACC * DIRECT_ROWS];
    switch (a.direct_ch) {
    case 1: ck_direct<1>(a, red); break;
    case 2: ck_direct<2>(a, red); break;
    case 4: ck_direct<4>(a, red); break;
    default: ck_direct<8>(a, red); break;
    }
}
