// ---- Implicit-GEMM body shared by every instance. The constants above it select the op, the
// tile shapes, the thread roles, the pipeline and the work distribution.

// A conv tensor coordinate, always 3-D spatial (1-D and 2-D problems use unit outer sizes).
// Index decomposition runs in 32-bit unsigned arithmetic (the host checks that the GEMM sizes
// fit); offsets are 64-bit.
typedef unsigned ck_u32;
struct ck_pix { ck_i64 n, d, h, w; };

CK_DEV ck_pix ck_split_pix(ck_i64 m64, ck_i64 D, ck_i64 H, ck_i64 W) {
    ck_u32 m = (ck_u32)m64;
    ck_pix p;
    p.w = m % (ck_u32)W; m /= (ck_u32)W;
    p.h = m % (ck_u32)H; m /= (ck_u32)H;
    p.d = m % (ck_u32)D;
    p.n = m / (ck_u32)D;
    return p;
}

// Filter tap and channel of a GEMM index ordered (z, y, x, c) with c fastest.
struct ck_tap { ck_i64 z, y, x, c; };

CK_DEV ck_tap ck_split_tap(ck_i64 k64, ck_i64 C, const CkArgs& a) {
    ck_u32 k = (ck_u32)k64;
    ck_tap t;
    t.c = k % (ck_u32)C; k /= (ck_u32)C;
    t.x = k % (ck_u32)a.X; k /= (ck_u32)a.X;
    t.y = k % (ck_u32)a.Y;
    t.z = k / (ck_u32)a.Y;
    return t;
}

CK_DEV ck_i64 ck_x_off(const CkArgs& a, ck_i64 g, ck_i64 n, ck_i64 d, ck_i64 h, ck_i64 w, ck_i64 c) {
    return n * a.xs_n + g * a.xs_g + c * a.xs_c + d * a.xs_d + h * a.xs_h + w * a.xs_w;
}
CK_DEV ck_i64 ck_y_off(const CkArgs& a, ck_i64 g, ck_i64 n, ck_i64 d, ck_i64 h, ck_i64 w, ck_i64 k) {
    return n * a.ys_n + g * a.ys_g + k * a.ys_k + d * a.ys_d + h * a.ys_h + w * a.ys_w;
}
CK_DEV ck_i64 ck_w_off(const CkArgs& a, ck_i64 g, ck_i64 k, ck_i64 z, ck_i64 y, ck_i64 x, ck_i64 c) {
    return g * a.ws_g + k * a.ws_k + c * a.ws_c + z * a.ws_z + y * a.ws_y + x * a.ws_x;
}

// Input pixel read by output pixel `o` through filter tap `t`; -1 when it falls in the padding.
CK_DEV ck_i64 ck_fwd_in(const CkArgs& a, ck_i64 g, ck_pix o, ck_tap t) {
    if (FAST_1X1) return ck_x_off(a, g, o.n, o.d, o.h, o.w, t.c);
    ck_i64 d = o.d * a.sd + t.z * a.dd - a.pd;
    ck_i64 h = o.h * a.sh + t.y * a.dh - a.ph;
    ck_i64 w = o.w * a.sw + t.x * a.dw - a.pw;
    if (d < 0 || d >= a.Di || h < 0 || h >= a.Hi || w < 0 || w >= a.Wi) return -1;
    return ck_x_off(a, g, o.n, d, h, w, t.c);
}

// Output pixel that reads input pixel `i` through tap `t` (backward data); -1 when none does.
CK_DEV ck_i64 ck_bwd_out(const CkArgs& a, ck_i64 g, ck_pix i, ck_tap t) {
    if (t.c >= a.K) return -1;
    if (FAST_1X1) return ck_y_off(a, g, i.n, i.d, i.h, i.w, t.c);
    int d = (int)(i.d + a.pd - t.z * a.dd);
    int h = (int)(i.h + a.ph - t.y * a.dh);
    int w = (int)(i.w + a.pw - t.x * a.dw);
    if (d < 0 || h < 0 || w < 0 || d % (int)a.sd || h % (int)a.sh || w % (int)a.sw) return -1;
    d /= (int)a.sd; h /= (int)a.sh; w /= (int)a.sw;
    if (d >= a.Do || h >= a.Ho || w >= a.Wo) return -1;
    return ck_y_off(a, g, i.n, d, h, w, t.c);
}

