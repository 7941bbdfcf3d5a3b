
// ---- Small-channel backward weight, for kernels that merge groups (depthwise and narrow
// grouped convolutions: at most 8 channels per group, a 3x3 filter). A GEMM tile would be
// almost all padding there, so the host launches this entry instead. A thread owns a row set,
// VR consecutive GEMM rows (group, k), and all 9 x CH filter values of each; a block has
// DIRECT_SETS row sets and DIRECT_LANES threads per set that take turns over the block's output
// pixels (a warp reads DIRECT_SETS adjacent sets of 4 pixels). The lanes' sums are added with
// shuffles, then across warps in LDS, and land in the block's slice of the fp32 workspace; the
// convert entry adds the slices (no atomics, deterministic).

// DIRECT_SETS (row sets per block), DIRECT_LANES (threads per set), DIRECT_SPAN (channels a
// thread covers) and, for the tensor-core path, DIRECT_STEP_ROWS (output rows a step
// multiplies), DIRECT_DEPTH (steps copied ahead), DIRECT_RUNS
// (16-pixel runs of a row a warp multiplies, at most) and DIRECT_MMA_BLOCKS (its workgroups an
// SM holds) come from the host's launch plan, above.
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

// ---- Depthwise backward weight along output rows (C = K = 1 a group, one depth tap, unit
// width dilation, width stride 1 or 2, a 3x3 filter or rows of 4 or more taps; the host picks
// it, see `direct_rows_plan`). A thread owns one 8-group vector and RT filter rows (the three of
// a 3x3, else one piece of a row: KX = 5 taps for rows of 4 or 5, else pieces of 7, the
// last piece's taps past the row computed and dropped) of one output row segment at a time:
// RT·KX taps of 8 sums. The input columns of its rows slide through registers, SX new ones an
// output column, so each input element is loaded once per output row and filter row where the
// per-pixel entry above loads it once a tap. A block has direct_vecs vectors by KY / RT · pieces
// filter-row groups by `slots` row slots (blockDim.x holds them all); block y takes items
// [y, y + 1) · direct_rows of the (image, depth, row, segment) sequence, a segment being
// direct_pixels output columns of a row (the whole row when 0: long rows of few images, such
// as 1-D layers, split so that the device fills), each slot every slots-th of them. The slots'
// sums meet in LDS, DROWS_CHUNK taps at a time, and the block writes its workspace slice; the
// convert entry adds the slices.
constexpr int DROWS_BLOCK = DROWS_VECS * DROWS_SLOTS;

// Eight values as floats; bf16 ones two from each 32-bit word (a shift and a mask).
template <typename T> CK_DEV void ck_floats8(float (&f)[8], const ck_vec<T, 8>& v) {
#pragma unroll
    for (int k = 0; k < 8; ++k) f[k] = ck_to_float(v.v[k]);
}
CK_DEV void ck_floats8(float (&f)[8], const ck_vec<ck_bf16, 8>& v) {
    const unsigned* w = reinterpret_cast<const unsigned*>(&v);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        f[2 * i] = __uint_as_float(w[i] << 16);
        f[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
    }
}
// Eight values at p, one vector load.
template <typename T> CK_DEV ck_vec<T, 8> ck_load8(const T* p) {
    return *reinterpret_cast<const ck_vec<T, 8>*>(p);
}

