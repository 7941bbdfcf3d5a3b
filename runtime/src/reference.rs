//! The fp64 reference convolution, the relative-error metric, and random test data.
//!
//! The reference is the direct definition (no implicit GEMM, no tiling): for every group, batch,
//! output channel, input channel, output position and filter tap whose input position
//! `o·s + f·d − lpad` lies inside the input,
//! fwd adds `in·wei` to `out`, bwd_data adds `out·wei` to `in`, bwd_weight adds `out·in` to `wei`.
//! Element-wise ops apply to the two sources as they are read (combining a source's tensors
//! where it has several) and to the finished sum, with the D tensors for binary ops
//! ([`crate::elementwise`]).
//!
//! Error bounds ([`tolerance`]) on `‖out − ref‖ / ‖ref‖` are about four units of roundoff of the
//! least precise type involved: the result is rounded once to its storage type (fp16 u = 2^-11
//! ≈ 4.9e-4, bf16 u = 2^-8 ≈ 3.9e-3), split-K atomic adds round a few more times, and fp32
//! accumulation over GEMM-K adds ~√K·2^-24, so fp32 gets 1e-5 (or 4·√K·2^-24 for long
//! reductions), fp16 and tf32 (fp32 data, products of 10 mantissa bits) 2e-3, bf16 1.6e-2, and
//! CK's 8-bit floats (u = 2^-4 for fp8, 2^-3 for bf8) 0.25 and 0.5. int8 results are CK's
//! conversions of exact integer sums, which the reference applies too: 1e-2 leaves room only for
//! a scaling op's value that fp32 and fp64 truncate on either side of an integer.
//! Tensor cores add rounding toward zero, an error linear in the products an accumulator sums;
//! the GPU plans keep that below about 1e-3 (docs/kernels.md, "Long reductions"), within the
//! 16-bit and tf32 bounds.

use crate::elementwise::{Elementwise, apply_result, ops_by_role, source_values};
use crate::exec::{RunError, check_tensor};
use crate::fp8::{BF8, FP8};
use crate::layout::{Role, TensorDesc};
use crate::problem::ConvProblem;
use crate::rng::SplitMix64;
use crate::tensor::{Tensor, TensorData, int8_of, round_to};
use ck_compiler::model::{DataType, ElementOp, Op};
use half::{bf16, f16};
use rayon::prelude::*;
use std::hash::{BuildHasher, Hasher};

