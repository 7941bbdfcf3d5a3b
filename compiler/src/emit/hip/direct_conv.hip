
// ---- Small-channel forward and backward data, for kernels that merge groups (depthwise and
// narrow grouped convolutions: C = K channels per group, 1, 2, 4 or 8; any filter for 1 or 2,
// whose weights fit the LDS, a 3x3 filter with one depth tap for more; 16 on tensor cores
// only). A GEMM tile would be almost all padding there, so the host launches this entry
// instead. A thread owns one vector of 8 destination channels (8 / CH groups) of one pixel at a
// time. A block's lanes are `direct_vecs` adjacent vectors (up to 8) by DIRECT_BLOCK / vecs
// slots of consecutive pixels of the block's range, so a warp's loads and stores cover whole
// pixels' channels where the vectors span them. The block's weights sit in LDS as fp32 in the order the
// loop reads them, one tap's in 16-byte reads, vectors DCONV_PAD floats apart so that the lanes'
// reads of different vectors fall in different banks. Each tap's source vector is one 16-byte
// load; the 8 results are one 16-byte store.
//
// Forward reads the input at o·s − p + t·d; backward data reads the output gradient at
// (i + p − t·d) / s where the stride divides it, with the weights' K and C roles swapped.

// The source pixel coordinate for destination coordinate `o` through tap offset `t` (tap times
// dilation), or -1 when there is none. UNIT: the stride is 1 (no division).
template <bool UNIT> CK_DEV int ck_dconv_src(int o, int t, int s, int p, ck_i64 n) {
    int i;
    if (CK_OP == CK_FWD) {
        i = o * s - p + t;
    } else {
        i = o + p - t;
        if (!UNIT) {
            if (i < 0 || i % s) return -1;
            i /= s;
        }
    }
    return ck_in(i, n) ? i : -1;
}

template <int CH, bool UNIT> CK_NOINLINE void ck_dconv(const CkArgs& a, float* wl) {
    constexpr int VG = 8 / CH;              // groups of one vector
    constexpr int TW = VG * CH * CH;        // weights of one vector and tap: [vg][src][dst]
    constexpr int WV = 9 * TW + DCONV_PAD;  // a vector's weights, [tap][vg][src][dst], padded
    const bool fwd = CK_OP == CK_FWD;
    const int vecs = (int)a.direct_vecs, nvec = (int)(a.G * CH / 8);
    const int vb = (int)blockIdx.y * vecs;
    // Weight (v, tap, vg, s, d) is w[g][k][c][tap] of group g = (vb + v)·VG + vg, with
    // (k, c) = (d, s) forward and (s, d) backward data.
    const BT* w = reinterpret_cast<const BT*>(a.w);
    for (int e = threadIdx.x; e < vecs * 9 * TW; e += DIRECT_BLOCK) {
        const int v = e / (9 * TW), tap = e % (9 * TW) / TW, vg = e % TW / (CH * CH);
        const int s = e % (CH * CH) / CH, d = e % CH;
        const int g = (vb + v) * VG + vg, k = fwd ? d : s, c = fwd ? s : d;
        wl[v * WV + tap * TW + vg * CH * CH + s * CH + d] =
            vb + v < nvec ? ck_to_float(w[g * a.ws_g + k * a.ws_k + c * a.ws_c + (tap / 3) * a.ws_y +
                                          (tap % 3) * a.ws_x])
                          : 0.0f;
    }
    __syncthreads();
    // Lane = vector + vecs · pixel slot; the block's warps take consecutive pixel slots.
    const int v = (int)threadIdx.x % vecs, slot = (int)threadIdx.x / vecs, slots = DIRECT_BLOCK / vecs;
    // No barrier follows: lanes past the last vector or the last whole slot may leave.
    if (vb + v >= nvec || slot >= slots) return;
    const float* wv = wl + v * WV;
    // Source (input or output gradient) and destination tensors: strides by pixel coordinate.
    const AT* src = reinterpret_cast<const AT*>(fwd ? a.x : a.y);
    OT* dst = ck_out(a);
    const ck_idx s_n = ck_ix(fwd ? a.xs_n : a.ys_n), s_d = ck_ix(fwd ? a.xs_d : a.ys_d),
                 s_h = ck_ix(fwd ? a.xs_h : a.ys_h), s_w = ck_ix(fwd ? a.xs_w : a.ys_w);
    const ck_idx d_n = ck_ix(fwd ? a.ys_n : a.xs_n), d_d = ck_ix(fwd ? a.ys_d : a.xs_d),
                 d_h = ck_ix(fwd ? a.ys_h : a.xs_h), d_w = ck_ix(fwd ? a.ys_w : a.xs_w);
    const ck_i64 sD = fwd ? a.Di : a.Do, sH = fwd ? a.Hi : a.Ho, sW = fwd ? a.Wi : a.Wo;
    const ck_radix pr = fwd ? ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo}
                            : ck_radix{(ck_u32)a.Di, (ck_u32)a.Hi, (ck_u32)a.Wi};
    // The vector's first channel: group (vb + v)·VG, channel 0 (channels are contiguous).
    const ck_idx s_c0 = ck_ix((ck_i64)(vb + v) * VG * (fwd ? a.xs_g : a.ys_g));
    const ck_idx d_c0 = ck_ix((ck_i64)(vb + v) * VG * (fwd ? a.ys_g : a.xs_g));
    const int pixels = (int)(a.N * pr.r1 * pr.r2 * pr.r3);
    const int p0 = (int)blockIdx.x * (int)a.direct_pixels;
    const int p1 = p0 + (int)a.direct_pixels < pixels ? p0 + (int)a.direct_pixels : pixels;
    // The window's geometry in registers: this out-of-line function reads `a` through a generic
    // pointer, and the stores below could alias it, so reads in the loop recur every pixel.
    const int str_d = (int)a.sd, str_h = (int)a.sh, str_w = (int)a.sw;
    const int pad_d = (int)a.pd, pad_h = (int)a.ph, pad_w = (int)a.pw, dil_h = (int)a.dh, dil_w = (int)a.dw;
    const ck_d4 step = ck_split4(slots, pr);
    ck_d4 px = ck_split4(p0 + slot, pr);
    for (int p = p0 + slot; p < p1; p += slots, ck_advance4(px, step, pr)) {
        const int sd = ck_dconv_src<UNIT>(px.v[1], 0, str_d, pad_d, sD);
        const ck_idx base = px.v[0] * s_n + sd * s_d + s_c0;
        int sh[3], sw[3];
#pragma unroll
        for (int t = 0; t < 3; ++t) {
            sh[t] = ck_dconv_src<UNIT>(px.v[2], t * dil_h, str_h, pad_h, sH);
            sw[t] = ck_dconv_src<UNIT>(px.v[3], t * dil_w, str_w, pad_w, sW);
        }
        // Every load of the pixel is issued before any is used: taps outside the source read
        // its first vector and are zeroed after.
        ck_vec<AT, 8> xr[9];
        bool in[9];
#pragma unroll
        for (int t = 0; t < 9; ++t) {
            in[t] = sd >= 0 && sh[t / 3] >= 0 && sw[t % 3] >= 0;
            const ck_idx off = in[t] ? base + sh[t / 3] * s_h + sw[t % 3] * s_w : 0;
            xr[t] = *reinterpret_cast<const ck_vec<AT, 8>*>(src + off);
        }
        float acc[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[j] = 0.0f;
#pragma unroll
        for (int t = 0; t < 9; ++t) {
            float xf[8];
#pragma unroll
            for (int j = 0; j < 8; ++j) xf[j] = in[t] ? ck_to_float(xr[t].v[j]) : 0.0f;
            // The tap's weights [vg][src][dst] in 16-byte LDS reads (TW and WV are multiples of
            // 4): weight i feeds destination channel (vg, i % CH) from source channel
            // (vg, i / CH % CH).
            const ck_vec<float, 4>* w4 = reinterpret_cast<const ck_vec<float, 4>*>(wv + t * TW);
#pragma unroll
            for (int q = 0; q < TW / 4; ++q) {
                const ck_vec<float, 4> wq = w4[q];
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int i = 4 * q + e, vg = i / (CH * CH);
                    acc[vg * CH + i % CH] += xf[vg * CH + i / CH % CH] * wq.v[e];
                }
            }
        }
        const ck_idx out = px.v[0] * d_n + px.v[1] * d_d + px.v[2] * d_h + px.v[3] * d_w + d_c0;
        ck_vec<OT, 8> o;
#pragma unroll
        for (int j = 0; j < 8; ++j) o.v[j] = ck_final(a, out + j, acc[j]);
        *reinterpret_cast<ck_vec<OT, 8>*>(dst + out) = o;
    }
}