template <int RT, int KX, int SX> CK_DEV void ck_rows_taps(const CkArgs& a, float* red) {
    // Columns kept from one output column to the next, and output columns whose loads a
    // thread issues before it uses any: at unit stride a whole turn of the window, which
    // brings it back to the registers it started in (no moves); at stride 2 two columns (one
    // for rows of 7), which the registers allow.
    constexpr int W = KX - SX;
    constexpr int COLS = SX == 1 ? KX : KX == 7 ? 1 : 2;
    constexpr int TAPS = RT * KX;
    // The block's vectors (direct_vecs, up to DROWS_VECS: no idle lanes where the groups are
    // fewer), its filter-row groups (RT rows, or a piece of a row) and row slots.
    const int fx = (int)a.X, pieces = (fx + KX - 1) / KX;
    const int vecs = (int)a.direct_vecs, groups = (int)a.Y / RT * pieces;
    const int slots = (int)blockDim.x / (vecs * groups);
    const int o = (int)threadIdx.x % vecs, fg = (int)threadIdx.x / vecs % groups;
    const int slot = (int)threadIdx.x / (vecs * groups);
    const int frow = fg / pieces * RT, piece = fg % pieces;
    const int nvec = (int)(a.G / 8), vec = (int)blockIdx.x * vecs + o;
    // A piece's taps start KX columns on per piece: its columns are those of a row padded that
    // many columns less.
    const int ho = (int)a.Ho, wo = (int)a.Wo, planes_d = (int)a.Do, wi = (int)a.Wi;
    const int pw = (int)a.pw - piece * KX;
    const int seg_cols = a.direct_pixels > 0 ? (int)a.direct_pixels : wo;
    const int segs = (wo + seg_cols - 1) / seg_cols;
    const int rows = (int)a.N * planes_d * ho * segs, r0 = (int)blockIdx.y * (int)a.direct_rows;
    const int r1 = rows - r0 < (int)a.direct_rows ? rows : r0 + (int)a.direct_rows;
    const AT* dy = reinterpret_cast<const AT*>(a.y);
    const BT* x = reinterpret_cast<const BT*>(a.x);
    // Offsets within a row fit 32 bits (the host checks).
    const int xw = (int)a.xs_w, yw = (int)a.ys_w;
    float acc[TAPS][8];
#pragma unroll
    for (int t = 0; t < TAPS; ++t)
#pragma unroll
        for (int k = 0; k < 8; ++k) acc[t][k] = 0.0f;
    // Threads of a row and filter row branch alike (a warp spans at most a few of them).
    for (int r = r0 + slot; vec < nvec && r < r1; r += slots) {
        const int row = r / segs, c_begin = r % segs * seg_cols;
        const int c_end = wo - c_begin < seg_cols ? wo : c_begin + seg_cols;
        const int oh = row % ho, plane = row / ho, od = plane % planes_d, n = plane / planes_d;
        // The filter has one depth tap: the input plane is fixed by the output's.
        const int id = od * (int)a.sd - (int)a.pd;
        if (!ck_in(id, a.Di)) continue;
        // Groups are contiguous (the host checks): the vector's first is group 8 vec.
        const BT* xp = x + n * ck_ix(a.xs_n) + id * ck_ix(a.xs_d) + vec * 8;
        const AT* yr = dy + n * ck_ix(a.ys_n) + od * ck_ix(a.ys_d) + oh * ck_ix(a.ys_h) + vec * 8;
        const BT* xr[RT];
        bool in[RT];
        bool rows_in = true;
#pragma unroll
        for (int t = 0; t < RT; ++t) {
            const int ih = oh * (int)a.sh - (int)a.ph + (frow + t) * (int)a.dh;
            in[t] = ck_in(ih, a.Hi);
            rows_in = rows_in && in[t];
            xr[t] = xp + ih * ck_ix(a.xs_h);
        }
        // Input column `col` of filter row t, raw (zeros outside the input).
        auto load = [&](ck_vec<BT, 8>& v, int t, int col) {
            const bool ok = in[t] && ck_in(col, wi);
            v = ck_load8(ok ? xr[t] + col * xw : x);
            ck_zero_unless(v, ok);
        };
        // Output column w reads input columns w·SX − pw + kx: the window holds the first W of
        // them as floats, each output column loads the other SX.
        float win[RT][W][8];
#pragma unroll
        for (int t = 0; t < RT; ++t)
#pragma unroll
            for (int j = 0; j < W; ++j) {
                ck_vec<BT, 8> v;
                load(v, t, c_begin * SX + j - pw);
                ck_floats8(win[t][j], v);
            }
        for (int c0 = c_begin; c0 < c_end; c0 += COLS) {
            ck_vec<AT, 8> yv[COLS];
            ck_vec<BT, 8> xv[COLS][RT][SX];
            // Output column c0 + j loads input columns first + j·SX + s.
            const int first = c0 * SX - pw + W;
            if (rows_in && c0 + COLS <= c_end && first >= 0 && first + COLS * SX <= wi) {
                // Every load of the step inside the tensors (most steps): no checks.
#pragma unroll
                for (int j = 0; j < COLS; ++j) {
                    yv[j] = ck_load8(yr + (c0 + j) * yw);
#pragma unroll
                    for (int t = 0; t < RT; ++t)
#pragma unroll
                        for (int s = 0; s < SX; ++s)
                            xv[j][t][s] = ck_load8(xr[t] + (first + j * SX + s) * xw);
                }
            } else {
#pragma unroll
                for (int j = 0; j < COLS; ++j) {
                    // Columns past the segment multiply zeros.
                    const bool has = c0 + j < c_end;
                    yv[j] = ck_load8(has ? yr + (c0 + j) * yw : dy);
                    ck_zero_unless(yv[j], has);
#pragma unroll
                    for (int t = 0; t < RT; ++t)
#pragma unroll
                        for (int s = 0; s < SX; ++s) load(xv[j][t][s], t, first + j * SX + s);
                }
            }
#pragma unroll
            for (int j = 0; j < COLS; ++j) {
                float dv[8];
                ck_floats8(dv, yv[j]);
#pragma unroll
                for (int t = 0; t < RT; ++t) {
                    float nw[SX][8];
#pragma unroll
                    for (int s = 0; s < SX; ++s) ck_floats8(nw[s], xv[j][t][s]);
#pragma unroll
                    for (int kx = 0; kx < KX; ++kx)
#pragma unroll
                        for (int k = 0; k < 8; ++k)
                            acc[t * KX + kx][k] += dv[k] * (kx < W ? win[t][kx][k] : nw[kx - W][k]);
                    // The window moves SX columns: its columns SX on, then the new ones.
#pragma unroll
                    for (int q = 0; q < W; ++q)
#pragma unroll
                        for (int k = 0; k < 8; ++k)
                            win[t][q][k] = q + SX < W ? win[t][q + SX][k] : nw[q + SX - W][k];
                }
            }
        }
    }
    // Workspace element g·taps + tap of the block's slice; the thread's local tap q is filter
    // row frow + q / KX, column piece·KX + q % KX (dropped past the row).
    const int taps = (int)a.Y * fx;
    float* out = reinterpret_cast<float*>(a.ws) + (ck_i64)blockIdx.y * a.G * taps;
    float* mine = red + (int)threadIdx.x * DROWS_STRIDE;
#pragma unroll
    for (int q0 = 0; q0 < TAPS; q0 += DROWS_CHUNK) {
#pragma unroll
        for (int qq = 0; qq < DROWS_CHUNK; ++qq)
#pragma unroll
            for (int k = 0; k < 8; ++k) mine[qq * 8 + k] = q0 + qq < TAPS ? acc[q0 + qq][k] : 0.0f;
        __syncthreads();
        const int items = vecs * groups * DROWS_CHUNK * 8;
        for (int e = (int)threadIdx.x; e < items; e += (int)blockDim.x) {
            const int k = e % 8, qq = e / 8 % DROWS_CHUNK, g = e / (8 * DROWS_CHUNK) % groups;
            const int oo = e / (8 * DROWS_CHUNK * groups), q = q0 + qq;
            const int v = (int)blockIdx.x * vecs + oo;
            float sum = 0.0f;
            for (int sl = 0; sl < slots; ++sl)
                sum += red[((sl * groups + g) * vecs + oo) * DROWS_STRIDE + qq * 8 + k];
            const int col = g % pieces * KX + q % KX;
            if (q < TAPS && v < nvec && col < fx)
                out[(v * 8 + k) * taps + (g / pieces * RT + q / KX) * fx + col] = sum;
        }
        __syncthreads();
    }
}

