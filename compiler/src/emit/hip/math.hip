// ---- Math: each math thread holds AR x AC fp32 accumulators. Accumulator (i, j) belongs to
// tile row `rb + ck_row_step(i)` and column `cb + ck_col_step(j)`; the epilogue, the StreamK
// partials and the split-K atomics only use this mapping, so every math path shares them.
// The path flags are per kernel: a translation unit may hold several kernels.
#undef CK_TENSOR_CORES
#undef CK_AMD_MATRIX
#if defined(CK_WGMMA)
// Warpgroup MMAs (sm_90a): warpgroup (wm, wn) of a WG_M x WG_N grid owns WG_FM 64-row slices
// from row 64 WG_FM wm and columns WG_NW wn.. of the tile; in a slice, warp w holds rows
// 16 w + g and 16 w + g + 8 and columns 8 c + 2t and 8 c + 2t + 1 of every 8-column chunk c
// (g = lane / 4, t = lane % 4).
constexpr int AR = 2 * WG_FM, AC = WG_NW / 4, MATH_THREADS = 128 * WG_M * WG_N;
CK_DEV int ck_row_step(int i) { return (i >> 1) * 64 + (i & 1) * 8; }
CK_DEV int ck_col_step(int j) { return (j >> 1) * 8 + (j & 1); }
#elif defined(CK_MMA_SYNC) && CK_MMA_TILE
#define CK_TENSOR_CORES 1
// Tensor cores: warp (wm, wn) owns a WTM x WTN tile of FM x FN m16n8k16 MMA tiles. A lane holds
// rows g and g + 8 and columns 2t and 2t + 1 of each (g = lane / 4, t = lane % 4).
constexpr int WTM = MPB / WM_W, WTN = NPB / WN_W;
constexpr int FM = WTM / 16, FN = WTN / 8;
constexpr int AR = 2 * FM, AC = 2 * FN, MATH_THREADS = 32 * WM_W * WN_W;
CK_DEV int ck_row_step(int i) { return (i >> 1) * 16 + (i & 1) * 8; }
CK_DEV int ck_col_step(int j) { return (j >> 1) * 8 + (j & 1); }
#elif (defined(CK_MFMA) && CK_MFMA_TILE) || (defined(CK_WMMA_GFX11) && CK_WMMA_TILE) || \
    (defined(CK_WMMA_GFX12) && CK_WMMA_TILE)
#define CK_AMD_MATRIX 1
// AMD matrix cores: wave (wm, wn) of CK_WAVE lanes owns a WTM x WTN tile of FM x FN blocks of
// XM x XN x XK, one instruction each. In every layout below lane l holds A row l % XM and B
// column l % XN with XKL consecutive K elements from ((l / XM) % (XK / XKL)) * XKL (A and B
// split K alike, so the order of K within a lane is free), and its XR accumulators of a block
// are column l % XN, rows (l / XN) * XG + (e / XRUN) * XJUMP + (e % XRUN) * XSTEP (e < XR).
#if defined(CK_MFMA)
// gfx9 MFMA, wave64: v_mfma_f32_32x32x8{f16,bf16_1k} or v_mfma_f32_16x16x16{f16,bf16_1k}, one
// block per instruction (AMD Instinct MI200/MI300 ISA guides, "Matrix fused multiply-add" and
// the dependent-register layouts of the AMD matrix instruction calculator; the same mapping is
// in CK's xdlops_gemm.hpp and llama.cpp's mma.cuh): A row l % 32 (l % 16), K 4 * (l / 32)
// (4 * (l / 16)) .. +3; C register e of 32x32 is row 8 * (e / 4) + 4 * (l / 32) + e % 4, of
// 16x16 row 4 * (l / 16) + e.
constexpr int XM = MFMA_BLOCK, XN = MFMA_BLOCK, XK = MFMA_BLOCK == 32 ? 8 : 16, XKL = 4;
constexpr int XW_M = MFMA_WM, XW_N = MFMA_WN;
constexpr int XG = 4, XRUN = 4, XJUMP = 8, XSTEP = 1;
#elif defined(CK_WMMA_GFX11)
// gfx11 WMMA, wave32: v_wmma_f32_16x16x16_{f16,bf16} (RDNA3 ISA guide, "Wave Matrix Multiply
// Accumulate"; GPUOpen "How to accelerate AI applications on RDNA 3 using WMMA"): every lane
// holds all 16 K elements of A row l % 16 and B column l % 16 (lanes 16..31 repeat lanes
// 0..15); C register e is row 2 * e + l / 16.
constexpr int XM = 16, XN = 16, XK = 16, XKL = 16;
constexpr int XW_M = WMMA_WM, XW_N = WMMA_WN;
constexpr int XG = 1, XRUN = 8, XJUMP = 16, XSTEP = 2;
#else
// gfx12 WMMA, wave32: v_wmma_f32_16x16x16_{f16,bf16} with 8 elements per lane, no repetition
// (RDNA4 ISA guide, "Wave Matrix Multiply Accumulate"; CK's wmma_gemm.hpp and llama.cpp's
// mma.cuh for RDNA4): A row l % 16, K 8 * (l / 16) .. +7; C register e is row 8 * (l / 16) + e.
constexpr int XM = 16, XN = 16, XK = 16, XKL = 8;
constexpr int XW_M = WMMA_WM, XW_N = WMMA_WN;
constexpr int XG = 8, XRUN = 8, XJUMP = 16, XSTEP = 1;
#endif
constexpr int WTM = MPB / XW_M, WTN = NPB / XW_N;
constexpr int FM = WTM / XM, FN = WTN / XN, XR = XM * XN / CK_WAVE;
constexpr int AR = FM * XR, AC = FN, MATH_THREADS = CK_WAVE * XW_M * XW_N;
CK_DEV int ck_row_step(int i) { return (i / XR) * XM + ((i % XR) / XRUN) * XJUMP + (i % XRUN) * XSTEP; }
CK_DEV int ck_col_step(int j) { return j * XN; }
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
#if defined(CK_WGMMA)
    const int warp = mt / 32, wg = warp / 4;
    b.lane = mt % 32;
    b.rb = (wg / WG_N) * 64 * WG_FM + (warp % 4) * 16 + b.lane / 4;
    b.cb = (wg % WG_N) * WG_NW + (b.lane % 4) * 2;
