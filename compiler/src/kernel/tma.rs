//! The tensor-memory-accelerator (TMA) operand copies of the sm_90a warpgroup path: which
//! kernels have them, and the tensor maps a problem needs. The host encodes each map with the
//! CUDA driver; one thread of a workgroup then copies a whole operand tile with one instruction
//! per box, the hardware generating the implicit-GEMM (im2col) addresses and the zero padding
//! that every thread computed for its `cp.async` copies before.
//!
//! An M/N-major box is one 128-byte swizzle line of channels (64 16-bit) by a run of pixels or
//! rows; a K-major box is `kb` channels, the launch's `tma_box`: a line, or half of one (64
//! bytes, copied with the 64-byte swizzle) where the plan's `k_boxes` picks it. Either way every
//! box lands as whole lines of the stage layout the MMA descriptors read. Images are rank-4
//! maps (C, W, H, N) for 2-D problems and rank-5 (C, W, H, D, N) for 3-D ones:
//! - forward: A (input, K-major) is one im2col box per `kb` channels of a filter tap over the
//!   tile's MPB output pixels; B (weights, K-major) one tiled box of `kb` (tap, channel)
//!   columns by NPB filters.
//! - backward data (unit strides; strided problems run one such GEMM per stride phase): A
//!   (output gradient, K-major) is the forward's im2col box with the window turned around, over
//!   the tile's MPB input pixels; B (weights) one tiled box of a tap: a line of input channels
//!   by `kb` output channels N-major from the caller's weights (16-bit), or `kb` output
//!   channels by NPB input channels K-major from their transposed copy (tf32, whose MMAs take
//!   no N-major operand).
//! - backward weight: both operands are M/N-major with GEMM-K the output pixels. A (output
//!   gradient) is one im2col box without a window (a 1x1 filter) per 64 output channels, B
//!   (input) one im2col box per 64 (tap, channel) columns, each over the K-tile's KPB pixels.

use super::args::CkArgs;
use super::operand::{Elem, OperandCfg};
use crate::model::Op;
use serde::Serialize;

/// Channels of one box: one 128-byte line (64 of 16-bit elements, 32 of fp32), the widest
/// inner box dimension the 128-byte swizzle takes.
pub const fn box_channels(elem: Elem) -> u32 {
    128 / elem.bytes()
}
/// Largest extent of a box dimension (pixels of an im2col box, rows of a tiled one).
const MAX_BOX: u32 = 256;
/// Range of the window corners of an im2col map of rank 4 (2-D spatial) and 5 (3-D spatial);
/// the filter offsets the kernel passes are kept to the same range.
const CORNER_4D: std::ops::RangeInclusive<i64> = -128..=127;
const CORNER_5D: std::ops::RangeInclusive<i64> = -16..=15;
/// Largest traversal stride of a map.
const MAX_TRAVERSAL: i64 = 8;

/// Whether a kernel with a warpgroup layout gets the TMA path: forward and backward data with
/// both operands K-major in whole one-line-deep boxes (64 16-bit or 32 fp32 channels) and
/// whole 64-row columns (backward data's B from the weights' transposed copy), and, for 16-bit
/// operands only (the wgmma layout's M/N-major ones), backward data with A K-major and B
/// N-major in whole 64-deep boxes, or backward weight with both M/N-major in whole 64-row
/// boxes over K-tiles of 64 to 256 pixels: against the same kernels' `cp.async` copies,
/// narrower boxes lose and the 64-deep and wider tiles win (`docs/performance.md`).
pub fn tma_tile(op: Op, [a, b]: [&OperandCfg; 2], [m, n, k]: [u32; 3]) -> bool {
    // Rows of a box and of an M/N-major line: 64, the 16-bit line.
    const ROWS: u32 = box_channels(Elem::F16);
    let boxes = |rows: u32| rows.is_multiple_of(ROWS) && rows <= MAX_BOX;
    let k_major =
        !a.along_rows && !b.along_rows && k.is_multiple_of(box_channels(a.elem)) && boxes(m);
    match op {
        Op::Fwd => k_major && boxes(n),
        Op::BwdWeight => {
            a.along_rows
                && b.along_rows
                && m.is_multiple_of(ROWS)
                && n.is_multiple_of(ROWS)
                && boxes(k)
        }
        Op::BwdData if !b.along_rows => k_major && boxes(n),
        Op::BwdData => {
            !a.along_rows && k.is_multiple_of(ROWS) && boxes(m) && n.is_multiple_of(ROWS)
        }
    }
}

