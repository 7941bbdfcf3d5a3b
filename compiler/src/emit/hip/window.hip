
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
    const int C = (int)a.C, K = (int)a.K, KP = (K + 7) & ~7, fy = (int)a.Y, fx = (int)a.X;
    const int rows = (int)(a.Z * a.Y * a.X) * C;
    const ck_i64 g = blockIdx.y;
    const BT* w = reinterpret_cast<const BT*>(a.w);
    // Row r = tap · C + c of the LDS weights holds input channel c's weight for each output,
    // zeros for the channels that pad the last vector.
    for (int e = threadIdx.x; e < rows * KP; e += WIN_BLOCK) {
        const int r = e / KP, k = e - r * KP, tap = r / C, c = r - tap * C;
        const int tz = tap / (fy * fx), ty = tap / fx % fy, tx = tap % fx;
        wl[e] = k < K ? ck_to_float(w[g * a.ws_g + k * a.ws_k + c * a.ws_c + tz * a.ws_z + ty * a.ws_y + tx * a.ws_x])
                      : 0.0f;
    }
    __syncthreads();
    switch (C) {
        case 1: ck_window<1>(a, wl); break;
        case 2: ck_window<2>(a, wl); break;
        case 3: ck_window<3>(a, wl); break;
        default: ck_window<4>(a, wl); break;
    }
}
