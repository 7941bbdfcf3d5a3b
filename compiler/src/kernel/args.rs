//! The kernel argument block: one C struct passed by value to every entry point. The field list
//! lives only here; the C declaration and the host byte image are both generated from it.

/// Declares [`CkArgs`], its C declaration and its byte image. Every field is 8 bytes, so the
/// struct has no padding and its layout is the same for clang HIP, NVRTC and the host.
macro_rules! ck_args {
    ($($(#[$doc:meta])* $field:ident: $rty:ty => $cty:literal,)*) => {
        /// Values of the kernel argument block, in declaration order.
        #[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
        #[allow(non_snake_case)]
        pub struct CkArgs {
            $($(#[$doc])* pub $field: $rty,)*
        }

        impl CkArgs {
            /// `(C type, field name)` of every field, in order.
            pub const FIELDS: &'static [(&'static str, &'static str)] = &[$(($cty, stringify!($field)),)*];

            /// Size of the byte image.
            pub const BYTES: usize = Self::FIELDS.len() * 8;

            /// The little-endian byte image the kernel receives as its single parameter.
            pub fn to_bytes(&self) -> Vec<u8> {
                let mut out = Vec::with_capacity(Self::BYTES);
                $(out.extend_from_slice(&self.$field.to_le_bytes());)*
                out
            }
        }
    };
}

ck_args! {
    /// Device addresses of the input, weight and output tensors (by conv role, whatever the op).
    x: u64 => "void*",
    w: u64 => "void*",
    y: u64 => "void*",
    /// D tensor of binary output element-wise ops (output layout).
    d: u64 => "const void*",
    /// fp32 workspace: split-K slices `[slice][G][M][N]` or StreamK partial tiles.
    ws: u64 => "void*",
    /// StreamK fix-up flags, one `int` per SK block.
    flags: u64 => "void*",
    G: i64 => "ck_i64", N: i64 => "ck_i64", K: i64 => "ck_i64", C: i64 => "ck_i64",
    Di: i64 => "ck_i64", Hi: i64 => "ck_i64", Wi: i64 => "ck_i64",
    Z: i64 => "ck_i64", Y: i64 => "ck_i64", X: i64 => "ck_i64",
    Do: i64 => "ck_i64", Ho: i64 => "ck_i64", Wo: i64 => "ck_i64",
    sd: i64 => "ck_i64", sh: i64 => "ck_i64", sw: i64 => "ck_i64",
    dd: i64 => "ck_i64", dh: i64 => "ck_i64", dw: i64 => "ck_i64",
    pd: i64 => "ck_i64", ph: i64 => "ck_i64", pw: i64 => "ck_i64",
    /// Element strides of x (N, G, C, D, H, W), w (G, K, C, Z, Y, X) and y (N, G, K, D, H, W).
    xs_n: i64 => "ck_i64", xs_g: i64 => "ck_i64", xs_c: i64 => "ck_i64",
    xs_d: i64 => "ck_i64", xs_h: i64 => "ck_i64", xs_w: i64 => "ck_i64",
    ws_g: i64 => "ck_i64", ws_k: i64 => "ck_i64", ws_c: i64 => "ck_i64",
    ws_z: i64 => "ck_i64", ws_y: i64 => "ck_i64", ws_x: i64 => "ck_i64",
    ys_n: i64 => "ck_i64", ys_g: i64 => "ck_i64", ys_k: i64 => "ck_i64",
    ys_d: i64 => "ck_i64", ys_h: i64 => "ck_i64", ys_w: i64 => "ck_i64",
    /// Implicit GEMM sizes per group.
    M: i64 => "ck_i64", Ng: i64 => "ck_i64", Kg: i64 => "ck_i64",
    /// Backward data: the radix of GEMM-K's output-channel digit (Kg = taps * k_radix). K, or
    /// K rounded up to whole TMA boxes so that no K-tile spans two taps; digits past K read
    /// zeros.
    k_radix: i64 => "ck_i64",
    tiles_m: i64 => "ck_i64", tiles_n: i64 => "ck_i64",
    /// K-tiles per output tile and per split-K slice.
    k_iters: i64 => "ck_i64", split_iters: i64 => "ck_i64",
    /// StreamK: SK blocks, base iterations per SK block and the remainder spread over the first
    /// blocks; SK tiles come first, then the data-parallel tiles and their blocks.
    sk_blocks: i64 => "ck_i64", sk_iters: i64 => "ck_i64", sk_rem: i64 => "ck_i64",
    sk_tiles: i64 => "ck_i64", dp_tiles: i64 => "ck_i64", dp_blocks: i64 => "ck_i64",
    /// 1: tiles are added atomically into a zeroed fp32 target; `atomic_to_ws` picks the workspace.
    store_atomic: i64 => "ck_i64", atomic_to_ws: i64 => "ck_i64",
    /// 1: the operand's vectorised global loads are legal for this problem.
    vec_a: i64 => "ck_i64", vec_b: i64 => "ck_i64",
    /// 1: the output's offsets are linear in the GEMM index the epilogue would decompose (the
    /// pixel for forward and backward data, the (z, y, x, c) column for backward weight).
    lin_out: i64 => "ck_i64",
    /// 1: finished tiles go out through LDS in rows of 8 contiguous, aligned output elements.
    stage_out: i64 => "ck_i64",
    /// Slices of `[G][M][N]` fp32 sums in the workspace that the convert entry adds, and the
    /// thread sets of a convert workgroup that add them (each a strided subset of the slices).
    ws_slices: i64 => "ck_i64", convert_sets: i64 => "ck_i64",
    /// 1: each split-K slice stores its partial tiles into its workspace slice (no atomics).
    split_ws: i64 => "ck_i64",
    /// Split-K slices of a tile, one thread-block cluster, which add their partial tiles
    /// through distributed shared memory (sm_90; the launch's cluster size); 0 or 1: none.
    cluster: i64 => "ck_i64",
    /// 2 or 3 (the problem's spatial dimensions, which pick the im2col instruction): the
    /// operands are copied by the tensor-memory accelerator through the maps after the fields
    /// (sm_90a; see `tma.rs`); 0: by every thread with `cp.async`.
    tma: i64 => "ck_i64",
    /// Channels of the K-major boxes of the TMA copies: a 128-byte line (`BOX_CH`), or half of
    /// one (forward and backward data whose tap channels are whole half lines, not whole lines:
    /// 64-byte-swizzled stages). The M/N-major boxes are always a line.
    tma_box: i64 => "ck_i64",
    /// Small-channel entry: channels per group (1, 2, 4 or 8), destination pixels per block
    /// (the depthwise rows entries: output columns of a row segment, 0 for whole rows), and
    /// 8-channel vectors per block (tensor-core backward weight, forward and backward data).
    direct_ch: i64 => "ck_i64", direct_pixels: i64 => "ck_i64", direct_vecs: i64 => "ck_i64",
    /// Backward weight's tensor-core small-channel entry: output rows per chunk of a plane.
    direct_rows: i64 => "ck_i64",
    /// 1: the forward / backward-data small-channel entry runs on tensor cores (sm_80+).
    direct_mma: i64 => "ck_i64",
    /// 1: that entry runs depthwise strips (`ck_dconv_strip`): `direct_pixels` counts strips of
    /// `DCONV_STRIP` pixels of a row; 2: depthwise bands (`ck_dconv_band`) of `direct_rows`
    /// destination rows by `direct_pixels` strips; 3: strips over pairs of channels, the last
    /// vector's pairs past G masked (G even, not a multiple of 8).
    direct_strip: i64 => "ck_i64",
    /// Repack entry ([`RowMap`](super::RowMap)): `x` is a tensor and `y` its staged copy, rows
    /// of `rp_src` elements against rows of `rp_blocks` blocks of `rp_out` elements whose first
    /// `rp_in` are the row's elements from `b·rp_in − rp_shift` on; `rp_bytes` the element
    /// size (2 or 4); `rp_unpack` 1 copies the staged tensor back.
    rp_rows: i64 => "ck_i64", rp_src: i64 => "ck_i64", rp_blocks: i64 => "ck_i64",
    rp_in: i64 => "ck_i64", rp_out: i64 => "ck_i64", rp_shift: i64 => "ck_i64",
    rp_bytes: i64 => "ck_i64", rp_unpack: i64 => "ck_i64",
    /// Scale and Bilinear factors.
    alpha: f64 => "double", beta: f64 => "double",
}

/// Byte offset of the tensor maps in the image of a kernel with TMA copies: the fields, then
/// the maps on their 64-byte alignment.
pub const TMA_MAPS_OFFSET: usize = CkArgs::BYTES.div_ceil(64) * 64;
/// Bytes of one CUDA tensor map.
pub const TMA_MAP_BYTES: usize = 128;
/// Size of the largest argument image (with two maps). Launches pass this many bytes whatever
/// the kernel; a kernel reads only as many as its own struct has.
pub const IMAGE_BYTES: usize = TMA_MAPS_OFFSET + 2 * TMA_MAP_BYTES;

/// The C declaration of the argument block. Kernels with TMA copies (CK_TMA_TILE) end it, on
/// sm_90a, with the A and B operands' tensor maps, which the copies read from the parameter
/// space; other kernels keep the fields alone.
pub fn c_struct() -> String {
    let mut s = String::from("struct CkArgs {\n");
    for (ty, name) in CkArgs::FIELDS {
        s.push_str(&format!("    {ty} {name};\n"));
    }
    s.push_str(&format!(
        "#if defined(CK_WGMMA_ARCH) && CK_TMA_TILE\n    alignas(64) unsigned long long tma_map[2][{}];\n#endif\n",
        TMA_MAP_BYTES / 8
    ));
    s.push_str("};\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_image_has_one_slot_per_field_in_order() {
        let args = CkArgs {
            x: 0x1122,
            G: -3,
            beta: 2.5,
            ..CkArgs::default()
        };
        let bytes = args.to_bytes();
        assert_eq!(bytes.len(), CkArgs::FIELDS.len() * 8);
        assert_eq!(&bytes[..8], &0x1122u64.to_le_bytes());
        let g = CkArgs::FIELDS.iter().position(|f| f.1 == "G").unwrap();
        assert_eq!(&bytes[g * 8..g * 8 + 8], &(-3i64).to_le_bytes());
        assert_eq!(&bytes[bytes.len() - 8..], &2.5f64.to_le_bytes());
    }
}