/// What the maps of a kernel's TMA copies depend on: its op, operand type and tile, and
/// whether backward data reads its weights K-major from their transposed copy
/// ([`crate::kernel::KernelConfig::weights_transposed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmaKernel {
    pub op: Op,
    pub elem: Elem,
    pub tile: [u32; 3],
    pub weights_transposed: bool,
}

/// How a map addresses its tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MapKind {
    /// A box of `box_dims` elements (innermost first; `rank` of them used).
    Tiled { box_dims: [u32; 5] },
    /// `pixels` pixels by `channels` channels walked through a window whose origin moves
    /// from `lower` to `upper` (W, H, D; relative to the tensor's corners) by the traversal
    /// strides; the kernel adds the filter tap's offset.
    Im2col {
        lower: [i32; 3],
        upper: [i32; 3],
        channels: u32,
        pixels: u32,
    },
}

/// One tensor map, as `cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col` take it: swizzled
/// by its box's inner extent ([`TensorMap::swizzle_bytes`]), zero fill out of bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TensorMap {
    pub elem: Elem,
    pub address: u64,
    /// Dimensions used: 2 (tiled forward weights), 4 (im2col of a 2-D problem: C, W, H, N) or
    /// 5 (im2col of a 3-D problem: C, W, H, D, N; tiled backward-data weights).
    pub rank: u32,
    /// Extents in elements and strides in bytes of dimensions 1.., innermost first.
    pub dims: [u64; 5],
    pub strides: [u64; 4],
    /// Traversal strides (the convolution strides of an im2col map's spatial dimensions).
    pub element_strides: [u32; 5],
    pub kind: MapKind,
}

impl TensorMap {
    /// Bytes of the swizzle span: the box's inner extent, a 128-byte line or half of one, so
    /// that each box row is one span of the stage layout the kernel's descriptors read.
    pub fn swizzle_bytes(&self) -> u32 {
        let inner = match self.kind {
            MapKind::Tiled { box_dims } => box_dims[0],
            MapKind::Im2col { channels, .. } => channels,
        };
        inner * self.elem.bytes()
    }
}

/// The kernel's `tma` argument for a launch with `maps`: the problem's spatial dimensions (2
/// or 3), which pick the im2col copy instruction.
pub fn tma_mode(maps: &[TensorMap; 2]) -> i64 {
    i64::from(maps[0].rank) - 2
}

fn to_u64(v: i64) -> Option<u64> {
    u64::try_from(v).ok()
}

/// The byte stride of an element stride: a positive multiple of 16 bytes.
fn byte_stride(elem: Elem, elems: i64) -> Option<u64> {
    let bytes = to_u64(elems.checked_mul(i64::from(elem.bytes()))?)?;
    (bytes > 0 && bytes.is_multiple_of(16)).then_some(bytes)
}

/// The im2col map of a channels-last image `[N][D][H][W][G * ch]` (channel stride 1, groups
/// adjacent) read by a window of `taps` (X, Y, Z) taps at `dilation`, stepped by `stride` from
/// `-pad`, with `outs` (Wo, Ho, Do) window positions along each dimension. `spatial` is 2 for
/// a 2-D problem (D and its sizes unused) or 3.
struct Image {
    address: u64,
    channels: i64,
    spatial: usize,
    /// W, H, D, N.
    size: [i64; 4],
    strides: [i64; 4],
    taps: [i64; 3],
    stride: [i64; 3],
    dilation: [i64; 3],
    pad: [i64; 3],
    outs: [i64; 3],
}

impl Image {
    /// An image walked pixel by pixel: read through a 1x1 window, every pixel a window origin.
    fn pixels(
        address: u64,
        channels: i64,
        spatial: usize,
        size: [i64; 4],
        strides: [i64; 4],
    ) -> Image {
        Image {
            address,
            channels,
            spatial,
            size,
            strides,
            taps: [1; 3],
            stride: [1; 3],
            dilation: [1; 3],
            pad: [0; 3],
            outs: [size[0], size[1], size[2]],
        }
    }

