// ---- TMA operand copies (sm_90a, kernels with CK_TMA_TILE). Where the host encoded the A and
// B tensor maps (a.tma: the problem's spatial dimensions), one thread copies each K-tile's
// operands with a handful of tensor-memory-accelerator instructions into the warpgroup ring's
// stages, the hardware computing the implicit-GEMM addresses and zero padding, and every thread
// waits on the stage's mbarrier instead of copying (see tma.rs for the boxes of each op).
#undef CK_TMA
#if defined(CK_WGMMA) && CK_TMA_TILE
#define CK_TMA 1
// The maps end the struct, on the 64-byte boundary after the fields: where the host writes them.
static_assert(sizeof(CkArgs) == TMA_MAPS_OFFSET + sizeof(CkArgs::tma_map), "tensor maps where the host writes them");

CK_DEV void ck_bar_init(unsigned long long* bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(ck_saddr(bar)), "r"(count) : "memory");
}
CK_DEV void ck_bar_arrive(unsigned long long* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(ck_saddr(bar)) : "memory");
}
CK_DEV void ck_bar_inval(unsigned long long* bar) {
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(ck_saddr(bar)) : "memory");
}
// The one arrival of a stage's phase, with the bytes its copies will bring.
CK_DEV void ck_bar_expect(unsigned long long* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(ck_saddr(bar)), "r"(bytes) : "memory");
}
CK_DEV void ck_bar_wait(unsigned long long* bar, unsigned parity) {
    unsigned done = 0;
    while (!done) {
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(ck_saddr(bar)), "r"(parity)
            : "memory");
    }
}

// One box of a tiled map at (c0, c1).
CK_DEV void ck_tma_tile(void* dst, const void* map, unsigned long long* bar, int c0, int c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
            ck_saddr(dst)),
        "l"(map), "r"(ck_saddr(bar)), "r"(c0), "r"(c1)
        : "memory");
}
// One box of a rank-5 tiled map at (c0, .., c4).
CK_DEV void ck_tma_tile5(void* dst, const void* map, unsigned long long* bar, int c0, int c1, int c2, int c3, int c4) {
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, "
        "%7}], [%2];" ::"r"(ck_saddr(dst)),
        "l"(map), "r"(ck_saddr(bar)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
        : "memory");
}
// One box of an im2col map from window origin `o` (its W, H, D already offset by the window's
// lower corner) at filter offset (ow, oh, od): the 4-D map of a 2-D problem (a.tma == 2) or the
// 5-D one of a 3-D problem (a.tma == 3).
CK_DEV void ck_tma_im2col(const CkArgs& a, void* dst, const void* map, unsigned long long* bar, int c, ck_pix o,
                          int ow, int oh, int od) {
    if (a.tma == 2) {
        asm volatile(
            "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, "
            "%5, %6}], [%2], {%7, %8};" ::"r"(ck_saddr(dst)),
            "l"(map), "r"(ck_saddr(bar)), "r"(c), "r"((int)o.w), "r"((int)o.h), "r"((int)o.n),
            "h"((unsigned short)ow), "h"((unsigned short)oh)
            : "memory");
    } else {
        asm volatile(
            "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, "
            "%5, %6, %7}], [%2], {%8, %9, %10};" ::"r"(ck_saddr(dst)),
            "l"(map), "r"(ck_saddr(bar)), "r"(c), "r"((int)o.w), "r"((int)o.h), "r"((int)o.d), "r"((int)o.n),
            "h"((unsigned short)ow), "h"((unsigned short)oh), "h"((unsigned short)od)
            : "memory");
    }
}

// Window origin of output pixel `o` of the input (its lower corner: -pad, stepped by the stride).
CK_DEV ck_pix ck_tma_origin(const CkArgs& a, ck_pix o) {
    ck_pix w;
    w.n = o.n;
    w.d = o.d * a.sd - a.pd;
    w.h = o.h * a.sh - a.ph;
    w.w = o.w * a.sw - a.pw;
    return w;
}

// The producer's coordinates of one tile (thread 0's registers): the next K-tile's GEMM-K
// digits (forward, backward data: tap z, y, x and channel; backward weight: output pixel n, d,
// h, w) and its linear start, advanced by KPB after each issue without a division, and what
// stays fixed over the tile: the window origin of the first output (forward) or input
// (backward data) pixel, backward weight's B boxes.
struct ck_tma_prod {
    ck_radix r;
    ck_d4 k, step, box;
    ck_i64 kl;
    ck_pix o;
    int bc[NPB / BOX_CH], bx[NPB / BOX_CH], by[NPB / BOX_CH], bz[NPB / BOX_CH];
};

