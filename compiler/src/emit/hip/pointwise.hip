
// ---- Pointwise forward and backward data, for kernels of Filter1x1Stride1Pad0 instances. With
// few channels a 1x1 convolution is a GEMM whose N and GEMM-K are tens of channels: a tile would
// spend its time filling and draining for one or two K-steps, while the work is one pass over
// the source and destination tensors. Here each workgroup keeps one group's weights in LDS as
// fp32, [source channel][destination channel], and streams pixels: a thread owns one 8-channel
// vector of the destination (`j`) for PW_PIXELS pixels, a warp's lanes the `D / 8` vectors of
// 32 / (D / 8) adjacent pixels, so that each store of the warp covers whole pixels in a row.
// A thread reads its pixels' source rows in 16-byte vectors (the lanes of one pixel read the
// same row: one transaction from L1) and the next vector's loads are issued before the current
// one is multiplied. Accumulation is fp32; the epilogue is the GEMM's (`ck_final`).
//
// Forward: source x (C channels), destination y (K); weight (i, j) = w[g][k = j][c = i].
// Backward data: source y (K), destination x (C); weight (i, j) = w[g][k = i][c = j].
// The host launches this entry only where both tensors' pixels are one stride apart, channels
// are whole 8-channel vectors and the weights fit the LDS (`pointwise_plan`).

CK_ENTRY_THREADS(pointwise, PW_BLOCK, 1)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    float* wl = reinterpret_cast<float*>(ck_smem);
    const bool fwd = CK_OP == CK_FWD;
    const int S = (int)(fwd ? a.C : a.K), D = (int)(fwd ? a.K : a.C);
    const ck_i64 g = blockIdx.y;
    const BT* w = reinterpret_cast<const BT*>(a.w);
    for (int e = threadIdx.x; e < S * D; e += PW_BLOCK) {
        const int i = e / D, j = e - i * D;
        const ck_i64 k = fwd ? j : i, c = fwd ? i : j;
        wl[e] = ck_to_float(w[g * a.ws_g + k * a.ws_k + c * a.ws_c]);
    }
    __syncthreads();
    // No barrier follows: threads past the last whole pixel slot leave.
    const int tp = D / 8, slots = PW_BLOCK / tp;
    if ((int)threadIdx.x >= slots * tp) return;
    const int j = (int)threadIdx.x % tp, slot = (int)threadIdx.x / tp;
    const AT* src = reinterpret_cast<const AT*>(fwd ? a.x : a.y);
    OT* dst = ck_out(a);
    // Pixel strides (the tensors are pixel-linear) and the group's first channel.
    const ck_i64 sp = fwd ? a.xs_w : a.ys_w, dp = fwd ? a.ys_w : a.xs_w;
    const AT* sg = src + g * (fwd ? a.xs_g : a.ys_g);
    const ck_i64 dg = g * (fwd ? a.ys_g : a.xs_g) + 8 * j;
    const ck_i64 pixels = fwd ? a.N * a.Do * a.Ho * a.Wo : a.N * a.Di * a.Hi * a.Wi;
    const ck_i64 span = (ck_i64)slots * PW_PIXELS;
    const float* wj = wl + 8 * j;
    const int vecs = S / 8;
    for (ck_i64 base = (ck_i64)blockIdx.x * span; base < pixels; base += (ck_i64)gridDim.x * span) {
        // Pixel q of the thread: base + slot + q * slots (a warp's lanes cover adjacent pixels).
        const AT* row[PW_PIXELS];
        bool in[PW_PIXELS];
#pragma unroll
        for (int q = 0; q < PW_PIXELS; ++q) {
            const ck_i64 p = base + slot + (ck_i64)q * slots;
            in[q] = p < pixels;
            row[q] = sg + (in[q] ? p : 0) * sp;
        }
        float acc[PW_PIXELS][8];
#pragma unroll
        for (int q = 0; q < PW_PIXELS; ++q)
#pragma unroll
            for (int d = 0; d < 8; ++d) acc[q][d] = 0.0f;
        ck_vec<AT, 8> next[PW_PIXELS];
#pragma unroll
        for (int q = 0; q < PW_PIXELS; ++q) next[q] = *reinterpret_cast<const ck_vec<AT, 8>*>(row[q]);
        for (int v = 0; v < vecs; ++v) {
            ck_vec<AT, 8> cur[PW_PIXELS];
#pragma unroll
            for (int q = 0; q < PW_PIXELS; ++q) cur[q] = next[q];
            if (v + 1 < vecs) {
#pragma unroll
                for (int q = 0; q < PW_PIXELS; ++q)
                    next[q] = *reinterpret_cast<const ck_vec<AT, 8>*>(row[q] + 8 * (v + 1));
            }
#pragma unroll
            for (int s = 0; s < 8; ++s) {
                // Source channel 8v + s's weights for the thread's 8 destination channels.
                const float* ws = wj + (8 * v + s) * D;
                const ck_vec<float, 4> w0 = *reinterpret_cast<const ck_vec<float, 4>*>(ws);
                const ck_vec<float, 4> w1 = *reinterpret_cast<const ck_vec<float, 4>*>(ws + 4);
#pragma unroll
                for (int q = 0; q < PW_PIXELS; ++q) {
                    const float xv = ck_to_float(cur[q].v[s]);
#pragma unroll
                    for (int d = 0; d < 4; ++d) {
                        acc[q][d] += xv * w0.v[d];
                        acc[q][d + 4] += xv * w1.v[d];
                    }
                }
            }
        }
#pragma unroll
        for (int q = 0; q < PW_PIXELS; ++q) {
            if (!in[q]) continue;
            const ck_i64 out = (base + slot + (ck_i64)q * slots) * dp + dg;
            ck_vec<OT, 8> o;
#pragma unroll
            for (int d = 0; d < 8; ++d) o.v[d] = ck_final(a, out + d, acc[q][d]);
            *reinterpret_cast<ck_vec<OT, 8>*>(dst + out) = o;
        }
    }
}

