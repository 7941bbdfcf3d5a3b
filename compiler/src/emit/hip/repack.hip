
// Staged copies (RowMap in launch/repack.rs): x is a tensor of rp_rows rows of rp_src elements,
// y its copy of rp_rows rows of rp_blocks blocks of rp_out elements, where element j < rp_in of
// block b holds the row's element b * rp_in + j - rp_shift if that lies in the row and every
// other element is zero. Packing: a thread takes REPACK_CHUNK consecutive elements of one block
// of the copy and writes them (one vector store where blocks are whole chunks); unpacking: a
// thread takes one element of the tensor, so that a warp's stores are consecutive. Indices are
// 32-bit where the count allows (a 64-bit division is a long software sequence).
template <typename T, typename I>
CK_DEV void ck_pack(const CkArgs& a) {
    const I src = (I)a.rp_src, in = (I)a.rp_in, out = (I)a.rp_out, shift = (I)a.rp_shift;
    const I blocks = (I)a.rp_blocks, chunks = (out + REPACK_CHUNK - 1) / REPACK_CHUNK;
    const I total = (I)a.rp_rows * blocks * chunks;
    const I step = (I)gridDim.x * blockDim.x;
    // Whole chunks lie on REPACK_CHUNK-element boundaries of the 256-byte aligned copy.
    const bool whole = out % REPACK_CHUNK == 0;
    const T* x = reinterpret_cast<const T*>(a.x);
    T* y = reinterpret_cast<T*>(a.y);
    for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const I rb = i / chunks, j0 = (i - rb * chunks) * REPACK_CHUNK;
        const I r = rb / blocks, b = rb - r * blocks;
        const T* row = x + r * src;
        T* staged = y + rb * out + j0;
        // Position of element j0 in the row, plus rp_shift (unsigned: no negative values).
        const I m0 = b * in + j0;
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

template <typename T, typename I>
CK_DEV void ck_unpack(const CkArgs& a) {
    const I src = (I)a.rp_src, in = (I)a.rp_in, out = (I)a.rp_out, shift = (I)a.rp_shift;
    const I row = (I)a.rp_blocks * out, total = (I)a.rp_rows * src;
    const I step = (I)gridDim.x * blockDim.x;
    T* x = reinterpret_cast<T*>(a.x);
    const T* y = reinterpret_cast<const T*>(a.y);
    for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const I r = i / src, m = i - r * src + shift, b = m / in;
        x[i] = y[r * row + b * out + (m - b * in)];
    }
}

template <typename T>
CK_DEV void ck_repack(const CkArgs& a) {
    // The loop's index reaches the count + the grid: keep it inside 32 bits.
    const bool narrow = a.rp_rows * a.rp_blocks * a.rp_out < 0x40000000LL &&
                        a.rp_rows * a.rp_src < 0x40000000LL;
    if (a.rp_unpack) {
        if (narrow) ck_unpack<T, unsigned>(a);
        else ck_unpack<T, unsigned long long>(a);
    } else {
        if (narrow) ck_pack<T, unsigned>(a);
        else ck_pack<T, unsigned long long>(a);
    }
}

CK_ENTRY_THREADS(repack, REPACK_BLOCK, 1)(const CK_GRID_CONST CkArgs a) {
    if (a.rp_bytes == 4) ck_repack<unsigned>(a);
    else ck_repack<unsigned short>(a);
}