CK_DEV ck_tma_prod ck_tma_begin(const CkArgs& a, ck_i64 g, ck_i64 m0, ck_i64 n0, ck_i64 kb) {
    ck_tma_prod p;
    p.r = ck_k_radix(a);
    p.kl = kb * KPB;
    p.k = ck_split4(p.kl, p.r);
    p.step = ck_split4(KPB, p.r);
    p.box = ck_split4(a.tma_box, p.r);
    if (CK_OP == CK_FWD) {
        p.o = ck_tma_origin(a, ck_split_pix(m0, a.Do, a.Ho, a.Wo));
    } else if (CK_OP == CK_BWD_DATA) {
        // The turned-around window of input pixel i over the output gradient (unit strides):
        // origin i + pad - (taps - 1) * dilation.
        p.o = ck_split_pix(m0, a.Di, a.Hi, a.Wi);
        p.o.d += a.pd - (a.Z - 1) * a.dd;
        p.o.h += a.ph - (a.Y - 1) * a.dh;
        p.o.w += a.pw - (a.X - 1) * a.dw;
    } else {
#pragma unroll
        for (int j = 0; j < NPB / BOX_CH; ++j) {
            const ck_tap t = ck_split_tap(n0 + j * BOX_CH, a.C, a);
            p.bc[j] = (int)(g * a.C + t.c);
            p.bx[j] = (int)(t.x * a.dw);
            p.by[j] = (int)(t.y * a.dh);
            p.bz[j] = (int)(t.z * a.dd);
        }
    }
    return p;
}

// The copies of the producer's next K-tile into stage `s` (one thread), then the step to the
// one after.
CK_DEV void ck_tma_issue(const CkArgs& a, const ck_block& b, ck_i64 g, ck_i64 m0, ck_i64 n0, ck_tma_prod& p, int s,
                         unsigned long long* bar) {
    AT* As = b.As + s * A_STAGE;
    BT* Bs = b.Bs + s * B_STAGE;
    ck_bar_expect(bar, (unsigned)(A_STAGE * sizeof(AT) + B_STAGE * sizeof(BT)));
    const void* map_a = &a.tma_map[0];
    const void* map_b = &a.tma_map[1];
    if (CK_OP != CK_BWD_WEIGHT) {
        // A: the tile's output (forward) or input (backward data) pixels through one tap's
        // window, kb channels a box (a line, or half of one: a.tma_box); backward data's window
        // is turned around, tap t at offset (taps - 1 - t) * dilation. B, forward: kb (tap,
        // channel) columns of NPB filters; backward data from the caller's weights (N-major):
        // that tap's kb output channels by a line of input channels a box, the rows of column
        // block j (2-D maps end with the group, 3-D ones with the depth tap); from their
        // transposed copy (K-major): that tap's kb output channels of the NPB input channels,
        // one box as forward's.
        const bool fwd = CK_OP == CK_FWD;
        const int kb = (int)a.tma_box;
        ck_d4 k = p.k;
#pragma unroll
        for (int q = 0; q < 2 * KPB / BOX_CH; ++q) {
            if (q * kb >= KPB) break;
            const int z = k.v[0], y = k.v[1], x = k.v[2], ch = k.v[3];
            // A box past the last tap (the K-tile's second half box after an odd count) meets
            // zero weights: its window stays at the first tap's offsets, within the map's range.
            const bool past = z >= a.Z;
            const ck_i64 ox = past ? 0 : fwd ? x : a.X - 1 - x, oy = past ? 0 : fwd ? y : a.Y - 1 - y,
                         oz = past ? 0 : fwd ? z : a.Z - 1 - z;
            ck_tma_im2col(a, As + q * MPB * kb, map_a, bar, (int)(g * (fwd ? a.C : a.K) + ch), p.o,
                          (int)(ox * a.dw), (int)(oy * a.dh), (int)(oz * a.dd));
            // B past the last tap: a 2-D map has no depth, so depth digit 1 reads rows past the
            // filter, which the copy fills with zeros (as it does past a 3-D filter's depth).
            if (fwd) {
                ck_tma_tile(Bs + q * NPB * kb, map_b, bar, (int)(p.kl + q * kb), (int)(g * a.K + n0));
            } else if (!B_ALONG_N) {
                BT* dst = Bs + q * NPB * kb;
                if (a.tma == 2)
                    ck_tma_tile5(dst, map_b, bar, ch, x, y + z * (int)a.Y, (int)n0, (int)g);
                else
                    ck_tma_tile5(dst, map_b, bar, ch, x, y, z, (int)n0);
            } else {
#pragma unroll
                for (int j = 0; j < NPB / BOX_CH; ++j) {
                    BT* dst = Bs + j * KPB * BOX_CH + q * kb * BOX_CH;
                    const int c = (int)n0 + j * BOX_CH;
                    if (a.tma == 2)
                        ck_tma_tile5(dst, map_b, bar, c, x, y + z * (int)a.Y, ch, (int)g);
                    else
                        ck_tma_tile5(dst, map_b, bar, c, x, y, z, ch);
                }
            }
            if ((q + 1) * kb < KPB) ck_advance4(k, p.box, p.r);
        }
    } else {
        // Both operands over the K-tile's output pixels: A 64 output channels a box, B 64
        // (tap, channel) columns a box.
        ck_pix o;
        o.n = p.k.v[0];
        o.d = p.k.v[1];
        o.h = p.k.v[2];
        o.w = p.k.v[3];
#pragma unroll
        for (int r = 0; r < MPB / BOX_CH; ++r)
            ck_tma_im2col(a, As + r * KPB * BOX_CH, map_a, bar, (int)(g * a.K + m0 + r * BOX_CH), o, 0, 0, 0);
        const ck_pix w = ck_tma_origin(a, o);
#pragma unroll
        for (int j = 0; j < NPB / BOX_CH; ++j)
            ck_tma_im2col(a, Bs + j * KPB * BOX_CH, map_b, bar, p.bc[j], w, p.bx[j], p.by[j], p.bz[j]);
    }
    ck_advance4(p.k, p.step, p.r);
    p.kl += KPB;
}

