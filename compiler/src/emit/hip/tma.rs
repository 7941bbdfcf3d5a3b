//! The tensor-memory-accelerator (TMA) operand copies of the sm_90a warpgroup path: which
//! kernels have them, and the tensor maps a problem needs. The host encodes each map with the
//! CUDA driver; one thread of a workgroup then copies a whole operand tile with one instruction
//! per 64-channel box, the hardware generating the implicit-GEMM (im2col) addresses and the
//! zero padding that every thread computed for its `cp.async` copies before.
//!
//! Boxes are 64 channels (128 bytes: one 128-byte swizzle line) by a run of pixels or rows, so
//! every box lands as whole lines of the `ck_swz_idx` stage layout:
//! - forward: A (input, K-major) is one im2col box per 64 channels of a filter tap over the
//!   tile's MPB output pixels; B (weights, K-major) one tiled box of 64 (tap, channel) columns
//!   by NPB filters.
//! - backward weight: both operands are M/N-major with GEMM-K the output pixels. A (output
//!   gradient) is one im2col box without a window (a 1x1 filter) per 64 output channels, B
//!   (input) one im2col box per 64 (tap, channel) columns, each over the K-tile's KPB pixels.

use super::args::CkArgs;
use super::config::{Elem, OperandCfg};
use crate::model::Op;
use serde::Serialize;

/// Channels of one box: one 128-byte line of 16-bit elements.
pub const BOX_CHANNELS: u32 = 64;
/// Largest extent of a box dimension (pixels of an im2col box, rows of a tiled one).
const MAX_BOX: u32 = 256;
/// Range of the window corners of a rank-4 (2-D spatial) im2col map, and the largest filter
/// offset the kernel passes (16-bit, kept to the corners' range).
const CORNER: std::ops::RangeInclusive<i64> = -128..=127;
/// Largest traversal stride of a map.
const MAX_TRAVERSAL: i64 = 8;

/// Whether a kernel with a warpgroup layout gets the TMA path: 16-bit operands (the wgmma
/// layout's), forward with both operands K-major in whole 64-deep boxes, or backward weight
/// with both M/N-major in whole 64-row boxes and K-tiles of at most 256 pixels.
pub fn tma_tile(op: Op, [a, b]: [&OperandCfg; 2], [m, n, k]: [u32; 3]) -> bool {
    match op {
        Op::Fwd => {
            !a.along_rows
                && !b.along_rows
                && k.is_multiple_of(BOX_CHANNELS)
                && m <= MAX_BOX
                && n <= MAX_BOX
        }
        Op::BwdWeight => {
            a.along_rows
                && b.along_rows
                && m.is_multiple_of(BOX_CHANNELS)
                && n.is_multiple_of(BOX_CHANNELS)
                && k.is_multiple_of(8)
                && k <= MAX_BOX
        }
        Op::BwdData => false,
    }
}

/// How a map addresses its tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MapKind {
    /// A box of `box_dims` elements (innermost first).
    Tiled { box_dims: [u32; 2] },
    /// `pixels` pixels by `channels` channels walked through a window whose origin moves
    /// from `lower` to `upper` (W, H; relative to the tensor's corners) by the traversal
    /// strides; the kernel adds the filter tap's offset.
    Im2col {
        lower: [i32; 2],
        upper: [i32; 2],
        channels: u32,
        pixels: u32,
    },
}

/// One tensor map, as `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col` take it: 128-byte
/// swizzle, zero fill out of bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TensorMap {
    pub elem: Elem,
    pub address: u64,
    /// Dimensions used: 2 (tiled) or 4 (im2col: C, W, H, N).
    pub rank: u32,
    /// Extents in elements and strides in bytes of dimensions 1.., innermost first.
    pub dims: [u64; 4],
    pub strides: [u64; 3],
    /// Traversal strides (the convolution strides of an im2col map's W and H).
    pub element_strides: [u32; 4],
    pub kind: MapKind,
}

fn to_u64(v: i64) -> Option<u64> {
    u64::try_from(v).ok()
}

/// Byte strides of 16-bit elements: positive multiples of 16 bytes.
fn byte_strides<const N: usize>(elems: [i64; N]) -> Option<[u64; N]> {
    let mut out = [0; N];
    for (o, e) in out.iter_mut().zip(elems) {
        *o = to_u64(e.checked_mul(2)?)?;
        if *o == 0 || !o.is_multiple_of(16) {
            return None;
        }
    }
    Some(out)
}

/// The im2col map of a channels-last image `[N][H][W][G * ch]` (channel stride 1, groups
/// adjacent) read by a window of `taps` (X, Y) taps at `dilation`, stepped by `stride` from
/// `-pad`, with `outs` (Wo, Ho) window positions a row and column.
struct Image {
    address: u64,
    channels: i64,
    size: [i64; 3],
    strides: [i64; 3],
    taps: [i64; 2],
    stride: [i64; 2],
    dilation: [i64; 2],
    pad: [i64; 2],
    outs: [i64; 2],
}

