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
        return ck_bwd_out(a, g, ck_split_pix(m, a.Di, a.Hi, a.Wi), ck_split_tap(k, a.K, a));
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
        ck_tap t = ck_split_tap(k, a.K, a);
        return ck_w_off(a, g, t.c, t.z, t.y, t.x, n);
    } else {
        return ck_fwd_in(a, g, ck_split_pix(k, a.Do, a.Ho, a.Wo), ck_split_tap(n, a.C, a));
    }
}
// Offset of output element (m, n) of group g in the tensor the op writes: a row part plus a
// column part, so an epilogue decomposes RM rows and RN columns instead of RM x RN elements.
CK_DEV ck_i64 ck_c_row(const CkArgs& a, ck_i64 g, ck_i64 m) {
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

CK_DEV ck_pix ck_as_pix(const ck_d4& d) { ck_pix p; p.n = d.v[0]; p.d = d.v[1]; p.h = d.v[2]; p.w = d.v[3]; return p; }
CK_DEV ck_tap ck_as_tap(const ck_d4& d) { ck_tap t; t.z = d.v[0]; t.y = d.v[1]; t.x = d.v[2]; t.c = d.v[3]; return t; }

// GEMM-K digits: output pixels for backward weight, (tap, channel) otherwise.
CK_DEV ck_radix ck_k_radix(const CkArgs& a) {
    if (CK_OP == CK_BWD_WEIGHT) return ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo};
    return ck_radix{(ck_u32)a.Y, (ck_u32)a.X, (ck_u32)(CK_OP == CK_FWD ? a.C : a.K)};
}
// Row digits of A (output pixels for forward, input pixels for backward data) and of B (taps
// for backward weight); other rows are plain channels and need no digits.
template <bool IS_A> CK_DEV bool ck_rows_split() { return IS_A ? CK_OP != CK_BWD_WEIGHT : CK_OP == CK_BWD_WEIGHT; }
template <bool IS_A> CK_DEV ck_radix ck_row_radix(const CkArgs& a) {
    if (!IS_A) return ck_radix{(ck_u32)a.Y, (ck_u32)a.X, (ck_u32)a.C};
    if (CK_OP == CK_FWD) return ck_radix{(ck_u32)a.Do, (ck_u32)a.Ho, (ck_u32)a.Wo};
    return ck_radix{(ck_u32)a.Di, (ck_u32)a.Hi, (ck_u32)a.Wi};
}

// Offset of operand element (row, k) from its digits (the same element as ck_a_off / ck_b_off).
template <bool IS_A> CK_DEV ck_i64 ck_off_at(const CkArgs& a, ck_i64 g, int row, const ck_d4& rd, const ck_d4& kd) {
    if (IS_A) {
        if (CK_OP == CK_FWD) return ck_fwd_in(a, g, ck_as_pix(rd), ck_as_tap(kd));
        if (CK_OP == CK_BWD_DATA) return ck_bwd_out(a, g, ck_as_pix(rd), ck_as_tap(kd));
        return ck_y_off(a, g, kd.v[0], kd.v[1], kd.v[2], kd.v[3], row);
    }
    if (CK_OP == CK_FWD) return ck_w_off(a, g, row, kd.v[0], kd.v[1], kd.v[2], kd.v[3]);
    if (CK_OP == CK_BWD_DATA) return ck_w_off(a, g, kd.v[3], kd.v[0], kd.v[1], kd.v[2], row);
    return ck_fwd_in(a, g, ck_as_pix(kd), ck_as_tap(rd));
}