// The warpgroup MMAs of a stage the copies filled, in the layout of the launch's boxes.
CK_DEV void ck_tma_wg_issue(const CkArgs& a, ck_acc& acc, const AT* As, const BT* Bs, const ck_block& b) {
    if (a.tma_box == BOX_CH)
        ck_wg_issue<false>(acc, As, Bs, b);
    else
        ck_wg_issue<true>(acc, As, Bs, b);
}

// acc = the K-tiles [kb, ke) of the tile, read by the warpgroup MMAs from the ring as in the
// cp.async path, the copies WG_STAGES - 2 tiles ahead. Stage s has two mbarriers: full[s]
// completes when its copies have landed, empty[s] when every math warp's MMAs have finished
// reading it; no block-wide barrier in the loop, so the warpgroups run at their own pace.
CK_DEV void ck_tma_gemm(const CkArgs& a, const ck_block& b, ck_i64 g, ck_i64 m0, ck_i64 n0, ck_i64 kb, ck_i64 ke,
                        ck_acc& acc) {
    constexpr int WARPS = MATH_THREADS / 32;
    __shared__ unsigned long long full[WG_STAGES], empty[WG_STAGES];
    // The stages were last written by the generic proxy (the staged epilogue): every thread
    // orders its writes before the barrier after which the copies write through the async one.
    ck_proxy_fence();
    if (b.tid == 0) {
        // The maps' descriptors into the TMA unit while the barriers are set up.
        asm volatile("prefetch.tensormap [%0];" ::"l"(&a.tma_map[0]) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"(&a.tma_map[1]) : "memory");
#pragma unroll
        for (int s = 0; s < WG_STAGES; ++s) {
            ck_bar_init(&full[s], 1);
            ck_bar_init(&empty[s], WARPS);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    ck_tma_prod prod;
    if (b.tid == 0) {
        prod = ck_tma_begin(a, g, m0, n0, kb);
#pragma unroll
        for (int s = 0; s < WG_STAGES - 2; ++s)
            if (kb + s < ke) ck_tma_issue(a, b, g, m0, n0, prod, s, &full[s]);
    }
    int rs = 0, ws = WG_STAGES - 2;
    unsigned parity = 0;
    for (ck_i64 kt = kb; kt < ke; ++kt) {
        ck_bar_wait(&full[rs], parity);
        ck_tma_wg_issue(a, acc, b.As + rs * A_STAGE, b.Bs + rs * B_STAGE, b);
        // Tile i (from kb) goes into stage i % WG_STAGES once every warp released its previous
        // use, tile i - WG_STAGES: that stage's (i / WG_STAGES - 1)-th phase.
        const int i = (int)(kt - kb) + WG_STAGES - 2;
        if (b.tid == 0 && kb + i < ke) {
            if (i >= WG_STAGES) ck_bar_wait(&empty[ws], (i / WG_STAGES - 1) & 1);
            ck_tma_issue(a, b, g, m0, n0, prod, ws, &full[ws]);
        }
        ck_wg_wait<1>();
        // This warp's MMAs of the previous tile are done: release its stage.
        if (kt > kb && b.lane == 0) ck_bar_arrive(&empty[rs == 0 ? WG_STAGES - 1 : rs - 1]);
        if (++rs == WG_STAGES) {
            rs = 0;
            parity ^= 1;
        }
        ws = ws + 1 == WG_STAGES ? 0 : ws + 1;
    }
    ck_wg_wait<0>();
    ck_acc_pin(acc);
    __syncthreads();
    if (b.tid == 0) {
#pragma unroll
        for (int s = 0; s < WG_STAGES; ++s) {
            ck_bar_inval(&full[s]);
            ck_bar_inval(&empty[s]);
        }
    }
}
#endif
