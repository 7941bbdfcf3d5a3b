
// ---- Forward with 1 to 4 input channels a group (RGB stems, one-channel audio and volumes), for
// the scalar-load kernels. A GEMM tile there has a GEMM-K of one filter window (27 values for a
// 3x3 filter over 3 channels) and an N of a few tens of outputs: mostly padding, or padded
// copies of the input. Here a pixel's window is its "source row": each workgroup keeps one
// group's weights in LDS as fp32, [tap][input channel][output channel] (the outputs padded with
// zero weights to whole 8-channel vectors), and a thread owns one 8-channel vector of the output
// (`j`) for WIN_PIXELS pixels, a warp's lanes the `ceil(K / 8)` vectors of adjacent pixels, so
// that each store of the warp covers whole pixels in a row.
// Each window element is one scalar load (the lanes of one pixel read the same address, and
// adjacent pixels' windows overlap: L1 serves most of them) and feeds 8 fp32 multiply-adds with
// the two 16-byte LDS reads of its weights, which the thread's pixels share. Padding taps read
// nothing. The epilogue is the GEMM's (`ck_final`); outputs in whole vectors are one 16-byte
// store, others (odd counts such as 31 or 33) one element at a time, the padding channels not.
//
// Few registers a thread, so that WIN_BLOCKS workgroups share an SM: one workgroup of eight
// warps could not hide its loads. The host launches this entry only for forward problems with
// 1 to 4 channels a group whose weights fit the LDS, and at least 8 outputs a group or one
// group (`window_plan`).

// Value k of a window (tap-major, channels inner) as filter coordinates, and the offset of its
// weight from a group's output channel.
struct ck_wvalue { int z, y, x, c; };
CK_DEV ck_wvalue ck_window_value(const CkArgs& a, int k) {
    const int C = (int)a.C, fy = (int)a.Y, fx = (int)a.X, tap = k / C;
    return ck_wvalue{tap / (fy * fx), tap / fx % fy, tap % fx, k - tap * C};
}
CK_DEV ck_i64 ck_window_weight(const CkArgs& a, const ck_wvalue& v) {
    return v.c * a.ws_c + v.z * a.ws_z + v.y * a.ws_y + v.x * a.ws_x;
}

