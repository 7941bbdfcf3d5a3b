//! CK's 8-bit floats as its October 2024 tree defines `f8_t` and `bf8_t`: the FNUZ formats
//! (`include/ck/utility/data_type.hpp`, `NumericUtils<f8_t>`: "negative zero nan mode") — fp8
//! e4m3 with exponent bias 8 (largest value 240), bf8 e5m2 with bias 16 (largest 57344), no
//! infinities, no negative zero, `0x80` the only NaN. Conversions from fp32 round to nearest,
//! ties to even, and saturate (`type_convert<f8_t>(float)` with `CK_USE_SR_F8_CONVERSION` 0:
//! `f8_convert_rne`, `cast_to_f8<…, negative_zero_nan = true, clip = true, stoch = false>` in
//! `include/ck/utility/type_convert.hpp` and `f8_utils.hpp`; gfx94's `v_cvt_pk_fp8_f32` after
//! clamping to ±240 gives the same values). NaN and infinities become NaN.

/// One of the two 8-bit float formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp8Format {
    mantissa_bits: u32,
    bias: i32,
    exponent_bits: u32,
}

/// `f8_t`: e4m3, bias 8.
pub const FP8: Fp8Format = Fp8Format {
    exponent_bits: 4,
    mantissa_bits: 3,
    bias: 8,
};

/// `bf8_t`: e5m2, bias 16.
pub const BF8: Fp8Format = Fp8Format {
    exponent_bits: 5,
    mantissa_bits: 2,
    bias: 16,
};

/// The NaN code of both formats (what would be negative zero).
pub const NAN: u8 = 0x80;

impl Fp8Format {
    /// The exponent of the smallest normal value.
    fn min_exponent(self) -> i32 {
        1 - self.bias
    }

    /// The largest finite value (every exponent code is a normal one).
    pub fn max(self) -> f64 {
        let top = (1i32 << self.exponent_bits) - 1 - self.bias;
        (2.0 - (-(self.mantissa_bits as f64)).exp2()) * f64::from(top).exp2()
    }

    /// The value of a code.
    pub fn decode(self, code: u8) -> f32 {
        if code == NAN {
            return f32::NAN;
        }
        let sign = if code & 0x80 != 0 { -1.0 } else { 1.0 };
        let mantissa = u32::from(code) & ((1 << self.mantissa_bits) - 1);
        let exponent = (u32::from(code) & 0x7f) >> self.mantissa_bits;
        let m = f64::from(mantissa) / f64::from(1u32 << self.mantissa_bits);
        let magnitude = if exponent == 0 {
            m * f64::from(self.min_exponent()).exp2()
        } else {
            (1.0 + m) * f64::from(exponent as i32 - self.bias).exp2()
        };
        (sign * magnitude) as f32
    }

    /// The code nearest to `v` (ties to the even code), saturating at the largest value.
    pub fn encode(self, v: f32) -> u8 {
        if !v.is_finite() {
            return NAN;
        }
        let a = f64::from(v).abs();
        if a == 0.0 {
            return 0;
        }
        // The spacing of representable values at `a`'s exponent (subnormals share the
        // smallest normal exponent's); the quotient and its rounding are exact in f64.
        let exponent = exponent_of(a).max(self.min_exponent());
        let quantum = f64::from(exponent - self.mantissa_bits as i32).exp2();
        let rounded = ((a / quantum).round_ties_even() * quantum).min(self.max());
        if rounded == 0.0 {
            return 0;
        }
        let sign = if v < 0.0 { 0x80 } else { 0 };
        sign | self.magnitude_code(rounded)
    }

    /// The code of a representable positive value.
    fn magnitude_code(self, a: f64) -> u8 {
        let one = f64::from(1u32 << self.mantissa_bits);
        let e = exponent_of(a);
        let code = if e < self.min_exponent() {
            a / f64::from(self.min_exponent()).exp2() * one
        } else {
            let biased = f64::from(e + self.bias) * one;
            biased + (a / f64::from(e).exp2() - 1.0) * one
        };
        code as u8
    }

    /// `v` rounded to the format and back.
    pub fn round(self, v: f32) -> f32 {
        self.decode(self.encode(v))
    }
}

/// `floor(log2(a))` of a positive normal f64, from its bits.
fn exponent_of(a: f64) -> i32 {
    ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_decodes_and_encodes_back() {
        for f in [FP8, BF8] {
            for code in 0..=255u8 {
                let v = f.decode(code);
                if code == NAN {
                    assert!(v.is_nan());
                } else {
                    assert_eq!(f.encode(v), code, "{f:?} {code:#04x} = {v}");
                }
            }
        }
    }

    #[test]
    fn values_by_hand() {
        // fp8 e4m3 FNUZ: 1.0 is exponent code 8, 240 = 1.875 · 2^7 is 0x7f, the smallest
        // subnormal 2^-10 is 0x01.
        assert_eq!(FP8.encode(1.0), 0x40);
        assert_eq!(FP8.decode(0x7f), 240.0);
        assert_eq!(FP8.decode(0x01), (-10f32).exp2());
        assert_eq!(FP8.decode(0xc0), -1.0);
        // Between 1 and 1.125 (step 1/8): 1.0625 is a tie, to the even code 1.0; 1.07 rounds up.
        assert_eq!(FP8.round(1.0625), 1.0);
        assert_eq!(FP8.round(1.1875), 1.25);
        assert_eq!(FP8.round(1.07), 1.125);
        // Saturation, and NaN for what is not finite; no negative zero.
        assert_eq!(FP8.round(1000.0), 240.0);
        assert_eq!(FP8.round(-250.0), -240.0);
        assert_eq!(FP8.encode(f32::INFINITY), NAN);
        assert_eq!(FP8.encode(f32::NAN), NAN);
        assert_eq!(FP8.encode(-1e-9), 0);
        // Subnormals: 3 · 2^-11 lies halfway between 2^-10 (odd code 1) and 2^-9 (even code 2).
        assert_eq!(FP8.encode(3.0 * (-11f32).exp2()), 0x02);
        assert_eq!(FP8.encode((-11f32).exp2()), 0x00);
        // bf8 e5m2 FNUZ: 1.0 is 0x40, the largest 57344 = 1.75 · 2^15, the smallest 2^-17.
        assert_eq!(BF8.encode(1.0), 0x40);
        assert_eq!(BF8.decode(0x7f), 57344.0);
        assert_eq!(BF8.decode(0x01), (-17f32).exp2());
        assert_eq!(BF8.round(1.125), 1.0);
        assert_eq!(BF8.round(1.375), 1.5);
        assert_eq!(BF8.round(1e6), 57344.0);
    }
}