impl Image {
    fn map(&self, elem: Elem, pixels: u32) -> Option<TensorMap> {
        let [w, h, n] = self.size;
        let strides = byte_strides(self.strides)?;
        let mut lower = [0i32; 2];
        let mut upper = [0i32; 2];
        for d in 0..2 {
            if !(1..=MAX_TRAVERSAL).contains(&self.stride[d]) {
                return None;
            }
            // The window origins are lower, lower + stride, ..., exactly `outs` of them: the
            // upper corner ends the walk one past the last (asymmetric padding included).
            let lo = -self.pad[d];
            let last = lo + (self.outs[d] - 1) * self.stride[d];
            let up = last + 1 - self.size[d];
            let reach = (self.taps[d] - 1) * self.dilation[d];
            if !CORNER.contains(&lo) || !CORNER.contains(&up) || !CORNER.contains(&reach) {
                return None;
            }
            lower[d] = lo as i32;
            upper[d] = up as i32;
        }
        Some(TensorMap {
            elem,
            address: self.address,
            rank: 4,
            dims: [to_u64(self.channels)?, to_u64(w)?, to_u64(h)?, to_u64(n)?],
            strides,
            element_strides: [1, self.stride[0] as u32, self.stride[1] as u32, 1],
            kind: MapKind::Im2col {
                lower,
                upper,
                channels: BOX_CHANNELS,
                pixels,
            },
        })
    }
}