/// The destination of `p.op` (output, input or weight), in fp64, in the destination's memory
/// order. Reads the op's two source tensors, `ew`'s extra source tensors and D tensors; the
/// destination tensor's contents are ignored.
pub fn reference(
    p: &ConvProblem,
    input: &Tensor,
    weight: &Tensor,
    output: &Tensor,
    ew: &Elementwise<'_>,
) -> Result<Vec<f64>, RunError> {
    p.validate()?;
    check_tensor(p, Role::Input, input)?;
    check_tensor(p, Role::Weight, weight)?;
    check_tensor(p, Role::Output, output)?;
    ew.check_extra_shapes(p)?;
    let d = ew.d_values(p.op, &p.desc(p.destination())?)?;
    let nd = p.ndim as usize;
    let out_sp = p.output();
    // Every (output position, filter tap, input position) triple inside the input.
    let mut taps: Vec<(Vec<u64>, Vec<u64>, Vec<u64>)> = Vec::new();
    let o_count: u64 = out_sp.iter().product();
    let f_count: u64 = p.filter.iter().product();
    for oi in 0..o_count {
        let o = unravel(oi, &out_sp);
        'tap: for fi in 0..f_count {
            let f = unravel(fi, &p.filter);
            let mut i = vec![0; nd];
            for d in 0..nd {
                match (o[d] * p.stride[d] + f[d] * p.dilation[d]).checked_sub(p.left_pad[d]) {
                    Some(x) if x < p.input[d] => i[d] = x,
                    _ => continue 'tap,
                }
            }
            taps.push((o.clone(), f, i));
        }
    }
    let (sources, result) = ops_by_role(p.op, &ew.ops);
    let (a_op, b_op) = (sources[0], sources[1]);
    let load = |t: &Tensor, role: Role, op: ElementOp| {
        source_values(op, role, t, ew.extra.of(role), &ew.args)
    };
    // Sources by conv role: A and B of the GEMM order.
    let (x, w, y) = match p.op {
        Op::Fwd => (
            load(input, Role::Input, a_op),
            load(weight, Role::Weight, b_op),
            load(output, Role::Output, ElementOp::PassThrough),
        ),
        Op::BwdData => (
            load(input, Role::Input, ElementOp::PassThrough),
            load(weight, Role::Weight, b_op),
            load(output, Role::Output, a_op),
        ),
        Op::BwdWeight => (
            load(input, Role::Input, b_op),
            load(weight, Role::Weight, ElementOp::PassThrough),
            load(output, Role::Output, a_op),
        ),
    };
    let (xd, wd, yd) = (input.desc(), weight.desc(), output.desc());
    // Offsets are linear in the index, so each tap's spatial part is computed once.
    let spatial = |d: &TensorDesc, sp: &[u64]| -> usize {
        sp.iter()
            .zip(&d.strides[3..])
            .map(|(i, s)| i * s)
            .sum::<u64>() as usize
    };
    // The destination's spatial extent, and each tap's position in it.
    let (dst_desc, dst_spatial) = match p.op {
        Op::Fwd => (yd, out_sp.clone()),
        Op::BwdData => (xd, p.input.clone()),
        Op::BwdWeight => (wd, p.filter.clone()),
    };
    let taps: Vec<(usize, usize, usize, usize)> = taps
        .iter()
        .map(|(o, f, i)| {
            let at = match p.op {
                Op::Fwd => o,
                Op::BwdData => i,
                Op::BwdWeight => f,
            };
            let linear = at
                .iter()
                .zip(&dst_spatial)
                .fold(0, |acc, (&x, &n)| acc * n + x);
            (
                spatial(xd, i),
                spatial(wd, f),
                spatial(yd, o),
                linear as usize,
            )
        })
        .collect();
    let base = |d: &TensorDesc, a: u64, b: u64, c: u64| {
        (a * d.strides[0] + b * d.strides[1] + c * d.strides[2]) as usize
    };
    // Each destination (group, row, column) sums over the remaining one of N, K, C: independent
    // tasks, run in parallel, each into its own spatial block (large shapes take ~1e11 MACs).
    let [rows, cols, reduced] = match p.op {
        Op::Fwd => [p.n, p.k, p.c],
        Op::BwdData => [p.n, p.c, p.k],
        Op::BwdWeight => [p.k, p.c, p.n],
    };
    let nkc = |a: u64, b: u64, r: u64| match p.op {
        Op::Fwd => (a, b, r),
        Op::BwdData => (a, r, b),
        Op::BwdWeight => (r, a, b),
    };
    let sp_count = dst_spatial.iter().product::<u64>() as usize;
    let blocks: Vec<Vec<f64>> = (0..p.g * rows * cols)
        .into_par_iter()
        .map(|task| {
            let (g, a, b) = (task / (rows * cols), task / cols % rows, task % cols);
            let mut acc = vec![0f64; sp_count];
            for r in 0..reduced {
                let (n, k, c) = nkc(a, b, r);
                let (bx, bw, by) = (base(xd, g, n, c), base(wd, g, k, c), base(yd, g, n, k));
                for &(tx, tw, ty, at) in &taps {
                    let (xo, wo, yo) = (bx + tx, bw + tw, by + ty);
                    acc[at] += match p.op {
                        Op::Fwd => x[xo] * w[wo],
                        Op::BwdData => y[yo] * w[wo],
                        Op::BwdWeight => y[yo] * x[xo],
                    };
                }
            }
            acc
        })
        .collect();
    let dst_tensor = match p.op {
        Op::Fwd => output,
        Op::BwdData => input,
        Op::BwdWeight => weight,
    };
    let dst_len = dst_tensor.len();
    let sp_offsets: Vec<usize> = (0..sp_count as u64)
        .map(|i| spatial(dst_desc, &unravel(i, &dst_spatial)))
        .collect();
    let mut dst = vec![0f64; dst_len];
    for (task, acc) in (0..).zip(blocks) {
        let (g, a, b) = (task / (rows * cols), task / cols % rows, task % cols);
        let (n, k, c) = nkc(a, b, 0);
        let start = match p.op {
            Op::Fwd => base(yd, g, n, k),
            Op::BwdData => base(xd, g, n, c),
            Op::BwdWeight => base(wd, g, k, c),
        };
        for (v, off) in acc.into_iter().zip(&sp_offsets) {
            dst[start + off] = v;
        }
    }
    let (c_type, e_type) = (ew.result_type, dst_tensor.dtype());
    for (v, d) in dst.iter_mut().zip(d) {
        *v = apply_result(result, *v, d, &ew.args, c_type, e_type);
    }
    Ok(dst)
}