// The filters and width strides the host sends to each entry: a 3x3 filter (all three rows a
// thread), rows of 4 or 5 taps or pieces of 7 (one a thread). Two entries, so that the 3x3 one
// keeps its own register count.
CK_DEV void ck_direct_rows(const CkArgs& a, float* red) {
    a.sw == 1 ? ck_rows_taps<3, 3, 1>(a, red) : ck_rows_taps<3, 3, 2>(a, red);
}
CK_DEV void ck_direct_row_taps(const CkArgs& a, float* red) {
    const bool unit = a.sw == 1;
    if (a.X <= 5)
        unit ? ck_rows_taps<1, 5, 1>(a, red) : ck_rows_taps<1, 5, 2>(a, red);
    else
        unit ? ck_rows_taps<1, 7, 1>(a, red) : ck_rows_taps<1, 7, 2>(a, red);
}

#if defined(CK_MMA_SYNC)
// Tensor cores (sm_80+, 16-bit operands of one kind, C = K channels a group in whole 8-channel
// vectors; the host picks it, see `direct_mma_plan`). An 8-channel vector (8 / CH groups)
// is the M and N of m16n8k16 MMAs whose K is 16 output pixels of a row: M is two taps' 8 input
// channels (the last step's tap 8 alone, rows 8-15 zero), N the vector's 8 output-gradient
// channels; the products of channels of different groups are dropped when the sums are stored.
//
// A workgroup takes `direct_vecs` (V) vectors and chunks of `direct_rows` output rows of one
// (image, depth) plane, every gridDim.y-th chunk. Each input row is copied from global memory
// once (plus a chunk's halo rows) with cp.async into a ring of rows, and each output-gradient
// row into a ring of its own; a step multiplies DIRECT_STEP_ROWS output rows (one barrier, and
// two independent chains of loads and MMAs a warp) while the copies of the next DIRECT_DEPTH
// steps are in flight. A row is every staged column by the block's vectors, 16-byte
// chunks swizzled (ck_swz_chunk) so that the eight pixels of an ldmatrix fall in distinct
// banks, and the taps are ldmatrix.trans reads at shifted columns of their filter rows: no
// copy a tap. Warp w owns vector w % V and every (8 / V)-th 16-pixel run of a row; at the end
// the warps of a vector add their sums in LDS in warp order and the block writes its workspace
// slice (the convert entry adds the slices).
constexpr int DM_STEPS = 5;         // four tap pairs and tap 8
constexpr int DM_SUMS = 9 * 8 * 8;  // a warp's sums in LDS: [tap][input channel][output channel]
constexpr int DM_DSLOTS = DIRECT_STEP_ROWS * (DIRECT_DEPTH + 1);  // output-gradient ring rows

