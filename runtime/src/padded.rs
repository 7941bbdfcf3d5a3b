//! Problems padded for vector tiles. A channels-last problem whose channel count breaks an
//! instance's vector width (an RGB stem's 3 channels against loads of 8) runs on copies of its
//! tensors with the channels padded by zeros; where its last stride is above 1 the copies
//! first fold that stride into the channels ([`ConvProblem::folded`]), adding the zero taps
//! and pixels the fold needs. The zeros add nothing to any sum, so the padded problem computes
//! the caller's results; the GEMM reads and writes the copies through a plan's staged tensors
//! ([`RowMap`]).

use crate::layout::Role;
use crate::problem::ConvProblem;
use ck_compiler::kernel::RowMap;
use ck_compiler::model::Layout;

/// A problem as an instance runs it on padded copies of some of its tensors.
#[derive(Clone, Debug, PartialEq)]
pub struct Padded {
    /// The problem the GEMM computes.
    pub problem: ConvProblem,
    /// How the caller's input, weight and output lie in the padded problem's tensors; `None`
    /// where the tensor is used as it is.
    pub maps: [Option<RowMap>; 3],
}

impl Padded {
    /// Bytes the copies move: each staged tensor read and its copy written, or the reverse.
    pub fn copy_bytes(&self) -> u64 {
        self.bytes(|m| m.source_len().saturating_add(m.staged_len()))
    }

    /// Bytes of the copies themselves (what a run holds beside the caller's tensors).
    pub fn staged_bytes(&self) -> u64 {
        self.bytes(RowMap::staged_len)
    }

    /// `elements` of each copied tensor's map, in bytes of its type, summed.
    fn bytes(&self, elements: impl Fn(&RowMap) -> u64) -> u64 {
        [Role::Input, Role::Weight, Role::Output]
            .iter()
            .zip(&self.maps)
            .filter_map(|(&role, map)| {
                let bytes = self.problem.dtype_of(role).bytes() as u64;
                Some(elements(map.as_ref()?).saturating_mul(bytes))
            })
            .fold(0, u64::saturating_add)
    }

    /// How many tensors are copied.
    pub fn copies(&self) -> usize {
        self.maps.iter().flatten().count()
    }

    /// Whether these copies of `p` add zero groups and nothing else
    /// ([`ConvProblem::groups_padded`]).
    pub fn adds_groups_only(&self, p: &ConvProblem) -> bool {
        self.problem.g > p.g
            && ConvProblem {
                g: p.g,
                ..self.problem.clone()
            } == *p
    }

    /// Pads `K` to a multiple of `vk` with zero filters: a copy of the weights with whole
    /// filters added per group, and of the output with the channels padded. Where the weights
    /// already have a copy whose row is one group's filters ([`ConvProblem::padded`] of the
    /// channels alone), that copy takes the zero filters too; refused (`None`) where their copy
    /// folds a stride.
    fn pad_filters(&mut self, vk: u64, group_outer: bool) -> Option<()> {
        let q = &mut self.problem;
        let k = q.k.next_multiple_of(vk);
        if k == q.k {
            return Some(());
        }
        let taps = product(&q.filter)?;
        self.maps[1] = match self.maps[1] {
            None => {
                let filter = taps.checked_mul(q.c)?;
                map(q.g, q.k.checked_mul(filter)?, k, filter, filter, 0)
            }
            // Blocks of one tap's channels, a group a row: the added blocks lie past the row.
            Some(m) if m.rows == q.g && m.blocks == q.k.checked_mul(taps)? && m.out == q.c => {
                Some(RowMap {
                    blocks: k.checked_mul(taps)?,
                    ..m
                })
            }
            Some(_) => return None,
        };
        let pixels = q.n.checked_mul(product(&q.output())?)?;
        self.maps[2] = channels_map(pixels, q.g, q.k, k, group_outer)?;
        q.k = k;
        Some(())
    }
}

/// The map of rows of `blocks · inp` elements (less `shift`, clipped to `src`) into blocks of
/// `out`; `None` where the copy would be the tensor itself.
fn map(rows: u64, src: u64, blocks: u64, inp: u64, out: u64, shift: u64) -> Option<RowMap> {
    let m = RowMap {
        rows,
        src,
        blocks,
        inp,
        out,
        shift,
    };
    (!m.is_identity()).then_some(m)
}

/// The copy of a channels-last tensor of `pixels` pixels with the `ch` channels of each of its
/// `g` groups padded to `to`: a pixel holds every group's channels (NHWGC), or a row is one
/// group's pixel (GNHWC). `None` on overflow; `Some(None)` where nothing changes.
fn channels_map(
    pixels: u64,
    g: u64,
    ch: u64,
    to: u64,
    group_outer: bool,
) -> Option<Option<RowMap>> {
    Some(if group_outer {
        map(g.checked_mul(pixels)?, ch, 1, ch, to, 0)
    } else {
        map(pixels, g.checked_mul(ch)?, g, ch, to, 0)
    })
}

