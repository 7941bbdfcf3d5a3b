//! Host tensors of the element types the CPU back end computes with: fp16, bf16, fp32, int8 and
//! CK's 8-bit floats (their codes, [`crate::fp8`]).

use crate::fp8::{BF8, FP8};
use crate::layout::TensorDesc;
use ck_compiler::model::{DataType, Layout};
use half::{bf16, f16};

/// Element storage, in memory order.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorData {
    F16(Vec<f16>),
    Bf16(Vec<bf16>),
    F32(Vec<f32>),
    /// `f8_t` codes (e4m3 FNUZ).
    F8(Vec<u8>),
    /// `bf8_t` codes (e5m2 FNUZ).
    Bf8(Vec<u8>),
    I8(Vec<i8>),
}

/// A host tensor: data type, logical lengths and layout ([`TensorDesc`]), and its elements.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    desc: TensorDesc,
    data: TensorData,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TensorError {
    #[error("host tensors of type {0} are not supported (fp16, bf16, fp32, int8, fp8 and bf8 are)")]
    DataType(DataType),
    #[error(
        "tensor of layout {layout} and lengths {lengths:?} needs {expected} elements, got {got}"
    )]
    Length {
        layout: Layout,
        lengths: Vec<u64>,
        expected: u64,
        got: usize,
    },
}

/// `v` as int8, as CK's `type_convert<int8_t>` (a `static_cast`) converts on the GPU: toward
/// zero to 32 bits (saturating; NaN is 0), then the low byte, so that an int32 accumulator past
/// the range wraps around.
pub fn int8_of(v: f64) -> i8 {
    v as i32 as i8
}

/// Rounds an fp32 value to the nearest value of `dtype` (tf32: 10 mantissa bits; int8 as
/// [`int8_of`] converts). Types the CPU does not compute in are left unrounded; callers reject
/// them first.
pub fn round_to(dtype: DataType, v: f32) -> f32 {
    match dtype {
        DataType::Int8 => f32::from(int8_of(f64::from(v))),
        DataType::Fp16 => f16::from_f32(v).to_f32(),
        DataType::Bf16 => bf16::from_f32(v).to_f32(),
        DataType::Fp8 => FP8.round(v),
        DataType::Bf8 => BF8.round(v),
        DataType::Tf32 if v.is_finite() => {
            // Round to nearest even at bit 13, the last of tf32's 10 mantissa bits.
            let bits = v.to_bits();
            let round = 0x0fff + ((bits >> 13) & 1);
            f32::from_bits(bits.wrapping_add(round) & !0x1fff)
        }
        _ => v,
    }
}

impl Tensor {
    /// A zero tensor (tf32 data is fp32 in memory).
    pub fn zeros(dtype: DataType, desc: TensorDesc) -> Result<Tensor, TensorError> {
        let n = usize::try_from(desc.elements()).map_err(|_| TensorError::Length {
            layout: desc.layout,
            lengths: desc.lengths.clone(),
            expected: desc.elements(),
            got: usize::MAX,
        })?;
        let data = match dtype.storage() {
            DataType::Fp16 => TensorData::F16(vec![f16::ZERO; n]),
            DataType::Bf16 => TensorData::Bf16(vec![bf16::ZERO; n]),
            DataType::Fp32 => TensorData::F32(vec![0.0; n]),
            DataType::Fp8 => TensorData::F8(vec![0; n]),
            DataType::Bf8 => TensorData::Bf8(vec![0; n]),
            DataType::Int8 => TensorData::I8(vec![0; n]),
            other => return Err(TensorError::DataType(other)),
        };
        Ok(Tensor { desc, data })
    }

    /// A tensor from its elements in memory order.
    pub fn new(desc: TensorDesc, data: TensorData) -> Result<Tensor, TensorError> {
        let got = match &data {
            TensorData::F16(v) => v.len(),
            TensorData::Bf16(v) => v.len(),
            TensorData::F32(v) => v.len(),
            TensorData::F8(v) | TensorData::Bf8(v) => v.len(),
            TensorData::I8(v) => v.len(),
        };
        if got as u64 != desc.elements() {
            return Err(TensorError::Length {
                layout: desc.layout,
                lengths: desc.lengths.clone(),
                expected: desc.elements(),
                got,
            });
        }
        Ok(Tensor { desc, data })
    }

    pub fn desc(&self) -> &TensorDesc {
        &self.desc
    }

    pub fn data(&self) -> &TensorData {
        &self.data
    }

    pub fn dtype(&self) -> DataType {
        match self.data {
            TensorData::F16(_) => DataType::Fp16,
            TensorData::Bf16(_) => DataType::Bf16,
            TensorData::F32(_) => DataType::Fp32,
            TensorData::F8(_) => DataType::Fp8,
            TensorData::Bf8(_) => DataType::Bf8,
            TensorData::I8(_) => DataType::Int8,
        }
    }