// Element offsets of the A (M x K) and B (K x N) GEMM operands; -1 reads as zero.
CK_DEV ck_i64 ck_a_off(const CkArgs& a, ck_i64 g, ck_i64 m, ck_i64 k) {
    if (m >= a.M || k >= a.Kg) return -1;
    if (CK_OP == CK_FWD) {
        return ck_fwd_in(a, g, ck_split_pix(m, a.Do, a.Ho, a.Wo), ck_split_tap(k, a.C, a));
    } else if (CK_OP == CK_BWD_DATA) {
        return ck_bwd_out(a, g, ck_split_pix(m, a.Di, a.Hi, a.Wi), ck_split_tap(k, a.k_radix, a));
    } else {
        ck_pix o = ck_split_pix(k, a.Do, a.Ho, a.Wo);
        return ck_y_off(a, g, o.n, o.d, o.h, o.w, m);
    }
}
CK_DEV ck_i64 ck_b_off(const CkArgs& a, ck_i64 g, ck_i64 k, ck_i64 n) {
    if (n >= a.Ng || k >= a.Kg) return -1;
    if (CK_OP == CK_FWD) {
        ck_tap t = ck_split_tap(k, a.C, a);
        return ck_w_off(a, g, n, t.z, t.y, t.x, t.c);
    } else if (CK_OP == CK_BWD_DATA) {
        ck_tap t = ck_split_tap(k, a.k_radix, a);
        if (t.c >= a.K) return -1;
        return ck_w_off(a, g, t.c, t.z, t.y, t.x, n);
    } else {
        return ck_fwd_in(a, g, ck_split_pix(k, a.Do, a.Ho, a.Wo), ck_split_tap(n, a.C, a));
    }
}
// Offset of output element (m, n) of group g in the tensor the op writes: a row part plus a
// column part, so an epilogue decomposes RM rows and RN columns instead of RM x RN elements.
CK_DEV ck_i64 ck_c_row(const CkArgs& a, ck_i64 g, ck_i64 m) {
    // Packed pixels (forward, backward data): the row's pixel offset is the row times the W stride.
    if (CK_OP == CK_FWD && a.lin_out) return g * a.ys_g + m * a.ys_w;
    if (CK_OP == CK_BWD_DATA && a.lin_out) return g * a.xs_g + m * a.xs_w;
    if (CK_OP == CK_FWD) {
        ck_pix o = ck_split_pix(m, a.Do, a.Ho, a.Wo);
        return ck_y_off(a, g, o.n, o.d, o.h, o.w, 0);
    } else if (CK_OP == CK_BWD_DATA) {
        ck_pix i = ck_split_pix(m, a.Di, a.Hi, a.Wi);
        return ck_x_off(a, g, i.n, i.d, i.h, i.w, 0);
    } else {
        return ck_w_off(a, g, m, 0, 0, 0, 0);
    }
}
CK_DEV ck_i64 ck_c_col(const CkArgs& a, ck_i64 n) {
    if (CK_OP == CK_FWD) return n * a.ys_k;
    if (CK_OP == CK_BWD_DATA) return n * a.xs_c;
    // Packed filter taps and channels (backward weight): the column times the channel stride.
    if (a.lin_out) return n * a.ws_c;
    ck_tap t = ck_split_tap(n, a.C, a);
    return ck_w_off(a, 0, 0, t.z, t.y, t.x, t.c);
}

