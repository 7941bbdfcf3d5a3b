//! Tensor descriptors: logical lengths and memory strides of the three convolution tensors in
//! every supported layout.
//!
//! Lengths are always in CK's logical order, whatever the memory order:
//! input `[G, N, C, spatial…]`, weight `[G, K, C, filter…]`, output `[G, N, K, spatial…]`
//! (spatial dimensions outermost first: D, H, W). The layout only decides the strides.

use ck_compiler::model::Layout;
use serde::{Deserialize, Serialize};

/// Which convolution tensor a layout describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Role {
    Input,
    Weight,
    Output,
}

impl Role {
    /// 0, 1 and 2 for the input, weight and output: their place in per-tensor arrays.
    pub fn index(self) -> usize {
        match self {
            Role::Input => 0,
            Role::Weight => 1,
            Role::Output => 2,
        }
    }
}

/// The roles of an op's implicit GEMM: its sources A and B, and its destination (fwd: input,
/// weight → output; bwd_data: output, weight → input; bwd_weight: output, input → weight).
pub fn gemm_roles(op: ck_compiler::model::Op) -> ([Role; 2], Role) {
    use ck_compiler::model::Op;
    match op {
        Op::Fwd => ([Role::Input, Role::Weight], Role::Output),
        Op::BwdData => ([Role::Output, Role::Weight], Role::Input),
        Op::BwdWeight => ([Role::Output, Role::Input], Role::Weight),
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Input => "input",
            Role::Weight => "weight",
            Role::Output => "output",
        })
    }
}

/// Memory order of a layout, outermost first, in terms of logical axes:
/// `0` = G, `1` = N (or K for weights), `2` = C (or K for outputs), `Spatial` = all spatial axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    G,
    Outer,
    Channel,
    Spatial,
}

/// Role, spatial rank and memory order of a convolution layout; `None` for non-conv layouts (`gc`).
fn describe(layout: Layout) -> Option<(Role, u32, [Axis; 4])> {
    use Axis::*;
    use Layout::*;
    // N…GC: N, spatial, G, C.   GN…C: G, N, spatial, C.   NGC…: N, G, C, spatial.
    let ngc_last = [Outer, Spatial, G, Channel];
    let g_first = [G, Outer, Spatial, Channel];
    let spatial_last = [Outer, G, Channel, Spatial];
    let weight_spatial_last = [G, Outer, Channel, Spatial];
    Some(match layout {
        Nwgc => (Role::Input, 1, ngc_last),
        Nhwgc => (Role::Input, 2, ngc_last),
        Ndhwgc => (Role::Input, 3, ngc_last),
        Gnwc => (Role::Input, 1, g_first),
        Gnhwc => (Role::Input, 2, g_first),
        Gndhwc => (Role::Input, 3, g_first),
        Ngcw => (Role::Input, 1, spatial_last),
        Ngchw => (Role::Input, 2, spatial_last),
        Ngcdhw => (Role::Input, 3, spatial_last),
        Gkxc => (Role::Weight, 1, g_first),
        Gkyxc => (Role::Weight, 2, g_first),
        Gkzyxc => (Role::Weight, 3, g_first),
        Gkcx => (Role::Weight, 1, weight_spatial_last),
        Gkcyx => (Role::Weight, 2, weight_spatial_last),
        Gkczyx => (Role::Weight, 3, weight_spatial_last),
        Nwgk => (Role::Output, 1, ngc_last),
        Nhwgk => (Role::Output, 2, ngc_last),
        Ndhwgk => (Role::Output, 3, ngc_last),
        Gnwk => (Role::Output, 1, g_first),
        Gnhwk => (Role::Output, 2, g_first),
        Gndhwk => (Role::Output, 3, g_first),
        Ngkw => (Role::Output, 1, spatial_last),
        Ngkhw => (Role::Output, 2, spatial_last),
        Ngkdhw => (Role::Output, 3, spatial_last),
        Gc | GK => return None,
    })
}

