// The fp64 reference convolution on the device: the direct definition of `reference.rs`
// (plain convolution, no element-wise ops), one thread a destination element and a slice of
// its reduction, the slices added with fp64 atomics. Spatial ranks below 3 arrive padded with
// leading unit dimensions. Elements are fp16, bf16 or fp32 (`ty` 0, 1, 2), converted exactly.

struct CkRefArgs {
    long long op;  // 0 forward, 1 backward data, 2 backward weight
    long long ty[3];  // input, weight, output element types
    long long g, n, k, c;
    long long in[3], fil[3], out[3], stride[3], dil[3], lpad[3];
    // Element strides: input (g, n, c, d, h, w), weight (g, k, c, z, y, x), output (g, n, k, d, h, w).
    long long xs[6], ws[6], ys[6];
    long long dest;  // destination elements
    long long chunks, chunk;  // reduction slices a destination element, and their length
    const void* x;
    const void* w;
    const void* y;
    double* result;  // zeroed, in the destination's memory order
};

__device__ double ck_ref_half(unsigned h) {
    const unsigned s = h >> 15, e = (h >> 10) & 31u, m = h & 1023u;
    double v;
    if (e == 0) {
        v = (double)m * 5.9604644775390625e-8;  // m · 2^-24
    } else if (e == 31) {
        v = (double)__uint_as_float(0x7f800000u | (m << 13));  // infinity or NaN
    } else {
        v = (double)__uint_as_float(((e + 112u) << 23) | (m << 13));
    }
    return s ? -v : v;
}

__device__ double ck_ref_load(const void* p, long long i, long long ty) {
    if (ty == 0) return ck_ref_half(((const unsigned short*)p)[i]);
    if (ty == 1) return (double)__uint_as_float((unsigned)((const unsigned short*)p)[i] << 16);
    return (double)((const float*)p)[i];
}

extern "C" __global__ void ck_reference(const CkRefArgs a) {
    const long long total = a.dest * a.chunks;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
         t += (long long)gridDim.x * blockDim.x) {
        // Adjacent threads take adjacent destination elements of one slice.
        long long e = t % a.dest;
        const long long slice = t / a.dest;
        // The destination's logical index: (g, outer, channel, s0, s1, s2).
        const long long* sp = a.op == 0 ? a.out : a.op == 1 ? a.in : a.fil;
        long long s[3];
        for (int d = 2; d >= 0; --d) {
            s[d] = e % sp[d];
            e /= sp[d];
        }
        const long long rows = a.op == 2 ? a.k : a.n, cols = a.op == 0 ? a.k : a.c;
        const long long col = e % cols, row = e / cols % rows, g = e / cols / rows;
        const long long taps = a.fil[0] * a.fil[1] * a.fil[2];
        const long long opix = a.out[0] * a.out[1] * a.out[2];
        const long long reduced = a.op == 0 ? a.c : a.op == 1 ? a.k : a.n * opix;
        const long long r0 = slice * a.chunk;
        const long long r1 = r0 + a.chunk < reduced ? r0 + a.chunk : reduced;
        double acc = 0.0;
        if (a.op == 2 && r0 < r1) {
            // Backward weight: (image, output pixel) pairs for the tap s, counted up from r0.
            long long n = r0 / opix, o[3], q = r0 % opix;
            for (int d = 2; d >= 0; --d) {
                o[d] = q % a.out[d];
                q /= a.out[d];
            }
            for (long long r = r0; r < r1; ++r) {
                long long yo = g * a.ys[0] + n * a.ys[1] + row * a.ys[2];
                long long xo = g * a.xs[0] + n * a.xs[1] + col * a.xs[2];
                bool inside = true;
                for (int d = 0; d < 3; ++d) {
                    const long long i = o[d] * a.stride[d] + s[d] * a.dil[d] - a.lpad[d];
                    inside = inside && i >= 0 && i < a.in[d];
                    yo += o[d] * a.ys[3 + d];
                    xo += i * a.xs[3 + d];
                }
                if (inside) acc += ck_ref_load(a.y, yo, a.ty[2]) * ck_ref_load(a.x, xo, a.ty[0]);
                for (int d = 2; d >= 0; --d) {
                    if (++o[d] < a.out[d]) break;
                    o[d] = 0;
                    if (d == 0) ++n;
                }
            }
        }
        for (long long tap = 0; a.op != 2 && tap < taps; ++tap) {
            long long f[3], q = tap, px = 0, wo = g * a.ws[0];
            bool inside = true;
            for (int d = 2; d >= 0; --d) {
                f[d] = q % a.fil[d];
                q /= a.fil[d];
                wo += f[d] * a.ws[3 + d];
                if (a.op == 0) {
                    const long long i = s[d] * a.stride[d] + f[d] * a.dil[d] - a.lpad[d];
                    inside = inside && i >= 0 && i < a.in[d];
                    px += i * a.xs[3 + d];
                } else {
                    // Backward data: the output pixel whose window puts tap f on input s.
                    const long long u = s[d] + a.lpad[d] - f[d] * a.dil[d];
                    inside = inside && u >= 0 && u % a.stride[d] == 0 && u / a.stride[d] < a.out[d];
                    px += (u >= 0 ? u / a.stride[d] : 0) * a.ys[3 + d];
                }
            }
            if (!inside) continue;
            // Forward sums x(g, n, c, i)·w(g, k, c, f) over c, backward data
            // y(g, n, k, o)·w(g, k, c, f) over k: the source and the weights step along r.
            const bool fwd = a.op == 0;
            const void* src = fwd ? a.x : a.y;
            const long long sty = fwd ? a.ty[0] : a.ty[2];
            const long long so = fwd ? g * a.xs[0] + row * a.xs[1] + px : g * a.ys[0] + row * a.ys[1] + px;
            const long long sstep = fwd ? a.xs[2] : a.ys[2];
            wo += fwd ? col * a.ws[1] : col * a.ws[2];
            const long long wstep = fwd ? a.ws[2] : a.ws[1];
            for (long long r = r0; r < r1; ++r)
                acc += ck_ref_load(src, so + r * sstep, sty) * ck_ref_load(a.w, wo + r * wstep, a.ty[1]);
        }
        // The destination element's memory offset.
        const long long* ds = a.op == 0 ? a.ys : a.op == 1 ? a.xs : a.ws;
        const long long at = g * ds[0] + row * ds[1] + col * ds[2] + s[0] * ds[3] + s[1] * ds[4] +
                             s[2] * ds[5];
        if (a.chunks == 1) {
            a.result[at] = acc;
        } else if (acc != 0.0) {
            atomicAdd(a.result + at, acc);
        }
    }
}