fn unravel(mut idx: u64, dims: &[u64]) -> Vec<u64> {
    let mut out = vec![0; dims.len()];
    for (o, &d) in out.iter_mut().zip(dims).rev() {
        *o = idx % d;
        idx /= d;
    }
    out
}

/// `‖out − ref‖₂ / ‖ref‖₂` over memory order; `‖out‖₂` when the reference is all zeros.
/// Infinite when lengths differ or `out` holds a NaN.
pub fn relative_error(out: &Tensor, reference: &[f64]) -> f64 {
    if out.len() != reference.len() {
        return f64::INFINITY;
    }
    relative_error_of(reference, |i| out.get(i).map_or(f64::NAN, f64::from))
}

/// [`relative_error`] of the values `value(i)` gives for each reference element, on every core.
/// The sums are taken over fixed chunks and added in order, so the result does not depend on the
/// thread count.
pub fn relative_error_of(reference: &[f64], value: impl Fn(usize) -> f64 + Sync) -> f64 {
    const CHUNK: usize = 1 << 16;
    let sums: Vec<Option<(f64, f64)>> = reference
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, r)| {
            let (mut diff, mut norm) = (0f64, 0f64);
            for (j, r) in r.iter().enumerate() {
                let o = value(c * CHUNK + j);
                if o.is_nan() {
                    return None;
                }
                diff += (o - r) * (o - r);
                norm += r * r;
            }
            Some((diff, norm))
        })
        .collect();
    let (mut diff, mut norm) = (0f64, 0f64);
    for s in sums {
        let Some((d, n)) = s else {
            return f64::INFINITY;
        };
        diff += d;
        norm += n;
    }
    if norm == 0.0 {
        diff.sqrt()
    } else {
        (diff / norm).sqrt()
    }
}

/// fp32 accumulation's share of [`tolerance`], relative to the scale of a sum's terms: its
/// error grows like √K units of 2^-24 over `reduction` (K) products; four of them, as for
/// storage.
pub fn accumulation_bound(reduction: u64) -> f64 {
    4.0 * f64::from(f32::EPSILON) / 2.0 * (reduction.max(1) as f64).sqrt()
}

/// The relative-error bound for a result stored in `dtype` after fp32 accumulation over
/// `reduction` products (the GEMM-K length; see the module docs).
pub fn tolerance(dtype: DataType, reduction: u64) -> f64 {
    let accumulation = accumulation_bound(reduction);
    let storage: f64 = match dtype {
        DataType::Fp32 | DataType::Fp64 => 1e-5,
        // tf32 products keep fp16's 10 mantissa bits.
        DataType::Fp16 | DataType::Tf32 => 2e-3,
        // CK's 8-bit floats keep 3 (fp8) and 2 (bf8) mantissa bits: u = 2^-4, 2^-3.
        DataType::Fp8 => 0.25,
        DataType::Bf8 => 0.5,
        // int8 results are integers: exact, but where a scaling op's value lies within fp32's
        // roundoff of an integer its truncation may differ by one.
        DataType::Int8 => 1e-2,
        _ => 1.6e-2,
    };
    storage.max(accumulation)
}

/// `‖t‖₂` over the destination, where `tᵢ = √(Σⱼ pᵢⱼ²)` for the products `pᵢⱼ` element `i`
/// sums (the op's two sources as stored, without element-wise ops, extra sources or D
/// tensors): the scale of the sums' rounding. A sum's rounding grows with its partial sums,
/// which random terms keep near `tᵢ` even where the terms cancel and the sum is far smaller;
/// for sums that do not cancel `‖t‖₂` is about `‖ref‖₂`. Computed as the reference of the
/// sources' squares (exact in fp32 for 16-bit and 8-bit data).
pub fn term_norm(
    p: &ConvProblem,
    input: &Tensor,
    weight: &Tensor,
    output: &Tensor,
) -> Result<f64, RunError> {
    let squares = |t: &Tensor| {
        let v = t.to_f32().into_iter().map(|x| x * x).collect();
        Tensor::new(t.desc().clone(), TensorData::F32(v))
            .map_err(|e| RunError::Internal(e.to_string()))
    };
    let fp32 = ConvProblem {
        dtype: crate::problem::ProblemTypes::all(DataType::Fp32),
        ..p.clone()
    };
    let sums = reference(
        &fp32,
        &squares(input)?,
        &squares(weight)?,
        &squares(output)?,
        &Elementwise::NONE,
    )?;
    Ok(sums.iter().sum::<f64>().sqrt())
}