// Other filters (1 or 2 channels a group; the host checks that the block's weights fit the LDS):
// the same lanes and weight order, the taps a filter row at a time, each row's loads in chunks
// of DCONV_SIDE columns issued before any is used, rows outside the source skipped.
constexpr int DCONV_SIDE = 7;

template <int CH, bool UNIT> CK_NOINLINE void ck_dconv_any(const CkArgs& a, float* wl) {
    constexpr int VG = 8 / CH, TW = VG * CH * CH;
    const bool fwd = CK_OP == CK_FWD;
    const int fz = (int)a.Z, fy = (int)a.Y, fx = (int)a.X, taps = fz * fy * fx;
    const int wvec = taps * TW + DCONV_PAD;
    const int vecs = (int)a.direct_vecs, nvec = (int)(a.G * CH / 8);
    const int vb = (int)blockIdx.y * vecs;
    const BT* w = reinterpret_cast<const BT*>(a.w);
    for (int e = threadIdx.x; e < vecs * taps * TW; e += DIRECT_BLOCK) {
        const int v = e / (taps * TW), tap = e % (taps * TW) / TW, vg = e % TW / (CH * CH);
        const int s = e % (CH * CH) / CH, d = e % CH;
        const int g = (vb + v) * VG + vg, k = fwd ? d : s, c = fwd ? s : d;
        const int tz = tap / (fy * fx), ty = tap / fx % fy, tx = tap % fx;
        wl[v * wvec + tap * TW + vg * CH * CH + s * CH + d] =
            vb + v < nvec ? ck_to_float(w[g * a.ws_g + k * a.ws_k + c * a.ws_c + tz * a.ws_z +
                                          ty * a.ws_y + tx * a.ws_x])
                          : 0.0f;
    }
    __syncthreads();
    const int v = (int)threadIdx.x % vecs, slot = (int)threadIdx.x / vecs, slots = DIRECT_BLOCK / vecs;
    if (vb + v >= nvec || slot >= slots) return;
    const float* wv = wl + v * wvec;
    const AT* src = reinterpret_cast<const AT*>(fwd ? a.x : a.y);
    OT* dst = ck_out(a);
    const ck_idx s_n = ck_ix(fwd ? a.xs_n : a.ys_n), s_d = ck_ix(fwd ? a.xs_d : a.ys_d),
                 s_h = ck_ix(fwd ? a.xs_h : a.ys_h), s_w = ck_ix(fwd ? a.xs_w : a.ys_w);
    const ck_idx d_n = ck_ix(fwd ? a.ys_n : a.xs_n), d_d = ck_ix(fwd ? a.ys_d : a.xs_d),
                 d_h = ck_ix(fwd ? a.ys_h : a.xs_h), d_w = ck_ix(fwd ? a.ys_w : a.xs_w);
    const ck_i64 sD = fwd ? a.Di : a.Do, sH = fwd ? a.Hi : a.Ho, sW = fwd ? a.Wi : a.Wo;
    const ck_radix pr = fwd ? ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo}
                            : ck_radix{(ck_u32)a.Di, (ck_u32)a.Hi, (ck_u32)a.Wi};
    const ck_idx s_c0 = ck_ix((ck_i64)(vb + v) * VG * (fwd ? a.xs_g : a.ys_g));
    const ck_idx d_c0 = ck_ix((ck_i64)(vb + v) * VG * (fwd ? a.ys_g : a.xs_g));
    const int pixels = (int)(a.N * pr.r1 * pr.r2 * pr.r3);
    const int p0 = (int)blockIdx.x * (int)a.direct_pixels;
    const int p1 = p0 + (int)a.direct_pixels < pixels ? p0 + (int)a.direct_pixels : pixels;
    const int str_d = (int)a.sd, str_h = (int)a.sh, str_w = (int)a.sw;
    const int pad_d = (int)a.pd, pad_h = (int)a.ph, pad_w = (int)a.pw;
    const int dil_d = (int)a.dd, dil_h = (int)a.dh, dil_w = (int)a.dw;
    const ck_d4 step = ck_split4(slots, pr);
    ck_d4 px = ck_split4(p0 + slot, pr);
    for (int p = p0 + slot; p < p1; p += slots, ck_advance4(px, step, pr)) {
        float acc[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[j] = 0.0f;
        for (int tz = 0; tz < fz; ++tz) {
            const int sd = ck_dconv_src<UNIT>(px.v[1], tz * dil_d, str_d, pad_d, sD);
            if (sd < 0) continue;
            for (int ty = 0; ty < fy; ++ty) {
                const int sh = ck_dconv_src<UNIT>(px.v[2], ty * dil_h, str_h, pad_h, sH);
                if (sh < 0) continue;
                const ck_idx row = px.v[0] * s_n + sd * s_d + sh * s_h + s_c0;
                const float* wr = wv + ((tz * fy + ty) * fx) * TW;
                for (int x0 = 0; x0 < fx; x0 += DCONV_SIDE) {
                    ck_vec<AT, 8> xr[DCONV_SIDE];
                    bool in[DCONV_SIDE];
#pragma unroll
                    for (int t = 0; t < DCONV_SIDE; ++t) {
                        const int sw = x0 + t < fx
                                           ? ck_dconv_src<UNIT>(px.v[3], (x0 + t) * dil_w, str_w, pad_w, sW)
                                           : -1;
                        in[t] = sw >= 0;
                        if (x0 + t < fx)
                            xr[t] = *reinterpret_cast<const ck_vec<AT, 8>*>(src + (in[t] ? row + sw * s_w : 0));
                    }
#pragma unroll
                    for (int t = 0; t < DCONV_SIDE; ++t) {
                        if (x0 + t >= fx) break;
                        float xf[8];
#pragma unroll
                        for (int j = 0; j < 8; ++j) xf[j] = in[t] ? ck_to_float(xr[t].v[j]) : 0.0f;
                        const ck_vec<float, 4>* w4 =
                            reinterpret_cast<const ck_vec<float, 4>*>(wr + (x0 + t) * TW);
#pragma unroll
                        for (int q = 0; q < TW / 4; ++q) {
                            const ck_vec<float, 4> wq = w4[q];
#pragma unroll
                            for (int e = 0; e < 4; ++e) {
                                const int i = 4 * q + e, vg = i / (CH * CH);
                                acc[vg * CH + i % CH] += xf[vg * CH + i / CH % CH] * wq.v[e];
                            }
                        }
                    }
                }
            }
        }
        const ck_idx out = px.v[0] * d_n + px.v[1] * d_d + px.v[2] * d_h + px.v[3] * d_w + d_c0;
        ck_vec<OT, 8> o;
#pragma unroll
        for (int j = 0; j < 8; ++j) o.v[j] = ck_final(a, out + j, acc[j]);
        *reinterpret_cast<ck_vec<OT, 8>*>(dst + out) = o;
    }
}