// ---- The same on tensor cores (NVIDIA sm_80+, 16-bit operands of one type; the host picks it,
// see `pointwise_plan`): where a GEMM tile would fill and drain its pipeline for one to four
// K-steps, this is one pass over the source. Grid z splits the destination channels into ranges
// of whole 64-channel passes (few pixels still fill the device, and a range's weights fit the
// LDS). The workgroup copies its range of the group's weights into LDS once, as they are stored
// (K rows of C channels; forward pads C, backward K, to whole 16-channel steps), and each warp
// streams its own 16-pixel runs of the source through a private cp.async ring (warp barriers
// only), multiplies each by the weights in m16n8k16 MMAs, 64 destination channels at a time, and
// stores the run's outputs. Forward reads the weights as the B operand's columns (ldmatrix),
// backward data as its rows (ldmatrix.trans). 16-bit outputs of passes at least PWM_STAGED_COLS
// wide go through a per-warp LDS tile of the run's 16 x 64 values, so that each lane sends
// 16-byte vectors of a pixel's channels and a warp's store covers four whole 128-byte rows:
// from the registers a lane holds two adjacent outputs, and those partial sectors bound wide
// passes. Narrower passes store from the registers: their rows are short, and the round trip
// through the tile cost more than it saved. Channel counts need only be even (ShuffleNet's 58 and
// 116): the runs are copied 8, 4 or 2 channels at a time, as the channels and strides keep
// alignment, a chunk of weights past the last channels is loaded element by element, and
// destinations not in whole 8-channel vectors store pairs from the registers.
#if defined(CK_MMA_SYNC)
// Copies a 16-pixel run of S source channels from `src` (pixels sp apart, from pixel p0) into
// the ring stage at `st` (16 rows of SV swizzled 8-channel chunks), U channels a copy; the
// copies past the channels or the pixels fill zeros.
template <int U>
CK_DEV void ck_pw_copy_run(unsigned st, const AT* src, ck_i64 p0, ck_i64 pixels, ck_i64 sp, int S, int SV, int lane) {
    // Copy j is pixel j / per, channels U (j % per): the quotient through a float reciprocal,
    // exact for a run's at most 2,048 copies.
    const int per = SV * (8 / U), copies = 16 * per, live = S / U;
    const float inv = 1.0f / (float)per;
    for (int j = lane; j < copies; j += 32) {
        const int r = (int)(((float)j + 0.5f) * inv), ch = (j - r * per) * U;
        const bool ok = p0 + r < pixels && ch < live * U;
        ck_cp_async<2 * U>(st + ck_swz_chunk(r, ch / 8, SV) * 2 + (ch % 8) * 2, src + (ok ? (p0 + r) * sp + ch : 0), ok);
    }
}
CK_DEV void ck_pointwise_mma(const CkArgs& a, unsigned char* smem) {
    const bool fwd = CK_OP == CK_FWD;
    const int warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    const int S = (int)(fwd ? a.C : a.K), D = (int)(fwd ? a.K : a.C);
    // GEMM-K in 16-channel steps of SV 16-byte chunks; this workgroup's destination range, DR
    // channels from n_lo (the host sized the LDS for ranges of at least DR).
    const int SP = (S + 15) / 16 * 16, SV = SP / 8, passes = (D + 63) / 64;
    const int DR = (passes + (int)gridDim.z - 1) / (int)gridDim.z * 64, n_lo = (int)blockIdx.z * DR;
    const int ncols = D - n_lo < DR ? D - n_lo : DR;
    const ck_i64 g = blockIdx.y;
    // The weights' LDS rows: forward DR rows k of SV chunks, backward SP rows k of DR / 8.
    const int brows = fwd ? DR : SP, bvw = fwd ? SV : DR / 8;
    const unsigned stage = 32 * SP, wsm = ck_saddr(smem);
    const unsigned ring = wsm + (unsigned)(brows * bvw * 16) + warp * PWM_STAGES * stage;
    // The warp's output tile, after every warp's ring: 16 rows of eight 16-byte chunks (the
    // host allots them where the output is 16-bit and some pass is staged).
    constexpr bool staged = sizeof(OT) == 2;
    OT* tile = reinterpret_cast<OT*>(smem + brows * bvw * 16 + PWM_WARPS * PWM_STAGES * stage) + warp * 16 * 64;
    const ck_i64 pixels = fwd ? a.N * a.Do * a.Ho * a.Wo : a.N * a.Di * a.Hi * a.Wi;
    const ck_i64 runs = (pixels + 15) / 16;
    const ck_i64 warps = (ck_i64)gridDim.x * PWM_WARPS, first = (ck_i64)blockIdx.x * PWM_WARPS + warp;
    const int nst = first < runs ? (int)((runs - 1 - first) / warps + 1) : 0;
    const ck_i64 sp = fwd ? a.xs_w : a.ys_w, dp = fwd ? a.ys_w : a.xs_w;
    const AT* src = reinterpret_cast<const AT*>(fwd ? a.x : a.y) + g * (fwd ? a.xs_g : a.ys_g);
    const ck_i64 dgs = fwd ? a.ys_g : a.xs_g, dg = g * dgs + n_lo;
    // Source copies of 8, 4 or 2 channels: the widest that the channels and the pixel and group
    // strides keep aligned (the host takes only even ones).
    const int su = (int)((S | sp | (fwd ? a.xs_g : a.ys_g)) & 7);
    auto copy = [&](int i, int slot) {
        const ck_i64 p0 = (first + (ck_i64)i * warps) * 16;
        const unsigned st = ring + slot * stage;
        if (su == 0) ck_pw_copy_run<8>(st, src, p0, pixels, sp, S, SV, lane);
        else if (su % 4 == 0) ck_pw_copy_run<4>(st, src, p0, pixels, sp, S, SV, lane);
        else ck_pw_copy_run<2>(st, src, p0, pixels, sp, S, SV, lane);
    };
#pragma unroll
    for (int i = 0; i < PWM_STAGES - 1; ++i) {
        if (i < nst) copy(i, i);
        ck_cp_commit();
    }
    // The range's weights: rows k and 8-channel chunks c of the stored K x C matrix, zeros past
    // them; 16-byte loads of whole chunks where the channels are packed and aligned, else one
    // element at a time.
    const BT* w = reinterpret_cast<const BT*>(a.w) + g * a.ws_g;
    const bool packed = a.ws_c == 1 && a.ws_k % 8 == 0 && a.ws_g % 8 == 0;
    for (int e = (int)threadIdx.x; e < brows * bvw; e += PWM_WARPS * 32) {
        const int row = e / bvw, v = e - row * bvw;
        const int k = fwd ? n_lo + row : row, cv = fwd ? v : n_lo / 8 + v;
        // The chunk's channels that exist.
        const int left = k < (int)a.K ? (int)a.C - 8 * cv : 0;
        ck_vec<BT, 8> c;
        if (packed && left >= 8) {
            c = *reinterpret_cast<const ck_vec<BT, 8>*>(w + k * a.ws_k + 8 * cv);
        } else {
#pragma unroll
            for (int u = 0; u < 8; ++u) c.v[u] = u < left ? w[k * a.ws_k + (8 * cv + u) * a.ws_c] : ck_from_float<BT>(0.0f);
        }
        *reinterpret_cast<ck_vec<BT, 8>*>(smem + ck_swz_chunk(row, v, bvw) * 2) = c;
    }
    __syncthreads();
    // ldmatrix rows: lane l gives row l % 8 of matrix l / 8. A (pixel rows of source channels):
    // matrices (rows 0-7, channels 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15) are a0..a3.
    // B forward (destination rows of source channels): (0-7, 0-7), (0-7, 8-15), (8-15, 0-7),
    // (8-15, 8-15) are b0, b1 of two n8 blocks; backward (source rows of destination channels,
    // transposed): (0-7, 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15).
    const int q = lane / 8, r8 = lane % 8, g4 = lane / 4, t4 = lane % 4;
    const int a_row = r8 + (q & 1) * 8, a_ch = q >> 1;
    const int b_row = r8 + (fwd ? q >> 1 : q & 1) * 8, b_ch = fwd ? q & 1 : q >> 1;
    for (int i = 0, rd = 0, wr = PWM_STAGES - 1; i < nst; ++i) {
        ck_cp_wait<PWM_STAGES - 2>();
        // Every lane's copies of run i have landed, and every lane is past run i - 1's reads
        // of the slot the next copy fills.
        __syncwarp();
        if (i + PWM_STAGES - 1 < nst) copy(i + PWM_STAGES - 1, wr);
        ck_cp_commit();
        const unsigned st = ring + rd * stage;
        const ck_i64 pa = (first + (ck_i64)i * warps) * 16 + g4, pb = pa + 8;
        for (int n0 = 0; n0 < ncols; n0 += 64) {
            float acc[8][4] = {};
            for (int ks = 0; ks < SV / 2; ++ks) {
                unsigned fa[4];
                ck_ldsm<4, false>(fa, st + ck_swz_chunk(a_row, 2 * ks + a_ch, SV) * 2);
#pragma unroll
                for (int h = 0; h < 4; ++h) {
                    const int n = n0 + 16 * h;
                    if (n < ncols) {
                        unsigned fb[4];
                        if (fwd) ck_ldsm<4, false>(fb, wsm + ck_swz_chunk(n + b_row, 2 * ks + b_ch, bvw) * 2);
                        else ck_ldsm<4, true>(fb, wsm + ck_swz_chunk(16 * ks + b_row, n / 8 + b_ch, bvw) * 2);
                        const unsigned b0[4] = {fb[0], fb[1], 0, 0}, b1[4] = {fb[2], fb[3], 0, 0};
                        ck_mma(acc[2 * h], fa, b0);
                        if (n + 8 < ncols) ck_mma(acc[2 * h + 1], fa, b1);
                    }
                }
            }
            // Lane (g4, t4) holds rows g4 and g4 + 8 of the run, columns 2 t4 and 2 t4 + 1 of
            // each n8 block.
            if (staged && ncols - n0 >= PWM_STAGED_COLS && ((D | dp | dgs) & 7) == 0) {
                // Chunk nb of row r at slot nb ^ (r % 8): a write's eight rows fill all 32 banks.
#pragma unroll
                for (int nb = 0; nb < 8; ++nb) {
                    const int col = n0 + 8 * nb + 2 * t4;
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const int r = g4 + 8 * h;
                        const ck_i64 p = h ? pb : pa;
                        const bool live = p < pixels && n0 + 8 * nb < ncols;
                        ck_vec<OT, 2> v;
                        v.v[0] = live ? ck_final(a, p * dp + dg + col, acc[nb][2 * h]) : ck_from_float<OT>(0.0f);
                        v.v[1] = live ? ck_final(a, p * dp + dg + col + 1, acc[nb][2 * h + 1]) : ck_from_float<OT>(0.0f);
                        *reinterpret_cast<ck_vec<OT, 2>*>(tile + (r * 8 + (nb ^ (r & 7))) * 8 + 2 * t4) = v;
                    }
                }
                __syncwarp();
                const ck_i64 p0 = (first + (ck_i64)i * warps) * 16;
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    const int e = 32 * u + lane, r = e / 8, c = e % 8;
                    if (p0 + r < pixels && n0 + 8 * c < ncols)
                        *reinterpret_cast<ck_vec<OT, 8>*>(ck_out(a) + (p0 + r) * dp + dg + n0 + 8 * c) =
                            *reinterpret_cast<const ck_vec<OT, 8>*>(tile + (r * 8 + (c ^ (r & 7))) * 8);
                }
                // The next pass writes the tile again.
                __syncwarp();
            } else {
#pragma unroll
                for (int nb = 0; nb < 8; ++nb) {
                    const int col = n0 + 8 * nb + 2 * t4;
                    if (col < ncols) {
                        if (pa < pixels) ck_store_pair(a, pa * dp + dg + col, acc[nb][0], acc[nb][1]);
                        if (pb < pixels) ck_store_pair(a, pb * dp + dg + col, acc[nb][2], acc[nb][3]);
                    }
                }
            }
        }
        rd = rd + 1 == PWM_STAGES ? 0 : rd + 1;
        wr = wr + 1 == PWM_STAGES ? 0 : wr + 1;
    }
    ck_cp_wait<0>();
}
#endif

// LDS from the launch: the weights, the warps' rings, then (16-bit outputs) their output tiles.
CK_ENTRY_THREADS(pointwise_mma, PWM_WARPS * 32, PWM_BLOCKS)(const CK_GRID_CONST CkArgs a) {
#if defined(CK_MMA_SYNC)
    extern __shared__ __align__(16) unsigned char ck_smem[];
    if (sizeof(AT) == 2 && sizeof(BT) == 2 && ck_is_bf16<AT>::value == ck_is_bf16<BT>::value) ck_pointwise_mma(a, ck_smem);
#endif
}
