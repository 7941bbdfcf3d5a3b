//! One table per target architecture: wave size, LDS, compute units, register budget, the
//! matrix instructions per data type (CK's `xdlops_gemm.hpp` / `wmma_gemm.hpp`, NVIDIA
//! `mma.sync`), and the CK-Tile dispatcher's warp layouts and warp tiles (`arch_specs.json`).

use crate::model::{Arch, DataType};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Vendor {
    Amd,
    Nvidia,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Family {
    Cdna1,
    Cdna2,
    Cdna3,
    Cdna4,
    Rdna3,
    Rdna4,
    Ampere,
    Hopper,
}

/// The matrix-multiply unit a target offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MmaUnit {
    /// CDNA `v_mfma_*`, wave64.
    Mfma,
    /// RDNA `v_wmma_*`, wave32, always 16x16x16.
    Wmma,
    /// NVIDIA `mma.sync` fragments (m16n8kK); the portable kernels map any multiple onto warps.
    MmaSync,
}

/// Static facts about one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ArchInfo {
    pub arch: Arch,
    pub vendor: Vendor,
    pub family: Family,
    pub mma: MmaUnit,
    /// Threads per wave (AMD) or warp (NVIDIA).
    pub wave_size: u32,
    /// LDS / shared memory one workgroup may use.
    pub lds_bytes: u32,
    /// LDS / shared memory of one CU or SM (shared by its resident workgroups).
    pub lds_per_cu: u32,
    /// Compute units (AMD) or SMs (NVIDIA) of the reference part.
    pub compute_units: u32,
    /// Resident waves (warps) per CU (SM).
    pub max_waves_per_cu: u32,
    /// SIMDs per CU (SM sub-partitions on NVIDIA).
    pub simds_per_cu: u32,
    /// 32-bit registers each lane of one SIMD holds for all its waves.
    pub regs_per_simd_lane: u32,
    /// Most 32-bit registers one thread may use.
    pub max_regs_per_thread: u32,
    /// Most resident workgroups per CU (SM).
    pub max_workgroups_per_cu: u32,
    /// Hardware bf16 global atomics (split-K with a bf16 output accumulates in place).
    pub bf16_atomics: bool,
    /// Whether k_batch > 1 is allowed (gfx11 lacks packed f16/bf16 atomics, so CK forces 1).
    pub split_k: bool,
}

const KB: u32 = 1024;

const fn amd(arch: Arch, family: Family, cus: u32) -> ArchInfo {
    let (mma, wave_size, max_waves, regs, max_regs, max_wg) = match family {
        Family::Rdna3 | Family::Rdna4 => (MmaUnit::Wmma, 32, 32, 1536, 256, 32),
        _ => (MmaUnit::Mfma, 64, 32, 512, 512, 16),
    };
    let lds = if matches!(family, Family::Cdna4) {
        160 * KB
    } else {
        64 * KB
    };
    ArchInfo {
        arch,
        vendor: Vendor::Amd,
        family,
        mma,
        wave_size,
        lds_bytes: lds,
        lds_per_cu: lds,
        compute_units: cus,
        max_waves_per_cu: max_waves,
        simds_per_cu: if wave_size == 64 { 4 } else { 2 },
        regs_per_simd_lane: regs,
        max_regs_per_thread: max_regs,
        max_workgroups_per_cu: max_wg,
        bf16_atomics: !matches!(family, Family::Cdna1 | Family::Rdna3),
        split_k: !matches!(family, Family::Rdna3),
    }
}

const fn nvidia(arch: Arch, family: Family, sms: u32, lds_block: u32, lds_sm: u32) -> ArchInfo {
    ArchInfo {
        arch,
        vendor: Vendor::Nvidia,
        family,
        mma: MmaUnit::MmaSync,
        wave_size: 32,
        lds_bytes: lds_block,
        lds_per_cu: lds_sm,
        compute_units: sms,
        max_waves_per_cu: 64,
        simds_per_cu: 4,
        // 65536 registers per SM over 4 partitions of 32 lanes.
        regs_per_simd_lane: 512,
        max_regs_per_thread: 255,
        max_workgroups_per_cu: 32,
        bf16_atomics: true,
        split_k: true,
    }
}

static TABLE: [ArchInfo; 10] = [
    amd(Arch::Gfx908, Family::Cdna1, 120),
    amd(Arch::Gfx90a, Family::Cdna2, 110),
    amd(Arch::Gfx942, Family::Cdna3, 304),
    amd(Arch::Gfx950, Family::Cdna4, 256),
    amd(Arch::Gfx1100, Family::Rdna3, 96),
    amd(Arch::Gfx1101, Family::Rdna3, 60),
    amd(Arch::Gfx1200, Family::Rdna4, 32),
    amd(Arch::Gfx1201, Family::Rdna4, 64),
    nvidia(Arch::Sm80, Family::Ampere, 108, 164 * KB, 164 * KB),
    nvidia(Arch::Sm90, Family::Hopper, 132, 227 * KB, 228 * KB),
];

