#if defined(CK_CP_ASYNC)
// Both loaders' next K-tile, copied into ring stage `s` (both rings).
CK_DEV void ck_issue_stage(const CkArgs& a, const ck_block& b, ck_a_loader& la, ck_b_loader& lb, const AT* A,
                           const BT* B, int s) {
    la.issue(a, A, b.lt, b.As + s * A_STAGE);
    lb.issue(a, B, b.lt, b.Bs + s * B_STAGE);
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
#if defined(CK_TMA)
    if (a.tma) {
        ck_tma_gemm(a, b, g, m0, n0, kb, ke, acc);
        return;
    }
#endif
    const AT* A = reinterpret_cast<const AT*>(CK_OP == CK_FWD ? a.x : a.y);
    const BT* B = reinterpret_cast<const BT*>(CK_OP == CK_BWD_WEIGHT ? a.x : a.w);
    const bool va = a.vec_a != 0, vb = a.vec_b != 0;
    ck_a_loader la;
    ck_b_loader lb;
    if (b.loader) {
        la.begin(a, g, m0, kb * KPB, b.lt);
        lb.begin(a, g, n0, kb * KPB, b.lt);
    }
#if defined(CK_WGMMA)
    // sm_90a: a WG_STAGES-deep cp.async ring read by asynchronous warpgroup MMAs. At K-tile kt
    // the MMAs of kt - 1 may still read their stage, so the copies go WG_STAGES - 2 tiles
    // ahead, into the stage of kt - 2, whose MMAs every warpgroup waited for before the barrier.
    if ((va || VEC_A == 1) && (vb || VEC_B == 1)) {
#pragma unroll
        for (int s = 0; s < WG_STAGES - 2; ++s) {
            if (kb + s < ke) {
                ck_issue_stage(a, b, la, lb, A, B, s);
            }
            ck_cp_commit();
        }
        int rs = 0, ws = WG_STAGES - 2;
        for (ck_i64 kt = kb; kt < ke; ++kt) {
            ck_cp_wait<WG_STAGES - 3>();
            ck_proxy_fence();
            __syncthreads();
            ck_wg_issue(acc, b.As + rs * A_STAGE, b.Bs + rs * B_STAGE, b);
            if (kt + WG_STAGES - 2 < ke) {
                ck_issue_stage(a, b, la, lb, A, B, ws);
            }
            ck_cp_commit();
            ck_wg_wait<1>();
            rs = rs + 1 == WG_STAGES ? 0 : rs + 1;
            ws = ws + 1 == WG_STAGES ? 0 : ws + 1;
        }
        ck_wg_wait<0>();
        ck_acc_pin(acc);
        ck_cp_wait<0>();
        __syncthreads();
        return;
    }
#elif defined(CK_CP_ASYNC)
    // NVIDIA sm_80+: an ASYNC_STAGES-deep cp.async ring where the instance allows one
    // (ASYNC_RING, decided on the host) and the problem's vectors are legal. K-tile kt is read
    // from stage `rs`; the tile ASYNC_STAGES - 1 ahead is written to stage `ws`, the one read in
    // the previous iteration.
    if (ASYNC_RING && (va || VEC_A == 1) && (vb || VEC_B == 1)) {
#pragma unroll
        for (int s = 0; s < ASYNC_STAGES - 1; ++s) {
            if (kb + s < ke) {
                ck_issue_stage(a, b, la, lb, A, B, s);
            }
            ck_cp_commit();
        }
        int rs = 0, ws = ASYNC_STAGES - 1;
        for (ck_i64 kt = kb; kt < ke; ++kt) {
            // K-tile kt has landed (the newer ASYNC_STAGES - 2 may still fly), and every thread
            // is done with stage `ws`.
            ck_cp_wait<ASYNC_STAGES - 2>();
            __syncthreads();
            if (kt + ASYNC_STAGES - 1 < ke) {
                ck_issue_stage(a, b, la, lb, A, B, ws);
            }
            ck_cp_commit();
            if (b.math) ck_math_step(acc, b.As + rs * A_STAGE, b.Bs + rs * B_STAGE, b);
            ws = rs;
            rs = rs + 1 == ASYNC_STAGES ? 0 : rs + 1;
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
            ck_math_step(acc, b.As + s * A_STAGE, b.Bs + s * B_STAGE, b);
        }
        if (STAGES == 1) __syncthreads();
        if (b.loader && next) {
            if (!EARLY_LOAD) {
                la.load(a, A, g, b.lt, va);
                lb.load(a, B, g, b.lt, vb);
            }
            const int s = STAGES == 2 ? cur ^ 1 : 0;
            la.store(b.As + s * A_STAGE, b.lt);
            lb.store(b.Bs + s * B_STAGE, b.lt);
#if defined(CK_WGMMA)
            ck_proxy_fence();
#endif
        }
        __syncthreads();
        cur ^= 1;
    }
}

