//! fp32 values and i32 flags stored in the caller's byte workspace (native byte order), as the
//! GPU kernels lay them out.

pub(crate) struct Workspace<'a> {
    bytes: &'a mut [u8],
}

impl<'a> Workspace<'a> {
    pub fn new(bytes: &'a mut [u8]) -> Workspace<'a> {
        Workspace { bytes }
    }

    /// Writes `values` as fp32 starting at byte `at`.
    pub fn write_f32(&mut self, at: usize, values: &[f32]) {
        for (chunk, v) in self.bytes[at..at + 4 * values.len()]
            .chunks_exact_mut(4)
            .zip(values)
        {
            chunk.copy_from_slice(&v.to_ne_bytes());
        }
    }

    /// Reads `n` fp32 values starting at byte `at`.
    pub fn read_f32(&self, at: usize, n: usize) -> Vec<f32> {
        self.bytes[at..at + 4 * n]
            .chunks_exact(4)
            .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    pub fn set_flag(&mut self, at: usize, v: i32) {
        self.bytes[at..at + 4].copy_from_slice(&v.to_ne_bytes());
    }

    pub fn flag(&self, at: usize) -> i32 {
        let c = &self.bytes[at..at + 4];
        i32::from_ne_bytes([c[0], c[1], c[2], c[3]])
    }

    /// Zeroes `len` bytes from `at`.
    pub fn clear(&mut self, at: usize, len: usize) {
        self.bytes[at..at + len].fill(0);
    }
}