// cp.async (sm_80+): global -> LDS without registers; a source size of 0 fills zeros (padding).
#if defined(CK_NV) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define CK_CP_ASYNC 1
template <int BYTES> CK_DEV void ck_cp_async(void* dst, const void* src, bool valid) {
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    const int n = valid ? BYTES : 0;
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(n));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(d), "l"(src), "n"(BYTES), "r"(n));
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
    // Whole groups of 4, 8 or 16 bytes without an element-wise op can be copied asynchronously.
    static constexpr int BYTES = (int)sizeof(T) * VEC;
    static constexpr bool ASYNC = WHOLE && OPK == CK_EOP_PASS && (BYTES == 4 || BYTES == 8 || BYTES == 16);
    T reg[GROUPS][VEC];
    ck_d4 rd[GROUPS], kd[GROUPS];
    int row[GROUPS], kl[GROUPS];  // tile-absolute row and K index of each group
    ck_d4 step;

    CK_DEV static void place(int gi, int& r, int& k) {
        if (ALONG_R) { k = gi / (ROWS / VEC); r = (gi % (ROWS / VEC)) * VEC; }
        else { r = gi / (KPB / VEC); k = (gi % (KPB / VEC)) * VEC; }
    }

    CK_DEV void begin(const CkArgs& a, ck_i64 r0, ck_i64 k0, int lt) {
        const ck_radix kr = ck_k_radix(a);
        step = ck_split4(KPB, kr);
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            int r, k;
            place(lt + i * LOAD_THREADS, r, k);
            row[i] = (int)r0 + r;
            kl[i] = (int)k0 + k;
            kd[i] = ck_split4(kl[i], kr);
            if (ck_rows_split<IS_A>()) rd[i] = ck_split4(row[i], ck_row_radix<IS_A>(a));
        }
    }

    // Element offset of group i at the current K-tile, -1 for zeros (outside or padding).
    CK_DEV ck_i64 offset(const CkArgs& a, ck_i64 g, int i) const {
        const ck_i64 rows = IS_A ? a.M : a.Ng;
        return row[i] < rows && kl[i] < a.Kg ? ck_off_at<IS_A>(a, g, row[i], rd[i], kd[i]) : -1;
    }

#if defined(CK_CP_ASYNC)
    // One K-tile straight into LDS (the host checked that vectors are legal), then the next.
    CK_DEV void issue(const CkArgs& a, const T* src, ck_i64 g, int lt, T* lds) {
        const ck_radix kr = ck_k_radix(a);
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            const int gi = lt + i * LOAD_THREADS;
            if (gi >= ROWS * KPB / VEC) continue;
            int r, k;
            place(gi, r, k);
            const ck_i64 off = offset(a, g, i);
            ck_cp_async<BYTES>(lds + ck_lds_idx<ROW, K1>(r, k), src + (off >= 0 ? off : 0), off >= 0);
            kl[i] += KPB;
            ck_advance4(kd[i], step, kr);
        }
    }
#endif

    CK_DEV void load(const CkArgs& a, const T* src, ck_i64 g, int lt, bool vec_ok) {
        const ck_radix kr = ck_k_radix(a);
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            const int gi = lt + i * LOAD_THREADS;
            if (gi >= ROWS * KPB / VEC) {
#pragma unroll
                for (int v = 0; v < VEC; ++v) reg[i][v] = ck_zero<T>();
                continue;
            }
            ck_vec<T, VEC> w;
            if ((VEC == 1 || vec_ok) && OPK == CK_EOP_PASS) {
                // The host checked that the contiguous extent is a multiple of VEC and aligned,
                // so the whole group is in bounds (or in the padding) together.
                const ck_i64 off = offset(a, g, i);
                if (off >= 0) {
                    w = *reinterpret_cast<const ck_vec<T, VEC>*>(src + off);
                } else {
#pragma unroll
                    for (int v = 0; v < VEC; ++v) w.v[v] = ck_zero<T>();
                }
            } else {
                w = ck_load_scalar<T, VEC, ALONG_R, IS_A, OPK>(a, src, g, row[i], kl[i]);
            }
#pragma unroll
            for (int v = 0; v < VEC; ++v) reg[i][v] = w.v[v];
            kl[i] += KPB;
            ck_advance4(kd[i], step, kr);
        }
    }

    CK_DEV void store(T* lds, int lt) const {
#pragma unroll
        for (int i = 0; i < GROUPS; ++i) {
            int gi = lt + i * LOAD_THREADS;
            if (gi >= ROWS * KPB / VEC) continue;
            int r, k;
            place(gi, r, k);
            if (WHOLE) {
                ck_vec<T, VEC> w;
#pragma unroll
                for (int v = 0; v < VEC; ++v) w.v[v] = reg[i][v];
                *reinterpret_cast<ck_vec<T, VEC>*>(lds + ck_lds_idx<ROW, K1>(r, k)) = w;
                continue;
            }
#pragma unroll
            for (int v = 0; v < VEC; ++v) {
                lds[ck_lds_idx<ROW, K1>(r + (ALONG_R ? v : 0), k + (ALONG_R ? 0 : v))] = reg[i][v];
            }
        }
    }
};