template <int CH>
CK_DEV void ck_window(const CkArgs& a, const float* wl) {
    const int K = (int)a.K, KP = (K + 7) & ~7, tp = KP / 8, slots = WIN_BLOCK / tp;
    // No barrier follows: threads past the last whole pixel slot leave.
    if ((int)threadIdx.x >= slots * tp) return;
    const int j = (int)threadIdx.x % tp, slot = (int)threadIdx.x / tp;
    const int fz = (int)a.Z, fy = (int)a.Y, fx = (int)a.X;
    const ck_i64 g = blockIdx.y;
    const AT* x = reinterpret_cast<const AT*>(a.x) + g * a.xs_g;
    OT* y = ck_out(a);
    const ck_idx xs_n = ck_ix(a.xs_n), xs_d = ck_ix(a.xs_d), xs_h = ck_ix(a.xs_h), xs_w = ck_ix(a.xs_w),
                 xs_c = ck_ix(a.xs_c);
    const ck_idx ys_n = ck_ix(a.ys_n), ys_d = ck_ix(a.ys_d), ys_h = ck_ix(a.ys_h), ys_w = ck_ix(a.ys_w);
    const ck_idx y0 = ck_ix(g * a.ys_g + 8 * j);
    const int Di = (int)a.Di, Hi = (int)a.Hi, Wi = (int)a.Wi;
    const int dd = (int)a.dd, dh = (int)a.dh, dw = (int)a.dw;
    const ck_radix pr = ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo};
    const int pixels = (int)(a.N * a.Do * a.Ho * a.Wo);
    const float* wj = wl + 8 * j;
    const int span = slots * WIN_PIXELS;
    for (int base = (int)blockIdx.x * span; base < pixels; base += (int)gridDim.x * span) {
        // Pixel q of the thread: base + slot + q · slots (a warp's lanes cover adjacent pixels);
        // its window's first input coordinates and image offset.
        int d0[WIN_PIXELS], h0[WIN_PIXELS], w0[WIN_PIXELS];
        ck_idx img[WIN_PIXELS];
        float acc[WIN_PIXELS][8];
#pragma unroll
        for (int q = 0; q < WIN_PIXELS; ++q) {
            const int p = base + slot + q * slots;
            const ck_d4 px = ck_split4(p < pixels ? p : 0, pr);
            // An idle pixel slot gets a window past every input row: it reads nothing.
            d0[q] = p < pixels ? px.v[1] * (int)a.sd - (int)a.pd : Di;
            h0[q] = px.v[2] * (int)a.sh - (int)a.ph;
            w0[q] = px.v[3] * (int)a.sw - (int)a.pw;
            img[q] = px.v[0] * xs_n;
#pragma unroll
            for (int d = 0; d < 8; ++d) acc[q][d] = 0.0f;
        }
        const float* wt = wj;
        for (int tz = 0; tz < fz; ++tz) {
            for (int ty = 0; ty < fy; ++ty) {
                // The tap row's offset in each pixel's image, or none outside the input.
                ck_idx row[WIN_PIXELS];
                bool row_in[WIN_PIXELS];
#pragma unroll
                for (int q = 0; q < WIN_PIXELS; ++q) {
                    const int id = d0[q] + tz * dd, ih = h0[q] + ty * dh;
                    row_in[q] = id >= 0 && id < Di && ih >= 0 && ih < Hi;
                    row[q] = img[q] + id * xs_d + ih * xs_h;
                }
                for (int tx = 0; tx < fx; ++tx, wt += CH * KP) {
                    // The tap's input channels of each pixel (padding reads nothing).
                    float xv[WIN_PIXELS][CH];
#pragma unroll
                    for (int q = 0; q < WIN_PIXELS; ++q) {
                        const int iw = w0[q] + tx * dw;
                        const bool in = row_in[q] && iw >= 0 && iw < Wi;
                        const AT* e = x + (in ? row[q] + iw * xs_w : 0);
#pragma unroll
                        for (int c = 0; c < CH; ++c) xv[q][c] = in ? ck_to_float(e[c * xs_c]) : 0.0f;
                    }
#pragma unroll
                    for (int c = 0; c < CH; ++c) {
                        const ck_vec<float, 4> wa = *reinterpret_cast<const ck_vec<float, 4>*>(wt + c * KP);
                        const ck_vec<float, 4> wb = *reinterpret_cast<const ck_vec<float, 4>*>(wt + c * KP + 4);
#pragma unroll
                        for (int q = 0; q < WIN_PIXELS; ++q) {
#pragma unroll
                            for (int d = 0; d < 4; ++d) {
                                acc[q][d] += xv[q][c] * wa.v[d];
                                acc[q][d + 4] += xv[q][c] * wb.v[d];
                            }
                        }
                    }
                }
            }
        }
#pragma unroll
        for (int q = 0; q < WIN_PIXELS; ++q) {
            const int p = base + slot + q * slots;
            if (p >= pixels) continue;
            const ck_d4 px = ck_split4(p, pr);
            const ck_idx out = px.v[0] * ys_n + px.v[1] * ys_d + px.v[2] * ys_h + px.v[3] * ys_w + y0;
            if (KP == K) {
                ck_vec<OT, 8> o;
#pragma unroll
                for (int d = 0; d < 8; ++d) o.v[d] = ck_final(a, out + d, acc[q][d]);
                *reinterpret_cast<ck_vec<OT, 8>*>(y + out) = o;
            } else {
#pragma unroll
                for (int d = 0; d < 8; ++d)
                    if (8 * j + d < K) y[out + d] = ck_final(a, out + d, acc[q][d]);
            }
        }
    }
}

CK_ENTRY_THREADS(window, WIN_BLOCK, WIN_BLOCKS)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    float* wl = reinterpret_cast<float*>(ck_smem);
    const int C = (int)a.C, K = (int)a.K, KP = (K + 7) & ~7;
    const int rows = (int)(a.Z * a.Y * a.X) * C;
    const ck_i64 g = blockIdx.y;
    const BT* w = reinterpret_cast<const BT*>(a.w);
    // Row r = tap · C + c of the LDS weights holds input channel c's weight for each output,
    // zeros for the channels that pad the last vector.
    for (int e = threadIdx.x; e < rows * KP; e += WIN_BLOCK) {
        const int r = e / KP, k = e - r * KP;
        wl[e] = k < K ? ck_to_float(w[g * a.ws_g + k * a.ws_k + ck_window_weight(a, ck_window_value(a, r))]) : 0.0f;
    }
    __syncthreads();
    switch (C) {
        case 1: ck_window<1>(a, wl); break;
        case 2: ck_window<2>(a, wl); break;
        case 3: ck_window<3>(a, wl); break;
        default: ck_window<4>(a, wl); break;
    }
}

// ---- The same on tensor cores (NVIDIA sm_80+, 16-bit operands of one type; the host picks it,
// see `window_plan`). A pixel's window is one GEMM row of taps x C values (27 for a 3x3 RGB
// stem, 147 for a 7x7 one), padded to whole 16-value steps of an m16n8k16 MMA. The workgroup
// stages once: the group's weights as each lane's B fragments (zeros past the window and past
// K), and a table of every window value's offset from the window's origin with its reach in d,
// h and w (padding values reach nowhere, so they read nothing). A warp then takes WM_PIXELS
// pixels at a time: for each step a lane gathers its four values of each of its rows straight
// from global memory (adjacent windows overlap: L1 serves most of them), packs them into A
// fragments and multiplies them by every output tile's weights. The results go out through a
// per-warp fp32 tile of 16 pixels, so that a lane finishes 8 adjacent channels of a pixel: the
// epilogue's D reads and the stores are whole vectors where the outputs fill them, where the
// fragments alone would give each pixel's row in 4-byte pieces.
#if defined(CK_MMA_SYNC)
struct ck_wtap { int off, d, h, w; };