    /// Number of stored elements.
    pub fn len(&self) -> usize {
        match &self.data {
            TensorData::F16(v) => v.len(),
            TensorData::Bf16(v) => v.len(),
            TensorData::F32(v) => v.len(),
            TensorData::F8(v) | TensorData::Bf8(v) => v.len(),
            TensorData::I8(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element at a storage offset, as fp32 (exact for every type). `None` past the end.
    pub fn get(&self, i: usize) -> Option<f32> {
        match &self.data {
            TensorData::F16(v) => v.get(i).map(|x| x.to_f32()),
            TensorData::Bf16(v) => v.get(i).map(|x| x.to_f32()),
            TensorData::F32(v) => v.get(i).copied(),
            TensorData::F8(v) => v.get(i).map(|&x| FP8.decode(x)),
            TensorData::Bf8(v) => v.get(i).map(|&x| BF8.decode(x)),
            TensorData::I8(v) => v.get(i).map(|&x| f32::from(x)),
        }
    }

    /// Stores `v` rounded to the tensor's type; offsets past the end are ignored.
    pub fn set(&mut self, i: usize, v: f32) {
        match &mut self.data {
            TensorData::F16(d) => d.get_mut(i).map(|x| *x = f16::from_f32(v)),
            TensorData::Bf16(d) => d.get_mut(i).map(|x| *x = bf16::from_f32(v)),
            TensorData::F32(d) => d.get_mut(i).map(|x| *x = v),
            TensorData::F8(d) => d.get_mut(i).map(|x| *x = FP8.encode(v)),
            TensorData::Bf8(d) => d.get_mut(i).map(|x| *x = BF8.encode(v)),
            TensorData::I8(d) => d.get_mut(i).map(|x| *x = int8_of(f64::from(v))),
        };
    }

    /// All elements as fp32, in memory order.
    pub fn to_f32(&self) -> Vec<f32> {
        match &self.data {
            TensorData::F16(v) => v.iter().map(|x| x.to_f32()).collect(),
            TensorData::Bf16(v) => v.iter().map(|x| x.to_f32()).collect(),
            TensorData::F32(v) => v.clone(),
            TensorData::F8(v) => v.iter().map(|&x| FP8.decode(x)).collect(),
            TensorData::Bf8(v) => v.iter().map(|&x| BF8.decode(x)).collect(),
            TensorData::I8(v) => v.iter().map(|&x| f32::from(x)).collect(),
        }
    }

    /// Sets every element to zero.
    pub fn clear(&mut self) {
        match &mut self.data {
            TensorData::F16(v) => v.fill(f16::ZERO),
            TensorData::Bf16(v) => v.fill(bf16::ZERO),
            TensorData::F32(v) => v.fill(0.0),
            TensorData::F8(v) | TensorData::Bf8(v) => v.fill(0),
            TensorData::I8(v) => v.fill(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Role;

    #[test]
    fn rounding_and_storage() {
        assert_eq!(round_to(DataType::Fp16, 1.0 + 1e-4), 1.0);
        assert_eq!(round_to(DataType::Bf16, 1.0 + 1.0 / 256.0), 1.0);
        assert_eq!(round_to(DataType::Tf32, 1.0 + 1.0 / 4096.0), 1.0);
        assert_eq!(
            round_to(DataType::Tf32, 1.0 + 1.0 / 1024.0),
            1.0 + 1.0 / 1024.0
        );
        assert_eq!(round_to(DataType::Fp32, 0.1), 0.1);
        let desc = TensorDesc::packed(Role::Input, Layout::Nwgc, &[1, 1, 2, 2]).unwrap();
        let mut t = Tensor::zeros(DataType::Bf16, desc.clone()).unwrap();
        t.set(3, 0.1);
        assert_eq!(t.get(3), Some(round_to(DataType::Bf16, 0.1)));
        assert_eq!(t.get(4), None);
        let mut f8 = Tensor::zeros(DataType::Fp8, desc.clone()).unwrap();
        f8.set(1, 300.0);
        f8.set(2, 1.07);
        assert_eq!((f8.get(1), f8.get(2)), (Some(240.0), Some(1.125)));
        assert_eq!(round_to(DataType::Bf8, 1.375), 1.5);
        let mut i8s = Tensor::zeros(DataType::Int8, desc.clone()).unwrap();
        i8s.set(0, -2.7);
        i8s.set(1, 300.0);
        assert_eq!((i8s.get(0), i8s.get(1)), (Some(-2.0), Some(44.0)));
        assert_eq!(round_to(DataType::Int8, -129.0), 127.0);
        assert!(matches!(
            Tensor::zeros(DataType::Int32, desc.clone()),
            Err(TensorError::DataType(_))
        ));
        assert!(matches!(
            Tensor::new(desc, TensorData::F32(vec![0.0; 3])),
            Err(TensorError::Length { .. })
        ));
    }
}