#elif defined(CK_TENSOR_CORES)
    const int warp = mt / 32;
    b.lane = mt % 32;
    b.rb = (warp / WN_W) * WTM + b.lane / 4;
    b.cb = (warp % WN_W) * WTN + (b.lane % 4) * 2;
#elif defined(CK_AMD_MATRIX)
    const int wave = mt / CK_WAVE;
    b.lane = mt % CK_WAVE;
    b.rb = (wave / XW_N) * WTM + (b.lane / XN) * XG;
    b.cb = (wave % XW_N) * WTN + b.lane % XN;
#else
    b.lane = 0;
    b.rb = mt / TN_T;
    b.cb = mt % TN_T;
#endif
    b.As = reinterpret_cast<AT*>(smem);
#if defined(CK_WGMMA)
    // Swizzled stages start on a 1 KB boundary (the host adds the slack).
    const unsigned lead = (1024u - ((unsigned)__cvta_generic_to_shared(smem) & 1023u)) & 1023u;
    b.As = reinterpret_cast<AT*>(smem + lead);
    b.Bs = reinterpret_cast<BT*>(smem + lead + WG_LDS_B_OFFSET);
#elif defined(CK_CP_ASYNC)
    // The cp.async ring's layout (the register path uses its first STAGES stages).
    b.Bs = reinterpret_cast<BT*>(smem + LDS_B_OFFSET_ASYNC);
#else
    b.Bs = reinterpret_cast<BT*>(smem + LDS_B_OFFSET);
#endif
    return b;
}

CK_DEV int ck_row(const ck_block& b, int i) { return b.rb + ck_row_step(i); }
CK_DEV int ck_col(const ck_block& b, int j) { return b.cb + ck_col_step(j); }

template <typename T> struct ck_is_bf16 { static constexpr bool value = false; };
template <> struct ck_is_bf16<ck_bf16> { static constexpr bool value = true; };