template <int OPK> CK_DEV float ck_unary(float v, const CkArgs& a) {
    if (OPK == CK_EOP_SCALE) return (float)a.alpha * v;
    if (OPK == CK_EOP_RELU) return v > 0.0f ? v : 0.0f;
    return v;
}

// Operand element type after the element-wise op on load (PassThrough keeps the raw bits).
template <typename T, int OPK> CK_DEV T ck_load_elem(const T* p, ck_i64 off, const CkArgs& a) {
    if (off < 0) return ck_zero<T>();
    if (OPK == CK_EOP_PASS) return p[off];
    return ck_from_float<T>(ck_unary<OPK>(ck_to_float(p[off]), a));
}

// Raw 16-byte-or-less vector of N elements, for vectorised global loads.
template <typename T, int N> struct alignas(sizeof(T) * N) ck_vec { T v[N]; };

// Element by element (odd channel counts, element-wise ops on load). Out of line: it is the
// slow path and its index arithmetic would otherwise be unrolled into every load site (on AMD
// that inlined copy was a quarter of a scalar-load kernel's compile time).
template <typename T, int VEC, bool ALONG_R, bool IS_A, int OPK>
CK_NOINLINE ck_vec<T, VEC> ck_load_scalar(const CkArgs& a, const T* src, ck_i64 g, ck_i64 r, ck_i64 k) {
    ck_vec<T, VEC> w;
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
        ck_i64 rr = r + (ALONG_R ? v : 0), kk = k + (ALONG_R ? 0 : v);
        ck_i64 off = IS_A ? ck_a_off(a, g, rr, kk) : ck_b_off(a, g, kk, rr);
        w.v[v] = ck_load_elem<T, OPK>(src, off, a);
    }
    return w;
}

// A tile in LDS, laid out [K / K1][rows * K1 + pad] with K1 elements contiguous.
template <int ROW, int K1> CK_DEV int ck_lds_idx(int r, int k) { return (k / K1) * ROW + r * K1 + (k % K1); }

#if defined(CK_WGMMA)
// The stage layout of the warpgroup path (sm_90a), 16-bit elements: a K-major operand (loaded
// along K) in rows of 64 K elements, [K / 64][ROWS][64]; an M/N-major one (loaded along its
// rows) in lines of 64 rows, [ROWS / 64][K][64]. 16-byte chunk c of 128-byte line l sits at
// chunk c ^ (l % 8): the 128-byte swizzle wgmma's descriptors decode (PTX ISA, "Shared Memory
// Matrix Layout"), which also spreads a column of chunks over all banks.
template <int ROWS, bool MN_MAJOR> CK_DEV int ck_swz_idx(int r, int k) {
    const int byte = MN_MAJOR ? (r / 64) * (KPB * 128) + k * 128 + (r % 64) * 2
                              : (k / 64) * (ROWS * 128) + r * 128 + (k % 64) * 2;
    return (byte ^ (((byte >> 7) & 7) << 4)) / 2;
}
#endif

// ---- Per-thread operand coordinates. A GEMM row or K index is kept as four mixed-radix digits
// (pixel n, d, h, w, or filter tap z, y, x and channel), split once per tile and then advanced
// by KPB with carries, so the K loop does no division. Digit 0 is unbounded.
struct ck_d4 { int v[4]; };
struct ck_radix { ck_u32 r1, r2, r3; };

CK_DEV ck_d4 ck_split4(ck_i64 idx, ck_radix r) {
    ck_u32 i = (ck_u32)idx;
    ck_d4 d;
    d.v[3] = (int)(i % r.r3); i /= r.r3;
    d.v[2] = (int)(i % r.r2); i /= r.r2;
    d.v[1] = (int)(i % r.r1);
    d.v[0] = (int)(i / r.r1);
    return d;
}