/// The role a layout describes, `None` for non-convolution layouts.
pub fn role(layout: Layout) -> Option<Role> {
    describe(layout).map(|(r, _, _)| r)
}

/// The number of spatial dimensions a layout describes, `None` for non-convolution layouts.
pub fn spatial_rank(layout: Layout) -> Option<u32> {
    describe(layout).map(|(_, n, _)| n)
}

/// The three layouts of one layout family (`nhwgc`, `gnhwc` or `ngchw` style) at a spatial rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum LayoutFamily {
    /// NHWGC / GKYXC / NHWGK (and 1D/3D analogues): channels last, groups interleaved.
    Nhwgc,
    /// GNHWC / GKYXC / GNHWK: groups outermost.
    Gnhwc,
    /// NGCHW / GKYXC / NGKHW: channels first.
    Ngchw,
}

impl LayoutFamily {
    /// `[input, weight, output]` layouts at spatial rank `ndim` (1, 2 or 3), `None` otherwise.
    pub fn layouts(self, ndim: u32) -> Option<[Layout; 3]> {
        use Layout::*;
        let i = ndim.checked_sub(1)? as usize;
        let weight = *[Gkxc, Gkyxc, Gkzyxc].get(i)?;
        let (input, output) = match self {
            LayoutFamily::Nhwgc => ([Nwgc, Nhwgc, Ndhwgc], [Nwgk, Nhwgk, Ndhwgk]),
            LayoutFamily::Gnhwc => ([Gnwc, Gnhwc, Gndhwc], [Gnwk, Gnhwk, Gndhwk]),
            LayoutFamily::Ngchw => ([Ngcw, Ngchw, Ngcdhw], [Ngkw, Ngkhw, Ngkdhw]),
        };
        Some([input[i], weight, output[i]])
    }

    /// The family an input layout belongs to, with its spatial rank.
    pub fn of_input(layout: Layout) -> Option<(LayoutFamily, u32)> {
        let (role, ndim, _) = describe(layout)?;
        if role != Role::Input {
            return None;
        }
        [
            LayoutFamily::Nhwgc,
            LayoutFamily::Gnhwc,
            LayoutFamily::Ngchw,
        ]
        .into_iter()
        .find(|f| f.layouts(ndim).is_some_and(|l| l[0] == layout))
        .map(|f| (f, ndim))
    }
}

/// Lengths (logical order) and strides (elements) of one tensor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorDesc {
    pub layout: Layout,
    /// `[G, N|K, C|K, spatial…]`
    pub lengths: Vec<u64>,
    /// Stride of each logical axis, in elements.
    pub strides: Vec<u64>,
}

/// Why a descriptor cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DescError {
    #[error("layout {layout} is not a {role} layout")]
    WrongRole { layout: Layout, role: Role },
    #[error("layout {layout} has {have} spatial dimensions, the tensor has {want}")]
    WrongRank {
        layout: Layout,
        have: u32,
        want: usize,
    },
    #[error("{role} tensor of lengths {lengths:?} has more elements than memory can address")]
    Overflow { role: Role, lengths: Vec<u64> },
}

impl TensorDesc {
    /// A `G_K` tensor: one value per group and channel, `[G, K]`, channels innermost.
    pub fn per_group_channel([g, k]: [u64; 2]) -> TensorDesc {
        TensorDesc {
            layout: Layout::GK,
            lengths: vec![g, k],
            strides: vec![k, 1],
        }
    }