fn product(v: &[u64]) -> Option<u64> {
    v.iter().try_fold(1u64, |acc, &x| acc.checked_mul(x))
}

impl ConvProblem {
    /// The problem with its input channels `C` padded to a multiple of `vc` and its output
    /// channels `K` to a multiple of `vk`, on copies of the tensors that change; `None` where no
    /// copy would change anything, or where the tensors are not channels-last with the channels
    /// of one group together.
    ///
    /// Where `C` needs padding and the last spatial stride `s` is above 1 (dilation 1) and the
    /// input's pixels hold one group's channels, the copies fold `s` pixels into one first:
    /// zero taps in front of the filter make it and the left pad multiples of `s`, zero taps
    /// after it and zero pixels after the input make those multiples too, and the right pad
    /// keeps the output. A 7 × 7 stride-2 stem over 3 channels becomes a 7 × 4 filter over 8
    /// (6 of them data). `K` is padded with zero filters in the weights' copy (a 3-channel
    /// output against vectors of 8: 8 filters, 5 of them zeros, into a copy of the output whose
    /// first 3 channels are the result); a folded copy takes no zero filters, so where both
    /// need padding the stride stays and the channels alone are padded.
    pub fn padded(&self, vc: u64, vk: u64) -> Option<Padded> {
        use Layout::*;
        if vc == 0 || vk == 0 || self.validate().is_err() {
            return None;
        }
        let group_outer = match (self.layout.input, self.layout.output) {
            (Nwgc | Nhwgc | Ndhwgc, Nwgk | Nhwgk | Ndhwgk) => false,
            (Gnwc | Gnhwc | Gndhwc, Gnwk | Gnhwk | Gndhwk) => true,
            _ => return None,
        };
        if !matches!(self.layout.weight, Gkxc | Gkyxc | Gkzyxc) {
            return None;
        }
        let with_filters = |mut pd: Padded| pd.pad_filters(vk, group_outer).map(|()| pd);
        let padded = if self.c.is_multiple_of(vc) {
            with_filters(Padded {
                problem: self.clone(),
                maps: [None; 3],
            })
        } else {
            // A folded stride's weight copy takes no zero filters: then the channels alone.
            self.fold_padded(vc, group_outer)
                .and_then(with_filters)
                .or_else(|| self.channels_padded(vc, group_outer).and_then(with_filters))
        }?;
        let q = &padded.problem;
        let holds = padded.maps.iter().any(Option::is_some)
            && q.validate().is_ok()
            && q.output() == self.output();
        holds.then_some(padded)
    }

    /// The problem with its groups `G` padded to a multiple of `m` with zero groups, for
    /// instances that merge `m` groups into one tile: copies of the input and output whose
    /// pixels hold the zero groups' channels after the others', and of the weights with the zero
    /// groups' filters after the others'. `None` where `G` is already a multiple, or where the
    /// tensors are not channels-last with a pixel's groups together (NHWGC, GKYXC, NHWGK).
    pub fn groups_padded(&self, m: u64) -> Option<Padded> {
        use Layout::*;
        let channels_last = matches!(
            (self.layout.input, self.layout.weight, self.layout.output),
            (
                Nwgc | Nhwgc | Ndhwgc,
                Gkxc | Gkyxc | Gkzyxc,
                Nwgk | Nhwgk | Ndhwgk
            )
        );
        if m < 2 || self.g.is_multiple_of(m) || !channels_last || self.validate().is_err() {
            return None;
        }
        let g = self.g.checked_next_multiple_of(m)?;
        // A row of the source holds every group's elements; its copy has room for `g` groups.
        let rows = |rows: u64, per_group: u64| {
            let src = self.g.checked_mul(per_group)?;
            map(rows, src, 1, src, g.checked_mul(per_group)?, 0).map(Some)
        };
        let filter = self
            .k
            .checked_mul(product(&self.filter)?)?
            .checked_mul(self.c)?;
        let maps = [
            rows(self.n.checked_mul(product(&self.input)?)?, self.c)?,
            rows(1, filter)?,
            rows(self.n.checked_mul(product(&self.output())?)?, self.k)?,
        ];
        let problem = ConvProblem { g, ..self.clone() };
        problem
            .validate()
            .is_ok()
            .then_some(Padded { problem, maps })
    }