/// The table row of `arch`.
pub fn info(arch: Arch) -> &'static ArchInfo {
    // The table lists every `Arch` in declaration order (checked by a test).
    &TABLE[Arch::ALL.iter().position(|&a| a == arch).unwrap_or(0)]
}

impl ArchInfo {
    pub fn is_wave64(&self) -> bool {
        self.wave_size == 64
    }

    /// Matrix instructions `[M, N, K]` for operands of `dtype` (CK's selection), empty when the
    /// target has none. NVIDIA lists the fragment; any multiple of its M and N maps onto warps.
    pub fn mma_shapes(&self, dtype: DataType) -> &'static [[u32; 3]] {
        use DataType::*;
        use Family::*;
        match (self.family, dtype) {
            (Cdna1 | Cdna2 | Cdna3 | Cdna4, Fp32) => &[[32, 32, 2], [16, 16, 4]],
            (Cdna1 | Cdna2 | Cdna3, Fp16) => &[[32, 32, 8], [16, 16, 16]],
            (Cdna4, Fp16 | Bf16) => &[[32, 32, 16], [16, 16, 32]],
            (Cdna1, Bf16) => &[[32, 32, 4], [16, 16, 8]],
            (Cdna2 | Cdna3, Bf16) => &[[32, 32, 8], [16, 16, 16]],
            (Cdna1 | Cdna2, Int8) => &[[32, 32, 8], [16, 16, 16]],
            (Cdna3, Int8) => &[[32, 32, 16], [16, 16, 32]],
            (Cdna4, Int8) => &[[32, 32, 32], [16, 16, 64]],
            (Cdna3, Fp8 | Bf8) => &[[32, 32, 16], [16, 16, 32]],
            (Cdna4, Fp8 | Bf8) => &[[32, 32, 64], [16, 16, 128]],
            // xf32 MFMA (gfx942); gfx950 emulates tf32 and CK accepts it there too.
            (Cdna3 | Cdna4, Tf32) => &[[32, 32, 4], [16, 16, 8]],
            (Cdna2 | Cdna3 | Cdna4, Fp64) => &[[16, 16, 4]],
            (Rdna3, Fp16 | Bf16 | Int8) => &[[16, 16, 16]],
            (Rdna4, Fp16 | Bf16 | Int8 | Fp8 | Bf8) => &[[16, 16, 16]],
            (Ampere | Hopper, Fp16 | Bf16) => &[[16, 8, 16]],
            (Ampere | Hopper, Tf32) => &[[16, 8, 8]],
            (Ampere | Hopper, Int8) => &[[16, 8, 32]],
            (Hopper, Fp8 | Bf8) => &[[16, 8, 32]],
            (Ampere | Hopper, Fp64) => &[[8, 8, 4]],
            // fp32 has no tensor-core form; the portable kernel's SIMT path uses the same grid.
            (Ampere | Hopper, Fp32) => &[[16, 8, 1]],
            _ => &[],
        }
    }

    /// K of the instruction that computes an `m` x `n` block of `dtype`, if there is one.
    pub fn mma_k(&self, dtype: DataType, m: u32, n: u32) -> Option<u32> {
        let shapes = self.mma_shapes(dtype);
        match self.mma {
            MmaUnit::MmaSync => shapes
                .iter()
                .find(|s| m > 0 && n > 0 && m.is_multiple_of(s[0]) && n.is_multiple_of(s[1]))
                .map(|s| s[2]),
            MmaUnit::Mfma | MmaUnit::Wmma => {
                shapes.iter().find(|s| s[0] == m && s[1] == n).map(|s| s[2])
            }
        }
    }

    /// CK-Tile warp layouts `[M, N, K]` the dispatcher accepts; `None` when any layout that
    /// fits a 1024-thread block is fine (NVIDIA portable kernels).
    pub fn warp_configs(&self) -> Option<&'static [[u32; 3]]> {
        const CDNA2: &[[u32; 3]] = &[[1, 4, 1], [2, 2, 1], [4, 1, 1]];
        const CDNA3: &[[u32; 3]] = &[
            [1, 4, 1],
            [2, 2, 1],
            [4, 1, 1],
            [1, 1, 1],
            [1, 2, 1],
            [2, 1, 1],
            [2, 1, 2],
        ];
        const CDNA4: &[[u32; 3]] = &[
            [1, 4, 1],
            [2, 2, 1],
            [4, 1, 1],
            [1, 1, 1],
            [1, 2, 1],
            [2, 1, 1],
            [2, 1, 2],
            [8, 2, 1],
            [4, 4, 1],
        ];
        const RDNA: &[[u32; 3]] = &[[2, 4, 1], [1, 8, 1], [8, 1, 1], [4, 2, 1]];
        match self.family {
            Family::Cdna1 => Some(&[]),
            Family::Cdna2 => Some(CDNA2),
            Family::Cdna3 => Some(CDNA3),
            Family::Cdna4 => Some(CDNA4),
            Family::Rdna3 | Family::Rdna4 => Some(RDNA),
            Family::Ampere | Family::Hopper => None,
        }
    }

    /// Whether the CK-Tile dispatcher has an arch spec for this target (gfx908 has none).
    pub fn has_tile_kernels(&self) -> bool {
        self.family != Family::Cdna1
    }

    /// Whether a CK-Tile warp tile `[m, n, k]` of `dtype` exists here. Wave64 targets list exact
    /// warp tiles; wave32 targets take any K that is a multiple of the WMMA K.
    pub fn warp_tile_available(&self, dtype: DataType, tile: [u32; 3]) -> bool {
        use DataType::*;
        use Family::*;
        let [m, n, k] = tile;
        let listed: &[[u32; 3]] = match (self.family, dtype) {
            (Cdna2 | Cdna3 | Cdna4, Fp16 | Bf16) => &[
                [32, 32, 8],
                [16, 16, 16],
                [32, 32, 16],
                [16, 16, 32],
                [4, 64, 16],
                [64, 4, 16],
            ],
            (Cdna2 | Cdna3 | Cdna4, Fp32) => &[[32, 32, 2], [16, 16, 4], [32, 32, 4], [16, 16, 8]],
            (Cdna2, Fp8 | Bf8) => &[[32, 32, 16], [32, 32, 32]],
            (Cdna3, Fp8 | Bf8) => &[[32, 32, 16], [32, 32, 32], [16, 16, 32], [16, 16, 64]],
            (Cdna4, Fp8 | Bf8) => &[
                [32, 32, 16],
                [32, 32, 32],
                [16, 16, 32],
                [16, 16, 64],
                [16, 16, 128],
                [32, 32, 64],
            ],
            (Rdna3, Fp16 | Bf16) | (Rdna4, Fp16 | Bf16 | Fp8 | Bf8) => {
                return m == 16 && n == 16 && k > 0 && k % 16 == 0;
            }
            (Ampere | Hopper, _) => {
                return self
                    .mma_k(dtype, m, n)
                    .is_some_and(|ik| k > 0 && k % ik == 0);
            }
            _ => &[],
        };
        listed.contains(&tile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_follows_arch_order() {
        for &a in Arch::ALL {
            assert_eq!(info(a).arch, a);
        }
    }

    #[test]
    fn wave_sizes_and_lds() {
        assert_eq!(info(Arch::Gfx942).wave_size, 64);
        assert_eq!(info(Arch::Gfx1201).wave_size, 32);
        assert_eq!(info(Arch::Gfx950).lds_bytes, 160 * 1024);
        assert_eq!(info(Arch::Sm90).lds_bytes, 227 * 1024);
        assert!(!info(Arch::Gfx1100).split_k);
        assert!(!info(Arch::Gfx908).bf16_atomics);
    }

    #[test]
    fn instruction_selection() {
        assert_eq!(info(Arch::Gfx942).mma_k(DataType::Fp16, 32, 32), Some(8));
        assert_eq!(info(Arch::Gfx950).mma_k(DataType::Fp16, 32, 32), Some(16));
        assert_eq!(info(Arch::Gfx90a).mma_k(DataType::Fp8, 32, 32), None);
        assert_eq!(info(Arch::Gfx1100).mma_k(DataType::Fp16, 32, 32), None);
        assert_eq!(info(Arch::Gfx1100).mma_k(DataType::Fp8, 16, 16), None);
        assert_eq!(info(Arch::Gfx1201).mma_k(DataType::Fp8, 16, 16), Some(16));
        assert_eq!(info(Arch::Sm90).mma_k(DataType::Fp16, 32, 32), Some(16));
        assert_eq!(info(Arch::Sm80).mma_k(DataType::Fp16, 8, 8), None);
    }

    #[test]
    fn warp_tiles() {
        let g942 = info(Arch::Gfx942);
        assert!(g942.warp_tile_available(DataType::Fp16, [16, 16, 16]));
        assert!(!g942.warp_tile_available(DataType::Fp16, [16, 16, 64]));
        assert!(info(Arch::Gfx1201).warp_tile_available(DataType::Fp16, [16, 16, 32]));
        assert!(!info(Arch::Gfx1201).warp_tile_available(DataType::Fp16, [32, 32, 32]));
    }
}