typedef ck_loader<AT, MPB, LDS_A_ROW, K1A, VEC_A, A_ALONG_M, true, EOP_A> ck_a_loader;
typedef ck_loader<BT, NPB, LDS_B_ROW, K1B, VEC_B, B_ALONG_N, false, EOP_B> ck_b_loader;

// ---- Math: each math thread holds AR x AC fp32 accumulators. Accumulator (i, j) belongs to
// tile row `rb + ck_row_step(i)` and column `cb + ck_col_step(j)`; the epilogue, the StreamK
// partials and the split-K atomics only use this mapping, so every math path shares them.
#if defined(CK_MMA_SYNC) && CK_MMA_TILE
#define CK_TENSOR_CORES 1
// Tensor cores: warp (wm, wn) owns a WTM x WTN tile of FM x FN m16n8k16 MMA tiles. A lane holds
// rows g and g + 8 and columns 2t and 2t + 1 of each (g = lane / 4, t = lane % 4).
constexpr int WTM = MPB / WM_W, WTN = NPB / WN_W;
constexpr int FM = WTM / 16, FN = WTN / 8;
constexpr int AR = 2 * FM, AC = 2 * FN, MATH_THREADS = 32 * WM_W * WN_W;
CK_DEV int ck_row_step(int i) { return (i >> 1) * 16 + (i & 1) * 8; }
CK_DEV int ck_col_step(int j) { return (j >> 1) * 8 + (j & 1); }
#else
// SIMT: a TM_T x TN_T grid of threads, RM x RN outputs each, strided by the grid.
constexpr int AR = RM, AC = RN, MATH_THREADS = TM_T * TN_T;
CK_DEV int ck_row_step(int i) { return i * TM_T; }
CK_DEV int ck_col_step(int j) { return j * TN_T; }
#endif

struct ck_acc {
    float v[AR][AC];
};

// Block-wide context: thread roles and the LDS stages.
struct ck_block {
    int tid;
    bool loader, math;
    int lt;      // index among the loading threads
    int rb, cb;  // tile row and column of the math thread's accumulator (0, 0)
    int lane;
    AT* As;
    BT* Bs;
};

CK_DEV ck_block ck_make_block(unsigned char* smem) {
    ck_block b;
    b.tid = (int)threadIdx.x;
    b.lt = b.tid - LOAD_BEGIN;
    b.loader = b.lt >= 0 && b.lt < LOAD_THREADS;
    int mt = b.tid - MATH_BEGIN;
    b.math = mt >= 0 && mt < MATH_THREADS;
    if (!b.math) mt = 0;
#if defined(CK_TENSOR_CORES)
    const int warp = mt / 32;
    b.lane = mt % 32;
    b.rb = (warp / WN_W) * WTM + b.lane / 4;
    b.cb = (warp % WN_W) * WTN + (b.lane % 4) * 2;
#else
    b.lane = 0;
    b.rb = mt / TN_T;
    b.cb = mt % TN_T;
#endif
    b.As = reinterpret_cast<AT*>(smem);
    b.Bs = reinterpret_cast<BT*>(smem + LDS_B_OFFSET);
    return b;
}