// d += s, both split with radices r (s's digits are below the radices, so each carry is 0 or 1).
CK_DEV void ck_advance4(ck_d4& d, const ck_d4& s, ck_radix r) {
    int c;
    d.v[3] += s.v[3]; c = d.v[3] >= (int)r.r3; d.v[3] -= c ? (int)r.r3 : 0;
    d.v[2] += s.v[2] + c; c = d.v[2] >= (int)r.r2; d.v[2] -= c ? (int)r.r2 : 0;
    d.v[1] += s.v[1] + c; c = d.v[1] >= (int)r.r1; d.v[1] -= c ? (int)r.r1 : 0;
    d.v[0] += s.v[0] + c;
}

// GEMM-K digits: output pixels for backward weight, (tap, channel) otherwise.
CK_DEV ck_radix ck_k_radix(const CkArgs& a) {
    if (CK_OP == CK_BWD_WEIGHT) return ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo};
    return ck_radix{(ck_u32)a.Y, (ck_u32)a.X, (ck_u32)(CK_OP == CK_FWD ? a.C : a.k_radix)};
}
// Row digits of A (output pixels for forward, input pixels for backward data) and of B (taps
// for backward weight); other rows are plain channels and need no digits.
template <bool IS_A> CK_DEV ck_radix ck_row_radix(const CkArgs& a) {
    if (!IS_A) return ck_radix{(ck_u32)a.Y, (ck_u32)a.X, (ck_u32)a.C};
    if (CK_OP == CK_FWD) return ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo};
    return ck_radix{(ck_u32)a.Di, (ck_u32)a.Hi, (ck_u32)a.Wi};
}

// Operand offsets run in the kernel's index type: 32-bit unless the instance indexes tensors
// over 2 GB (the host rejects larger tensors for the others).
template <bool WIDE> struct ck_index_type { typedef int type; };
template <> struct ck_index_type<true> { typedef ck_i64 type; };
typedef ck_index_type<WIDE_INDEX>::type ck_idx;
CK_DEV ck_idx ck_ix(ck_i64 v) { return (ck_idx)v; }
// 0 <= v < n in one unsigned compare.
CK_DEV bool ck_in(int v, ck_i64 n) { return (unsigned)v < (unsigned)n; }

// What one load group needs at every K-tile, fixed for the tile: the offset part of its row
// (and group) and, for operands gathered through the filter window, the row's coordinate bases.
struct ck_site {
    ck_idx base;
    int d, h, w;
    // Operands gathered through the filter window: the offset of the window origin (d, h, w),
    // so that a K index only adds its own displacement, the same for every row.
    ck_idx win;
    bool ok;  // the row is inside the GEMM
};

template <bool IS_A> CK_DEV ck_site ck_make_site(const CkArgs& a, ck_i64 g, int row) {
    ck_site s;
    s.ok = ck_in(row, IS_A ? a.M : a.Ng);
    s.d = s.h = s.w = 0;
    if (IS_A && CK_OP == CK_BWD_WEIGHT) {
        s.base = ck_ix(g * a.ys_g) + row * ck_ix(a.ys_k);
    } else if (IS_A) {
        // Forward: output pixel row, input window origin; backward data: input pixel row.
        const ck_d4 p = ck_split4(row, ck_row_radix<true>(a));
        s.base = p.v[0] * ck_ix(CK_OP == CK_FWD ? a.xs_n : a.ys_n) + ck_ix(g * (CK_OP == CK_FWD ? a.xs_g : a.ys_g));
        if (CK_OP == CK_FWD) {
            s.d = p.v[1] * (int)a.sd - (int)a.pd;
            s.h = p.v[2] * (int)a.sh - (int)a.ph;
            s.w = p.v[3] * (int)a.sw - (int)a.pw;
        } else {
            s.d = p.v[1] + (int)a.pd;
            s.h = p.v[2] + (int)a.ph;
            s.w = p.v[3] + (int)a.pw;
        }
    } else if (CK_OP == CK_BWD_WEIGHT) {
        // Filter tap and channel row; the window offset of the tap.
        const ck_d4 t = ck_split4(row, ck_row_radix<false>(a));
        s.base = ck_ix(g * a.xs_g) + t.v[3] * ck_ix(a.xs_c);
        s.d = t.v[0] * (int)a.dd - (int)a.pd;
        s.h = t.v[1] * (int)a.dh - (int)a.ph;
        s.w = t.v[2] * (int)a.dw - (int)a.pw;
    } else {
        s.base = ck_ix(g * a.ws_g) + row * ck_ix(CK_OP == CK_FWD ? a.ws_k : a.ws_c);
    }
    // Backward data reads the output gradient at the window origin (unit strides).
    if (IS_A && CK_OP == CK_BWD_DATA)
        s.win = s.base + s.d * ck_ix(a.ys_d) + s.h * ck_ix(a.ys_h) + s.w * ck_ix(a.ys_w);
    else
        s.win = s.base + s.d * ck_ix(a.xs_d) + s.h * ck_ix(a.xs_h) + s.w * ck_ix(a.xs_w);
    return s;
}