CK_DEV void ck_direct_mma(const CkArgs& a, unsigned char* smem) {
    const int ch = (int)a.direct_ch, vecs = (int)a.direct_vecs, nvec = (int)(a.G * ch / 8);
    const int warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32, g4 = lane / 4, t4 = lane % 4;
    const int wv = warp % vecs, wr = warp / vecs, wstep = DIRECT_WARPS / vecs;
    const int vb = (int)blockIdx.x * vecs;
    const int sh = (int)a.sh, sw = (int)a.sw, dh = (int)a.dh, dw = (int)a.dw;
    // Output columns in whole 16-pixel runs; the input columns they read, from column -pw.
    const int wo = (int)a.Wo, runs = (wo + 15) / 16, cols = 16 * runs;
    const int xcols = (cols - 1) * sw + 2 * dw + 1;
    // Ring rows in elements (whole 128-byte lines), and the input ring's rows: a step's filter
    // rows span (DIRECT_STEP_ROWS − 1)·sh + 2 dh + 1, each step in flight adds
    // DIRECT_STEP_ROWS·sh, and the last output row's copies run sh − 1 rows past its window.
    const int xrow = (xcols * vecs + 7) / 8 * 64, drow = cols * vecs * 8;
    const int xslots = DIRECT_STEP_ROWS * (DIRECT_DEPTH + 1) * sh + 2 * dh;
    // The rings' shared-window addresses and row sizes in bytes: every copy and ldmatrix
    // address is one of these plus an offset set up once.
    const unsigned xring = (unsigned)__cvta_generic_to_shared(smem), xrow_b = 2 * xrow;
    const unsigned dring = xring + xslots * xrow_b, drow_b = 2 * drow;
    const BT* x = reinterpret_cast<const BT*>(a.x);
    const AT* dy = reinterpret_cast<const AT*>(a.y);
    // The thread's copy chunk of a row, the same every row (a row's chunks are at most the
    // block's threads): whether it has one, its byte offset in the ring row, the source's column
    // and vector offset (0 where that column or vector is outside the tensor, so that the
    // address stays valid) and whether it copies data (else zeros).
    const int col = (int)threadIdx.x / vecs, v = (int)threadIdx.x % vecs, iw = col - (int)a.pw;
    const bool xhas = (int)threadIdx.x < xcols * vecs, yhas = (int)threadIdx.x < cols * vecs;
    const unsigned cdst = 2 * ck_swz_chunk(col, v, vecs);
    // A vector's first channel: group v·8 / CH, channel 0 (channels are contiguous).
    const bool xok = ck_in(iw, a.Wi) && vb + v < nvec, yok = col < wo && vb + v < nvec;
    const ck_idx xsrc = xok ? iw * ck_ix(a.xs_w) + (vb + v) * ck_ix((ck_i64)(8 / ch) * a.xs_g) : 0;
    const ck_idx ysrc = yok ? col * ck_ix(a.ys_w) + (vb + v) * ck_ix((ck_i64)(8 / ch) * a.ys_g) : 0;
    // The lane's ldmatrix byte offsets within a ring row for its runs (wr, wr + wstep): B, the
    // run's 16 pixels (K) by the vector's 8 output-gradient channels, lane l giving pixel l % 16;
    // A of step j, transposed from pixel rows, lane l giving pixel 8 (l / 16) + l % 8 of tap
    // 2 j + (l / 8) % 2 (tap 8, x2: pixel l % 16). Taps 2 and 3 (step 1) are the only pair in
    // two filter rows.
    int boff[DIRECT_RUNS], aoff[DIRECT_RUNS][DM_STEPS];
    const bool row1 = (lane / 8) % 2;
#pragma unroll
    for (int k = 0; k < DIRECT_RUNS; ++k) {
        const int r = wr + k * wstep;
        boff[k] = 2 * ck_swz_chunk(16 * r + lane % 16, wv, vecs);
#pragma unroll
        for (int j = 0; j < DM_STEPS; ++j) {
            const int t = j + 1 < DM_STEPS ? 2 * j + row1 : 8;
            const int px = 16 * r + (j + 1 < DM_STEPS ? (lane / 16) * 8 + lane % 8 : lane % 16);
            aoff[k][j] = 2 * ck_swz_chunk(px * sw + (t % 3) * dw, wv, vecs);
        }
    }
    // What the loops read of the arguments, in registers: the copies' memory clobbers would
    // otherwise make the loops reload them from the argument block.
    const int rows = (int)a.direct_rows, ho = (int)a.Ho, hi = (int)a.Hi, ph = (int)a.ph;
    const int chunks = (ho + rows - 1) / rows, planes_d = (int)a.Do;
    const ck_idx xs_h = ck_ix(a.xs_h), ys_h = ck_ix(a.ys_h);
    const int items = (int)a.N * planes_d * chunks;
    float acc[DM_STEPS][4] = {};
    for (int item = (int)blockIdx.y; item < items; item += (int)gridDim.y) {
        const int plane = item / chunks, h0 = item % chunks * rows;
        const int n = plane / planes_d, od = plane % planes_d;
        const int nrows = ho - h0 < rows ? ho - h0 : rows;
        // The filter has one depth tap: the input plane is fixed by the output's.
        const int id = od * (int)a.sd - (int)a.pd;
        const bool din = ck_in(id, a.Di);
        const BT* xp = x + n * ck_ix(a.xs_n) + (din ? id : 0) * ck_ix(a.xs_d);
        const AT* yp = dy + n * ck_ix(a.ys_n) + od * ck_ix(a.ys_d) + h0 * ys_h;
        // The next input row to copy (from row h0·sh − ph), its address and ring row, the next
        // output-gradient row's address and ring row, and step i's first of each in the rings.
        int ih = h0 * sh - ph, xw = 0, yw = 0, xs = 0, ys = 0;
        const BT* xr = xp + ih * xs_h;
        const AT* yr = yp + ysrc;
        // One input row; the address is used only where the row is inside the input.
        auto copy_x = [&]() {
            const bool in = din && ck_in(ih, hi);
            if (xhas) ck_cp_async<16>(xring + xw * xrow_b + cdst, (in ? xr : x) + xsrc, in && xok);
            ++ih;
            xr += xs_h;
            xw = xw + 1 == xslots ? 0 : xw + 1;
        };
        // Step i's copies: for each of its output rows in the chunk, the gradient row and the sh
        // input rows from its last filter row on (the prologue copies the rows before row 0's).
        auto copy_step = [&](int i) {
#pragma unroll
            for (int u = 0; u < DIRECT_STEP_ROWS; ++u)
                if (DIRECT_STEP_ROWS * i + u < nrows) {
#pragma unroll 1
                    for (int r = 0; r < sh; ++r) copy_x();
                    if (yhas) ck_cp_async<16>(dring + yw * drow_b + cdst, yr, yok);
                    yr += ys_h;
                    yw = yw + 1 == DM_DSLOTS ? 0 : yw + 1;
                }
            ck_cp_commit();
        };
#pragma unroll 1
        for (int r = 0; r < 2 * dh; ++r) copy_x();
        for (int i = 0; i < DIRECT_DEPTH; ++i) copy_step(i);
        for (int i = 0; DIRECT_STEP_ROWS * i < nrows; ++i) {
            ck_cp_wait<DIRECT_DEPTH - 1>();
            __syncthreads();
            // Into the ring rows step i - 1 read last (every warp is past it).
            copy_step(i + DIRECT_DEPTH);
            const int nr = nrows - DIRECT_STEP_ROWS * i;
            // Each output row's three filter rows, and each MMA step's row for this lane.
            unsigned ar[DIRECT_STEP_ROWS][DM_STEPS], dr[DIRECT_STEP_ROWS];
#pragma unroll
            for (int u = 0; u < DIRECT_STEP_ROWS; ++u) {
                unsigned fr[3];
#pragma unroll
                for (int t = 0; t < 3; ++t) {
                    const int slot = xs + u * sh + t * dh;
                    fr[t] = xring + (slot >= xslots ? slot - xslots : slot) * xrow_b;
                }
                ar[u][0] = fr[0];
                ar[u][1] = row1 ? fr[1] : fr[0];
                ar[u][2] = fr[1];
                ar[u][3] = fr[2];
                ar[u][4] = fr[2];
                const int slot = ys + u;
                dr[u] = dring + (slot >= DM_DSLOTS ? slot - DM_DSLOTS : slot) * drow_b;
            }
#pragma unroll
            for (int k = 0; k < DIRECT_RUNS; ++k)
                if (wr + k * wstep < runs) {
                    // Every fragment of the step first, then the MMAs: the loads overlap.
                    unsigned b[DIRECT_STEP_ROWS][4], f[DIRECT_STEP_ROWS][DM_STEPS][4];
#pragma unroll
                    for (int u = 0; u < DIRECT_STEP_ROWS; ++u)
                        if (u < nr) {
                            ck_ldsm<2, true>(b[u], dr[u] + boff[k]);
#pragma unroll
                            for (int j = 0; j < DM_STEPS; ++j)
                                if (j + 1 < DM_STEPS) {
                                    ck_ldsm<4, true>(f[u][j], ar[u][j] + aoff[k][j]);
                                } else {
                                    ck_ldsm<2, true>(f[u][j], ar[u][j] + aoff[k][j]);
                                    f[u][j][2] = f[u][j][1];
                                    f[u][j][1] = 0;
                                    f[u][j][3] = 0;
                                }
                        }
#pragma unroll
                    for (int u = 0; u < DIRECT_STEP_ROWS; ++u)
                        if (u < nr)
#pragma unroll
                            for (int j = 0; j < DM_STEPS; ++j) ck_mma(acc[j], f[u][j], b[u]);
                }
            xs += DIRECT_STEP_ROWS * sh;
            xs -= xs >= xslots ? xslots : 0;
            ys += DIRECT_STEP_ROWS;
            ys -= ys >= DM_DSLOTS ? DM_DSLOTS : 0;
        }
        // The next chunk's copies reuse the rings.
        ck_cp_wait<0>();
        __syncthreads();
    }
    // Row g4 of step j's tile is tap 2 j's input channel g4 and row g4 + 8 tap 2 j + 1's; the
    // lane's columns are output channels 2 t4 and 2 t4 + 1.
    float* red = reinterpret_cast<float*>(smem);
#pragma unroll
    for (int j = 0; j < DM_STEPS; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h)
            if (2 * j + h < 9) {
                float* p = red + warp * DM_SUMS + (2 * j + h) * 64 + g4 * 8 + 2 * t4;
                p[0] = acc[j][2 * h];
                p[1] = acc[j][2 * h + 1];
            }
    __syncthreads();
    // The block's vectors are workspace rows (g, k) vb·8 to (vb + vecs)·8 of 9·CH columns
    // (tap, c): one contiguous run.
    const int here = nvec - vb < vecs ? nvec - vb : vecs, cols9 = 9 * ch;
    const ck_i64 total = a.G * a.K * 9 * a.C;
    float* out = reinterpret_cast<float*>(a.ws) + (ck_i64)blockIdx.y * total + (ck_i64)vb * 8 * cols9;
    // Element e: row e / (9 CH) (vector, output channel kk), column tap·CH + c; CH is a power
    // of two, so only the division by 9 remains, by a constant.
    const int lg = ch == 1 ? 0 : ch == 2 ? 1 : ch == 4 ? 2 : 3;
    for (int e = (int)threadIdx.x; e < here * 8 * cols9; e += DIRECT_BLOCK) {
        const int row = (e >> lg) / 9, col = e - row * cols9, v = row / 8, kk = row % 8;
        const int tap = col >> lg, cc = (kk >> lg << lg) + (col & (ch - 1));
        float sum = 0.0f;
        for (int w = v; w < DIRECT_WARPS; w += vecs) sum += red[w * DM_SUMS + tap * 64 + cc * 8 + kk];
        out[e] = sum;
    }
}
// The kernel has the tensor-core path: 16-bit operands of one kind.
constexpr bool DM_MMA = sizeof(AT) == 2 && sizeof(BT) == 2 && ck_is_bf16<AT>::value == ck_is_bf16<BT>::value;
#endif