#if defined(CK_MMA_SYNC)
// The sm_80+ matrix instructions, for the tensor-core math path and the small-channel entry.
// ldmatrix: lane l gives the address of row l % 8 of matrix l / 8; NREG 8x8 matrices.
// `a`: the shared-window address.
template <int NREG, bool TRANS> CK_DEV void ck_ldsm(unsigned (&r)[4], unsigned a) {
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
template <int NREG, bool TRANS> CK_DEV void ck_ldsm(unsigned (&r)[4], const void* p) {
    ck_ldsm<NREG, TRANS>(r, (unsigned)__cvta_generic_to_shared(p));
}

// Element offset of 16-byte chunk (row, v) of 16-bit rows of `vw` chunks, XOR-swizzled within
// 128-byte lines: the same chunk of eight consecutive rows falls in eight distinct bank groups,
// so ldmatrix reads of them are conflict-free.
CK_DEV int ck_swz_chunk(int row, int v, int vw) {
    const int c = row * vw + v;
    return (c ^ ((c >> 3) & 7)) * 8;
}

// Not volatile: a pure function of its registers, so the compiler may interleave it with the
// (volatile, ordered) fragment loads of the next K step. fp32 operands are TF32 fragments of an
// m16n8k8 step (ck_frag rounds them).
CK_DEV void ck_mma(float (&c)[4], const unsigned (&a)[4], const unsigned (&b)[4]) {
    if (sizeof(AT) == 4)
        asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else if (ck_is_bf16<AT>::value)
        asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// m16n8k8: A rows g and g + 8 at K 2t, B column g at K 2t (one register each).
CK_DEV void ck_mma_k8(float (&c)[4], unsigned a0, unsigned a1, unsigned b) {
    if (ck_is_bf16<AT>::value)
        asm("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a0), "r"(a1), "r"(b));
    else
        asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a0), "r"(a1), "r"(b));
}
#endif

// Elements of one LDS stage of A and B.
#if defined(CK_WGMMA)
constexpr int A_STAGE = MPB * KPB, B_STAGE = NPB * KPB;
#else
constexpr int A_STAGE = LDS_A_SIZE, B_STAGE = LDS_B_SIZE;
#endif

#if defined(CK_WGMMA)
// Shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start address,
// leading and stride byte offsets (all >> 4), swizzle mode in bits 62-63 (1: 128 bytes, 2: 64).
CK_DEV unsigned long long ck_wg_desc(const void* p, unsigned lbo, unsigned sbo, unsigned long long mode) {
    const unsigned a = (unsigned)__cvta_generic_to_shared(p);
    return (unsigned long long)((a & 0x3FFFFu) >> 4) | ((unsigned long long)(lbo >> 4) << 16) |
           ((unsigned long long)(sbo >> 4) << 32) | (mode << 62);
}

// Descriptor of the 64-row (A) or WG_NW-row (B) slice from `row` at K step k0 of a stage in the
// ck_swz_idx layout. K-major: the stage is [KPB / line][rows][line] for lines of 128 bytes, or
// of 64 where the TMA copies took half-line boxes (HALF, 64-byte swizzle); 8-row groups lie 8
// lines apart and the K step moves within a line (the hardware swizzles the final address).
// M/N-major: 64-row atoms lie KPB lines apart (leading offset), 8-line K groups 1 KB apart
// (stride offset).
template <int ROWS, bool MN_MAJOR, bool HALF, typename T>
CK_DEV unsigned long long ck_wg_operand(const T* s, int row, int k0) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(s);
    if (MN_MAJOR) return ck_wg_desc(p + (row / 64) * (KPB * 128) + k0 * 128, KPB * 128, 1024, 1);
    constexpr int LINE = HALF ? 64 : 128, E = LINE / (int)sizeof(T);
    return ck_wg_desc(p + (k0 / E) * (ROWS * LINE) + row * LINE + (k0 % E) * (int)sizeof(T), 16, 8 * LINE,
                      HALF ? 2 : 1);
}

CK_DEV void ck_wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
CK_DEV void ck_wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int PENDING> CK_DEV void ck_wg_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
}
// Makes this thread's earlier shared-memory writes (stores and landed cp.async copies)
// visible to the async proxy that wgmma reads through.
CK_DEV void ck_proxy_fence() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
// Pins the accumulators around asynchronous MMAs: the compiler may not move their reads or
// writes across this point.
CK_DEV void ck_acc_pin(ck_acc& acc) {
#pragma unroll
    for (int i = 0; i < AR; ++i)
#pragma unroll
        for (int j = 0; j < AC; ++j) asm volatile("" : "+f"(acc.v[i][j])::"memory");
}