// Final value of the output element at `off`: element-wise op, optional D tensor, conversion.
CK_DEV OT ck_final(const CkArgs& a, ck_i64 off, float v) {
    if (EOP_OUT == CK_EOP_SCALE || EOP_OUT == CK_EOP_RELU) {
        v = ck_unary<EOP_OUT>(v, a);
    } else if (EOP_OUT != CK_EOP_PASS) {
        float d = ck_to_float(reinterpret_cast<const OT*>(a.d)[off]);
        if (EOP_OUT == CK_EOP_BILINEAR) v = (float)a.alpha * v + (float)a.beta * d;
        else v = v + d;
        if (EOP_OUT == CK_EOP_ADD_RELU) v = v > 0.0f ? v : 0.0f;
    }
    return ck_from_float<OT>(v);
}
CK_DEV OT* ck_out(const CkArgs& a) { return reinterpret_cast<OT*>(CK_OP == CK_FWD ? a.y : CK_OP == CK_BWD_DATA ? a.x : a.w); }
CK_DEV void ck_store_final(const CkArgs& a, ck_i64 off, float v) { ck_out(a)[off] = ck_final(a, off, v); }
// Accumulators j and j + 1 (j even) are adjacent columns: the tensor-core layouts hold such
// pairs from an even column (2t), as does a SIMT grid one column wide (from column j).
CK_DEV bool ck_pair_cols(int j) {
    return j % 2 == 0 && j + 1 < AC && ck_col_step(j + 1) == ck_col_step(j) + 1;
}
// Two adjacent output elements in one store (`ck_out(a) + off` aligned to the pair).
CK_DEV void ck_store_pair(const CkArgs& a, ck_i64 off, float v0, float v1) {
    ck_vec<OT, 2> w;
    w.v[0] = ck_final(a, off, v0);
    w.v[1] = ck_final(a, off + 1, v1);
    *reinterpret_cast<ck_vec<OT, 2>*>(ck_out(a) + off) = w;
}

// Staged epilogue (the host sets a.stage_out: the output's columns are contiguous and every
// other stride a multiple of 8): the math threads write their final values into an LDS tile
// [MPB][NPB + STAGE_PAD bytes] of the output type, free once ck_gemm_tile has returned, then
// every thread sends 16-byte runs of a row (8 outputs of 16 bits), where the register layouts
// would store 2 or 4 bytes a lane.
CK_DEV void ck_store_staged(const CkArgs& a, const ck_block& b, ck_i64 g, ck_i64 m0, ck_i64 n0, const ck_acc& acc) {
    constexpr int RUN = 16 / (int)sizeof(OT), LD = NPB + STAGE_PAD / (int)sizeof(OT);
    // Only binary ops read the D tensor, at the output offset; unary ones need none.
    constexpr bool NEEDS_OFF = EOP_OUT != CK_EOP_PASS && EOP_OUT != CK_EOP_SCALE && EOP_OUT != CK_EOP_RELU;
    OT* t = reinterpret_cast<OT*>(b.As);
    if (b.math) {
#pragma unroll
        for (int i = 0; i < AR; ++i) {
            const int r = ck_row(b, i);
            const ck_i64 m = m0 + r;
            const ck_i64 row = NEEDS_OFF && m < a.M ? ck_c_row(a, g, m) + n0 : 0;
#pragma unroll
            for (int j = 0; j < AC; ++j) {
                const int c = ck_col(b, j);
                if (r >= MPB || c >= NPB || (j % 2 == 1 && ck_pair_cols(j - 1))) continue;
                // Rows past M and columns past N (whole pairs: N is a multiple of 8) are staged
                // but never sent: no D read for them.
                const bool in = !NEEDS_OFF || (m < a.M && n0 + c < a.Ng);
                if (ck_pair_cols(j)) {
                    ck_vec<OT, 2> v;
                    v.v[0] = in ? ck_final(a, row + c, acc.v[i][j]) : ck_zero<OT>();
                    v.v[1] = in ? ck_final(a, row + c + 1, acc.v[i][j + 1]) : ck_zero<OT>();
                    *reinterpret_cast<ck_vec<OT, 2>*>(t + r * LD + c) = v;
                } else {
                    t[r * LD + c] = in ? ck_final(a, row + c, acc.v[i][j]) : ck_zero<OT>();
                }
            }
        }
    }
    __syncthreads();
    OT* out = ck_out(a);
    // Runs a tile row holds: at least one, so that a tile narrower than a run (one-byte
    // outputs' 16, over 8 columns), which never stages, does not divide by zero.
    constexpr int ROW_RUNS = NPB / RUN > 0 ? NPB / RUN : 1;
    for (int q = b.tid; q < MPB * NPB / RUN; q += BLOCK) {
        const int r = q / ROW_RUNS, c = (q % ROW_RUNS) * RUN;
        const ck_i64 m = m0 + r, n = n0 + c;
        if (m >= a.M || n >= a.Ng) continue;
        *reinterpret_cast<ck_vec<OT, RUN>*>(out + ck_c_row(a, g, m) + n) =
            *reinterpret_cast<const ck_vec<OT, RUN>*>(t + r * LD + c);
    }
}