CK_DEV int ck_row(const ck_block& b, int i) { return b.rb + ck_row_step(i); }
CK_DEV int ck_col(const ck_block& b, int j) { return b.cb + ck_col_step(j); }

#if defined(CK_TENSOR_CORES)
// Two consecutive-K elements of a 16-bit operand packed into one register (low half first).
template <int ROW, int K1, typename T> CK_DEV unsigned ck_pair(const T* s, int r, int k) {
    if (K1 % 2 == 0) return *reinterpret_cast<const unsigned*>(s + ck_lds_idx<ROW, K1>(r, k));
    return (unsigned)s[ck_lds_idx<ROW, K1>(r, k)].bits | ((unsigned)s[ck_lds_idx<ROW, K1>(r, k + 1)].bits << 16);
}

// ldmatrix: lane l gives the address of row l % 8 of matrix l / 8; NREG 8x8 matrices.
template <int NREG, bool TRANS> CK_DEV void ck_ldsm(unsigned (&r)[4], const void* p) {
    const unsigned a = (unsigned)__cvta_generic_to_shared(p);
    if (NREG == 4 && TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
    else if (NREG == 4)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
    else if (TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(a));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(a));
}

// Fragment of a 16-row (A) or 8-row (B) slice at rows r0.., K k0..k0+15, in mma.sync's order:
// (row g, k 2t), then for A (row g+8, k 2t); then the same at k + 8. Row-contiguous operands
// (K1 == 1, rows 16-byte aligned) load with a transposing ldmatrix, K1 % 8 == 0 ones with a plain one (8 rows of 16
// bytes either way); other K1 layouts read register pairs.
template <int ROWS, int ROW, int K1, typename T>
CK_DEV void ck_frag(unsigned (&f)[4], const T* s, int r0, int k0, int lane) {
    constexpr int NREG = ROWS / 4;
    const int q = (lane / 8) % NREG, rr = lane % 8;
    // Matrix q covers rows r0 + 8 * (q % (ROWS / 8)) and K chunk k0 + 8 * (q / (ROWS / 8)).
    const int mr = r0 + 8 * (q % (ROWS / 8)), mk = k0 + 8 * (q / (ROWS / 8));
    if (K1 == 1 && ROW % 8 == 0) {
        ck_ldsm<NREG, true>(f, s + ck_lds_idx<ROW, K1>(mr, mk + rr));
    } else if (K1 % 8 == 0) {
        ck_ldsm<NREG, false>(f, s + ck_lds_idx<ROW, K1>(mr + rr, mk));
    } else {
        const int g = lane / 4, t = (lane % 4) * 2;
#pragma unroll
        for (int i = 0; i < NREG; ++i) f[i] = ck_pair<ROW, K1>(s, r0 + g + 8 * (i % (ROWS / 8)), k0 + t + 8 * (i / (ROWS / 8)));
    }
}

template <typename T> struct ck_is_bf16 { static constexpr bool value = false; };
template <> struct ck_is_bf16<ck_bf16> { static constexpr bool value = true; };