// The K index's part of an operand offset: the same for every row at that K index, so a
// thread whose load groups share their K index computes it once per K-tile.
struct ck_kpart {
    ck_idx off;
    ck_idx lin;   // backward data: the offset part of a unit-stride output pixel (ck_site_off)
    int d, h, w;  // displacement from the window origin (gathered operands)
    bool ok;      // the K index is inside the GEMM
};

template <bool IS_A> CK_DEV ck_kpart ck_make_kpart(const CkArgs& a, const ck_d4& k, int kl) {
    ck_kpart p;
    // Backward data's output-channel digit may run past K (k_radix).
    p.ok = kl < a.Kg && (CK_OP != CK_BWD_DATA || k.v[3] < a.K);
    p.d = p.h = p.w = 0;
    p.lin = 0;
    if (IS_A && CK_OP == CK_BWD_WEIGHT) {
        // Output gradient at output pixel k.
        p.off = k.v[0] * ck_ix(a.ys_n) + k.v[1] * ck_ix(a.ys_d) + k.v[2] * ck_ix(a.ys_h) + k.v[3] * ck_ix(a.ys_w);
    } else if (!IS_A && CK_OP != CK_BWD_WEIGHT) {
        // Weights: tap digits (z, y, x) and the channel (C for forward, K for backward data).
        p.off = k.v[0] * ck_ix(a.ws_z) + k.v[1] * ck_ix(a.ws_y) + k.v[2] * ck_ix(a.ws_x) +
                k.v[3] * ck_ix(CK_OP == CK_FWD ? a.ws_c : a.ws_k);
    } else if (CK_OP == CK_BWD_DATA) {
        // Tap (z, y, x) times dilation; the output channel. With unit strides the output pixel
        // is the site's window origin minus the tap: its offset part goes into `lin`.
        p.d = k.v[0] * (int)a.dd; p.h = k.v[1] * (int)a.dh; p.w = k.v[2] * (int)a.dw;
        p.off = k.v[3] * ck_ix(a.ys_k);
        p.lin = p.off - (p.d * ck_ix(a.ys_d) + p.h * ck_ix(a.ys_h) + p.w * ck_ix(a.ys_w));
    } else if (CK_OP == CK_FWD) {
        // Tap times dilation and the input channel; 1x1 stride-1 filters add the channel only.
        if (!FAST_1X1) { p.d = k.v[0] * (int)a.dd; p.h = k.v[1] * (int)a.dh; p.w = k.v[2] * (int)a.dw; }
        p.off = k.v[3] * ck_ix(a.xs_c) + p.d * ck_ix(a.xs_d) + p.h * ck_ix(a.xs_h) + p.w * ck_ix(a.xs_w);
    } else {
        // Backward weight, the input: output pixel k times the stride (the pixel itself for 1x1
        // stride-1 filters, whose window origin is the pixel).
        const int sd = FAST_1X1 ? 1 : (int)a.sd, sh = FAST_1X1 ? 1 : (int)a.sh, sw = FAST_1X1 ? 1 : (int)a.sw;
        p.d = k.v[1] * sd; p.h = k.v[2] * sh; p.w = k.v[3] * sw;
        p.off = k.v[0] * ck_ix(a.xs_n) + p.d * ck_ix(a.xs_d) + p.h * ck_ix(a.xs_h) + p.w * ck_ix(a.xs_w);
    }
    return p;
}

