
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