CK_DEV void ck_mma(float (&c)[4], const unsigned (&a)[4], const unsigned (&b)[4]) {
    if (ck_is_bf16<AT>::value)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

CK_DEV void ck_math_step(ck_acc& acc, const AT* As, const BT* Bs, const ck_block& b) {
    const int wr = b.rb - b.lane / 4, wc = b.cb - (b.lane % 4) * 2;
#pragma unroll
    for (int k = 0; k < KPB; k += 16) {
        unsigned fa[FM][4], fb[FN][4];
#pragma unroll
        for (int i = 0; i < FM; ++i) ck_frag<16, LDS_A_ROW, K1A>(fa[i], As, wr + 16 * i, k, b.lane);
#pragma unroll
        for (int j = 0; j < FN; ++j) ck_frag<8, LDS_B_ROW, K1B>(fb[j], Bs, wc + 8 * j, k, b.lane);
#pragma unroll
        for (int i = 0; i < FM; ++i)
#pragma unroll
            for (int j = 0; j < FN; ++j) {
                float c[4] = {acc.v[2 * i][2 * j], acc.v[2 * i][2 * j + 1], acc.v[2 * i + 1][2 * j],
                              acc.v[2 * i + 1][2 * j + 1]};
                ck_mma(c, fa[i], fb[j]);
                acc.v[2 * i][2 * j] = c[0];
                acc.v[2 * i][2 * j + 1] = c[1];
                acc.v[2 * i + 1][2 * j] = c[2];
                acc.v[2 * i + 1][2 * j + 1] = c[3];
            }
    }
}
#else
CK_DEV void ck_math_step(ck_acc& acc, const AT* As, const BT* Bs, const ck_block& b) {
#pragma unroll 4
    for (int k = 0; k < KPB; ++k) {
        float av[RM], bv[RN];
#pragma unroll
        for (int i = 0; i < RM; ++i) av[i] = ck_to_float(As[ck_lds_idx<LDS_A_ROW, K1A>(ck_row(b, i), k)]);
#pragma unroll
        for (int j = 0; j < RN; ++j) bv[j] = ck_to_float(Bs[ck_lds_idx<LDS_B_ROW, K1B>(ck_col(b, j), k)]);
#pragma unroll
        for (int i = 0; i < RM; ++i)
#pragma unroll
            for (int j = 0; j < RN; ++j) acc.v[i][j] += av[i] * bv[j];
    }
}
#endif

// acc = sum over k-tiles [kb, ke) of A(m0.., k) * B(k, n0..). Inlined so that `acc` stays in
// registers (a call by reference would put it on the stack); each schedule calls it once.
CK_DEV void ck_gemm_tile(const CkArgs& a, const ck_block& b, ck_i64 g, ck_i64 m0, ck_i64 n0, ck_i64 kb, ck_i64 ke,
                         ck_acc& acc) {
#pragma unroll
    for (int i = 0; i < AR; ++i)
#pragma unroll
        for (int j = 0; j < AC; ++j) acc.v[i][j] = 0.0f;
    const AT* A = reinterpret_cast<const AT*>(CK_OP == CK_FWD ? a.x : a.y);
    const BT* B = reinterpret_cast<const BT*>(CK_OP == CK_BWD_WEIGHT ? a.x : a.w);
    const bool va = a.vec_a != 0, vb = a.vec_b != 0;
    ck_a_loader la;
    ck_b_loader lb;
    if (b.loader) {
        la.begin(a, m0, kb * KPB, b.lt);
        lb.begin(a, n0, kb * KPB, b.lt);
    }
#if defined(CK_CP_ASYNC)
    // NVIDIA sm_80+: a STAGES-deep cp.async pipeline when both operands copy whole vectors and
    // every thread both loads and computes. Stage (kt - kb) % STAGES holds K-tile kt.
    constexpr bool ASYNC = ck_a_loader::ASYNC && ck_b_loader::ASYNC && STAGES >= 2 && LOAD_BEGIN == 0 &&
                           LOAD_THREADS == BLOCK && MATH_BEGIN == 0;
    if (ASYNC && (va || VEC_A == 1) && (vb || VEC_B == 1)) {
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            if (kb + s < ke) {
                la.issue(a, A, g, b.lt, b.As + s * LDS_A_SIZE);
                lb.issue(a, B, g, b.lt, b.Bs + s * LDS_B_SIZE);
            }
            ck_cp_commit();
        }
        for (ck_i64 kt = kb; kt < ke; ++kt) {
            // K-tile kt has landed (the newer STAGES - 2 may still fly), and every thread is done
            // with the stage the next issue overwrites.
            ck_cp_wait<STAGES - 2>();
            __syncthreads();
            const ck_i64 nk = kt + STAGES - 1;
            if (nk < ke) {
                const int s = (int)((nk - kb) % STAGES);
                la.issue(a, A, g, b.lt, b.As + s * LDS_A_SIZE);
                lb.issue(a, B, g, b.lt, b.Bs + s * LDS_B_SIZE);
            }
            ck_cp_commit();
            const int s = (int)((kt - kb) % STAGES);
            if (b.math) ck_math_step(acc, b.As + s * LDS_A_SIZE, b.Bs + s * LDS_B_SIZE, b);
        }
        ck_cp_wait<0>();
        __syncthreads();
        return;
    }
#endif
    // Iteration kb - 1 is the prologue: it only brings tile kb into LDS. With two stages the
    // next tile goes to the other buffer while this one is used (one barrier per k-tile; also
    // the wavelet producer/consumer split). With one stage the next tile waits for the math to
    // finish; register prefetch still overlaps its global loads with the math.
    constexpr bool EARLY_LOAD = STAGES == 2 || REG_PREFETCH;
    int cur = 1;
    for (ck_i64 kt = kb - 1; kt < ke; ++kt) {
        const bool next = kt + 1 < ke;
        if (EARLY_LOAD && b.loader && next) {
            la.load(a, A, g, b.lt, va);
            lb.load(a, B, g, b.lt, vb);
        }
        if (b.math && kt >= kb) {
            const int s = STAGES == 2 ? cur : 0;
            ck_math_step(acc, b.As + s * LDS_A_SIZE, b.Bs + s * LDS_B_SIZE, b);
        }
        if (STAGES == 1) __syncthreads();
        if (b.loader && next) {
            if (!EARLY_LOAD) {
                la.load(a, A, g, b.lt, va);
                lb.load(a, B, g, b.lt, vb);
            }
            const int s = STAGES == 2 ? cur ^ 1 : 0;
            la.store(b.As + s * LDS_A_SIZE, b.lt);
            lb.store(b.Bs + s * LDS_B_SIZE, b.lt);
        }
        __syncthreads();
        cur ^= 1;
    }
}