    /// Packed strides of `layout` for logical `lengths` (`[G, outer, channel, spatial…]`).
    pub fn packed(role: Role, layout: Layout, lengths: &[u64]) -> Result<TensorDesc, DescError> {
        let (have_role, rank, order) =
            describe(layout).ok_or(DescError::WrongRole { layout, role })?;
        if have_role != role {
            return Err(DescError::WrongRole { layout, role });
        }
        if lengths.len() != 3 + rank as usize {
            return Err(DescError::WrongRank {
                layout,
                have: rank,
                want: lengths.len().saturating_sub(3),
            });
        }
        let overflow = || DescError::Overflow {
            role,
            lengths: lengths.to_vec(),
        };
        // Memory order as logical axis indices, outermost first.
        let mut memory = Vec::with_capacity(lengths.len());
        for axis in order {
            match axis {
                Axis::G => memory.push(0),
                Axis::Outer => memory.push(1),
                Axis::Channel => memory.push(2),
                Axis::Spatial => memory.extend(3..lengths.len()),
            }
        }
        let mut strides = vec![0; lengths.len()];
        let mut stride: u64 = 1;
        for &axis in memory.iter().rev() {
            strides[axis] = stride;
            stride = stride.checked_mul(lengths[axis]).ok_or_else(overflow)?;
        }
        // Offsets are computed in `usize` and buffers are indexed by `isize`-bounded slices.
        if stride > isize::MAX as u64 / 8 {
            return Err(overflow());
        }
        Ok(TensorDesc {
            layout,
            lengths: lengths.to_vec(),
            strides,
        })
    }

    /// Number of elements.
    pub fn elements(&self) -> u64 {
        self.lengths.iter().product()
    }

    /// Storage offset of a logical index (`[g, outer, channel, spatial…]`).
    pub fn offset(&self, index: &[u64]) -> u64 {
        index.iter().zip(&self.strides).map(|(i, s)| i * s).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_follow_memory_order() {
        // input G=2, N=3, C=4, H=5, W=6
        let l = [2, 3, 4, 5, 6];
        let d = TensorDesc::packed(Role::Input, Layout::Nhwgc, &l).unwrap();
        assert_eq!(d.strides, vec![4, 5 * 6 * 2 * 4, 1, 6 * 2 * 4, 2 * 4]);
        let d = TensorDesc::packed(Role::Input, Layout::Gnhwc, &l).unwrap();
        assert_eq!(d.strides, vec![3 * 5 * 6 * 4, 5 * 6 * 4, 1, 6 * 4, 4]);
        let d = TensorDesc::packed(Role::Input, Layout::Ngchw, &l).unwrap();
        assert_eq!(d.strides, vec![4 * 30, 2 * 4 * 30, 30, 6, 1]);
        let d = TensorDesc::packed(Role::Weight, Layout::Gkcyx, &l).unwrap();
        assert_eq!(d.strides, vec![3 * 4 * 30, 4 * 30, 30, 6, 1]);
        assert_eq!(d.elements(), 720);
    }

    #[test]
    fn rejects_wrong_role_rank_and_overflow() {
        assert!(matches!(
            TensorDesc::packed(Role::Weight, Layout::Nhwgc, &[1, 1, 1, 1, 1]),
            Err(DescError::WrongRole { .. })
        ));
        assert!(matches!(
            TensorDesc::packed(Role::Input, Layout::Nhwgc, &[1, 1, 1, 1]),
            Err(DescError::WrongRank { .. })
        ));
        assert!(matches!(
            TensorDesc::packed(Role::Input, Layout::Nwgc, &[u64::MAX, 2, 1, 1]),
            Err(DescError::Overflow { .. })
        ));
    }

    #[test]
    fn families_round_trip() {
        for fam in [
            LayoutFamily::Nhwgc,
            LayoutFamily::Gnhwc,
            LayoutFamily::Ngchw,
        ] {
            for nd in 1..=3 {
                let [i, w, o] = fam.layouts(nd).unwrap();
                assert_eq!(LayoutFamily::of_input(i), Some((fam, nd)));
                assert_eq!(role(w), Some(Role::Weight));
                assert_eq!(spatial_rank(o), Some(nd));
            }
        }
        assert_eq!(LayoutFamily::Nhwgc.layouts(4), None);
    }
}