// The depthwise strip and band bodies' weights, as fp32 in LDS: vector v's taps (depth, row,
// column) of its 8 groups at wl[v·(taps·8 + DCONV_PAD) + tap·8 + group], zeros for groups past G. Backward data's are
// reversed along the row, and also along the filter rows where `flip_rows`, so that its taps
// run forward through the source as forward's do.
template <int FX> CK_DEV void ck_dw_weights(const CkArgs& a, float* wl, int fz, int fy, bool flip_rows) {
    const bool fwd = CK_OP == CK_FWD;
    const int taps = fz * fy * FX, wvec = taps * 8 + DCONV_PAD;
    const int vecs = (int)a.direct_vecs, vb = (int)blockIdx.y * vecs;
    const BT* w = reinterpret_cast<const BT*>(a.w);
    for (int e = threadIdx.x; e < vecs * taps * 8; e += DIRECT_BLOCK) {
        const int v = e / (taps * 8), tap = e % (taps * 8) / 8, g = (vb + v) * 8 + e % 8;
        const int tz = tap / (fy * FX), ty = tap / FX % fy, tx = tap % FX;
        const int wy = fwd || !flip_rows ? ty : fy - 1 - ty, wx = fwd ? tx : FX - 1 - tx;
        wl[v * wvec + tap * 8 + e % 8] =
            g < a.G ? ck_to_float(w[g * a.ws_g + tz * a.ws_z + wy * a.ws_y + wx * a.ws_x]) : 0.0f;
    }
}

// One filter row of a strip of DCONV_STRIP destination pixels: the row's weights (`wrow`, the
// vector's FX taps of 8 groups in LDS) into registers, then each of the row's source columns
// once, `col(j, xf)` giving column j as fp32, added into every output it meets.
template <int FX, int S, typename Col>
CK_DEV void ck_dw_row(float (&acc)[DCONV_STRIP][8], const float* wrow, Col col) {
    constexpr int P = DCONV_STRIP, COLS = (P - 1) * S + FX;
    float wr[FX][8];
    const ck_vec<float, 4>* w4 = reinterpret_cast<const ck_vec<float, 4>*>(wrow);
#pragma unroll
    for (int t = 0; t < FX; ++t)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const ck_vec<float, 4> q = w4[2 * t + h];
#pragma unroll
            for (int e = 0; e < 4; ++e) wr[t][4 * h + e] = q.v[e];
        }
#pragma unroll
    for (int j = 0; j < COLS; ++j) {
        float xf[8];
        col(j, xf);
#pragma unroll
        for (int q = 0; q < P; ++q) {
            const int t = j - q * S;
            if (t >= 0 && t < FX)
#pragma unroll
                for (int k = 0; k < 8; ++k) acc[q][k] += xf[k] * wr[t][k];
        }
    }
}

// A strip's sums, after the output's element-wise op, as one 16-byte store a pixel: `out` is
// its row's first element, pixels o0 on, those past `width` left out. With PAIRS a store a
// pair of channels, the `groups` of the vector that exist (G need only be even).
template <bool PAIRS>
CK_DEV void ck_dw_store(const CkArgs& a, OT* dst, ck_idx out, ck_idx d_w, int o0, int width, int groups,
                        const float (&acc)[DCONV_STRIP][8]) {
#pragma unroll
    for (int q = 0; q < DCONV_STRIP; ++q)
        if (o0 + q < width) {
            const ck_idx o = out + (o0 + q) * d_w;
            if constexpr (PAIRS) {
#pragma unroll
                for (int h = 0; h < 4; ++h)
                    if (2 * h < groups) {
                        ck_vec<OT, 2> r;
                        r.v[0] = ck_final(a, o + 2 * h, acc[q][2 * h]);
                        r.v[1] = ck_final(a, o + 2 * h + 1, acc[q][2 * h + 1]);
                        *reinterpret_cast<ck_vec<OT, 2>*>(dst + o + 2 * h) = r;
                    }
            } else {
                ck_vec<OT, 8> r;
#pragma unroll
                for (int k = 0; k < 8; ++k) r.v[k] = ck_final(a, o + k, acc[q][k]);
                *reinterpret_cast<ck_vec<OT, 8>*>(dst + o) = r;
            }
        }
}

// Depthwise strips (one channel a group, FX taps a row at unit width dilation: forward at width
// stride S, backward data at unit strides; the host picks it, see `dconv_strip`): a thread takes
// DCONV_STRIP adjacent destination pixels of a row, so each source column of a filter row is
// loaded and converted once for every output it meets, and the row's weights sit in registers
// for all of them. Where the per-pixel body spends two LDS reads and eight conversions on every
// eight multiply-adds, this spends them on every 8·DCONV_STRIP. Backward data reads the output
// gradient at i + p − t: the weights are stored reversed along the row (the host's taps then
// run forward from i + p − (FX − 1)). PAIRS (G even, not a multiple of 8: its pixels are not
// 16-byte aligned) reads and writes a vector as four pairs of channels, the pairs past G
// neither read nor written.
template <int FX, int S, bool PAIRS> CK_NOINLINE void ck_dconv_strip(const CkArgs& a, float* wl) {
    constexpr int P = DCONV_STRIP;
    const bool fwd = CK_OP == CK_FWD;
    const int fz = (int)a.Z, fy = (int)a.Y, wvec = fz * fy * FX * 8 + DCONV_PAD;
    const int vecs = (int)a.direct_vecs, nvec = (int)((a.G + 7) / 8);
    const int vb = (int)blockIdx.y * vecs;
    ck_dw_weights<FX>(a, wl, fz, fy, false);
    __syncthreads();
    const int v = (int)threadIdx.x % vecs, slot = (int)threadIdx.x / vecs, slots = DIRECT_BLOCK / vecs;
    if (vb + v >= nvec || slot >= slots) return;
    const float* wv = wl + v * wvec;
    // The vector's groups that exist: 8 but in the last vector of a partial one.
    const int groups = (int)a.G - (vb + v) * 8;
    const AT* src = reinterpret_cast<const AT*>(fwd ? a.x : a.y);
    OT* dst = ck_out(a);
    const ck_idx s_n = ck_ix(fwd ? a.xs_n : a.ys_n), s_d = ck_ix(fwd ? a.xs_d : a.ys_d),
                 s_h = ck_ix(fwd ? a.xs_h : a.ys_h), s_w = ck_ix(fwd ? a.xs_w : a.ys_w);
    const ck_idx d_n = ck_ix(fwd ? a.ys_n : a.xs_n), d_d = ck_ix(fwd ? a.ys_d : a.xs_d),
                 d_h = ck_ix(fwd ? a.ys_h : a.xs_h), d_w = ck_ix(fwd ? a.ys_w : a.xs_w);
    const ck_i64 sD = fwd ? a.Di : a.Do, sH = fwd ? a.Hi : a.Ho;
    const int sW = (int)(fwd ? a.Wi : a.Wo), dW = (int)(fwd ? a.Wo : a.Wi);
    // Strips of P pixels: (image, depth, row, strip).
    const ck_radix pr = fwd ? ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)((a.Wo + P - 1) / P)}
                            : ck_radix{(ck_u32)a.Di, (ck_u32)a.Hi, (ck_u32)((a.Wi + P - 1) / P)};
    const ck_idx s_c0 = ck_ix((ck_i64)(vb + v) * 8 * (fwd ? a.xs_g : a.ys_g));
    const ck_idx d_c0 = ck_ix((ck_i64)(vb + v) * 8 * (fwd ? a.ys_g : a.xs_g));
    const int strips = (int)(a.N * pr.r1 * pr.r2 * pr.r3);
    const int p0 = (int)blockIdx.x * (int)a.direct_pixels;
    const int p1 = p0 + (int)a.direct_pixels < strips ? p0 + (int)a.direct_pixels : strips;
    const int str_d = (int)a.sd, str_h = (int)a.sh, pad_d = (int)a.pd, pad_h = (int)a.ph, pad_w = (int)a.pw;
    const int dil_d = (int)a.dd, dil_h = (int)a.dh;
    const ck_d4 step = ck_split4(slots, pr);
    ck_d4 px = ck_split4(p0 + slot, pr);
    for (int p = p0 + slot; p < p1; p += slots, ck_advance4(px, step, pr)) {
        const int o0 = px.v[3] * P;
        // The strip's first source column.
        const int c0 = fwd ? o0 * S - pad_w : o0 + pad_w - (FX - 1);
        float acc[P][8];
#pragma unroll
        for (int q = 0; q < P; ++q)
#pragma unroll
            for (int j = 0; j < 8; ++j) acc[q][j] = 0.0f;
        for (int tz = 0; tz < fz; ++tz) {
            const int sd = ck_dconv_src<true>(px.v[1], tz * dil_d, str_d, pad_d, sD);
            if (sd < 0) continue;
            for (int ty = 0; ty < fy; ++ty) {
                const int sh = ck_dconv_src<true>(px.v[2], ty * dil_h, str_h, pad_h, sH);
                if (sh < 0) continue;
                const ck_idx row = px.v[0] * s_n + sd * s_d + sh * s_h + s_c0;
                ck_dw_row<FX, S>(acc, wv + (tz * fy + ty) * FX * 8, [&](int j, float(&xf)[8]) {
                    const int col = c0 + j;
                    const bool in = col >= 0 && col < sW;
                    if constexpr (PAIRS) {
#pragma unroll
                        for (int h = 0; h < 4; ++h) {
                            ck_vec<AT, 2> xv = {};
                            if (in && 2 * h < groups) xv = *reinterpret_cast<const ck_vec<AT, 2>*>(src + row + col * s_w + 2 * h);
                            xf[2 * h] = ck_to_float(xv.v[0]);
                            xf[2 * h + 1] = ck_to_float(xv.v[1]);
                        }
                    } else {
                        const ck_vec<AT, 8> xv = *reinterpret_cast<const ck_vec<AT, 8>*>(src + (in ? row + col * s_w : row));
#pragma unroll
                        for (int k = 0; k < 8; ++k) xf[k] = in ? ck_to_float(xv.v[k]) : 0.0f;
                    }
                });
            }
        }
        ck_dw_store<PAIRS>(a, dst, px.v[0] * d_n + px.v[1] * d_d + px.v[2] * d_h + d_c0, d_w, o0, dW, groups, acc);
    }
}