// Final value of the output element at `off`: element-wise op, optional D tensor, conversion.
CK_DEV void ck_store_final(const CkArgs& a, ck_i64 off, float v) {
    if (EOP_OUT == CK_EOP_SCALE || EOP_OUT == CK_EOP_RELU) {
        v = ck_unary<EOP_OUT>(v, a);
    } else if (EOP_OUT != CK_EOP_PASS) {
        float d = ck_to_float(reinterpret_cast<const OT*>(a.d)[off]);
        if (EOP_OUT == CK_EOP_BILINEAR) v = (float)a.alpha * v + (float)a.beta * d;
        else v = v + d;
        if (EOP_OUT == CK_EOP_ADD_RELU) v = v > 0.0f ? v : 0.0f;
    }
    reinterpret_cast<OT*>(CK_OP == CK_FWD ? a.y : CK_OP == CK_BWD_DATA ? a.x : a.w)[off] = ck_from_float<OT>(v);
}

// Writes a finished (or, with atomic accumulation, partial) tile. ATOMIC adds into the fp32
// target chosen by the host: the zeroed output itself or the zeroed workspace.
CK_DEV void ck_store_tile(const CkArgs& a, const ck_block& b, ck_i64 g, ck_i64 m0, ck_i64 n0, const ck_acc& acc,
                          bool atomic) {
    if (!b.math) return;
    ck_i64 col[AC];
#pragma unroll
    for (int j = 0; j < AC; ++j) {
        ck_i64 n = n0 + ck_col(b, j);
        col[j] = n < a.Ng ? ck_c_col(a, n) : 0;
    }
#pragma unroll
    for (int i = 0; i < AR; ++i) {
        ck_i64 m = m0 + ck_row(b, i);
        if (ck_row(b, i) >= MPB || m >= a.M) continue;
        const ck_i64 row = ck_c_row(a, g, m);
#pragma unroll
        for (int j = 0; j < AC; ++j) {
            ck_i64 n = n0 + ck_col(b, j);
            if (ck_col(b, j) >= NPB || n >= a.Ng) continue;
            if (!atomic) {
                ck_store_final(a, row + col[j], acc.v[i][j]);
            } else if (a.atomic_to_ws) {
                atomicAdd(reinterpret_cast<float*>(a.ws) + (g * a.M + m) * a.Ng + n, acc.v[i][j]);
            } else {
                atomicAdd(reinterpret_cast<float*>(CK_OP == CK_FWD ? a.y : CK_OP == CK_BWD_DATA ? a.x : a.w) + row +
                              col[j],
                          acc.v[i][j]);
            }
        }
    }
}

