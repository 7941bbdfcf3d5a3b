//! The generator of test data: random tensors, D tensors and element-wise scalars.

/// SplitMix64: a small, well-mixed generator, enough for test data.
pub struct SplitMix64(u64);

impl SplitMix64 {
    const STEP: u64 = 0x9e37_79b9_7f4a_7c15;

    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The generator whose next value is value `index` of `new(seed)`'s sequence: the state is
    /// a counter, so parts of a long sequence can be drawn in parallel.
    pub fn at(seed: u64, index: u64) -> SplitMix64 {
        SplitMix64(seed.wrapping_add(index.wrapping_mul(Self::STEP)))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(Self::STEP);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[-1, 1)`.
    pub fn next_signed(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_resumes_at_any_index() {
        let mut whole = SplitMix64::new(7);
        let first: Vec<u64> = (0..10).map(|_| whole.next_u64()).collect();
        let mut resumed = SplitMix64::at(7, 6);
        assert_eq!(resumed.next_u64(), first[6]);
        assert_eq!(resumed.next_u64(), first[7]);
    }
}