// The weights' fragments and the tap table (LDS, before the warps' tiles).
CK_DEV void ck_window_mma_stage(const CkArgs& a, uint2* wb, ck_wtap* tab) {
    const int K = (int)a.K, ntk = (K + 7) / 8;
    const int gk = (int)(a.Z * a.Y * a.X * a.C), steps = (gk + 15) / 16;
    const ck_u16* w = reinterpret_cast<const ck_u16*>(a.w) + blockIdx.y * a.ws_g;
    auto weight = [&](int k, int n) -> unsigned {
        return k < gk && n < K ? w[n * a.ws_k + ck_window_weight(a, ck_window_value(a, k))] : 0u;
    };
    // Lane l's fragment of step s and output tile nt: column 8 nt + l / 4, rows 2 (l % 4) + 0,
    // 1, 8 and 9 of the step.
    for (int e = threadIdx.x; e < steps * ntk * 32; e += blockDim.x) {
        const int l = e % 32, nt = e / 32 % ntk, s = e / (32 * ntk);
        const int k = 16 * s + 2 * (l % 4), n = 8 * nt + l / 4;
        wb[e] = make_uint2(weight(k, n) | weight(k + 1, n) << 16, weight(k + 8, n) | weight(k + 9, n) << 16);
    }
    for (int k = threadIdx.x; k < steps * 16; k += blockDim.x) {
        ck_wtap v{0, -(1 << 30), 0, 0};
        if (k < gk) {
            const ck_wvalue u = ck_window_value(a, k);
            v.d = u.z * (int)a.dd;
            v.h = u.y * (int)a.dh;
            v.w = u.x * (int)a.dw;
            v.off = (int)(v.d * a.xs_d + v.h * a.xs_h + v.w * a.xs_w + u.c * a.xs_c);
        }
        tab[k] = v;
    }
}

// NT: output tiles of 8 channels the warp holds (ceil(K / 8) of them run). A pass is MT
// 16-pixel fragments, WM_PIXELS pixels.
template <int NT> CK_DEV void ck_window_mma(const CkArgs& a, const uint2* wb, const ck_wtap* tab, float* tile) {
    constexpr int MT = WM_PIXELS / 16;
    const int lane = (int)threadIdx.x % 32, gq = lane / 4, t = lane % 4;
    const int K = (int)a.K, KP = (K + 7) & ~7, ntk = KP / 8, TP = KP + 8;
    const int steps = ((int)(a.Z * a.Y * a.X * a.C) + 15) / 16;
    const ck_i64 g = blockIdx.y;
    const ck_u16* x = reinterpret_cast<const ck_u16*>(a.x) + g * a.xs_g;
    OT* y = ck_out(a);
    const ck_idx xs_n = ck_ix(a.xs_n), xs_d = ck_ix(a.xs_d), xs_h = ck_ix(a.xs_h), xs_w = ck_ix(a.xs_w);
    const ck_idx ys_n = ck_ix(a.ys_n), ys_d = ck_ix(a.ys_d), ys_h = ck_ix(a.ys_h), ys_w = ck_ix(a.ys_w);
    const ck_idx y0 = ck_ix(g * a.ys_g);
    const int Di = (int)a.Di, Hi = (int)a.Hi, Wi = (int)a.Wi;
    const ck_radix pr = ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo};
    const int pixels = (int)(a.N * a.Do * a.Ho * a.Wo);
    constexpr int ROWS = 16 * MT;
    const int passes = (pixels + ROWS - 1) / ROWS;
    const int warps = (int)gridDim.x * WM_WARPS;
    for (int pass = (int)blockIdx.x * WM_WARPS + (int)threadIdx.x / 32; pass < passes; pass += warps) {
        const int base = pass * ROWS;
        // The lane's rows gq + 8 r: their windows' origins (an idle row's lies past the input).
        int d0[2 * MT], h0[2 * MT], w0[2 * MT];
        ck_idx org[2 * MT];
#pragma unroll
        for (int r = 0; r < 2 * MT; ++r) {
            const int p = base + gq + 8 * r;
            const ck_d4 px = ck_split4(p < pixels ? p : 0, pr);
            d0[r] = p < pixels ? px.v[1] * (int)a.sd - (int)a.pd : Di;
            h0[r] = px.v[2] * (int)a.sh - (int)a.ph;
            w0[r] = px.v[3] * (int)a.sw - (int)a.pw;
            org[r] = px.v[0] * xs_n + d0[r] * xs_d + h0[r] * xs_h + w0[r] * xs_w;
        }
        float acc[MT][NT][4];
#pragma unroll
        for (int m = 0; m < MT; ++m)
#pragma unroll
            for (int n = 0; n < NT; ++n)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[m][n][e] = 0.0f;
#pragma unroll 2
        for (int s = 0; s < steps; ++s) {
            // The lane's window values of the step: 2t, 2t + 1, 2t + 8 and 2t + 9.
            const ck_wtap* e = tab + 16 * s + 2 * t;
            const ck_wtap tv[4] = {e[0], e[1], e[8], e[9]};
            unsigned af[MT][4];
#pragma unroll
            for (int r = 0; r < 2 * MT; ++r) {
                unsigned v[4];
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const bool in = ck_in(d0[r] + tv[j].d, Di) && ck_in(h0[r] + tv[j].h, Hi) && ck_in(w0[r] + tv[j].w, Wi);
                    v[j] = in ? x[org[r] + tv[j].off] : 0u;
                }
                af[r / 2][r % 2] = v[0] | v[1] << 16;
                af[r / 2][2 + r % 2] = v[2] | v[3] << 16;
            }
#pragma unroll
            for (int n = 0; n < NT; ++n) {
                if (n < ntk) {
                    const uint2 bv = wb[(s * ntk + n) * 32 + lane];
                    const unsigned bf[4] = {bv.x, bv.y, 0u, 0u};
#pragma unroll
                    for (int m = 0; m < MT; ++m) ck_mma(acc[m][n], af[m], bf);
                }
            }
        }