// StreamK: SK block b covers iterations [ck_sk_begin(b), ck_sk_begin(b + 1)) of the SK tiles.
CK_DEV ck_i64 ck_sk_begin(const CkArgs& a, ck_i64 b) {
    return b * a.sk_iters + (b < a.sk_rem ? b : a.sk_rem);
}
CK_DEV ck_i64 ck_sk_block_of(const CkArgs& a, ck_i64 it) {
    ck_i64 big = a.sk_rem * (a.sk_iters + 1);
    return it < big ? it / (a.sk_iters + 1) : a.sk_rem + (it - big) / a.sk_iters;
}

CK_DEV float* ck_partial(const CkArgs& a, ck_i64 blk) { return reinterpret_cast<float*>(a.ws) + blk * (MPB * NPB); }

CK_DEV void ck_partial_store(const CkArgs& a, const ck_block& b, ck_i64 blk, const ck_acc& acc) {
    if (b.math) {
        volatile float* p = ck_partial(a, blk);
#pragma unroll
        for (int i = 0; i < AR; ++i)
#pragma unroll
            for (int j = 0; j < AC; ++j)
                if (ck_row(b, i) < MPB && ck_col(b, j) < NPB) p[ck_row(b, i) * NPB + ck_col(b, j)] = acc.v[i][j];
    }
    __threadfence();
    __syncthreads();
    if (b.tid == 0) ck_signal(reinterpret_cast<int*>(a.flags) + blk);
}

CK_DEV void ck_partial_add(const CkArgs& a, const ck_block& b, ck_i64 blk, ck_acc& acc) {
    if (b.tid == 0) ck_wait(reinterpret_cast<int*>(a.flags) + blk);
    __syncthreads();
    if (b.math) {
        const volatile float* p = ck_partial(a, blk);
#pragma unroll
        for (int i = 0; i < AR; ++i)
#pragma unroll
            for (int j = 0; j < AC; ++j)
                if (ck_row(b, i) < MPB && ck_col(b, j) < NPB) acc.v[i][j] += p[ck_row(b, i) * NPB + ck_col(b, j)];
    }
}

CK_DEV void ck_tile_coords(const CkArgs& a, ck_i64 t, ck_i64& g, ck_i64& m0, ck_i64& n0) {
    ck_i64 per_group = a.tiles_m * a.tiles_n;
    g = t / per_group;
    ck_i64 r = t % per_group;
    m0 = (r / a.tiles_n) * MPB;
    n0 = (r % a.tiles_n) * NPB;
}