// Backward data with strides: the output pixel at window displacement (d, h, w) if the strides
// divide it. Out of line, so that the divisions stay out of the unit-stride K loop's code (two
// loops' worth of instructions does not fit the instruction cache).
CK_NOINLINE ck_idx ck_bwd_strided(const CkArgs& a, ck_idx off, int d, int h, int w) {
    if (d < 0 || h < 0 || w < 0) return -1;
    if (d % (int)a.sd || h % (int)a.sh || w % (int)a.sw) return -1;
    d /= (int)a.sd; h /= (int)a.sh; w /= (int)a.sw;
    if (d >= a.Do || h >= a.Ho || w >= a.Wo) return -1;
    return off + d * ck_ix(a.ys_d) + h * ck_ix(a.ys_h) + w * ck_ix(a.ys_w);
}

// Offset of the site's element at the K index of `p` (the element ck_a_off / ck_b_off address);
// -1 in the padding or outside the GEMM.
template <bool IS_A> CK_DEV ck_idx ck_site_off(const CkArgs& a, const ck_site& s, const ck_kpart& p) {
    if (!s.ok || !p.ok) return -1;
    if ((IS_A && CK_OP == CK_BWD_WEIGHT) || (!IS_A && CK_OP != CK_BWD_WEIGHT)) return s.base + p.off;
    if (CK_OP == CK_BWD_DATA) {
        // The output pixel that reads this input pixel through the tap, if any.
        int d = s.d - p.d, h = s.h - p.h, w = s.w - p.w;
        if (FAST_1X1 || (a.sd == 1 && a.sh == 1 && a.sw == 1)) {
            // Unit strides: the pixel is the window origin minus the tap, one unsigned compare
            // per coordinate and the offsets precomputed in the site and the K part.
            if (!(ck_in(d, a.Do) && ck_in(h, a.Ho) && ck_in(w, a.Wo))) return -1;
            return s.win + p.lin;
        }
        return ck_bwd_strided(a, s.base + p.off, d, h, w);
    }
    // The input pixel under the filter window: the window origin plus the K displacement.
    if (!FAST_1X1 && !(ck_in(s.d + p.d, a.Di) && ck_in(s.h + p.h, a.Hi) && ck_in(s.w + p.w, a.Wi))) return -1;
    return s.win + p.off;
}

// cp.async (sm_80+): global -> LDS without registers; a source size of 0 fills zeros (padding).
#if defined(CK_NV) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CK_CP_ASYNC 1
// `d`: the destination's shared-window address.
template <int BYTES> CK_DEV void ck_cp_async(unsigned d, const void* src, bool valid) {
    const int n = valid ? BYTES : 0;
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(n));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(d), "l"(src), "n"(BYTES), "r"(n));
}
template <int BYTES> CK_DEV void ck_cp_async(void* dst, const void* src, bool valid) {
    ck_cp_async<BYTES>((unsigned)__cvta_generic_to_shared(dst), src, valid);
}
CK_DEV void ck_cp_commit() { asm volatile("cp.async.commit_group;"); }
template <int PENDING> CK_DEV void ck_cp_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(PENDING)); }
#endif

