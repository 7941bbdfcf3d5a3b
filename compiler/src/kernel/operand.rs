//! The tensors' element types and one operand's global → LDS movement, as the kernel
//! configuration and the TMA plan both describe them.

use crate::model::{DataType, ElementOp};
use serde::{Deserialize, Serialize};

/// Storage type of a tensor in the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Elem {
    F32,
    F16,
    Bf16,
    /// CK's `int8_t`.
    I8,
    /// CK's `f8_t` (FNUZ e4m3) and `bf8_t` (FNUZ e5m2) codes.
    F8,
    Bf8,
}

impl Elem {
    /// The element type the kernels store a tensor of `dtype` in (fp32 for tf32 data), if they
    /// take that type at all.
    pub const fn of(dtype: DataType) -> Option<Elem> {
        match dtype {
            DataType::Fp32 | DataType::Tf32 => Some(Elem::F32),
            DataType::Fp16 => Some(Elem::F16),
            DataType::Bf16 => Some(Elem::Bf16),
            DataType::Int8 => Some(Elem::I8),
            DataType::Fp8 => Some(Elem::F8),
            DataType::Bf8 => Some(Elem::Bf8),
            DataType::Int32 | DataType::Fp64 => None,
        }
    }

    pub const fn bytes(self) -> u32 {
        match self {
            Elem::F32 => 4,
            Elem::F16 | Elem::Bf16 => 2,
            Elem::I8 | Elem::F8 | Elem::Bf8 => 1,
        }
    }

    /// One-byte types: the kernels compute them on the SIMT path (`bytes.hip`), with none of
    /// the 16-bit entries, and never stage them through the repack entry.
    pub const fn is_byte(self) -> bool {
        self.bytes() == 1
    }

    pub fn c_type(self) -> &'static str {
        match self {
            Elem::F32 => "float",
            Elem::F16 => "ck_f16",
            Elem::Bf16 => "ck_bf16",
            Elem::I8 => "ck_i8",
            Elem::F8 => "ck_f8",
            Elem::Bf8 => "ck_bf8",
        }
    }
}

/// One operand's global→LDS movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperandCfg {
    pub elem: Elem,
    /// Elements loaded together along the operand's contiguous dimension.
    pub vector: u32,
    /// The contiguous dimension is the tile's row (M for A, N for B) rather than GEMM-K.
    pub along_rows: bool,
    /// K elements contiguous in LDS (`K1`).
    pub k1: u32,
    /// Elements of one LDS row `[rows * K1 + pad]`.
    pub lds_row: u32,
    /// Elements of one LDS stage.
    pub lds_stage: u32,
    pub op: ElementOp,
}

impl OperandCfg {
    /// Whether a load group can be copied straight to LDS: it is contiguous there (the
    /// kernel's `ck_loader::WHOLE`), 4, 8 or 16 bytes, with no element-wise op on load.
    pub(super) fn copies_whole_vectors(&self) -> bool {
        let whole = if self.along_rows {
            self.k1 == 1
        } else {
            self.k1.is_multiple_of(self.vector)
        };
        let bytes = self.elem.bytes() * self.vector;
        whole && self.op == ElementOp::PassThrough && matches!(bytes, 4 | 8 | 16)
    }
}