    /// The map of boxes of `channels` channels (a line or half of one) by `pixels` pixels.
    fn map(&self, elem: Elem, channels: u32, pixels: u32) -> Option<TensorMap> {
        let sp = self.spatial;
        let corner = if sp == 2 { CORNER_4D } else { CORNER_5D };
        let mut dims = [1u64; 5];
        let mut strides = [0u64; 4];
        let mut element_strides = [1u32; 5];
        let mut lower = [0i32; 3];
        let mut upper = [0i32; 3];
        dims[0] = to_u64(self.channels)?;
        for d in 0..sp {
            if !(1..=MAX_TRAVERSAL).contains(&self.stride[d]) {
                return None;
            }
            // The window origins are lower, lower + stride, ..., exactly `outs` of them: the
            // upper corner ends the walk one past the last (asymmetric padding included).
            let lo = -self.pad[d];
            let last = lo + (self.outs[d] - 1) * self.stride[d];
            let up = last + 1 - self.size[d];
            let reach = (self.taps[d] - 1) * self.dilation[d];
            if !corner.contains(&lo) || !corner.contains(&up) || !corner.contains(&reach) {
                return None;
            }
            lower[d] = lo as i32;
            upper[d] = up as i32;
            dims[d + 1] = to_u64(self.size[d])?;
            strides[d] = byte_stride(elem, self.strides[d])?;
            element_strides[d + 1] = self.stride[d] as u32;
        }
        // The batch dimension follows the spatial ones.
        dims[sp + 1] = to_u64(self.size[3])?;
        strides[sp] = byte_stride(elem, self.strides[3])?;
        Some(TensorMap {
            elem,
            address: self.address,
            rank: sp as u32 + 2,
            dims,
            strides,
            element_strides,
            kind: MapKind::Im2col {
                lower,
                upper,
                channels,
                pixels,
            },
        })
    }
}

/// The A and B maps of one launch (`args` with its buffer addresses), or `None` where the
/// problem does not fit them and the kernel copies with `cp.async`: a `tma_box` neither a line
/// ([`box_channels`]) nor half of one, channels per group not whole boxes (the input's for
/// forward, in K boxes, and for backward weight, in lines; the output gradient's for backward
/// data, in K boxes; one-group 1x1 forward and backward data excepted), operands
/// not channels-last with adjacent groups, strides or addresses not 16-byte aligned, windows
/// past the maps' corner range.
pub fn tensor_maps(kernel: TmaKernel, a: &CkArgs) -> Option<[TensorMap; 2]> {
    let TmaKernel {
        op,
        elem,
        tile,
        weights_transposed,
    } = kernel;
    let spatial = if a.Z == 1 && a.Di == 1 && a.Do == 1 {
        2
    } else {
        3
    };
    let aligned = [a.x, a.w, a.y].iter().all(|p| p.is_multiple_of(16));
    // The K-major boxes: a line of channels or half of one (the plan's `tma_box`).
    let line = box_channels(elem);
    let kb = [line, line / 2]
        .into_iter()
        .find(|&b| i64::from(b) == a.tma_box)?;
    // A GEMM-K of one tap's channels of one group (a 1x1 filter) ends at the maps' zero fill:
    // its last K-tile's boxes read zeros past the last channel on both operands, so the
    // channels need not be whole boxes.
    let one_tap = a.X * a.Y * a.Z == 1 && a.G == 1;
    let boxes = |ch: i64| ch % i64::from(line) == 0;
    let whole = |ch: i64| one_tap || ch % i64::from(kb) == 0;
    // The input's boxes cut GEMM-K (forward) or GEMM-N (backward weight) into whole taps;
    // backward data never reads the input, and its weight boxes zero-fill past the last
    // input channel (GEMM-N), whose columns the epilogue does not store.
    let input_whole = match op {
        Op::Fwd => whole(a.C),
        Op::BwdWeight => boxes(a.C),
        Op::BwdData => true,
    };
    if !aligned || !input_whole {
        return None;
    }
    let packed_groups = |stride_g: i64, ch: i64| a.G == 1 || stride_g == ch;
    let input = Image {
        address: a.x,
        channels: a.G * a.C,
        spatial,
        size: [a.Wi, a.Hi, a.Di, a.N],
        strides: [a.xs_w, a.xs_h, a.xs_d, a.xs_n],
        taps: [a.X, a.Y, a.Z],
        stride: [a.sw, a.sh, a.sd],
        dilation: [a.dw, a.dh, a.dd],
        pad: [a.pw, a.ph, a.pd],
        outs: [a.Wo, a.Ho, a.Do],
    };
    if a.xs_c != 1 || !packed_groups(a.xs_g, a.C) {
        return None;
    }
    let [m, n, k] = tile;
    match op {
        Op::Fwd => {
            // Weights as a matrix: G * K filters of Z * Y * X * C contiguous (tap, channel)
            // columns.
            let columns = a.Z * a.Y * a.X * a.C;
            let contiguous = a.ws_c == 1
                && a.ws_x == a.C
                && a.ws_y == a.X * a.C
                && (a.Z == 1 || a.ws_z == a.Y * a.X * a.C);
            if !contiguous || !packed_groups(a.ws_g, a.K * a.ws_k) {
                return None;
            }
            let weights = TensorMap {
                elem,
                address: a.w,
                rank: 2,
                dims: [to_u64(columns)?, to_u64(a.G * a.K)?, 1, 1, 1],
                strides: [byte_stride(elem, a.ws_k)?, 0, 0, 0],
                element_strides: [1; 5],
                kind: MapKind::Tiled {
                    box_dims: [kb, n, 1, 1, 1],
                },
            };
            Some([input.map(elem, kb, m)?, weights])
        }
        Op::BwdWeight => {
            // The output gradient, pixel by pixel.
            if a.ys_k != 1 || !packed_groups(a.ys_g, a.K) {
                return None;
            }
            let grad = Image::pixels(
                a.y,
                a.G * a.K,
                spatial,
                [a.Wo, a.Ho, a.Do, a.N],
                [a.ys_w, a.ys_h, a.ys_d, a.ys_n],
            );
            Some([grad.map(elem, line, k)?, input.map(elem, line, k)?])
        }
        Op::BwdData => {
            // Unit strides (a strided problem's stride phases have them), the output channels
            // in whole boxes, padded to them (k_radix) or of one tap, where the zero fill past
            // the last channel pads them (one group).
            let unit = [a.sw, a.sh, a.sd].iter().all(|&s| s == 1);
            let k_boxes = whole(a.k_radix) && (a.G == 1 || a.K == a.k_radix);
            if !unit || !k_boxes || a.ys_k != 1 || !packed_groups(a.ys_g, a.K) {
                return None;
            }
            // Input pixel i reads output pixel i + pad - t * dilation through tap t: the window
            // of origin i - ((taps - 1) * dilation - pad), at offset (taps - 1 - t) * dilation
            // (which the kernel passes), over every input pixel.
            let turned = |taps: i64, dilation: i64, pad: i64| (taps - 1) * dilation - pad;
            let grad = Image {
                address: a.y,
                channels: a.G * a.K,
                spatial,
                size: [a.Wo, a.Ho, a.Do, a.N],
                strides: [a.ys_w, a.ys_h, a.ys_d, a.ys_n],
                taps: [a.X, a.Y, a.Z],
                stride: [1; 3],
                dilation: [a.dw, a.dh, a.dd],
                pad: [
                    turned(a.X, a.dw, a.pw),
                    turned(a.Y, a.dh, a.ph),
                    turned(a.Z, a.dd, a.pd),
                ],
                outs: [a.Wi, a.Hi, a.Di],
            };
            let weights = weights_by_tap(elem, spatial, weights_transposed, [kb, n], a)?;
            Some([grad.map(elem, kb, m)?, weights])
        }
    }
}

