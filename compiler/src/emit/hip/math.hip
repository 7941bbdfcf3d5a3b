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
#if defined(CK_CP_ASYNC)
    // The cp.async ring's layout (the register path uses its first STAGES stages).
    b.Bs = reinterpret_cast<BT*>(smem + LDS_B_OFFSET_ASYNC);
#else
    b.Bs = reinterpret_cast<BT*>(smem + LDS_B_OFFSET);
#endif
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