// Writes a finished (or, with atomic accumulation, partial) tile. ATOMIC adds into the fp32
// target chosen by the host: the zeroed output itself or the zeroed workspace.
CK_DEV void ck_store_tile(const CkArgs& a, const ck_block& b, ck_i64 g, ck_i64 m0, ck_i64 n0, const ck_acc& acc,
                          bool atomic) {
    // Block-uniform: every thread takes the staged path or none does.
    if (NPB % 8 == 0 && a.stage_out && !atomic) {
        ck_store_staged(a, b, g, m0, n0, acc);
        return;
    }
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
        bool stored = false;  // column j went out with column j - 1
#pragma unroll
        for (int j = 0; j < AC; ++j) {
            ck_i64 n = n0 + ck_col(b, j);
            if (stored || ck_col(b, j) >= NPB || n >= a.Ng) {
                stored = false;
                continue;
            }
            if (!atomic) {
                // A thread's adjacent tile columns (the tensor-core layouts hold pairs) land in one
                // store when the output has them adjacent too and the pair's address is aligned
                // (a stride phase's view of the output may start at an odd element).
                const bool pair = ck_pair_cols(j) && ck_col(b, j + 1) < NPB && n + 1 < a.Ng &&
                                  col[j + 1] == col[j] + 1 &&
                                  reinterpret_cast<unsigned long long>(ck_out(a) + row + col[j]) %
                                          (2 * sizeof(OT)) ==
                                      0;
                if (pair) {
                    ck_store_pair(a, row + col[j], acc.v[i][j], acc.v[i][j + 1]);
                    stored = true;
                } else {
                    ck_store_final(a, row + col[j], acc.v[i][j]);
                }
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

// A split-K slice's partial tile into its fp32 workspace slice `[s][G][M][N]`, adjacent column
// pairs in one 8-byte store: plain stores, which the convert entry adds in a fixed order.
CK_DEV void ck_store_slice(const CkArgs& a, const ck_block& b, ck_i64 s, ck_i64 g, ck_i64 m0, ck_i64 n0,
                           const ck_acc& acc) {
    if (!b.math) return;
    // The slice's (and group's) first element: its parity decides which pairs are aligned.
    const ck_i64 base = (s * a.G + g) * a.M * a.Ng;
    float* ws = reinterpret_cast<float*>(a.ws) + base;
#pragma unroll
    for (int i = 0; i < AR; ++i) {
        const ck_i64 m = m0 + ck_row(b, i);
        if (ck_row(b, i) >= MPB || m >= a.M) continue;
        float* row = ws + m * a.Ng;
        bool stored = false;  // column j went out with column j - 1
#pragma unroll
        for (int j = 0; j < AC; ++j) {
            const ck_i64 n = n0 + ck_col(b, j);
            if (stored || ck_col(b, j) >= NPB || n >= a.Ng) {
                stored = false;
                continue;
            }
            if (ck_pair_cols(j) && ck_col(b, j + 1) < NPB && n + 1 < a.Ng && ((base + m * a.Ng + n) & 1) == 0) {
                ck_vec<float, 2> v;
                v.v[0] = acc.v[i][j];
                v.v[1] = acc.v[i][j + 1];
                *reinterpret_cast<ck_vec<float, 2>*>(row + n) = v;
                stored = true;
            } else {
                row[n] = acc.v[i][j];
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

#if defined(CK_CLUSTER)
// ---- Split-K slices of one tile in one thread-block cluster (a.cluster > 1, sm_90): each
// workgroup puts its fp32 partial tile into its own LDS, then adds a share of the tile's rows
// over every workgroup's LDS (distributed shared memory), in rank order, and stores them. No
// partial tile goes through global memory and no convert launch adds them.
CK_DEV void ck_cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// The address of LDS address `addr` in the workgroup of cluster rank `rank`.
CK_DEV unsigned ck_peer_addr(unsigned addr, unsigned rank) {
    unsigned r;
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}
CK_DEV float4 ck_peer_load(unsigned addr) {
    float4 v;
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(addr)
                 : "memory");
    return v;
}

// Floats a row of the partial tile in LDS. The host sets a.cluster only where RED_LD * MPB
// floats fit the stage LDS and N is a multiple of 4 (whole float4 runs).
constexpr int RED_LD = NPB + CLUSTER_PAD;

CK_DEV void ck_cluster_reduce(const CkArgs& a, const ck_block& b, unsigned rank, ck_i64 g, ck_i64 m0, ck_i64 n0,
                              const ck_acc& acc) {
    float* t = reinterpret_cast<float*>(b.As);
    if (b.math) {
#pragma unroll
        for (int i = 0; i < AR; ++i) {
            const int r = ck_row(b, i);
#pragma unroll
            for (int j = 0; j < AC; ++j) {
                const int c = ck_col(b, j);
                if (r >= MPB || c >= NPB || (j % 2 == 1 && ck_pair_cols(j - 1))) continue;
                if (ck_pair_cols(j)) {
                    *reinterpret_cast<float2*>(t + r * RED_LD + c) = make_float2(acc.v[i][j], acc.v[i][j + 1]);
                } else {
                    t[r * RED_LD + c] = acc.v[i][j];
                }
            }
        }
    }
    ck_cluster_sync();
    const int cs = (int)a.cluster, r0 = (int)rank * MPB / cs, r1 = ((int)rank + 1) * MPB / cs;
    const unsigned base = ck_saddr(t);
    for (int q = b.tid; q < (r1 - r0) * (NPB / 4); q += BLOCK) {
        const int r = r0 + q / (NPB / 4), c = (q % (NPB / 4)) * 4;
        const ck_i64 m = m0 + r, n = n0 + c;
        if (m >= a.M || n >= a.Ng) continue;
        const unsigned off = (unsigned)(r * RED_LD + c) * 4u;
        float4 v = ck_peer_load(ck_peer_addr(base, 0) + off);
        for (int p = 1; p < cs; ++p) {
            const float4 w = ck_peer_load(ck_peer_addr(base, (unsigned)p) + off);
            v.x += w.x;
            v.y += w.y;
            v.z += w.z;
            v.w += w.w;
        }
        const float e[4] = {v.x, v.y, v.z, v.w};
        const ck_i64 row = ck_c_row(a, g, m);
        if (a.stage_out) {
            // Contiguous output columns, every other stride a multiple of 8: aligned runs.
            ck_vec<OT, 4> o;
#pragma unroll
            for (int k = 0; k < 4; ++k) o.v[k] = ck_final(a, row + n + k, e[k]);
            *reinterpret_cast<ck_vec<OT, 4>*>(ck_out(a) + row + n) = o;
        } else {
#pragma unroll
            for (int k = 0; k < 4; ++k) ck_store_final(a, row + ck_c_col(a, n + k), e[k]);
        }
    }
    // No workgroup leaves (or reuses its LDS) while another still reads it.
    ck_cluster_sync();
}
#endif

CK_DEV void ck_split_k(const CkArgs& a, const ck_block& b) {
    ck_acc acc;
    // The tiles of a slice number at most the grid, which the host keeps within 31 bits:
    // 32-bit divisions (a 64-bit one is a long software sequence). In a cluster plan a cluster
    // is the slices of one tile, consecutive blocks: the slice is the block index's fastest
    // digit.
    const unsigned per_split = (unsigned)(a.tiles_m * a.tiles_n), tiles_n = (unsigned)a.tiles_n;
    const unsigned cs = a.cluster > 1 ? (unsigned)a.cluster : 1u;
    const unsigned rank = blockIdx.x % cs, t = blockIdx.x / cs;
    const unsigned s = cs > 1 ? rank : t / per_split, r = t % per_split;
    const ck_i64 m0 = (ck_i64)(r / tiles_n) * MPB, n0 = (ck_i64)(r % tiles_n) * NPB;
    const ck_i64 kb = s * a.split_iters;
    const ck_i64 ke = kb + a.split_iters < a.k_iters ? kb + a.split_iters : a.k_iters;
    // Merged groups: one block runs MERGE consecutive groups of the same tile.
    for (ck_i64 gi = 0; gi < MERGE; ++gi) {
        const ck_i64 g = (ck_i64)blockIdx.y * MERGE + gi;
        if (g >= a.G) break;
        ck_gemm_tile(a, b, g, m0, n0, kb, ke, acc);
#if defined(CK_CLUSTER)
        if (cs > 1) {
            ck_cluster_reduce(a, b, rank, g, m0, n0, acc);
            continue;
        }
#endif
        if (a.split_ws) ck_store_slice(a, b, s, g, m0, n0, acc);
        else ck_store_tile(a, b, g, m0, n0, acc, a.store_atomic != 0);
        __syncthreads();
    }
}

CK_ENTRY(main)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    const ck_block b = ck_make_block(ck_smem);
    if (SCHEDULE == CK_SCHEDULE_STREAMK) ck_streamk(a, b);
    else ck_split_k(a, b);
}

// Second stage: the sum of the fp32 workspace's [G][M][N] slices -> output tensor with the
// element-wise op. A workgroup is `convert_sets` sets of lanes; set t of lane l adds slices
// t, t + sets, ... of element base + l, and set 0 adds the sets' sums from LDS in a fixed order.
CK_ENTRY_THREADS(convert, CONVERT_BLOCK, 1)(const CK_GRID_CONST CkArgs a) {
    extern __shared__ __align__(16) unsigned char ck_smem[];
    float* part = reinterpret_cast<float*>(ck_smem);
    const ck_i64 total = a.G * a.M * a.Ng, sets = a.convert_sets;
    const float* ws = reinterpret_cast<const float*>(a.ws);
    const ck_i64 lanes = blockDim.x / sets, set = threadIdx.x / lanes, lane = threadIdx.x % lanes;
    // `base` is the same for the whole workgroup, so every thread meets the barriers.
    for (ck_i64 base = (ck_i64)blockIdx.x * lanes; base < total; base += (ck_i64)gridDim.x * lanes) {
        const ck_i64 i = base + lane;
        // Four independent partial sums keep four loads in flight.
        float v[4] = {};
        if (set < sets && i < total) {
            // Slice s of element i, s = set, set + sets, ...: a pointer stepped by `sets` slices.
            const ck_i64 step = sets * total;
            const float* p = ws + set * total + i;
            ck_i64 s = set;
            for (; s + 3 * sets < a.ws_slices; s += 4 * sets, p += 4 * step) {
#pragma unroll
                for (int j = 0; j < 4; ++j) v[j] += p[j * step];
            }
            for (; s < a.ws_slices; s += sets, p += step) v[0] += *p;
        }
        part[threadIdx.x] = (v[0] + v[1]) + (v[2] + v[3]);
        __syncthreads();
        if (set == 0 && i < total) {
            float sum = part[lane];
            for (ck_i64 t = 1; t < sets; ++t) sum += part[t * lanes + lane];
            // 32-bit divisions where the output allows (a 64-bit one is a long software sequence).
            ck_i64 n, m, g;
            if (total <= 0x7fffffff) {
                const unsigned u = (unsigned)i, ng = (unsigned)a.Ng, q = u / ng;
                n = u - q * ng;
                m = q % (unsigned)a.M;
                g = q / (unsigned)a.M;
            } else {
                n = i % a.Ng;
                m = (i / a.Ng) % a.M;
                g = i / (a.Ng * a.M);
            }
            ck_store_final(a, ck_c_row(a, g, m) + ck_c_col(a, n), sum);
        }
        __syncthreads();
    }
}
