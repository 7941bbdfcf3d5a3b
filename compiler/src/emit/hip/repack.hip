
// Staged copies (RowMap in launch/repack.rs): x is a tensor of rp_rows rows of rp_src elements,
// y its copy of rp_rows rows of rp_blocks blocks of rp_out elements, where element j < rp_in of
// block b holds the row's element b * rp_in + j - rp_shift if that lies in the row and every
// other element is zero. A thread takes REPACK_CHUNK consecutive elements of one block of the
// copy: packing writes them (one vector store where blocks are whole chunks), unpacking writes
// back the tensor's elements among them. Two divisions a chunk, 32-bit where the count allows.
template <typename T, typename I>
CK_DEV void ck_repack(const CkArgs& a) {
    const I src = (I)a.rp_src, in = (I)a.rp_in, out = (I)a.rp_out, shift = (I)a.rp_shift;
    const I blocks = (I)a.rp_blocks, chunks = (out + REPACK_CHUNK - 1) / REPACK_CHUNK;
    const I total = (I)a.rp_rows * blocks * chunks;
    const I step = (I)gridDim.x * blockDim.x;
    // Whole chunks lie on REPACK_CHUNK-element boundaries of the 256-byte aligned copy.
    const bool whole = out % REPACK_CHUNK == 0;
    T* x = reinterpret_cast<T*>(a.x);
    T* y = reinterpret_cast<T*>(a.y);
    for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const I rb = i / chunks, j0 = (i - rb * chunks) * REPACK_CHUNK;
        const I r = rb / blocks, b = rb - r * blocks;
        T* row = x + r * src;
        T* staged = y + rb * out + j0;
        // Position of element j0 in the row, plus rp_shift (unsigned: no negative values).
        const I m0 = b * in + j0;
        if (a.rp_unpack) {
#pragma unroll
            for (int e = 0; e < REPACK_CHUNK; ++e) {
                const I j = j0 + e, m = m0 + e;
                if (j < in && m >= shift && m - shift < src) row[m - shift] = staged[e];
            }
            continue;
        }
        union {
            uint4 q[REPACK_CHUNK * sizeof(T) / 16];
            T e[REPACK_CHUNK];
        } v;
#pragma unroll
        for (int e = 0; e < REPACK_CHUNK; ++e) {
            const I j = j0 + e, m = m0 + e;
            v.e[e] = (j < in && m >= shift && m - shift < src) ? row[m - shift] : T(0);
        }
        if (whole) {
            uint4* to = reinterpret_cast<uint4*>(staged);
#pragma unroll
            for (int q = 0; q < (int)(REPACK_CHUNK * sizeof(T) / 16); ++q) to[q] = v.q[q];
        } else {
            for (int e = 0; e < REPACK_CHUNK && j0 + e < out; ++e) staged[e] = v.e[e];
        }
    }
}

template <typename T>
CK_DEV void ck_repack_elems(const CkArgs& a) {
    const ck_i64 chunks = (a.rp_out + REPACK_CHUNK - 1) / REPACK_CHUNK;
    // The loop's index reaches total + step: keep it inside 32 bits.
    if (a.rp_rows * a.rp_blocks * chunks < 0x40000000LL) ck_repack<T, unsigned>(a);
    else ck_repack<T, unsigned long long>(a);
}

CK_ENTRY_THREADS(repack, REPACK_BLOCK, 1)(const CK_GRID_CONST CkArgs a) {
    if (a.rp_bytes == 4) ck_repack_elems<unsigned>(a);
    else ck_repack_elems<unsigned short>(a);
}