/// The backward-data weights as boxes of one tap, a rank-5 tiled map: the caller's weights
/// (input channels innermost) as (C, X, Y, K, G) for 2-D problems and (C, X, Y, Z, K) for 3-D
/// ones of one group (a sixth dimension is past the maps' rank), a box one line of input
/// channels by `kb` output channels (the K box); their transposed copy (output channels
/// innermost) as (K, X, Y, C, G) or (K, X, Y, Z, C), a box `kb` output channels by the tile's
/// `n` input channels. Channels past the innermost count (a padded radix) are the zero fill.
fn weights_by_tap(
    elem: Elem,
    spatial: usize,
    transposed: bool,
    [kb, n]: [u32; 2],
    a: &CkArgs,
) -> Option<TensorMap> {
    let ((inner, inner_stride), (rows, row_stride), [box_inner, box_rows]) = if transposed {
        ((a.K, a.ws_k), (a.C, a.ws_c), [kb, n])
    } else {
        ((a.C, a.ws_c), (a.K, a.ws_k), [box_channels(elem), kb])
    };
    if inner_stride != 1 || (spatial == 3 && a.G != 1) {
        return None;
    }
    let (dims, strides, row_dim) = if spatial == 2 {
        (
            [inner, a.X, a.Y, rows, a.G],
            [a.ws_x, a.ws_y, row_stride, a.ws_g],
            3,
        )
    } else {
        (
            [inner, a.X, a.Y, a.Z, rows],
            [a.ws_x, a.ws_y, a.ws_z, row_stride],
            4,
        )
    };
    tap_map(elem, a.w, dims, strides, row_dim, [box_inner, box_rows])
}