// LDS from the launch: the reduction buffer.
CK_ENTRY_THREADS(direct, DIRECT_BLOCK, 2)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    float* red = reinterpret_cast<float*>(ck_smem);
    const bool across = a.K == 1;
    switch (a.direct_ch) {
    case 1: across ? ck_direct<1, true>(a, red) : ck_direct<1, false>(a, red); break;
    case 2: across ? ck_direct<2, true>(a, red) : ck_direct<2, false>(a, red); break;
    case 4: across ? ck_direct<4, true>(a, red) : ck_direct<4, false>(a, red); break;
    default: ck_direct<8, false>(a, red); break;
    }
}

// The tensor-core path (the host launches it only where the kernel has it); LDS from the launch:
// the rings, then the warps' sums.
CK_ENTRY_THREADS(direct_mma, DIRECT_BLOCK, DIRECT_MMA_BLOCKS)(const CK_GRID_CONST CkArgs a) {
#if defined(CK_MMA_SYNC)
    extern __shared__ __align__(16) unsigned char ck_smem[];
    if (DM_MMA) ck_direct_mma(a, ck_smem);
#endif
}

// The depthwise rows entries; LDS from the launch: the slots' sums, DROWS_STRIDE floats a thread.
CK_ENTRY_THREADS(direct_rows, DROWS_BLOCK, 1)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    ck_direct_rows(a, reinterpret_cast<float*>(ck_smem));
}
CK_ENTRY_THREADS(direct_row_taps, DROWS_BLOCK, 1)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    ck_direct_row_taps(a, reinterpret_cast<float*>(ck_smem));
}