// Issues (does not wait for) the warpgroup MMAs of one K-tile and commits them as one group.
template <bool HALF = false> CK_DEV void ck_wg_issue(ck_acc& acc, const AT* As, const BT* Bs, const ck_block& b) {
    const int wg = (b.tid - MATH_BEGIN) / 128;
    const int ar = (wg / WG_N) * 64 * WG_FM, bc = (wg % WG_N) * WG_NW;
    ck_acc_pin(acc);
    ck_wg_fence();
#pragma unroll
    for (int k = 0; k < KPB; k += 16) {
        const unsigned long long db = ck_wg_operand<NPB, B_ALONG_N, HALF>(Bs, bc, k);
#pragma unroll
        for (int f = 0; f < WG_FM; ++f)
            ck_wgmma(*reinterpret_cast<float(*)[2][AC]>(&acc.v[2 * f]),
                     ck_wg_operand<MPB, A_ALONG_M, HALF>(As, ar + 64 * f, k), db);
    }
    ck_wg_commit();
}

// The register-staged pipelines: one K-tile, finished before returning.
CK_DEV void ck_math_step(ck_acc& acc, const AT* As, const BT* Bs, const ck_block& b) {
    ck_wg_issue(acc, As, Bs, b);
    ck_wg_wait<0>();
    ck_acc_pin(acc);
}
#elif defined(CK_TENSOR_CORES)
// The kernel has an MMA tile for fp32 operands only where its instance computes in tf32: K
// steps of 8 (m16n8k8), a register one element rounded to TF32. 16-bit operands take steps of
// 16, a register two consecutive-K elements.
constexpr bool MMA_TF32 = sizeof(AT) == 4;
constexpr int MMA_K = MMA_TF32 ? 8 : 16;
// K elements of one ldmatrix row (16 bytes).
constexpr int LDSM_K = 16 / (int)sizeof(AT);

// Two consecutive-K elements of a 16-bit operand packed into one register (low half first), or
// one fp32 element rounded to TF32 (to nearest, ties away: the MMA would drop its low bits).
template <int ROW, int K1, typename T> CK_DEV unsigned ck_pair(const T* s, int r, int k) {
    if constexpr (MMA_TF32) {
        unsigned u;
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(s[ck_lds_idx<ROW, K1>(r, k)]));
        return u;
    } else {
        if (K1 % 2 == 0) return *reinterpret_cast<const unsigned*>(s + ck_lds_idx<ROW, K1>(r, k));
        return (unsigned)s[ck_lds_idx<ROW, K1>(r, k)].bits | ((unsigned)s[ck_lds_idx<ROW, K1>(r, k + 1)].bits << 16);
    }
}

// Fragment of a 16-row (A) or 8-row (B) slice at rows r0 + rc.., K k0..k0+MMA_K-1, in mma.sync's
// order: (row g, k 2t) (TF32: k t), then for A (row g+8, the same k); then the same at
// k + MMA_K / 2. Row-contiguous 16-bit operands (K1 == 1, rows 16-byte aligned) load with a
// transposing ldmatrix, K1 % 8 == 0 ones (TF32: K1 % 4 == 0) with a plain one (8 rows of 16
// bytes either way); other layouts read registers one at a time. ldmatrix addresses are
// linear in (row, k) for these layouts (16-bit: K1 of 1, 8 or a multiple of 16; TF32: a power
// of two from 4; K steps of MMA_K): `lp` points at the lane's row of matrix 0 (ck_frag_lane),
// and rc and k0, constants after unrolling, only add an immediate offset.
template <int ROW, int K1> struct ck_ldsm_linear {
    static constexpr bool value = MMA_TF32 ? K1 >= 4 && (K1 & (K1 - 1)) == 0
                                           : (K1 == 1 && ROW % 8 == 0) || K1 == 8 || K1 % 16 == 0;
};

template <int ROWS, int ROW, int K1> CK_DEV int ck_frag_lane(int r0, int lane) {
    constexpr int NREG = ROWS / 4;
    const int q = (lane / 8) % NREG, rr = lane % 8;
    // Matrix q covers rows r0 + 8 * (q % (ROWS / 8)) and K chunk LDSM_K * (q / (ROWS / 8)).
    const int mr = r0 + 8 * (q % (ROWS / 8)), mk = LDSM_K * (q / (ROWS / 8));
    return K1 == 1 ? ck_lds_idx<ROW, K1>(mr, mk + rr) : ck_lds_idx<ROW, K1>(mr + rr, mk);
}