/// A rank-5 tiled map over `dims` (innermost first, element `strides` of dimensions 1..) whose
/// box is `inner` elements of dimension 0 by `rows` of dimension `row_dim`.
fn tap_map(
    elem: Elem,
    address: u64,
    dims: [i64; 5],
    strides: [i64; 4],
    row_dim: usize,
    [inner, rows]: [u32; 2],
) -> Option<TensorMap> {
    if rows > MAX_BOX {
        return None;
    }
    let mut box_dims = [1; 5];
    box_dims[0] = inner;
    box_dims[row_dim] = rows;
    let mut map = TensorMap {
        elem,
        address,
        rank: 5,
        dims: [0; 5],
        strides: [0; 4],
        element_strides: [1; 5],
        kind: MapKind::Tiled { box_dims },
    };
    for (d, v) in map.dims.iter_mut().zip(dims) {
        *d = to_u64(v)?;
    }
    for (s, v) in map.strides.iter_mut().zip(strides) {
        *s = byte_stride(elem, v)?;
    }
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The maps of a kernel that reads the caller's weights.
    fn maps(op: Op, elem: Elem, tile: [u32; 3], a: &CkArgs) -> Option<[TensorMap; 2]> {
        let kernel = TmaKernel {
            op,
            elem,
            tile,
            weights_transposed: false,
        };
        tensor_maps(kernel, a)
    }

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
            k_radix: k,
            tma_box: 64,
            ..CkArgs::default()
        }
    }

    #[test]
    fn tiles_with_whole_boxes_get_the_tma_path() {
        let (k_major, mn_major) = (operand(false), operand(true));
        assert!(tma_tile(Op::Fwd, [&k_major, &k_major], [128, 128, 64]));
        assert!(!tma_tile(Op::Fwd, [&k_major, &k_major], [128, 128, 32]));
        let bwd_weight = |tile| tma_tile(Op::BwdWeight, [&mn_major, &mn_major], tile);
        assert!(bwd_weight([64, 128, 64]));
        assert!(!bwd_weight([64, 128, 32]));
        assert!(!bwd_weight([64, 96, 64]));
        assert!(!tma_tile(Op::Fwd, [&k_major, &k_major], [64, 48, 64]));
        let bwd_data = |tile| tma_tile(Op::BwdData, [&k_major, &mn_major], tile);
        assert!(bwd_data([128, 256, 64]));
        assert!(!bwd_data([128, 128, 32]));
        assert!(!bwd_data([128, 48, 64]));
    }

    #[test]
    fn forward_maps_walk_the_output_pixels_through_the_padded_window() {
        let [x, w] = maps(Op::Fwd, Elem::F16, [128, 64, 64], &args(2)).unwrap();
        assert_eq!((x.rank, x.dims), (4, [128, 7, 9, 2, 1]));
        assert_eq!(x.strides, [256, 7 * 256, 63 * 256, 0]);
        assert_eq!(x.element_strides, [1, 2, 2, 1, 1]);
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
            ([-1, -1, 0], [-1, -1, 0], 64, 128)
        );
        assert_eq!(w.dims[..2], [9 * 64, 256]);
        assert_eq!(w.strides[0], 9 * 64 * 2);
        assert_eq!(
            w.kind,
            MapKind::Tiled {
                box_dims: [64, 64, 1, 1, 1]
            }
        );
    }

    /// 16-bit maps of half-line K boxes: A's im2col boxes of 32 channels in 64-byte swizzle
    /// spans, B's tiled box `b_box` in spans of `b_swizzle` bytes.
    fn assert_half_boxes([a, b]: &[TensorMap; 2], b_box: [u32; 5], b_swizzle: u32) {
        assert!(matches!(a.kind, MapKind::Im2col { channels: 32, .. }));
        assert_eq!(b.kind, MapKind::Tiled { box_dims: b_box });
        assert_eq!((a.swizzle_bytes(), b.swizzle_bytes()), (64, b_swizzle));
    }

    #[test]
    fn fp32_maps_take_32_channel_boxes_and_4_byte_strides() {
        // tf32 forward: 64 channels are two boxes of one 128-byte line each.
        let f32_args = |mut a: CkArgs| {
            a.tma_box = 32;
            a
        };
        let [x, w] = maps(Op::Fwd, Elem::F32, [128, 64, 32], &f32_args(args(2))).unwrap();
        assert_eq!(x.strides, [512, 7 * 512, 63 * 512, 0]);
        let MapKind::Im2col { channels, .. } = x.kind else {
            panic!("{x:?}")
        };
        assert_eq!(channels, 32);
        assert_eq!(w.strides[0], 9 * 64 * 4);
        assert_eq!(
            w.kind,
            MapKind::Tiled {
                box_dims: [32, 64, 1, 1, 1]
            }
        );
        // 32 input channels are one fp32 box but half a 16-bit one: 16-bit maps take them in
        // half-line boxes (64 bytes, 64-byte swizzle) where the plan asks for those.
        let mut a = args(1);
        a.C = 32;
        (a.xs_g, a.xs_w, a.xs_h, a.xs_n) = (32, 32, 7 * 32, 63 * 32);
        (a.ws_x, a.ws_y, a.ws_k, a.ws_g) = (32, 3 * 32, 9 * 32, 128 * 9 * 32);
        assert!(maps(Op::Fwd, Elem::F16, [128, 64, 64], &a).is_none());
        assert!(maps(Op::Fwd, Elem::F32, [128, 64, 32], &f32_args(a)).is_some());
        a.tma_box = 32;
        let fwd = maps(Op::Fwd, Elem::F16, [128, 64, 64], &a).unwrap();
        assert_half_boxes(&fwd, [32, 64, 1, 1, 1], 64);
        // Boxes of neither a line nor half of one have no stage layout.
        a.tma_box = 16;
        assert!(maps(Op::Fwd, Elem::F16, [128, 64, 64], &a).is_none());
        // The fp32 tiles that copy through maps: forward, both operands K-major, 32 deep.
        let f32_k = OperandCfg {
            elem: Elem::F32,
            vector: 4,
            ..operand(false)
        };
        assert!(tma_tile(Op::Fwd, [&f32_k, &f32_k], [128, 128, 32]));
        assert!(!tma_tile(Op::Fwd, [&f32_k, &f32_k], [128, 128, 16]));
    }

    #[test]
    fn backward_weight_maps_walk_the_k_tile_pixels() {
        let [dy, x] = maps(Op::BwdWeight, Elem::Bf16, [128, 128, 64], &args(1)).unwrap();
        assert_eq!(dy.dims, [128, 4, 5, 2, 1]);
        assert_eq!(
            dy.kind,
            MapKind::Im2col {
                lower: [0; 3],
                upper: [0; 3],
                channels: 64,
                pixels: 64
            }
        );
        assert_eq!(dy.element_strides, [1; 5]);
        assert!(matches!(x.kind, MapKind::Im2col { pixels: 64, .. }));
    }

    /// A unit-stride problem as backward data plans one stride phase of the 2-D problem: every
    /// other filter tap (2x2) with pad 1 on a 5x4 view of the input, the weights' tap strides
    /// doubled.
    fn phase() -> CkArgs {
        let mut a = args(2);
        (a.sh, a.sw, a.Y, a.X, a.Hi, a.Wi) = (1, 1, 2, 2, 5, 4);
        (a.ws_x, a.ws_y) = (2 * a.ws_x, 2 * a.ws_y);
        a
    }

    #[test]
    fn backward_data_maps_turn_the_window_around() {
        let [dy, w] = maps(Op::BwdData, Elem::F16, [128, 128, 64], &phase()).unwrap();
        // dY: Wo 4 x Ho 5 of 2 * 128 channels; input pixel i reads output pixels i + 1 - t
        // (t = 0, 1): origins i - 0 over the 4 input columns and 5 rows.
        assert_eq!((dy.rank, dy.dims), (4, [256, 4, 5, 2, 1]));
        assert_eq!(dy.element_strides, [1; 5]);
        let MapKind::Im2col { lower, upper, .. } = dy.kind else {
            panic!("{dy:?}")
        };
        assert_eq!((lower, upper), ([0, 0, 0], [0, 0, 0]));
        // Weights (C, X, Y, K, G): 64 input channels by 64 output channels of one tap.
        assert_eq!((w.rank, w.dims), (5, [64, 2, 2, 128, 2]));
        assert_eq!(w.strides, [256, 768, 9 * 128, 128 * 9 * 128]);
        assert_eq!(
            w.kind,
            MapKind::Tiled {
                box_dims: [64, 1, 1, 64, 1]
            }
        );
        // Strides the phases did not take out, output channels past whole boxes.
        let mut a = phase();
        a.sw = 2;
        assert!(maps(Op::BwdData, Elem::F16, [128, 128, 64], &a).is_none());
        let mut a = phase();
        (a.K, a.ys_g, a.k_radix) = (96, 96, 96);
        assert!(maps(Op::BwdData, Elem::F16, [128, 128, 64], &a).is_none());
        // Padded to whole boxes: the zero fill past channel 96 pads the last box of one
        // group, but would read the next group's channels.
        a.k_radix = 128;
        assert!(maps(Op::BwdData, Elem::F16, [128, 128, 64], &a).is_none());
        a.G = 1;
        assert!(maps(Op::BwdData, Elem::F16, [128, 128, 64], &a).is_some());
        // 96 output channels are three whole half-line boxes: groups need no padding; the
        // weight boxes are a line of input channels by 32 output channels.
        let mut a = phase();
        (a.K, a.ys_g, a.k_radix, a.tma_box) = (96, 96, 96, 32);
        let bwd = maps(Op::BwdData, Elem::F16, [128, 128, 64], &a).unwrap();
        assert_half_boxes(&bwd, [64, 1, 1, 32, 1], 128);
        // Input channels (GEMM-N) off whole boxes: the weight boxes zero-fill past channel 40
        // of each group; forward and backward weight cut their input into whole boxes.
        let mut a = phase();
        (a.C, a.xs_g, a.ws_x) = (40, 40, 40);
        (a.ws_y, a.ws_k, a.ws_g) = (80, 160, 128 * 160);
        let [_, w] = maps(Op::BwdData, Elem::F16, [128, 128, 64], &a).unwrap();
        assert_eq!(w.dims, [40, 2, 2, 128, 2]);
        assert_eq!(w.strides, [80, 160, 320, 128 * 320]);
        assert!(maps(Op::Fwd, Elem::F16, [128, 128, 64], &a).is_none());
        assert!(maps(Op::BwdWeight, Elem::F16, [128, 128, 64], &a).is_none());
    }

    #[test]
    fn one_tap_channels_end_at_the_zero_fill() {
        // A 1x1 filter over one group of 80 channels (C and K): its last K-tile reads
        // channels 64..128 of both operands, zeros past channel 80.
        let mut a = args(1);
        (a.C, a.K, a.k_radix, a.Y, a.X, a.ph, a.pw) = (80, 80, 80, 1, 1, 0, 0);
        (a.xs_g, a.xs_w, a.xs_h, a.xs_n) = (80, 80, 7 * 80, 63 * 80);
        (a.ws_x, a.ws_y, a.ws_k, a.ws_g) = (80, 80, 80, 80 * 80);
        (a.Ho, a.Wo) = (5, 4);
        (a.ys_g, a.ys_w, a.ys_h, a.ys_n) = (80, 80, 4 * 80, 20 * 80);
        let [x, w] = maps(Op::Fwd, Elem::F16, [128, 64, 64], &a).unwrap();
        assert_eq!((x.dims[0], w.dims[0]), (80, 80));
        (a.sh, a.sw, a.Hi, a.Wi) = (1, 1, 5, 4);
        (a.xs_h, a.xs_n) = (4 * 80, 20 * 80);
        let [dy, w] = maps(Op::BwdData, Elem::F16, [128, 64, 64], &a).unwrap();
        assert_eq!((dy.dims[0], w.dims[3]), (80, 80));
        // Backward weight cuts GEMM-N into whole boxes of the input's channels.
        assert!(maps(Op::BwdWeight, Elem::F16, [128, 128, 64], &a).is_none());
        // Groups: the fill would read the next group's channels.
        a.G = 2;
        (a.xs_w, a.ws_g, a.ys_w) = (160, 80 * 80, 160);
        (a.xs_h, a.xs_n, a.ys_h, a.ys_n) = (4 * 160, 20 * 160, 4 * 160, 20 * 160);
        assert!(maps(Op::Fwd, Elem::F16, [128, 64, 64], &a).is_none());
        assert!(maps(Op::BwdData, Elem::F16, [128, 64, 64], &a).is_none());
        // Two taps: a box would span them.
        let mut a = args(1);
        (a.C, a.X, a.xs_g, a.xs_w, a.ws_x) = (80, 2, 80, 80, 80);
        (a.xs_h, a.xs_n, a.ws_y, a.ws_k) = (7 * 80, 63 * 80, 160, 480);
        assert!(maps(Op::Fwd, Elem::F16, [128, 64, 64], &a).is_none());
    }

    #[test]
    fn transposed_backward_data_weights_take_k_major_boxes() {
        // The phase over the weights' transposed copy [G][C][Y][X][K] (fp32): K innermost, the
        // phase's tap strides doubled.
        let mut a = phase();
        a.tma_box = 32;
        let (k, c) = (a.K, a.C);
        (a.ws_k, a.ws_x, a.ws_y) = (1, 2 * k, 2 * 3 * k);
        (a.ws_c, a.ws_g) = (9 * k, c * 9 * k);
        let kernel = TmaKernel {
            op: Op::BwdData,
            elem: Elem::F32,
            tile: [128, 128, 32],
            weights_transposed: true,
        };
        let [dy, w] = tensor_maps(kernel, &a).unwrap();
        assert!(matches!(dy.kind, MapKind::Im2col { channels: 32, .. }));
        // (K, X, Y, C, G): one 32-channel line of K by the tile's 128 input channels.
        assert_eq!((w.rank, w.dims), (5, [128, 2, 2, 64, 2]));
        assert_eq!(
            w.strides,
            [2 * 128 * 4, 6 * 128 * 4, 9 * 128 * 4, 64 * 9 * 128 * 4]
        );
        assert_eq!(
            w.kind,
            MapKind::Tiled {
                box_dims: [32, 1, 1, 128, 1]
            }
        );
        // The caller's weights (C innermost) are not K-major.
        let mut caller = phase();
        caller.tma_box = 32;
        assert!(tensor_maps(kernel, &caller).is_none());
        // Tiles wider than a box's 256 rows.
        let wide = TmaKernel {
            tile: [128, 512, 32],
            ..kernel
        };
        assert!(tensor_maps(wide, &a).is_none());
        // The TMA tiles: both operands K-major, one line deep, whole 64-row columns.
        let f32_k = OperandCfg {
            elem: Elem::F32,
            vector: 4,
            ..operand(false)
        };
        let tile = |t| tma_tile(Op::BwdData, [&f32_k, &f32_k], t);
        assert!(tile([256, 128, 32]) && tile([128, 256, 32]) && tile([64, 64, 32]));
        assert!(!tile([128, 128, 16]) && !tile([128, 96, 32]));
    }

    /// The 2-D problem with a depth of 4 and a 3-deep filter, padded 1.
    fn three_d() -> CkArgs {
        let mut a = args(1);
        a.Di = 4;
        a.Do = 4;
        a.Z = 3;
        a.pd = 1;
        a.xs_d = a.xs_h * a.Hi;
        a.xs_n = a.xs_d * 4;
        a.ys_d = a.ys_h * a.Ho;
        a.ys_n = a.ys_d * 4;
        a.ws_z = a.ws_y * 3;
        a.ws_k = a.ws_z * 3;
        a
    }

    #[test]
    fn three_d_problems_take_rank_5_maps() {
        let [x, w] = maps(Op::Fwd, Elem::F16, [128, 64, 64], &three_d()).unwrap();
        assert_eq!((x.rank, x.dims), (5, [64, 7, 9, 4, 2]));
        assert_eq!(x.element_strides, [1, 2, 2, 1, 1]);
        let MapKind::Im2col { lower, upper, .. } = x.kind else {
            panic!("{x:?}")
        };
        assert_eq!((lower, upper), ([-1, -1, -1], [-1, -1, -1]));
        assert_eq!(w.dims[0], 27 * 64);
        assert_eq!(tma_mode(&[x, w]), 3);
    }

    #[test]
    fn problems_the_maps_cannot_describe_copy_with_cp_async() {
        let tile = [128, 128, 64];
        let mut a = args(1);
        a.C = 48;
        assert!(maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        let mut a = args(2);
        a.xs_g = 1;
        a.xs_c = 2;
        assert!(maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        let mut a = args(1);
        a.x += 8;
        assert!(maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        // A 3-D window reaching past the rank-5 corner range.
        let mut a = three_d();
        a.pd = 17;
        assert!(maps(Op::BwdWeight, Elem::F16, tile, &a).is_none());
        let mut a = args(1);
        a.pw = 200;
        assert!(maps(Op::Fwd, Elem::F16, tile, &a).is_none());
        // Backward data of more than one group in 3-D: the weights would need six dimensions.
        let mut a = three_d();
        (a.sh, a.sw, a.G) = (1, 1, 2);
        assert!(maps(Op::BwdData, Elem::F16, tile, &a).is_none());
        a.G = 1;
        assert!(maps(Op::BwdData, Elem::F16, tile, &a).is_some());
    }
}