// One operand's global->register->LDS movement. VEC elements along the operand's contiguous
// dimension move together; ALONG_R says whether that dimension is the tile's row (M or N) or K.
// `begin` places the thread's groups at a tile's first K-tile; each `load` reads one K-tile and
// steps to the next.
template <typename T, int ROWS, int ROW, int K1, int VEC, bool ALONG_R, bool IS_A, int OPK>
struct ck_loader {
    static constexpr int GROUPS = (ROWS * KPB / VEC + LOAD_THREADS - 1) / LOAD_THREADS;
    // A group lands in one store when it is contiguous in LDS: along the rows of a
    // row-contiguous operand, or within one K1 run of a K1-layout operand.
    static constexpr bool WHOLE = ALONG_R ? K1 == 1 : K1 % VEC == 0;
    static constexpr int BYTES = (int)sizeof(T) * VEC;
    // Every thread has the same number of groups: no bounds check per group.
    static constexpr bool EXACT = (ROWS * KPB / VEC) % LOAD_THREADS == 0;
    T reg[GROUPS][VEC];
    // Loaded along rows, a thread's groups lie on one K line when they divide it (K_MAJOR):
    // its K coordinates (an output pixel, for backward weight) are then split and advanced once
    // for all groups, and each group adds only its row's part. Otherwise a thread's groups are
    // LOAD_THREADS apart; when that is a whole number of lines of groups, they share their row
    // (loaded along rows) or their K index (loaded along K). One copy of the shared coordinates
    // saves registers and arithmetic.
    static constexpr int LINE = ALONG_R ? ROWS / VEC : KPB / VEC;  // groups per line
    static constexpr bool K_MAJOR = ALONG_R && EXACT && GROUPS > 1 && LINE % GROUPS == 0;
    static constexpr bool SHARE_ROW = ALONG_R && !K_MAJOR && LOAD_THREADS % LINE == 0;
    static constexpr bool SHARE_K = K_MAJOR || (!ALONG_R && LOAD_THREADS % LINE == 0);
    ck_site site[SHARE_ROW ? 1 : GROUPS];
    int row[SHARE_ROW ? 1 : GROUPS];  // tile-absolute row of each group
    ck_d4 kd[SHARE_K ? 1 : GROUPS];
    int kl[SHARE_K ? 1 : GROUPS];  // K index of each group
    ck_d4 step;

    CK_DEV static int ri(int i) { return SHARE_ROW ? 0 : i; }
    // LDS element of (row, k) in a stage.
    CK_DEV static int at(int r, int k) {
#if defined(CK_WGMMA)
        return ck_swz_idx<ROWS, ALONG_R>(r, k);
#else
        return ck_lds_idx<ROW, K1>(r, k);
#endif
    }
    CK_DEV static int ki(int i) { return SHARE_K ? 0 : i; }

    // Moves group i (or, with a shared K, every group after the last) to the next K-tile.
    CK_DEV void next(int i, ck_radix kr) {
        if (SHARE_K && i != GROUPS - 1) return;
        kl[ki(i)] += KPB;
        ck_advance4(kd[ki(i)], step, kr);
    }

    // Row and K index of group i of loading thread lt. K-major: LINE / GROUPS threads share a
    // K line, each taking every (LINE / GROUPS)-th group of it, so that a warp's loads of one
    // group index still cover whole runs of each line.
    CK_DEV static void place(int lt, int i, int& r, int& k) {
        if (K_MAJOR) {
            constexpr int PER_LINE = LINE / GROUPS;
            k = lt / PER_LINE;
            r = (lt % PER_LINE + i * PER_LINE) * VEC;
            return;
        }
        const int gi = lt + i * LOAD_THREADS;
        if (ALONG_R) { k = gi / LINE; r = (gi % LINE) * VEC; }
        else { r = gi / LINE; k = (gi % LINE) * VEC; }
    }