/// The A and B maps of one launch (`args` with its buffer addresses), or `None` where the
/// problem does not fit them and the kernel copies with `cp.async`: 3-D problems, channels per
/// group not a multiple of 64, operands not channels-last with adjacent groups, strides or
/// addresses not 16-byte aligned, windows past the maps' corner range.
pub fn tensor_maps(op: Op, elem: Elem, tile: [u32; 3], a: &CkArgs) -> Option<[TensorMap; 2]> {
    let two_d = a.Z == 1 && a.Di == 1 && a.Do == 1;
    let aligned = [a.x, a.w, a.y].iter().all(|p| p.is_multiple_of(16));
    if !two_d || !aligned || a.C % i64::from(BOX_CHANNELS) != 0 {
        return None;
    }
    let packed_groups = |stride_g: i64, ch: i64| a.G == 1 || stride_g == ch;
    let input = Image {
        address: a.x,
        channels: a.G * a.C,
        size: [a.Wi, a.Hi, a.N],
        strides: [a.xs_w, a.xs_h, a.xs_n],
        taps: [a.X, a.Y],
        stride: [a.sw, a.sh],
        dilation: [a.dw, a.dh],
        pad: [a.pw, a.ph],
        outs: [a.Wo, a.Ho],
    };
    if a.xs_c != 1 || !packed_groups(a.xs_g, a.C) {
        return None;
    }
    let [m, n, k] = tile;
    match op {
        Op::Fwd => {
            // Weights as a matrix: G * K filters of Y * X * C contiguous (tap, channel) columns.
            let columns = a.Y * a.X * a.C;
            let contiguous = a.ws_c == 1 && a.ws_x == a.C && a.ws_y == a.X * a.C;
            if !contiguous || !packed_groups(a.ws_g, a.K * a.ws_k) {
                return None;
            }
            let weights = TensorMap {
                elem,
                address: a.w,
                rank: 2,
                dims: [to_u64(columns)?, to_u64(a.G * a.K)?, 1, 1],
                strides: [byte_strides([a.ws_k])?[0], 0, 0],
                element_strides: [1; 4],
                kind: MapKind::Tiled {
                    box_dims: [BOX_CHANNELS, n],
                },
            };
            Some([input.map(elem, m)?, weights])
        }
        Op::BwdWeight => {
            // The output gradient walked pixel by pixel: an image read through a 1x1 window.
            if a.ys_k != 1 || !packed_groups(a.ys_g, a.K) {
                return None;
            }
            let grad = Image {
                address: a.y,
                channels: a.G * a.K,
                size: [a.Wo, a.Ho, a.N],
                strides: [a.ys_w, a.ys_h, a.ys_n],
                taps: [1, 1],
                stride: [1, 1],
                dilation: [1, 1],
                pad: [0, 0],
                outs: [a.Wo, a.Ho],
            };
            Some([grad.map(elem, k)?, input.map(elem, k)?])
        }
        Op::BwdData => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn operand(along_rows: bool) -> OperandCfg {
        OperandCfg {
            elem: Elem::F16,
            vector: 8,
            along_rows,
            k1: 8,
            lds_row: 0,
            lds_stage: 0,
            op: crate::model::ElementOp::PassThrough,
        }
    }

    /// A 2-D problem: N 2, G groups of C 64 → K 128, 3x3 at stride 2, pad 1 on 9x7 inputs,
    /// channels-last with adjacent groups.
    fn args(g: i64) -> CkArgs {
        let (n, c, k, hi, wi) = (2, 64, 128, 9, 7);
        let (ho, wo) = ((hi + 2 - 3) / 2 + 1, (wi + 2 - 3) / 2 + 1);
        CkArgs {
            x: 0x1000,
            w: 0x2000,
            y: 0x3000,
            G: g,
            N: n,
            K: k,
            C: c,
            Di: 1,
            Hi: hi,
            Wi: wi,
            Z: 1,
            Y: 3,
            X: 3,
            Do: 1,
            Ho: ho,
            Wo: wo,
            sd: 1,
            sh: 2,
            sw: 2,
            dd: 1,
            dh: 1,
            dw: 1,
            pd: 0,
            ph: 1,
            pw: 1,
            xs_c: 1,
            xs_g: c,
            xs_w: g * c,
            xs_h: wi * g * c,
            xs_n: hi * wi * g * c,
            ws_c: 1,
            ws_x: c,
            ws_y: 3 * c,
            ws_k: 9 * c,
            ws_g: k * 9 * c,
            ys_k: 1,
            ys_g: k,
            ys_w: g * k,
            ys_h: wo * g * k,
            ys_n: ho * wo * g * k,
            ..CkArgs::default()
        }
    }

    #[test]
    fn tiles_with_whole_boxes_get_the_tma_path() {
        let (k_major, mn_major) = (operand(false), operand(true));
        assert!(tma_tile(Op::Fwd, [&k_major, &k_major], [128, 128, 64]));
        assert!(!tma_tile(Op::Fwd, [&k_major, &k_major], [128, 128, 32]));
        assert!(tma_tile(
            Op::BwdWeight,
            [&mn_major, &mn_major],
            [64, 128, 32]
        ));
        assert!(!tma_tile(
            Op::BwdWeight,
            [&mn_major, &mn_major],
            [64, 96, 32]
        ));
        assert!(!tma_tile(
            Op::BwdData,
            [&k_major, &mn_major],
            [128, 128, 64]
        ));
    }

    #[test]
    fn forward_maps_walk_the_output_pixels_through_the_padded_window() {
        let [x, w] = tensor_maps(Op::Fwd, Elem::F16, [128, 64, 64], &args(2)).unwrap();
        assert_eq!(x.dims, [128, 7, 9, 2]);
        assert_eq!(x.strides, [256, 7 * 256, 63 * 256]);
        assert_eq!(x.element_strides, [1, 2, 2, 1]);
        // Origins -1, 1, ..., 5 (Wo = 4) across W, -1 .. 7 (Ho = 5) down H.
        let MapKind::Im2col {
            lower,
            upper,
            channels,
            pixels,
        } = x.kind
        else {
            panic!("{x:?}")
        };
        assert_eq!(
            (lower, upper, channels, pixels),
            ([-1, -1], [-1, -1], 64, 128)
        );
        assert_eq!(w.dims[..2], [9 * 64, 256]);
        assert_eq!(w.strides[0], 9 * 64 * 2);
        assert_eq!(w.kind, MapKind::Tiled { box_dims: [64, 64] });
    }

    #[test]
    fn backward_weight_maps_walk_the_k_tile_pixels() {
        let [dy, x] = tensor_maps(Op::BwdWeight, Elem::Bf16, [128, 128, 32], &args(1)).unwrap();
        assert_eq!(dy.dims, [128, 4, 5, 2]);
        assert_eq!(
            dy.kind,
            MapKind::Im2col {
                lower: [0, 0],
                upper: [0, 0],
                channels: 64,
                pixels: 32
            }
        );
        assert_eq!(dy.element_strides, [1; 4]);
        assert!(matches!(x.kind, MapKind::Im2col { pixels: 32, .. }));
    }

    #[test]
    fn problems_the_maps_cannot_describe_copy_with_cp_async() {
        let tile = [128, 128, 64];
        let mut a = args(1);
        a.C = 48;
        assert!(tensor_maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        let mut a = args(2);
        a.xs_g = 1;
        a.xs_c = 2;
        assert!(tensor_maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        let mut a = args(1);
        a.x += 8;
        assert!(tensor_maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        let mut a = args(1);
        a.Di = 3;
        a.Do = 3;
        assert!(tensor_maps(Op::BwdWeight, Elem::F16, tile, &a).is_none());
        let mut a = args(1);
        a.pw = 200;
        assert!(tensor_maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        assert!(tensor_maps(Op::BwdData, Elem::F16, tile, &args(1)).is_none());
    }
}