template <int ROWS, int ROW, int K1, typename T>
CK_DEV void ck_frag(unsigned (&f)[4], const T* s, const T* lp, int r0, int rc, int k0, int lane) {
    constexpr int NREG = ROWS / 4;
    if (ck_ldsm_linear<ROW, K1>::value) {
        ck_ldsm<NREG, K1 == 1>(f, lp + ck_lds_idx<ROW, K1>(rc, k0));
        if constexpr (MMA_TF32) {
#pragma unroll
            for (int i = 0; i < NREG; ++i) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(f[i]) : "f"(__uint_as_float(f[i])));
        }
    } else {
        const int g = lane / 4, t = (lane % 4) * (MMA_K / 8);
#pragma unroll
        for (int i = 0; i < NREG; ++i)
            f[i] = ck_pair<ROW, K1>(s, r0 + rc + g + 8 * (i % (ROWS / 8)), k0 + t + (MMA_K / 2) * (i / (ROWS / 8)));
    }
}

// The fragments of one MMA_K-deep K step of the warp's tile.
struct ck_frags {
    unsigned a[FM][4], b[FN][4];
};

// Where the warp reads its fragments: the stage's A and B tiles, the lane pointers into them
// (ck_frag_lane) and the warp's first tile row and column.
struct ck_warp_lds {
    const AT *as, *la;
    const BT *bs, *lb;
    int wr, wc;
};

CK_DEV void ck_load_frags(ck_frags& f, const ck_warp_lds& w, int k, int lane) {
#pragma unroll
    for (int i = 0; i < FM; ++i) ck_frag<16, LDS_A_ROW, K1A>(f.a[i], w.as, w.la, w.wr, 16 * i, k, lane);
#pragma unroll
    for (int j = 0; j < FN; ++j) ck_frag<8, LDS_B_ROW, K1B>(f.b[j], w.bs, w.lb, w.wc, 8 * j, k, lane);
}

// The fragments of K step s + 1 are read from LDS before the MMAs of step s, so that their
// latency hides behind those MMAs.
CK_DEV void ck_math_step(ck_acc& acc, const AT* As, const BT* Bs, const ck_block& b) {
    ck_warp_lds w;
    w.wr = b.rb - b.lane / 4;
    w.wc = b.cb - (b.lane % 4) * 2;
    w.as = As;
    w.bs = Bs;
    w.la = As + ck_frag_lane<16, LDS_A_ROW, K1A>(w.wr, b.lane);
    w.lb = Bs + ck_frag_lane<8, LDS_B_ROW, K1B>(w.wc, b.lane);
    ck_frags f[2];
    ck_load_frags(f[0], w, 0, b.lane);
#pragma unroll
    for (int s = 0; s < KPB / MMA_K; ++s) {
        if (s + 1 < KPB / MMA_K) ck_load_frags(f[(s + 1) % 2], w, MMA_K * (s + 1), b.lane);
        const ck_frags& c = f[s % 2];
#pragma unroll
        for (int i = 0; i < FM; ++i)
#pragma unroll
            for (int j = 0; j < FN; ++j) {
                float v[4] = {acc.v[2 * i][2 * j], acc.v[2 * i][2 * j + 1], acc.v[2 * i + 1][2 * j],
                              acc.v[2 * i + 1][2 * j + 1]};
                ck_mma(v, c.a[i], c.b[j]);
                acc.v[2 * i][2 * j] = v[0];
                acc.v[2 * i][2 * j + 1] = v[1];
                acc.v[2 * i + 1][2 * j] = v[2];
                acc.v[2 * i + 1][2 * j + 1] = v[3];
            }
    }
}
#elif defined(CK_AMD_MATRIX)
// One lane's XKL K elements of an operand and its XR accumulators of a block; 16-bit values
// travel as raw bits (no ldmatrix on AMD: fragments are read from LDS directly).
typedef short ck_xfrag __attribute__((ext_vector_type(XKL)));
typedef _Float16 ck_xhalf __attribute__((ext_vector_type(XKL)));
typedef float ck_xacc __attribute__((ext_vector_type(XR)));

// XKL consecutive K elements of row r from k0 (a multiple of XKL). They are contiguous within a
// K1 run, so a K1 layout reads W elements at a time (W divides K1 and XKL, at most 16 bytes:
// offsets are multiples of W); a row-contiguous operand (K1 == 1) reads them one by one.
template <int ROW, int K1, typename T> CK_DEV ck_xfrag ck_xfrag_load(const T* s, int r, int k0) {
    constexpr int RUN = K1 % 8 == 0 ? 8 : K1 % 4 == 0 ? 4 : K1 % 2 == 0 ? 2 : 1;
    constexpr int W = RUN < XKL ? RUN : XKL;
    ck_xfrag f;
#pragma unroll
    for (int c = 0; c < XKL; c += W) {
        const ck_vec<T, W> v = *reinterpret_cast<const ck_vec<T, W>*>(s + ck_lds_idx<ROW, K1>(r, k0 + c));
#pragma unroll
        for (int e = 0; e < W; ++e) f[c + e] = (short)v.v[e].bits;
    }
    return f;
}