#pragma unroll
        for (int m = 0; m < MT; ++m) {
#pragma unroll
            for (int n = 0; n < NT; ++n) {
                if (n < ntk) {
                    float* o = tile + gq * TP + 8 * n + 2 * t;
                    *reinterpret_cast<float2*>(o) = make_float2(acc[m][n][0], acc[m][n][1]);
                    *reinterpret_cast<float2*>(o + 8 * TP) = make_float2(acc[m][n][2], acc[m][n][3]);
                }
            }
            __syncwarp();
            // Each lane finishes 8-channel vectors of the fragment's pixels.
            for (int it = lane; it < 16 * ntk; it += 32) {
                const int row = it / ntk, v = it - row * ntk, p = base + 16 * m + row;
                if (p >= pixels) continue;
                const ck_d4 px = ck_split4(p, pr);
                const ck_idx out = px.v[0] * ys_n + px.v[1] * ys_d + px.v[2] * ys_h + px.v[3] * ys_w + y0 + 8 * v;
                const float4 lo = *reinterpret_cast<const float4*>(tile + row * TP + 8 * v);
                const float4 hi = *reinterpret_cast<const float4*>(tile + row * TP + 8 * v + 4);
                const float s[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
                if (KP == K) {
                    ck_vec<OT, 8> o;
#pragma unroll
                    for (int d = 0; d < 8; ++d) o.v[d] = ck_final(a, out + d, s[d]);
                    *reinterpret_cast<ck_vec<OT, 8>*>(y + out) = o;
                } else {
#pragma unroll
                    for (int d = 0; d < 8; ++d)
                        if (8 * v + d < K) y[out + d] = ck_final(a, out + d, s[d]);
                }
            }
            __syncwarp();
        }
    }
}
#endif

// LDS from the launch: the weights' fragments, the tap table, then each warp's output tile.
CK_ENTRY_THREADS(window_mma, WM_WARPS * 32, WM_BLOCKS)(const CK_GRID_CONST CkArgs a) {
#if defined(CK_MMA_SYNC)
    extern __shared__ __align__(16) unsigned char ck_smem[];
    if (sizeof(AT) == 2 && sizeof(BT) == 2 && ck_is_bf16<AT>::value == ck_is_bf16<BT>::value) {
        const int ntk = ((int)a.K + 7) / 8, KP = 8 * ntk;
        const int steps = ((int)(a.Z * a.Y * a.X * a.C) + 15) / 16;
        uint2* wb = reinterpret_cast<uint2*>(ck_smem);
        ck_wtap* tab = reinterpret_cast<ck_wtap*>(wb + steps * ntk * 32);
        float* tile = reinterpret_cast<float*>(tab + steps * 16) + (threadIdx.x / 32) * 16 * (KP + 8);
        ck_window_mma_stage(a, wb, tab);
        __syncthreads();
        if (ntk <= 2) ck_window_mma<2>(a, wb, tab, tile);
        else if (ntk <= 4) ck_window_mma<4>(a, wb, tab, tile);
        else ck_window_mma<8>(a, wb, tab, tile);
    }
#endif
}