// A 16-byte chunk into LDS, zeros where `valid` is false: a cp.async where the target has one
// (landed once ck_stage_wait<N> leaves at most N later groups pending), else a load and a store.
CK_DEV void ck_stage16(void* dst, const void* src, bool valid) {
#if defined(CK_CP_ASYNC)
    ck_cp_async<16>(dst, src, valid);
#else
    ck_vec<unsigned, 4> v = {};
    if (valid) v = *reinterpret_cast<const ck_vec<unsigned, 4>*>(src);
    *reinterpret_cast<ck_vec<unsigned, 4>*>(dst) = v;
#endif
}
CK_DEV void ck_stage_commit() {
#if defined(CK_CP_ASYNC)
    ck_cp_commit();
#endif
}
template <int PENDING> CK_DEV void ck_stage_wait() {
#if defined(CK_CP_ASYNC)
    ck_cp_wait<PENDING>();
#endif
}

// Depthwise bands (one channel a group, rows of 3, 5 or 7 taps at unit width dilation, one
// depth tap: forward at width stride S, backward data at unit strides; the host picks it, see
// `dconv_band_plan`). A band is `direct_rows` destination rows by `direct_pixels` strips of
// DCONV_STRIP pixels of one (image, depth) plane; the block stages the source rows and columns
// a band reads, for all of its vectors, in LDS (zeros outside the source: no bounds checks
// after), and each thread then takes strips of one vector as `ck_dconv_strip` does, reading its
// columns from LDS. Blocks take every gridDim.x-th band, the copies of the next in flight
// while one is read (cp.async where the target has it), so memory stays busy at two blocks an
// SM. Backward data reads the output gradient at i + p − t: the weights are stored reversed
// along both axes, so its source rows and columns also run forward from the band's first.
// LDS: the weights, then the two bands' buffers.
template <int FX, int S> CK_NOINLINE void ck_dconv_band(const CkArgs& a, unsigned char* lds) {
    constexpr int P = DCONV_STRIP;
    const bool fwd = CK_OP == CK_FWD;
    const int fy = (int)a.Y, wvec = fy * FX * 8 + DCONV_PAD;
    const int vecs = (int)a.direct_vecs, nvec = (int)(a.G / 8);
    float* wl = reinterpret_cast<float*>(lds);
    unsigned char* stage = lds + vecs * wvec * 4;
    const int vb = (int)blockIdx.y * vecs;
    const AT* src = reinterpret_cast<const AT*>(fwd ? a.x : a.y);
    OT* dst = ck_out(a);
    const ck_idx s_n = ck_ix(fwd ? a.xs_n : a.ys_n), s_d = ck_ix(fwd ? a.xs_d : a.ys_d),
                 s_h = ck_ix(fwd ? a.xs_h : a.ys_h), s_w = ck_ix(fwd ? a.xs_w : a.ys_w);
    const ck_idx d_n = ck_ix(fwd ? a.ys_n : a.xs_n), d_d = ck_ix(fwd ? a.ys_d : a.xs_d),
                 d_h = ck_ix(fwd ? a.ys_h : a.xs_h), d_w = ck_ix(fwd ? a.ys_w : a.xs_w);
    // A vector's channel stride (8 groups) in the source and the destination.
    const ck_idx s_v = ck_ix(8 * (fwd ? a.xs_g : a.ys_g)), d_v = ck_ix(8 * (fwd ? a.ys_g : a.xs_g));
    const ck_idx s_c0 = vb * s_v, d_c0 = vb * d_v;
    const int sD = (int)(fwd ? a.Di : a.Do), sH = (int)(fwd ? a.Hi : a.Ho), sW = (int)(fwd ? a.Wi : a.Wo);
    const int dD = (int)(fwd ? a.Do : a.Di), dH = (int)(fwd ? a.Ho : a.Hi), dW = (int)(fwd ? a.Wo : a.Wi);
    const int dil_h = (int)a.dh, step_h = fwd ? (int)a.sh : 1;
    // A band's first source row and column relative to its first destination row and column.
    const int row_off = fwd ? -(int)a.ph : (int)a.ph - (fy - 1) * dil_h;
    const int col_off = fwd ? -(int)a.pw : (int)a.pw - (FX - 1);
    const int rows = (int)a.direct_rows, strips = (int)a.direct_pixels;
    const int span_r = (rows - 1) * step_h + (fy - 1) * dil_h + 1, span_c = (strips * P - 1) * S + FX;
    // A vector is PV 16-byte pieces (two for fp32).
    constexpr int PV = (int)sizeof(ck_vec<AT, 8>) / 16;
    const int pieces = span_r * span_c * vecs * PV, items = rows * strips * vecs;
    const int row_bands = (dH + rows - 1) / rows, col_bands = ((dW + P - 1) / P + strips - 1) / strips;
    const int bands = (int)a.N * dD * row_bands * col_bands;
    // Band b: (image, depth, row band, column band), the last fastest.
    struct Band { int n, d, r0, c0; };
    const auto band_of = [&](int b) {
        Band k;
        k.c0 = b % col_bands * strips * P;
        k.r0 = b / col_bands % row_bands * rows;
        k.d = b / col_bands / row_bands % dD;
        k.n = b / col_bands / row_bands / dD;
        return k;
    };
    const auto load = [&](int b, unsigned char* buf) {
        const Band k = band_of(b);
        const int sd = fwd ? k.d * (int)a.sd - (int)a.pd : k.d + (int)a.pd;
        const bool plane = sd >= 0 && sd < sD;
        const ck_idx base = k.n * s_n + (plane ? sd : 0) * s_d + s_c0;
        const int r_lo = k.r0 * step_h + row_off, c_lo = k.c0 * S + col_off;
        // Piece e is (row, column, vector, piece), the last fastest: whole pixels, in address
        // order.
        for (int e = threadIdx.x; e < pieces; e += DIRECT_BLOCK) {
            const int px = e / PV, v = px % vecs, col = c_lo + px / vecs % span_c, row = r_lo + px / vecs / span_c;
            const bool ok = plane && vb + v < nvec && row >= 0 && row < sH && col >= 0 && col < sW;
            const AT* from = src + (ok ? base + row * s_h + col * s_w + v * s_v + e % PV * (16 / (int)sizeof(AT)) : 0);
            ck_stage16(buf + e * 16, from, ok);
        }
        ck_stage_commit();
    };
    const int buf_bytes = pieces * 16;
    int b = (int)blockIdx.x;
    if (b < bands) load(b, stage);
    // The weights while the first band's copies fly.
    ck_dw_weights<FX>(a, wl, 1, fy, true);
    for (int k = 0; b < bands; ++k, b += (int)gridDim.x) {
        const int next = b + (int)gridDim.x;
        if (next < bands) load(next, stage + ((k + 1) & 1) * buf_bytes);
        else ck_stage_commit();
        // Band b's copies have landed (all but the group just issued); the barrier shows every
        // thread's to all, and on the first band the weights as well.
        ck_stage_wait<1>();
        __syncthreads();
        const Band kb = band_of(b);
        const ck_vec<AT, 8>* buf = reinterpret_cast<const ck_vec<AT, 8>*>(stage + (k & 1) * buf_bytes);
        const ck_idx out_row = kb.n * d_n + kb.d * d_d + d_c0;
        for (int it = threadIdx.x; it < items; it += DIRECT_BLOCK) {
            const int v = it % vecs, st = it / vecs % strips, q = it / vecs / strips;
            const int r = kb.r0 + q, o0 = kb.c0 + st * P;
            if (vb + v >= nvec || r >= dH || o0 >= dW) continue;
            const float* wv = wl + v * wvec;
            float acc[P][8];
#pragma unroll
            for (int i = 0; i < P; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
            for (int ty = 0; ty < fy; ++ty) {
                const ck_vec<AT, 8>* row = buf + ((q * step_h + ty * dil_h) * span_c + st * P * S) * vecs + v;
                ck_dw_row<FX, S>(acc, wv + ty * FX * 8, [&](int j, float(&xf)[8]) {
                    const ck_vec<AT, 8> xv = row[j * vecs];
#pragma unroll
                    for (int e = 0; e < 8; ++e) xf[e] = ck_to_float(xv.v[e]);
                });
            }
            ck_dw_store<false>(a, dst, out_row + r * d_h + v * d_v, d_w, o0, dW, 8, acc);
        }
        // Every thread is done with this buffer before the next band's copies overwrite it.
        __syncthreads();
    }
}

#if defined(CK_MMA_SYNC)
// Tensor cores (sm_80+, 16-bit source and weights; the host picks it, see `dconv_tensor_cores`)
// over a filter of FY x FX taps (3x3, or the smaller filters of backward data's stride phases):
// each vector's 8 destination channels are the N of m16n8 MMAs over runs of 16 pixels; GEMM-K
// is two taps of the vector's 8 source channels a k16 step, and an odd last tap a k8 step; the
// weights of groups that do not meet are zeros (a vector holds 8 / CH groups). A warp owns up
// to DC_VW vectors and every DIRECT_BLOCK / 32 / (vectors / DC_VW)-th run of the block's
// pixels; the B fragments stay in its registers. Each run's source vectors are copied with
// cp.async (zero-filled in the padding and, where backward data divides by a stride, at the
// taps it does not divide) into the warp's ring of DC_STAGES tap pairs, the copies of the
// next two steps in flight while one is multiplied, and read back with ldmatrix: a tap holds
// 16 pixels by the warp's vectors in 16-byte chunks XOR-swizzled within 128-byte lines, so the
// eight pixels of a matrix fall in distinct banks.
// 16-channel groups (G16): a warp owns one group, its two vectors. A tap's 16 source channels
// are one k16 step and the group's two destination vectors two MMAs of it: the A fragment's
// halves are the two source vectors where 8-channel groups take two taps.
// Row windows (WIN; 3x3 or a stride phase's filter, at unit width and height stride and
// dilation, see `dconv_window`): runs stay within destination rows (each row padded to whole
// runs) and take strips of them (DC_STRIP_ROWS rows at 16 channels a group, DC_STRIP_ROWS8 at
// fewer). A step copies one
// source row's window of 16 + FX - 1 pixels once, where tap pairs copy each source pixel
// once a tap, and its fragments feed every row of the strip that it meets, through that
// row's filter row: taps in pairs, an odd last one a k8 step; ldmatrix reads each tap's 16
// pixels at its offset in the window. Forward also takes stride 2 (S): a window of 33 source
// pixels, a tap's 16 pixels every other slot from its offset, 2 R + 1 source rows a strip of
// R, and two vectors a warp (a window of four would not fit a stage).
constexpr int DC_STAGES = 3;
constexpr int DC_TAP = 16 * DC_VW * 8;            // elements of one tap's chunks
constexpr int DC_WARP = DC_STAGES * 2 * DC_TAP;   // elements of a warp's ring

// Inlined into its entry, unlike the SIMT bodies: its argument reads stay constant-bank
// operands, where out of line they were generic loads and the body spilled.
// S: the row windows' stride (forward 16-channel groups at stride 2 in both dimensions, else 1).
template <int FY, int FX, bool WIN, bool G16, int S = 1>
CK_DEV void ck_dconv_mma(const CkArgs& a, AT* lds) {
    // Destination rows of a run (strips), and the source rows (steps) of its window.
    constexpr int R = WIN ? (G16 ? DC_STRIP_ROWS : DC_STRIP_ROWS8) : 1, WROWS = S * (R - 1) + FY;
    constexpr int TAPS = FY * FX, STEPS = WIN ? WROWS : (TAPS + 1) / 2, SPAN = 15 * S + FX;
    // Vectors a warp owns, and the 8x8 weight blocks (k8 B fragments) of one vector.
    constexpr int VW = G16 || S == 2 ? 2 : DC_VW, KB = G16 ? 2 * TAPS : TAPS;
    // Elements of a stage of the ring (a window's chunks in whole 128-byte lines, within which
    // they are swizzled), and the items the copies run ahead.
    constexpr int NST = DC_STAGES, STAGE = WIN ? (SPAN * VW + 7) / 8 * 64 : 2 * DC_TAP, AHEAD = NST - 1;
    static_assert(STAGE <= 2 * DC_TAP, "a window fits a stage");
    const bool fwd = CK_OP == CK_FWD;
    const int ch = G16 ? 16 : (int)a.direct_ch, vecs = (int)a.direct_vecs, nvec = (int)(a.G * ch / 8);
    const int vw = vecs < VW ? vecs : VW, vsets = vecs / vw, pwarps = DIRECT_BLOCK / 32 / vsets;
    const int warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32, g4 = lane / 4, t4 = lane % 4;
    const int v0 = (int)blockIdx.y * vecs + (warp % vsets) * vw, pw = warp / vsets;
    AT* ring = lds + warp * DC_WARP;
    // The block's weights, staged once in the ring's space as 8x8 blocks [vector][k8 block]
    // [source channel][destination channel] of raw bits (zero where the channels' groups
    // differ), then each lane's B fragments: register b of vector v holds block b's weights
    // from source channels 2 t4 and 2 t4 + 1 to destination channel g4. Block b is tap b, or
    // for 16-channel groups source vector b % 2 of tap b / 2.
    const BT* w = reinterpret_cast<const BT*>(a.w);
    ck_u16* wb = reinterpret_cast<ck_u16*>(lds);
    const int vb = (int)blockIdx.y * vecs;
    for (int e = (int)threadIdx.x; e < vecs * KB * 64; e += DIRECT_BLOCK) {
        const int v = e / (KB * 64), kb = e / 64 % KB, t = G16 ? kb / 2 : kb;
        // Source and destination channels within the vectors' group.
        const int sc = e / 8 % 8 + (G16 ? kb % 2 * 8 : 0), dc = e % 8 + (G16 ? (vb + v) % 2 * 8 : 0);
        ck_u16 bits = 0;
        if (vb + v < nvec && (G16 || sc / ch == dc / ch)) {
            const ck_i64 g = G16 ? (vb + v) / 2 : (ck_i64)(vb + v) * (8 / ch) + dc / ch;
            const ck_i64 k = fwd ? dc % ch : sc % ch, c = fwd ? sc % ch : dc % ch;
            bits = w[g * a.ws_g + k * a.ws_k + c * a.ws_c + (t / FX) * a.ws_y + (t % FX) * a.ws_x].bits;
        }
        wb[e] = bits;
    }
    __syncthreads();
    unsigned bf[VW][KB];
#pragma unroll
    for (int v = 0; v < VW; ++v)
#pragma unroll
        for (int b = 0; b < KB; ++b) {
            const int at = (((v0 - vb + (v < vw ? v : 0)) * KB + b) * 8 + 2 * t4) * 8 + g4;
            bf[v][b] = (unsigned)wb[at] | ((unsigned)wb[at + 8] << 16);
        }
    __syncthreads();
    const AT* src = reinterpret_cast<const AT*>(fwd ? a.x : a.y);
    const ck_idx s_n = ck_ix(fwd ? a.xs_n : a.ys_n), s_d = ck_ix(fwd ? a.xs_d : a.ys_d),
                 s_h = ck_ix(fwd ? a.xs_h : a.ys_h), s_w = ck_ix(fwd ? a.xs_w : a.ys_w);
    const ck_idx d_n = ck_ix(fwd ? a.ys_n : a.xs_n), d_d = ck_ix(fwd ? a.ys_d : a.xs_d),
                 d_h = ck_ix(fwd ? a.ys_h : a.xs_h), d_w = ck_ix(fwd ? a.ys_w : a.xs_w);
    const ck_i64 sD = fwd ? a.Di : a.Do, sH = fwd ? a.Hi : a.Ho, sW = fwd ? a.Wi : a.Wo;
    // A vector's offset from the last (groups and channels are packed: 8 channels on).
    const ck_idx s_vec = G16 ? 8 : ck_ix((ck_i64)(8 / ch) * (fwd ? a.xs_g : a.ys_g));
    const ck_idx d_vec = G16 ? 8 : ck_ix((ck_i64)(8 / ch) * (fwd ? a.ys_g : a.xs_g));
    // Row windows pad each destination row to whole runs; strips count its rows R at a time.
    const int dwidth = (int)(fwd ? a.Wo : a.Wi), rwidth = WIN ? (dwidth + 15) / 16 * 16 : dwidth;
    const int dheight = (int)(fwd ? a.Ho : a.Hi);
    const ck_radix pr = {(ck_u32)(fwd ? a.Do : a.Di), (ck_u32)((dheight + R - 1) / R), (ck_u32)rwidth};
    const int pixels = (int)(a.N * pr.r1 * pr.r2 * pr.r3);
    const int p0 = (int)blockIdx.x * (int)a.direct_pixels;
    const int p1 = p0 + (int)a.direct_pixels < pixels ? p0 + (int)a.direct_pixels : pixels;
    const int runs = (p1 - p0 + 15) / 16, mine = runs > pw ? (runs - pw + pwarps - 1) / pwarps : 0;
    // The lane's copy chunks of a tap: pixel c / vw, vector c % vw for c = lane, lane + 32.
    // For the run being copied (from pixel `first`): the taps' offsets split into the pixel's
    // base, a row part per filter row and a column part per filter column, with a mask of the
    // taps inside the source.
    const int nchunk = 16 * vw;
    // Backward data divides by its strides where one is above 1; forward never divides.
    const bool unit = fwd || (a.sd == 1 && a.sh == 1 && a.sw == 1);
    auto src_at = [&](int o, int t, int s, int p, ck_i64 n) {
        return unit ? ck_dconv_src<true>(o, t, s, p, n) : ck_dconv_src<false>(o, t, s, p, n);
    };
    int mask[2];
    ck_idx base[2], roff[2][FY], coff[2][FX];
    auto begin_run = [&](int first) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int c = lane + 32 * i, vec = v0 + c % vw, px = first + c / vw;
            const ck_d4 cp = ck_split4(px, pr);
            const int sd = src_at(cp.v[1], 0, (int)a.sd, (int)a.pd, sD);
            int rows = 0, cols = 0;
#pragma unroll
            for (int t = 0; t < FY; ++t) {
                const int sh = src_at(cp.v[2], t * (int)a.dh, (int)a.sh, (int)a.ph, sH);
                roff[i][t] = sh * s_h;
                rows |= (sh >= 0) << t;
            }
#pragma unroll
            for (int t = 0; t < FX; ++t) {
                const int sw = src_at(cp.v[3], t * (int)a.dw, (int)a.sw, (int)a.pw, sW);
                coff[i][t] = sw * s_w;
                cols |= (sw >= 0) << t;
            }
            base[i] = cp.v[0] * s_n + sd * s_d + vec * s_vec;
            mask[i] = 0;
            if (c < nchunk && px < p1 && vec < nvec && sd >= 0)
#pragma unroll
                for (int t = 0; t < TAPS; ++t) mask[i] |= ((rows >> (t / FX)) & (cols >> (t % FX)) & 1) << t;
        }
    };
    // The copies of step j (taps 2j and 2j + 1) of the current copy run into stage `st`.
    auto issue = [&](int j, int st) {
        AT* d = ring + st * 2 * DC_TAP;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int t = 2 * j + h;
            if (t >= TAPS) break;
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                const int c = lane + 32 * i;
                if (c >= nchunk) break;
                const bool ok = (mask[i] >> t) & 1;
                const ck_idx off = ok ? base[i] + roff[i][t / FX] + coff[i][t % FX] : 0;
                ck_cp_async<16>(d + h * DC_TAP + ck_swz_chunk(c / vw, c % vw, vw), src + off, ok);
            }
        }
    };
    // Row windows: the run's offsets of its window rows (each filter row's, or a strip's source
    // rows) with a mask of those inside the source, and the lane's window chunks (slot c / vw,
    // vector c % vw for c = lane, lane + 32, lane + 64) with a mask of those inside it. Window
    // slot 0 is source column w0 S - pw (forward) or w0 + pw - (FX - 1) (backward data, whose
    // taps run backwards).
    constexpr int WCHUNKS = 3;
    static_assert(SPAN * VW <= 32 * WCHUNKS, "a lane copies at most WCHUNKS chunks of a window");
    const int wchunks = SPAN * vw;
    int rmask = 0, wmask = 0;
    ck_idx wroff[WROWS], wbase[WCHUNKS];
    auto begin_window = [&](int first) {
        const ck_d4 cp = ck_split4(first, pr);
        const int sd = src_at(cp.v[1], 0, (int)a.sd, (int)a.pd, sD);
        rmask = 0;
#pragma unroll
        for (int t = 0; t < WROWS; ++t) {
            // Filter row t's source row, or a strip's source rows in order: forward from
            // h0 S - ph, backward data (whose taps run backwards) from h0 + ph - (FY - 1).
            int sh;
            if constexpr (R == 1) {
                sh = src_at(cp.v[2], t * (int)a.dh, (int)a.sh, (int)a.ph, sH);
            } else {
                sh = cp.v[2] * R * S + t + (fwd ? -(int)a.ph : (int)a.ph - (FY - 1));
                sh = sh >= 0 && sh < (int)sH ? sh : -1;
            }
            wroff[t] = sh * s_h;
            rmask |= (sh >= 0 && sd >= 0) << t;
        }
        const int col0 = fwd ? cp.v[3] * S - (int)a.pw : cp.v[3] + (int)a.pw - (FX - 1);
        wmask = 0;
#pragma unroll
        for (int i = 0; i < WCHUNKS; ++i) {
            const int c = lane + 32 * i, vec = v0 + c % vw, col = col0 + c / vw;
            wbase[i] = cp.v[0] * s_n + sd * s_d + vec * s_vec + col * s_w;
            wmask |= (c < wchunks && vec < nvec && col >= 0 && col < (int)sW) << i;
        }
    };
    // The copies of filter row j's window of the current copy run into stage `st`.
    auto issue_window = [&](int j, int st) {
        AT* d = ring + st * STAGE;
        const bool row = (rmask >> j) & 1;
#pragma unroll
        for (int i = 0; i < WCHUNKS; ++i) {
            const int c = lane + 32 * i;
            if (c >= wchunks) break;
            const bool ok = row && ((wmask >> i) & 1);
            ck_cp_async<16>(d + ck_swz_chunk(c / vw, c % vw, vw), src + (ok ? wbase[i] + wroff[j] : 0), ok);
        }
    };
    auto first_of = [&](int run) { return p0 + 16 * (pw + run * pwarps); };
    auto begin = [&](int run) {
        if constexpr (WIN) begin_window(first_of(run));
        else begin_run(first_of(run));
    };
    auto copy = [&](int j, int st) {
        if constexpr (WIN) issue_window(j, st);
        else issue(j, st);
    };
    // A tap's slot offset in its row's window.
    auto slot = [&](int tx) { return fwd ? tx : FX - 1 - tx; };
    // The filter row through which window j meets strip row q: with one row, window j is
    // filter row j's; in strips, source row j of the strip (negative or past the filter
    // where they do not meet).
    auto row_of = [&](int j, int q) { return R == 1 ? j : fwd ? j - S * q : FY - 1 + q - j; };
    // ldmatrix rows: lane l reads pixel 8 ((l / 8) % 2) + l % 8 of tap l / 16 of a pair (of
    // source vector l / 16 for 16-channel groups).
    const int lrow = ((lane / 8) % 2) * 8 + lane % 8, ltap = lane / 16;
    // Step j of run r is item STEPS r + j, in stage (STEPS r + j) % NST; the copies run AHEAD
    // items ahead (with one step a run, the next AHEAD runs), a commit group an item.