// c += A x B for one block, fp32 accumulation; the bf16 test folds away.
#if defined(CK_MFMA)
// MFMA: the accumulator width picks the block (4 registers: 16x16x16, 16: 32x32x8). gfx908 has
// no bf16_1k forms: it runs the half-depth ones (2 K elements a lane) on elements 0-1, then 2-3;
// A and B split K alike, and a one-block MFMA has the same C layout at either depth.
typedef float ck_f32x4 __attribute__((ext_vector_type(4)));
typedef float ck_f32x16 __attribute__((ext_vector_type(16)));
CK_DEV ck_f32x4 ck_xmma(ck_xfrag a, ck_xfrag b, ck_f32x4 c) {
    if (ck_is_bf16<AT>::value) {
#if defined(__gfx908__)
        c = __builtin_amdgcn_mfma_f32_16x16x8bf16(a.xy, b.xy, c, 0, 0, 0);
        return __builtin_amdgcn_mfma_f32_16x16x8bf16(a.zw, b.zw, c, 0, 0, 0);
#else
        return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
#endif
    }
    return __builtin_amdgcn_mfma_f32_16x16x16f16(__builtin_bit_cast(ck_xhalf, a), __builtin_bit_cast(ck_xhalf, b), c, 0,
                                                0, 0);
}
CK_DEV ck_f32x16 ck_xmma(ck_xfrag a, ck_xfrag b, ck_f32x16 c) {
    if (ck_is_bf16<AT>::value) {
#if defined(__gfx908__)
        c = __builtin_amdgcn_mfma_f32_32x32x4bf16(a.xy, b.xy, c, 0, 0, 0);
        return __builtin_amdgcn_mfma_f32_32x32x4bf16(a.zw, b.zw, c, 0, 0, 0);
#else
        return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0);
#endif
    }
    return __builtin_amdgcn_mfma_f32_32x32x8f16(__builtin_bit_cast(ck_xhalf, a), __builtin_bit_cast(ck_xhalf, b), c, 0, 0,
                                               0);
}
#else
CK_DEV ck_xacc ck_xmma(ck_xfrag a, ck_xfrag b, ck_xacc c) {
    const ck_xhalf ah = __builtin_bit_cast(ck_xhalf, a), bh = __builtin_bit_cast(ck_xhalf, b);
#if defined(CK_WMMA_GFX11)
    if (ck_is_bf16<AT>::value) return __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(a, b, c);
    return __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(ah, bh, c);
#else
    if (ck_is_bf16<AT>::value) return __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32_gfx12(a, b, c);
    return __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(ah, bh, c);
#endif
}
#endif

CK_DEV void ck_math_step(ck_acc& acc, const AT* As, const BT* Bs, const ck_block& b) {
    // This lane's A row and B column in block (0, 0) and its K offset within an instruction.
    const int ar = b.rb - (b.lane / XN) * XG + b.lane % XM, bc = b.cb;
    const int kl = ((b.lane / XM) % (XK / XKL)) * XKL;
#pragma unroll
    for (int k = 0; k < KPB; k += XK) {
        ck_xfrag fa[FM], fb[FN];
#pragma unroll
        for (int i = 0; i < FM; ++i) fa[i] = ck_xfrag_load<LDS_A_ROW, K1A>(As, ar + XM * i, k + kl);
#pragma unroll
        for (int j = 0; j < FN; ++j) fb[j] = ck_xfrag_load<LDS_B_ROW, K1B>(Bs, bc + XN * j, k + kl);
#pragma unroll
        for (int i = 0; i < FM; ++i)
#pragma unroll
            for (int j = 0; j < FN; ++j) {
                ck_xacc c;
#pragma unroll
                for (int e = 0; e < XR; ++e) c[e] = acc.v[XR * i + e][j];
                c = ck_xmma(fa[i], fb[j], c);
#pragma unroll
                for (int e = 0; e < XR; ++e) acc.v[XR * i + e][j] = c[e];
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

