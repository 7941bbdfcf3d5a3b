
// ---- Small-channel forward and backward data, for kernels that merge groups (depthwise and
// narrow grouped convolutions: C = K channels per group, 1, 2, 4 or 8, a 3x3 filter with one
// depth tap). A GEMM tile would be almost all padding there, so the host launches this entry
// instead. A thread owns one vector of 8 destination channels (8 / CH groups) of one pixel at a
// time. A warp's lanes are `direct_vecs` adjacent vectors (a power of two up to 8) by 32 / vecs
// pixels, so each of its loads and stores covers whole 128-byte lines; the block's warps take
// further pixels of the block's range. The block's weights sit in LDS as fp32 in the order the
// loop reads them, one tap's in 16-byte reads, vectors DCONV_PAD floats apart so that the lanes'
// reads of different vectors fall in different banks. Each tap's source vector is one 16-byte
// load; the 8 results are one 16-byte store.
//
// Forward reads the input at o·s − p + t·d; backward data reads the output gradient at
// (i + p − t·d) / s where the stride divides it, with the weights' K and C roles swapped.

constexpr int DCONV_PAD = 4;

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
    // No barrier follows: lanes past the last vector may leave.
    if (vb + v >= nvec) return;
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
    const ck_d4 step = ck_split4(slots, pr);
    ck_d4 px = ck_split4(p0 + slot, pr);
    for (int p = p0 + slot; p < p1; p += slots, ck_advance4(px, step, pr)) {
        const int sd = ck_dconv_src<UNIT>(px.v[1], 0, (int)a.sd, (int)a.pd, sD);
        const ck_idx base = px.v[0] * s_n + sd * s_d + s_c0;
        int sh[3], sw[3];
#pragma unroll
        for (int t = 0; t < 3; ++t) {
            sh[t] = ck_dconv_src<UNIT>(px.v[2], t * (int)a.dh, (int)a.sh, (int)a.ph, sH);
            sw[t] = ck_dconv_src<UNIT>(px.v[3], t * (int)a.dw, (int)a.sw, (int)a.pw, sW);
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

// Two workgroups per SM (at most 128 registers a thread): the per-width bodies fit without
// spills, and backward data, whose two stride variants needed more at one workgroup, runs as
// fast as forward.
CK_ENTRY_THREADS(direct, DIRECT_BLOCK, 2)(const CK_GRID_CONST CkArgs a) {
    __shared__ __align__(16) float wl[8 * (9 * 8 * 8 + DCONV_PAD)];
    // Forward has no division either way.
    const bool unit = CK_OP == CK_FWD || (a.sd == 1 && a.sh == 1 && a.sw == 1);
    switch (a.direct_ch) {
    case 1: unit ? ck_dconv<1, true>(a, wl) : ck_dconv<1, false>(a, wl); break;
    case 2: unit ? ck_dconv<2, true>(a, wl) : ck_dconv<2, false>(a, wl); break;
    case 4: unit ? ck_dconv<4, true>(a, wl) : ck_dconv<4, false>(a, wl); break;
    default: unit ? ck_dconv<8, true>(a, wl) : ck_dconv<8, false>(a, wl); break;
    }
}
