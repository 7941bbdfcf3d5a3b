// CK's one-byte element types, stored as raw bits like the 16-bit ones: int8 (`int8_t`) and
// the FNUZ 8-bit floats of CK's October 2024 tree (`f8_t`: e4m3, bias 8, largest 240;
// `bf8_t`: e5m2, bias 16, largest 57344; no infinities, no negative zero, 0x80 the only NaN).
// Kernels of these types compute on the SIMT path, each element converted to fp32 as it is
// multiplied: every int8, fp8 and bf8 value and product is exact there.
struct ck_i8 { signed char bits; };
struct ck_f8 { unsigned char bits; };
struct ck_bf8 { unsigned char bits; };

// 2^n for a normal exponent (-126 <= n <= 127).
CK_DEV float ck_pow2(int n) { return __uint_as_float((unsigned)(n + 127) << 23); }

// The value of an FNUZ code with MB mantissa bits and exponent bias BIAS.
template <int MB, int BIAS> CK_DEV float ck_fnuz_decode(unsigned char c) {
    if (c == 0x80) return __uint_as_float(0x7fc00000u);
    const unsigned mag = c & 0x7fu, e = mag >> MB, m = mag & ((1u << MB) - 1u);
    const float v = e == 0 ? (float)m * ck_pow2(1 - BIAS - MB)
                           : __uint_as_float(((e + 127u - (unsigned)BIAS) << 23) | (m << (23 - MB)));
    return (c & 0x80u) ? -v : v;
}

// The code nearest to v, ties to the even code, saturating at the largest value; NaN and
// infinities give NaN (CK's `type_convert<f8_t>(float)`, as the runtime's fp8 module has it).
template <int MB, int BIAS> CK_DEV unsigned char ck_fnuz_encode(float v) {
    const unsigned u = __float_as_uint(v);
    if ((u & 0x7fffffffu) >= 0x7f800000u) return 0x80;
    const float a = __uint_as_float(u & 0x7fffffffu);
    // The spacing of codes at a's exponent (subnormal codes share the smallest normal one's):
    // scaling by powers of two and rounding to an integer of a few bits are exact.
    int e = (int)((u >> 23) & 0xffu) - 127;
    if (e < 1 - BIAS) e = 1 - BIAS;
    const float top = ck_pow2((1 << (7 - MB)) - 1 - BIAS) * (2.0f - ck_pow2(-MB));
    const float r = fminf(rintf(a * ck_pow2(MB - e)) * ck_pow2(e - MB), top);
    if (r == 0.0f) return 0;
    const unsigned ru = __float_as_uint(r);
    const int er = (int)(ru >> 23) - 127;
    const unsigned mag = er < 1 - BIAS
                             ? (unsigned)(r * ck_pow2(BIAS - 1 + MB))
                             : ((unsigned)(er + BIAS) << MB) | ((ru >> (23 - MB)) & ((1u << MB) - 1u));
    return (unsigned char)(((u >> 24) & 0x80u) | mag);
}

CK_DEV float ck_to_float(ck_i8 v) { return (float)v.bits; }
CK_DEV float ck_to_float(ck_f8 v) { return ck_fnuz_decode<3, 8>(v.bits); }
CK_DEV float ck_to_float(ck_bf8 v) { return ck_fnuz_decode<2, 16>(v.bits); }

// CK's `type_convert<int8_t>`, a static_cast: toward zero to 32 bits (saturating, NaN 0), then
// the low byte, so that a sum past the range wraps around.
template <> CK_DEV ck_i8 ck_from_float<ck_i8>(float v) {
    int i = 0;
    if (v >= 2147483648.0f) i = 2147483647;
    else if (v <= -2147483648.0f) i = -2147483647 - 1;
    else if (v == v) i = (int)v;
    ck_i8 r;
    r.bits = (signed char)(unsigned char)(i & 0xff);
    return r;
}
template <> CK_DEV ck_f8 ck_from_float<ck_f8>(float v) {
    ck_f8 r;
    r.bits = ck_fnuz_encode<3, 8>(v);
    return r;
}
template <> CK_DEV ck_bf8 ck_from_float<ck_bf8>(float v) {
    ck_bf8 r;
    r.bits = ck_fnuz_encode<2, 16>(v);
    return r;
}