    CK_DEV void begin(const CkArgs& a, ck_i64 g, ck_i64 r0, ck_i64 k0, int lt) {
        const ck_radix kr = ck_k_radix(a);
        step = ck_split4(KPB, kr);
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            int r, k;
            place(lt, i, r, k);
            row[ri(i)] = (int)r0 + r;
            kl[ki(i)] = (int)k0 + k;
            kd[ki(i)] = ck_split4(kl[ki(i)], kr);
            site[ri(i)] = ck_make_site<IS_A>(a, g, row[ri(i)]);
        }
    }

    // The K parts of the groups' offsets at the current K-tile (one when they share K).
    typedef ck_kpart ck_kparts[SHARE_K ? 1 : GROUPS];
    CK_DEV void kparts(const CkArgs& a, ck_kparts& kp) const {
#pragma unroll
        for (int i = 0; i < (SHARE_K ? 1 : GROUPS); ++i) kp[i] = ck_make_kpart<IS_A>(a, kd[i], kl[i]);
    }

    // Element offset of group i at the current K-tile, -1 for zeros (outside or padding).
    CK_DEV ck_idx offset(const CkArgs& a, int i, const ck_kparts& kp) const {
        return ck_site_off<IS_A>(a, site[ri(i)], kp[ki(i)]);
    }

#if defined(CK_CP_ASYNC)
    // One K-tile straight into LDS (the host checked that vectors are legal), then the next.
    CK_DEV void issue(const CkArgs& a, const T* src, int lt, T* lds) {
        const ck_radix kr = ck_k_radix(a);
        ck_kparts kp;
        kparts(a, kp);
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            const int gi = lt + i * LOAD_THREADS;
            if (!EXACT && gi >= ROWS * KPB / VEC) {
                next(i, kr);
                continue;
            }
            int r, k;
            place(lt, i, r, k);
            const ck_idx off = offset(a, i, kp);
            ck_cp_async<BYTES>(lds + at(r, k), src + (off >= 0 ? off : 0), off >= 0);
            next(i, kr);
        }
    }
#endif

    CK_DEV void load(const CkArgs& a, const T* src, ck_i64 g, int lt, bool vec_ok) {
        const ck_radix kr = ck_k_radix(a);
        ck_kparts kp;
        kparts(a, kp);
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            const int gi = lt + i * LOAD_THREADS;
            if (!EXACT && gi >= ROWS * KPB / VEC) {
#pragma unroll
                for (int v = 0; v < VEC; ++v) reg[i][v] = ck_zero<T>();
                next(i, kr);
                continue;
            }
            ck_vec<T, VEC> w;
            if ((VEC == 1 || vec_ok) && OPK == CK_EOP_PASS) {
                // The host checked that the contiguous extent is a multiple of VEC and aligned,
                // so the whole group is in bounds (or in the padding) together.
                const ck_idx off = offset(a, i, kp);
                if (off >= 0) {
                    w = *reinterpret_cast<const ck_vec<T, VEC>*>(src + off);
                } else {
#pragma unroll
                    for (int v = 0; v < VEC; ++v) w.v[v] = ck_zero<T>();
                }
            } else {
                w = ck_load_scalar<T, VEC, ALONG_R, IS_A, OPK>(a, src, g, row[ri(i)], kl[ki(i)]);
            }
#pragma unroll
            for (int v = 0; v < VEC; ++v) reg[i][v] = w.v[v];
            next(i, kr);
        }
    }

    CK_DEV void store(T* lds, int lt) const {
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            int gi = lt + i * LOAD_THREADS;
            if (!EXACT && gi >= ROWS * KPB / VEC) continue;
            int r, k;
            place(lt, i, r, k);
            if (WHOLE) {
                ck_vec<T, VEC> w;
#pragma unroll
                for (int v = 0; v < VEC; ++v) w.v[v] = reg[i][v];
                *reinterpret_cast<ck_vec<T, VEC>*>(lds + at(r, k)) = w;
                continue;
            }
#pragma unroll
            for (int v = 0; v < VEC; ++v) {
                lds[at(r + (ALONG_R ? v : 0), k + (ALONG_R ? 0 : v))] = reg[i][v];
            }
        }
    }
};

typedef ck_loader<AT, MPB, LDS_A_ROW, K1A, VEC_A, A_ALONG_M, true, EOP_A> ck_a_loader;
typedef ck_loader<BT, NPB, LDS_B_ROW, K1B, VEC_B, B_ALONG_N, false, EOP_B> ck_b_loader;