#pragma unroll
    for (int it = 0; it < AHEAD; ++it) {
        if (it / STEPS < mine) {
            if (it % STEPS == 0) begin(it / STEPS);
            copy(it % STEPS, it);
        }
        ck_cp_commit();
    }
    int st = 0;
    for (int run = 0; run < mine; ++run) {
        float acc[R][VW][4] = {};
#pragma unroll
        for (int j = 0; j < STEPS; ++j) {
            ck_cp_wait<AHEAD - 1>();
            __syncwarp();
            const AT* s = ring + st * STAGE;
            if constexpr (G16) {
                // The step's taps (source row j's window, or pair j), each a k16 step of both
                // destination vectors; the fragments first, so that their latencies overlap.
                constexpr int T = WIN ? FX : 2;
                unsigned f[T][4];
#pragma unroll
                for (int h = 0; h < T; ++h) {
                    if (!WIN && 2 * j + h >= TAPS) break;
                    const AT* at = WIN ? s + ck_swz_chunk(lrow * S + slot(h), ltap, vw)
                                       : s + h * DC_TAP + ck_swz_chunk(lrow, ltap, vw);
                    ck_ldsm<4, false>(f[h], at);
                }
#pragma unroll
                for (int q = 0; q < R; ++q) {
                    const int ty = row_of(j, q);
                    if (WIN && (ty < 0 || ty >= FY)) continue;
#pragma unroll
                    for (int h = 0; h < T; ++h) {
                        const int t = WIN ? ty * FX + h : 2 * j + h;
                        if (t >= TAPS) break;
#pragma unroll
                        for (int v = 0; v < VW; ++v) {
                            const unsigned b[4] = {bf[v][2 * t], bf[v][2 * t + 1], 0, 0};
                            ck_mma(acc[q][v], f[h], b);
                        }
                    }
                }
            } else if constexpr (WIN) {
                // Window j: taps (ty, 2h) and (ty, 2h + 1) a k16 step, an odd last tap k8, for
                // each strip row and its filter row ty.
#pragma unroll
                for (int v0p = 0; v0p < VW; v0p += 2) {
                    unsigned f[2][FX / 2 > 0 ? FX / 2 : 1][4], e[2][4];
#pragma unroll
                    for (int q = 0; q < 2; ++q)
                        if (v0p + q < vw) {
                            const int v = v0p + q;
#pragma unroll
                            for (int h = 0; h < FX / 2; ++h)
                                ck_ldsm<4, false>(f[q][h], s + ck_swz_chunk(lrow * S + slot(2 * h + ltap), v, vw));
                            if (FX % 2) ck_ldsm<2, false>(e[q], s + ck_swz_chunk(lrow * S + slot(FX - 1), v, vw));
                        }
#pragma unroll
                    for (int r = 0; r < R; ++r) {
                        const int ty = row_of(j, r);
                        if (ty < 0 || ty >= FY) continue;
#pragma unroll
                        for (int q = 0; q < 2; ++q)
                            if (v0p + q < vw) {
                                const int v = v0p + q, t0 = ty * FX;
#pragma unroll
                                for (int h = 0; h < FX / 2; ++h) {
                                    const unsigned b[4] = {bf[v][t0 + 2 * h], bf[v][t0 + 2 * h + 1], 0, 0};
                                    ck_mma(acc[r][v], f[q][h], b);
                                }
                                if (FX % 2) ck_mma_k8(acc[r][v], e[q][0], e[q][1], bf[v][t0 + FX - 1]);
                            }
                    }
                }
            } else {
                const bool pair = 2 * j + 1 < TAPS;
                // Two vectors' fragments, then their MMAs: the latencies overlap (four would spill).
#pragma unroll
                for (int v0p = 0; v0p < VW; v0p += 2) {
                    unsigned f[2][4];
#pragma unroll
                    for (int q = 0; q < 2; ++q)
                        if (v0p + q < vw) {
                            const int v = v0p + q;
                            if (pair) ck_ldsm<4, false>(f[q], s + ltap * DC_TAP + ck_swz_chunk(lrow, v, vw));
                            else ck_ldsm<2, false>(f[q], s + ck_swz_chunk(lrow, v, vw));
                        }
#pragma unroll
                    for (int q = 0; q < 2; ++q)
                        if (v0p + q < vw) {
                            const int v = v0p + q;
                            if (pair) {
                                const unsigned b[4] = {bf[v][2 * j], bf[v][(2 * j + 1) % TAPS], 0, 0};
                                ck_mma(acc[0][v], f[q], b);
                            } else {
                                ck_mma_k8(acc[0][v], f[q][0], f[q][1], bf[v][2 * j]);
                            }
                        }
                }
            }
            __syncwarp();
            // Item STEPS run + j + AHEAD goes into the stage item STEPS run + j - 1 used.
            const int cs = st == 0 ? NST - 1 : st - 1;
            const int next = (j + AHEAD) % STEPS, ahead = run + (j + AHEAD) / STEPS;
            if (ahead < mine) {
                if (next == 0) begin(ahead);
                copy(next, cs);
            }
            ck_cp_commit();
            if (++st == NST) st = 0;
        }
        // The run's rows g4 and g4 + 8 (of each strip row): destination channels 2 t4 and
        // 2 t4 + 1 of each vector.
        const int run0 = first_of(run);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int px = run0 + g4 + 8 * i;
            const ck_d4 o = ck_split4(px, pr);
#pragma unroll
            for (int q = 0; q < R; ++q) {
                const int h = o.v[2] * R + q;
                if (px < p1 && o.v[3] < dwidth && h < dheight) {
                    const ck_idx out = o.v[0] * d_n + o.v[1] * d_d + h * d_h + o.v[3] * d_w + 2 * t4;
#pragma unroll
                    for (int v = 0; v < VW; ++v)
                        if (v < vw && v0 + v < nvec)
                            ck_store_pair(a, out + (v0 + v) * d_vec, acc[q][v][2 * i], acc[q][v][2 * i + 1]);
                }
            }
        }
    }
    ck_cp_wait<0>();
}
// 3x3, or for backward data a stride phase's filter under it at stride 2
// (`dconv_tensor_cores`); direct_mma 2: in row windows (`dconv_window`).
template <bool G16> CK_DEV void ck_dconv_mma_filter(const CkArgs& a, AT* ring) {
    if constexpr (CK_OP == CK_BWD_DATA) {
        const bool win = a.direct_mma == 2;
        switch (a.Y * 4 + a.X) {
        case 2 * 4 + 2: win ? ck_dconv_mma<2, 2, true, G16>(a, ring) : ck_dconv_mma<2, 2, false, G16>(a, ring); return;
        case 2 * 4 + 1: win ? ck_dconv_mma<2, 1, true, G16>(a, ring) : ck_dconv_mma<2, 1, false, G16>(a, ring); return;
        case 1 * 4 + 2: win ? ck_dconv_mma<1, 2, true, G16>(a, ring) : ck_dconv_mma<1, 2, false, G16>(a, ring); return;
        case 1 * 4 + 1: win ? ck_dconv_mma<1, 1, true, G16>(a, ring) : ck_dconv_mma<1, 1, false, G16>(a, ring); return;
        default: break;
        }
    }
    if constexpr (CK_OP == CK_FWD) {
        if (a.direct_mma == 2 && a.sw == 2) return ck_dconv_mma<3, 3, true, G16, 2>(a, ring);
    }
    if (a.direct_mma == 2) ck_dconv_mma<3, 3, true, G16>(a, ring);
    else ck_dconv_mma<3, 3, false, G16>(a, ring);
}
// The kernel has the tensor-core path: 16-bit source and weights of one kind.
constexpr bool DC_MMA = sizeof(AT) == 2 && sizeof(BT) == 2 && ck_is_bf16<AT>::value == ck_is_bf16<BT>::value;
#else
constexpr bool DC_MMA = false;
constexpr int DC_WARP = 0;
#endif