/// A seed that differs from run to run (std's per-process random hasher keys).
pub fn fresh_seed() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::process::id() as u64);
    h.finish()
}

/// A tensor of uniform values in `[-1, 1)` rounded to `dtype` (fp16, bf16, fp32, tf32, fp8 or
/// bf8; int8 data are integers in `[-5, 5)`). tf32
/// data is fp32 in memory with values of tf32's 10 mantissa bits, as fp16 data holds fp16 values:
/// a kernel's rounding of its operands to tf32 is then exact, the reference multiplies the values
/// the kernel does, and what is left is the accumulation's error. Unrounded data would add each
/// product's input rounding, which the norm-wise error does not bound where an output's terms
/// cancel (a few outputs of short sums failed 2e-3 at random).
/// Zero-element tensors cannot occur: validated problems have no zero lengths.
pub fn random_tensor(dtype: DataType, desc: TensorDesc, seed: u64) -> Result<Tensor, RunError> {
    let n = desc.elements() as usize;
    // Large tensors (hundreds of millions of elements in real networks) are drawn on every
    // core, each chunk resuming the one sequence where it starts.
    const CHUNK: usize = 1 << 16;
    fn fill<T: Copy + Default + Send>(
        n: usize,
        seed: u64,
        conv: impl Fn(f32) -> T + Sync,
    ) -> Vec<T> {
        let mut out = vec![T::default(); n];
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                let mut rng = SplitMix64::at(seed, (c * CHUNK) as u64);
                chunk.iter_mut().for_each(|v| *v = conv(rng.next_signed()));
            });
        out
    }
    let data = match dtype.storage() {
        DataType::Fp16 => TensorData::F16(fill(n, seed, f16::from_f32)),
        DataType::Bf16 => TensorData::Bf16(fill(n, seed, bf16::from_f32)),
        DataType::Fp32 => TensorData::F32(fill(n, seed, |v| round_to(dtype, v))),
        DataType::Fp8 => TensorData::F8(fill(n, seed, |v| FP8.encode(v))),
        DataType::Bf8 => TensorData::Bf8(fill(n, seed, |v| BF8.encode(v))),
        // Integers in [-5, 5), as CK's own tests draw them.
        DataType::Int8 => TensorData::I8(fill(n, seed, |v| int8_of(f64::from((v * 5.0).floor())))),
        other => return Err(RunError::NotSupportedOnCpu(format!("{other} tensors"))),
    };
    Tensor::new(desc, data).map_err(|e| RunError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elementwise::{ElementArgs, ElementwiseError, ExtraSources};
    use ck_compiler::ir::ElementOps;

    #[test]
    fn reference_by_hand() {
        // 1D fwd, G=1 N=1 K=1 C=1, filter 2, input 3, pad 1: out[o] = Σ_f in[o+f-1]·w[f].
        let p = ConvProblem::new(Op::Fwd, 1, 1, 1, 1, &[2], &[3], DataType::Fp32)
            .unwrap()
            .with_pads(&[1], &[0])
            .unwrap();
        let t = |role: Role, v: Vec<f32>| {
            Tensor::new(p.desc(role).unwrap(), TensorData::F32(v)).unwrap()
        };
        let x = t(Role::Input, vec![1.0, 2.0, 3.0]);
        let w = t(Role::Weight, vec![10.0, 100.0]);
        let y = t(Role::Output, vec![0.0; 3]);
        assert_eq!(
            reference(&p, &x, &w, &y, &Elementwise::NONE).unwrap(),
            vec![100.0, 210.0, 320.0]
        );
        let pd = ConvProblem {
            op: Op::BwdData,
            ..p.clone()
        };
        let dy = t(Role::Output, vec![1.0, 2.0, 3.0]);
        // dx[i] = Σ dy[o]·w[i−o+1]: dx0 = dy0·w1 + dy1·w0 = 120, dx1 = 2·100+3·10, dx2 = 300.
        assert_eq!(
            reference(&pd, &x, &w, &dy, &Elementwise::NONE).unwrap(),
            vec![120.0, 230.0, 300.0]
        );
        let pw = ConvProblem {
            op: Op::BwdWeight,
            ..p.clone()
        };
        // dw[f] = Σ_o dy[o]·x[o+f−1]: dw0 = 2·1 + 3·2 = 8, dw1 = 1+4+9 = 14.
        assert_eq!(
            reference(&pw, &x, &w, &dy, &Elementwise::NONE).unwrap(),
            vec![8.0, 14.0]
        );

        // Element-wise ops: Scale on the input source, then Bilinear / AddRelu with a D.
        let d = [t(Role::Weight, vec![1.0, -20.0])];
        let ops = |result| ElementOps {
            input: ElementOp::Scale,
            weight: result,
            output: ElementOp::PassThrough,
        };
        let args = ElementArgs {
            scale: 2.0,
            alpha: 0.5,
            beta: 0.25,
            ..ElementArgs::IDENTITY
        };
        let ew = |result| Elementwise {
            ops: ops(result),
            ds: &d,
            args,
            ..Elementwise::NONE
        };
        // dw = [16, 28]; 0.5·16 + 0.25·1, 0.5·28 − 0.25·20.
        let r = reference(&pw, &x, &w, &dy, &ew(ElementOp::Bilinear)).unwrap();
        assert_eq!(r, vec![8.25, 9.0]);
        let r = reference(&pw, &x, &w, &dy, &ew(ElementOp::AddRelu)).unwrap();
        assert_eq!(r, vec![17.0, 8.0]);
        // A binary op without its D, or a unary one with a D, is an error.
        let missing = Elementwise {
            ds: &[],
            ..ew(ElementOp::Add)
        };
        assert!(reference(&pw, &x, &w, &dy, &missing).is_err());
        assert!(reference(&pw, &x, &w, &dy, &ew(ElementOp::Relu)).is_err());

        // Two input and two weight tensors, ScaleAdd on each with its own factor: in = 2·x + x1
        // = [2.5, 3, 10], wei = 0.5·w + w1 = [6, 52]; out[o] = Σ_f in[o+f−1]·wei[f].
        let x1 = [t(Role::Input, vec![0.5, -1.0, 4.0])];
        let w1 = [t(Role::Weight, vec![1.0, 2.0])];
        let sources = Elementwise {
            ops: ElementOps {
                input: ElementOp::ScaleAdd,
                weight: ElementOp::ScaleAdd,
                output: ElementOp::PassThrough,
            },
            extra: ExtraSources {
                input: &x1,
                weight: &w1,
            },
            args: ElementArgs {
                scale: 3.0,
                scale_in: 2.0,
                scale_wei: 0.5,
                ..ElementArgs::IDENTITY
            },
            ..Elementwise::NONE
        };
        let r = reference(&p, &x, &w, &y, &sources).unwrap();
        assert_eq!(r, vec![130.0, 15.0 + 156.0, 18.0 + 520.0]);
        // ScaleAdd without its second tensor, or a second tensor of another shape.
        let short = Elementwise {
            extra: ExtraSources {
                input: &[],
                weight: &w1,
            },
            ..sources
        };
        assert!(matches!(
            reference(&p, &x, &w, &y, &short),
            Err(RunError::Elementwise(ElementwiseError::SourceOperands {
                role: Role::Input,
                want: 2,
                got: 1,
                ..
            }))
        ));
        let misfit = Elementwise {
            extra: ExtraSources {
                input: &x1,
                weight: &x1,
            },
            ..sources
        };
        assert!(matches!(
            reference(&p, &x, &w, &y, &misfit),
            Err(RunError::Elementwise(ElementwiseError::Shape { .. }))
        ));
    }

    #[test]
    fn error_metric_and_fill() {
        let p = ConvProblem::new(Op::Fwd, 1, 1, 1, 4, &[1], &[4], DataType::Fp16).unwrap();
        let a = random_tensor(DataType::Fp16, p.desc(Role::Input).unwrap(), 7).unwrap();
        let b = random_tensor(DataType::Fp16, p.desc(Role::Input).unwrap(), 8).unwrap();
        assert_ne!(a, b);
        assert!(a.to_f32().iter().any(|&v| v != 0.0));
        let r: Vec<f64> = a.to_f32().into_iter().map(f64::from).collect();
        assert_eq!(relative_error(&a, &r), 0.0);
        assert!(relative_error(&b, &r) > 0.1);
        assert_eq!(relative_error(&a, &r[1..]), f64::INFINITY);
        assert_ne!(fresh_seed(), fresh_seed());
    }
}