// Every block walks its work units with one GEMM and one store call site: data-parallel blocks
// take whole tiles after the SK tiles (persistent ones stride over them), SK blocks take their
// iteration range, cut at tile boundaries.
CK_DEV void ck_streamk(const CkArgs& a, const ck_block& b) {
    ck_acc acc;
    const ck_i64 blk = blockIdx.x;
    const bool dp = blk >= a.sk_blocks;
    const ck_i64 end = dp ? a.sk_tiles + a.dp_tiles : ck_sk_begin(a, blk + 1);
    // DP: the next tile; SK: the next iteration.
    ck_i64 pos = dp ? a.sk_tiles + (blk - a.sk_blocks) : ck_sk_begin(a, blk);
    while (pos < end) {
        const ck_i64 t = dp ? pos : pos / a.k_iters;
        const ck_i64 tb = t * a.k_iters;
        const ck_i64 kb = dp ? 0 : pos - tb;
        const ck_i64 ke = dp ? a.k_iters : (end < tb + a.k_iters ? end : tb + a.k_iters) - tb;
        ck_i64 g, m0, n0;
        ck_tile_coords(a, t, g, m0, n0);
        ck_gemm_tile(a, b, g, m0, n0, kb, ke, acc);
        bool atomic = a.store_atomic != 0, owner = true;
        const ck_i64 first = ck_sk_block_of(a, tb);
        const ck_i64 peers = dp ? 1 : ck_sk_block_of(a, tb + a.k_iters - 1) - first + 1;
        if (SK_REDUCTION == CK_SK_ATOMIC) {
            atomic = atomic || peers > 1;
        } else if (peers > 1) {
            const ck_i64 i = blk - first;
            if (SK_REDUCTION == CK_SK_LINEAR) {
                // The block that starts the tile adds every later contributor in block order.
                if (i == 0) {
                    for (ck_i64 p = 1; p < peers; ++p) ck_partial_add(a, b, first + p, acc);
                }
            } else {
                // Tree: in round s a block with i % 2s == 0 absorbs block i + s.
                for (ck_i64 s = 1; s < peers; s <<= 1) {
                    if (i & s) break;
                    if (i + s < peers) ck_partial_add(a, b, blk + s, acc);
                }
            }
            owner = i == 0;
        }
        if (owner) ck_store_tile(a, b, g, m0, n0, acc, atomic);
        else ck_partial_store(a, b, blk, acc);
        __syncthreads();
        pos = dp ? pos + a.dp_blocks : tb + ke;
    }
}

CK_DEV void ck_split_k(const CkArgs& a, const ck_block& b) {
    ck_acc acc;
    const ck_i64 per_split = a.tiles_m * a.tiles_n;
    const ck_i64 s = blockIdx.x / per_split;
    const ck_i64 r = blockIdx.x % per_split;
    const ck_i64 m0 = (r / a.tiles_n) * MPB, n0 = (r % a.tiles_n) * NPB;
    const ck_i64 kb = s * a.split_iters;
    const ck_i64 ke = kb + a.split_iters < a.k_iters ? kb + a.split_iters : a.k_iters;
    // Merged groups: one block runs MERGE consecutive groups of the same tile.
    for (ck_i64 gi = 0; gi < MERGE; ++gi) {
        const ck_i64 g = (ck_i64)blockIdx.y * MERGE + gi;
        if (g >= a.G) break;
        ck_gemm_tile(a, b, g, m0, n0, kb, ke, acc);
        ck_store_tile(a, b, g, m0, n0, acc, a.store_atomic != 0);
        __syncthreads();
    }
}

CK_ENTRY(main)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    const ck_block b = ck_make_block(ck_smem);
    if (SCHEDULE == CK_SCHEDULE_STREAMK) ck_streamk(a, b);
    else ck_split_k(a, b);
}

// Second stage: fp32 workspace [G][M][N] -> output tensor with the element-wise op.
CK_ENTRY(convert)(const CK_GRID_CONST CkArgs a) {
    const ck_i64 total = a.G * a.M * a.Ng;
    for (ck_i64 i = (ck_i64)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (ck_i64)gridDim.x * blockDim.x) {
        const ck_i64 n = i % a.Ng, m = (i / a.Ng) % a.M, g = i / (a.Ng * a.M);
        ck_store_final(a, ck_c_row(a, g, m) + ck_c_col(a, n), reinterpret_cast<const float*>(a.ws)[i]);
    }
}