// Two workgroups per SM (at most 128 registers a thread): the per-width bodies fit without
// spills, and backward data, whose two stride variants needed more at one workgroup, runs as
// fast as forward. LDS from the launch: the tensor-core path's copy rings, or the SIMT bodies'
// weights and then a band body's two bands of source pixels.
CK_ENTRY_THREADS(direct, DIRECT_BLOCK, 2)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(128) unsigned char ck_smem[];
    float* wl = reinterpret_cast<float*>(ck_smem);
    // The host picks the tensor-core path (a.direct_mma) where the kernel has it.
#if defined(CK_MMA_SYNC)
    // Not instantiated for fp32 kernels, whose weights have no 16-bit form.
    if constexpr (DC_MMA) {
        static_assert(DIRECT_BLOCK / 32 * DC_WARP * 2 <= DCONV_MMA_LDS, "the rings fit the launch's LDS");
        if (a.direct_mma) {
            AT* ring = reinterpret_cast<AT*>(ck_smem);
            if (a.direct_ch == 16) ck_dconv_mma_filter<true>(a, ring);
            else ck_dconv_mma_filter<false>(a, ring);
            return;
        }
    }
#endif
    if (a.direct_strip == 2) {
        const bool s2 = CK_OP == CK_FWD && a.sw == 2;
        switch (a.X) {
        case 3: s2 ? ck_dconv_band<3, 2>(a, ck_smem) : ck_dconv_band<3, 1>(a, ck_smem); break;
        case 5: s2 ? ck_dconv_band<5, 2>(a, ck_smem) : ck_dconv_band<5, 1>(a, ck_smem); break;
        default: s2 ? ck_dconv_band<7, 2>(a, ck_smem) : ck_dconv_band<7, 1>(a, ck_smem); break;
        }
        return;
    }
    // Forward has no division either way.
    const bool unit = CK_OP == CK_FWD || (a.sd == 1 && a.sh == 1 && a.sw == 1);
    if (a.direct_strip == 3) {
        const bool s2 = CK_OP == CK_FWD && a.sw == 2;
        switch (a.X) {
        case 3: s2 ? ck_dconv_strip<3, 2, true>(a, wl) : ck_dconv_strip<3, 1, true>(a, wl); break;
        case 5: s2 ? ck_dconv_strip<5, 2, true>(a, wl) : ck_dconv_strip<5, 1, true>(a, wl); break;
        default: s2 ? ck_dconv_strip<7, 2, true>(a, wl) : ck_dconv_strip<7, 1, true>(a, wl); break;
        }
        return;
    }
    if (a.direct_strip) {
        const bool s2 = CK_OP == CK_FWD && a.sw == 2;
        switch (a.X) {
        case 3: s2 ? ck_dconv_strip<3, 2, false>(a, wl) : ck_dconv_strip<3, 1, false>(a, wl); break;
        case 5: s2 ? ck_dconv_strip<5, 2, false>(a, wl) : ck_dconv_strip<5, 1, false>(a, wl); break;
        default: s2 ? ck_dconv_strip<7, 2, false>(a, wl) : ck_dconv_strip<7, 1, false>(a, wl); break;
        }
        return;
    }
    if (a.Z != 1 || a.Y != 3 || a.X != 3) {
        if (a.direct_ch == 1) unit ? ck_dconv_any<1, true>(a, wl) : ck_dconv_any<1, false>(a, wl);
        else unit ? ck_dconv_any<2, true>(a, wl) : ck_dconv_any<2, false>(a, wl);
        return;
    }
    switch (a.direct_ch) {
    case 1: unit ? ck_dconv<1, true>(a, wl) : ck_dconv<1, false>(a, wl); break;
    case 2: unit ? ck_dconv<2, true>(a, wl) : ck_dconv<2, false>(a, wl); break;
    case 4: unit ? ck_dconv<4, true>(a, wl) : ck_dconv<4, false>(a, wl); break;
    default: unit ? ck_dconv<8, true>(a, wl) : ck_dconv<8, false>(a, wl); break;
    }
}