    /// [`Self::padded`] with the last stride folded into the channels.
    fn fold_padded(&self, v: u64, group_outer: bool) -> Option<Padded> {
        let last = self.ndim as usize - 1;
        let s = self.stride[last];
        if s < 2 || self.dilation[last] != 1 || !(group_outer || self.g == 1) {
            return None;
        }
        let (x, lp, w) = (self.filter[last], self.left_pad[last], self.input[last]);
        let front = (s - lp % s) % s;
        // Checked: a valid problem may have a stride near 2^64 (one output pixel), which no
        // fold serves.
        let taps = x.checked_add(front)?.checked_next_multiple_of(s)?;
        let width = w.checked_next_multiple_of(s)?;
        let out = self.output()[last];
        let left = lp.checked_add(front)?;
        // The right pad that keeps the output: (width + pads − taps) / s + 1 = out.
        let right = (out - 1)
            .checked_mul(s)?
            .checked_add(taps)?
            .checked_sub(width.checked_add(left)?)?;
        let mut wide = self.clone();
        wide.filter[last] = taps;
        wide.left_pad[last] = left;
        wide.input[last] = width;
        wide.right_pad[last] = right;
        let mut q = wide.folded()?;
        q.c = q.c.checked_next_multiple_of(v)?;
        let folded_c = s.checked_mul(self.c)?;
        let groups = if group_outer { self.g } else { 1 };
        let input_rows = groups
            .checked_mul(self.n)?
            .checked_mul(product(&self.input[..last])?)?;
        let weight_rows = self
            .g
            .checked_mul(self.k)?
            .checked_mul(product(&self.filter[..last])?)?;
        let maps = [
            map(input_rows, w * self.c, width / s, folded_c, q.c, 0),
            map(
                weight_rows,
                x * self.c,
                taps / s,
                folded_c,
                q.c,
                front.checked_mul(self.c)?,
            ),
            None,
        ];
        Some(Padded { problem: q, maps })
    }

    /// [`Self::padded`] of the channels alone.
    fn channels_padded(&self, v: u64, group_outer: bool) -> Option<Padded> {
        let c = self.c.next_multiple_of(v);
        let pixels = self.n.checked_mul(product(&self.input)?)?;
        let input = channels_map(pixels, self.g, self.c, c, group_outer)?;
        // A group's filters a row, a tap's channels a block, so that zero filters can follow.
        let taps = self.k.checked_mul(product(&self.filter)?)?;
        let weight = map(self.g, taps.checked_mul(self.c)?, taps, self.c, c, 0);
        Some(Padded {
            problem: ConvProblem { c, ..self.clone() },
            maps: [input, weight, None],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stride near 2^64 leaves one output pixel, a valid problem that no fold serves (found by
    /// the `problem` fuzz target: the fold's arithmetic overflowed).
    #[test]
    fn a_stride_near_two_to_the_64_is_not_folded() {
        let p = ConvProblem::parse(
            "bwd_data 1d N=1 K=4 C=2 filter=4 input=12 stride=18446744073709551615 lpad=2 rpad=1",
        )
        .unwrap();
        assert!(p.fold_padded(8, false).is_none());
        if let Some(pd) = p.padded(8, 1) {
            assert_eq!(pd.problem.output(), p.output());
        }
    }

    #[test]
    fn an_rgb_stem_folds_its_stride_and_pads_to_eight_channels() {
        let p = ConvProblem::parse(
            "fwd 2d N=2 K=64 C=3 filter=7x7 input=224x224 stride=2x2 lpad=3x3 rpad=3x3",
        )
        .unwrap();
        let pd = p.padded(8, 1).unwrap();
        let q = &pd.problem;
        assert_eq!(
            (q.c, q.filter.clone(), q.stride.clone()),
            (8, vec![7, 4], vec![2, 1])
        );
        assert_eq!(
            (q.input.clone(), q.left_pad.clone()),
            (vec![224, 112], vec![3, 2])
        );
        assert_eq!(q.output(), p.output());
        let [input, weight, output] = pd.maps;
        assert_eq!(
            input,
            Some(RowMap {
                rows: 2 * 224,
                src: 224 * 3,
                blocks: 112,
                inp: 6,
                out: 8,
                shift: 0
            })
        );
        // One zero tap in front: 8 taps, 4 blocks of two.
        assert_eq!(
            weight,
            Some(RowMap {
                rows: 64 * 7,
                src: 21,
                blocks: 4,
                inp: 6,
                out: 8,
                shift: 3
            })
        );
        assert_eq!(output, None);
    }

    #[test]
    fn an_odd_width_gets_zero_pixels_and_unit_strides_pad_channels_only() {
        let p = ConvProblem::parse(
            "fwd 2d N=1 K=8 C=3 filter=3x3 input=9x9 stride=2x2 lpad=1x1 rpad=1x1",
        )
        .unwrap();
        let pd = p.padded(4, 1).unwrap();
        assert_eq!(pd.problem.input, vec![9, 5]);
        assert_eq!(pd.problem.c, 8);
        assert_eq!(pd.maps[0].unwrap().blocks, 5);
        let p = ConvProblem::parse(
            "bwd_weight 2d G=2 N=1 K=8 C=5 filter=3x3 input=9x9 lpad=1x1 rpad=1x1",
        )
        .unwrap();
        let pd = p.padded(8, 1).unwrap();
        assert_eq!((pd.problem.c, pd.problem.filter.clone()), (8, vec![3, 3]));
        assert_eq!(
            pd.maps[0].unwrap(),
            RowMap {
                rows: 81,
                src: 10,
                blocks: 2,
                inp: 5,
                out: 8,
                shift: 0
            }
        );
        // Nothing to pad.
        let p = ConvProblem::parse("fwd 2d N=1 K=8 C=16 filter=3x3 input=9x9 lpad=1x1 rpad=1x1")
            .unwrap();
        assert_eq!(p.padded(8, 8), None);
    }

    #[test]
    fn odd_output_channels_get_zero_filters_in_the_weights_copy() {
        let p = ConvProblem::parse("fwd 2d G=2 N=2 K=3 C=8 filter=3x3 input=6x6 lpad=1x1 rpad=1x1")
            .unwrap();
        let pd = p.padded(8, 8).unwrap();
        assert_eq!((pd.problem.k, pd.problem.c), (8, 8));
        assert_eq!(pd.maps[0], None);
        // 3 filters of 72 elements a group, 8 with the zeros.
        assert_eq!(
            pd.maps[1],
            Some(RowMap {
                rows: 2,
                src: 216,
                blocks: 8,
                inp: 72,
                out: 72,
                shift: 0
            })
        );
        // NHWGK: a pixel holds both groups' 3 channels.
        assert_eq!(
            pd.maps[2],
            Some(RowMap {
                rows: 72,
                src: 6,
                blocks: 2,
                inp: 3,
                out: 8,
                shift: 0
            })
        );
        // Both padded: one weight copy, 9 taps of 5 channels into 8 filters of 9 taps of 8.
        let both = ConvProblem::parse("fwd 2d N=1 K=3 C=5 filter=3x3 input=6x6 lpad=1x1 rpad=1x1")
            .unwrap();
        let pd = both.padded(8, 8).unwrap();
        assert_eq!((pd.problem.k, pd.problem.c), (8, 8));
        assert_eq!(
            pd.maps[1],
            Some(RowMap {
                rows: 1,
                src: 135,
                blocks: 72,
                inp: 5,
                out: 8,
                shift: 0
            })
        );
        assert!(pd.maps[0].is_some() && pd.maps[2].is_some());
        // A folded stride's weight copy takes no zero filters: K padded, the stride stays.
        let stem = ConvProblem::parse(
            "fwd 2d N=1 K=3 C=3 filter=7x7 input=16x16 stride=2x2 lpad=3x3 rpad=3x3",
        )
        .unwrap();
        let pd = stem.padded(8, 8).unwrap();
        assert_eq!((pd.problem.k, pd.problem.c), (8, 8));
        assert_eq!(pd.problem.stride, vec![2, 2]);
        let folded = stem.padded(8, 1).unwrap();
        assert_eq!((folded.problem.c, folded.problem.stride), (8, vec![2, 1]));
    }

    #[test]
    fn groups_pad_to_whole_merges_with_zero_groups() {
        let p =
            ConvProblem::parse("fwd 2d G=116 N=2 K=1 C=1 filter=3x3 input=14x14 lpad=1x1 rpad=1x1")
                .unwrap();
        let pd = p.groups_padded(8).unwrap();
        assert_eq!(pd.problem.g, 120);
        assert_eq!(pd.problem.output(), p.output());
        let pixels = 2 * 14 * 14;
        let row = |rows, src, out| RowMap {
            rows,
            src,
            blocks: 1,
            inp: src,
            out,
            shift: 0,
        };
        assert_eq!(
            pd.maps,
            [
                Some(row(pixels, 116, 120)),
                Some(row(1, 116 * 9, 120 * 9)),
                Some(row(pixels, 116, 120))
            ]
        );
        assert_eq!(p.groups_padded(4), None, "116 groups are whole merges of 4");
        let gnhwc = ConvProblem {
            layout: crate::problem::ProblemLayout {
                input: Layout::Gnhwc,
                weight: Layout::Gkyxc,
                output: Layout::Gnhwk,
            },
            ..p
        };
        assert_eq!(gnhwc.groups_padded(8), None);
    }
}
