//! Problems built from an instance's own parameters — padding, stride, dilation, groups,
//! depthwise, odd channels, 1x1, long GEMM-K loops — for checking every instance of a library
//! on any back end.

use crate::device::DeviceModel;
use crate::problem::{ConvProblem, ProblemError, ProblemLayout, ProblemTypes};
use crate::support::{Rule, Unsupported, supports_on};
use ck_compiler::ir::Checked;
use ck_compiler::kernel::{Elem, gcd};
use ck_compiler::model::{ConvSpec, Op};

/// A problem shape; per-dimension values apply to every spatial dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// What the shape exercises.
    pub what: &'static str,
    pub g: u64,
    pub n: u64,
    pub k: u64,
    pub c: u64,
    pub filter: u64,
    pub input: u64,
    pub stride: u64,
    pub dilation: u64,
    pub lpad: u64,
    pub rpad: u64,
}

/// The instance's A, B and C vector widths (at least 1).
pub fn vectors(inst: &Checked) -> [u64; 3] {
    let v = match &inst.tile_kernel {
        Some(tk) => tk.vector,
        None => [inst.a.src_vector, inst.b.src_vector, inst.c.vector],
    };
    v.map(|w| u64::from(w.max(1)))
}

/// Shapes built from the instance: C and K multiples of every vector width, G a multiple of
/// the merged groups, small spatial sizes. `depthwise` and `odd channels` break the widths
/// when they are above 1. Instances that merge groups also get narrow-group shapes.
pub fn shapes(inst: &Checked) -> Vec<Shape> {
    let v = vectors(inst).into_iter().fold(1, |l, w| l / gcd(l, w) * w);
    let m = u64::from(inst.work.merge_groups);
    let base = Shape {
        what: "padded",
        g: m,
        n: 2,
        k: v,
        c: v,
        filter: 3,
        input: 5,
        stride: 1,
        dilation: 1,
        lpad: 1,
        rpad: 1,
    };
    // Scalar loads take 9 channels in the deep shape: an odd output, so split-K slices start
    // at odd workspace elements.
    let deep_kc = if v == 1 { 9 } else { v.max(8) };
    // Channels in whole TMA line boxes that every vector width divides (the 16-bit line; fp32
    // lines are half as wide).
    let line = u64::from(ck_compiler::kernel::box_channels(Elem::F16));
    let box_ch = line / gcd(line, v) * v;
    // A 1x1 filter over one group whose channels are not whole boxes: forward and backward data
    // copy it through maps, the last K-tile's boxes ending at the zero fill; then strided
    // (backward data: one stride phase has the tap).
    let one_tap = Shape {
        what: "1x1 of one group, channels off whole boxes",
        g: 1,
        k: box_ch + 3 * v,
        c: box_ch + 2 * v,
        filter: 1,
        input: 9,
        lpad: 0,
        rpad: 0,
        ..base
    };
    let mut shapes = vec![
        base,
        Shape {
            what: "strided, dilated",
            n: 1,
            input: 7,
            stride: 2,
            dilation: 2,
            lpad: 2,
            rpad: 1,
            ..base
        },
        // Unit dilation: backward data splits it into one GEMM per stride phase (odd input,
        // so the phases differ in size).
        Shape {
            what: "strided",
            input: 7,
            stride: 2,
            ..base
        },
        Shape {
            what: "grouped, asymmetric pads",
            g: 2 * m,
            n: 1,
            k: 2 * v,
            filter: 2,
            input: 4,
            lpad: 1,
            rpad: 0,
            ..base
        },
        Shape {
            what: "1x1",
            c: 2 * v,
            filter: 1,
            input: 4,
            lpad: 0,
            rpad: 0,
            ..base
        },
        // Long GEMM-K loops, so that split-K and stream-K have iterations to share.
        // One output tile (1x1, small K and C), so a small device has room to split.
        Shape {
            what: "deep",
            n: 16,
            k: deep_kc,
            c: deep_kc,
            filter: 1,
            input: 8,
            lpad: 0,
            rpad: 0,
            ..base
        },
        // Filter1x1Stride1Pad0 kernels stream these on their pointwise entry: destination
        // vectors that do not divide the workgroup, groups, and a last pass of few pixels.
        Shape {
            what: "pointwise, grouped, a partial pass",
            g: 2 * m,
            n: 3,
            k: 3 * v,
            c: 5 * v,
            filter: 1,
            input: 7,
            lpad: 0,
            rpad: 0,
            ..base
        },
        Shape {
            what: "pointwise, several workgroups",
            n: 2,
            k: 4 * v,
            c: 2 * v,
            filter: 1,
            input: 16,
            lpad: 0,
            rpad: 0,
            ..base
        },
        Shape {
            what: "pointwise, odd output channels on padded copies",
            n: 2,
            k: v + 3,
            c: 2 * v,
            filter: 1,
            input: 6,
            lpad: 0,
            rpad: 0,
            ..base
        },
        Shape {
            what: "depthwise",
            g: 3 * m,
            n: 1,
            k: 1,
            c: 1,
            ..base
        },
        // One channel per group, 1x1: what merged two-stage kernels are for.
        Shape {
            what: "single-channel groups",
            g: 2 * m,
            n: 2,
            k: 1,
            c: 1,
            filter: 1,
            input: 4,
            lpad: 0,
            rpad: 0,
            ..base
        },
        Shape {
            what: "odd channels",
            n: 1,
            k: v + 1,
            c: v + 1,
            ..base
        },
        // Channels in whole 64-channel boxes: the sm_90a kernels copy these through tensor
        // maps (a window walked by stride 2 with asymmetric pads, adjacent groups, partial
        // tiles; then a dilated one).
        Shape {
            what: "64-channel boxes, strided",
            g: 2 * m,
            k: box_ch + box_ch / 2,
            c: box_ch,
            input: 9,
            stride: 2,
            rpad: 0,
            ..base
        },
        Shape {
            what: "64-channel boxes, dilated",
            n: 1,
            k: box_ch,
            c: 2 * box_ch,
            input: 6,
            dilation: 2,
            lpad: 2,
            rpad: 1,
            ..base
        },
        one_tap,
        Shape {
            what: "1x1 of one group, channels off whole boxes, strided",
            stride: 2,
            ..one_tap
        },
        // Backward data runs one GEMM per stride phase on a view of the input gradient that
        // starts at an odd element when C is odd: stores must check their own addresses.
        Shape {
            what: "odd channels, stride phases",
            n: 1,
            k: v,
            c: 2 * v + 1,
            input: 7,
            stride: 2,
            ..base
        },
        // Strides that divide the filter, the pad and the input: the problem runs as its fold
        // (`ConvProblem::folded`), whose channels are the stride's multiple and meet the
        // vector widths that the stated ones do not. Patches (filter = stride), then a
        // filter of two strides with pads.
        Shape {
            what: "patches",
            k: v,
            c: v.div_ceil(4),
            filter: 4,
            input: 12,
            stride: 4,
            lpad: 0,
            rpad: 0,
            ..base
        },
        Shape {
            what: "strides in the channels, padded",
            n: 1,
            k: v,
            c: v.div_ceil(2),
            filter: 4,
            input: 10,
            stride: 2,
            lpad: 2,
            rpad: 1,
            ..base
        },
        // Channels that break the vectors run on padded copies (`ConvProblem::padded`): a
        // three-channel stem whose stride folds into them with a zero tap in front of the
        // filter and a zero pixel past the odd input, then channels padded in groups.
        Shape {
            what: "three channels on padded copies, folded",
            k: v,
            c: 3,
            filter: 7,
            input: 11,
            stride: 2,
            lpad: 3,
            rpad: 3,
            ..base
        },
        Shape {
            what: "odd channels on padded copies",
            g: 2 * m,
            n: 1,
            k: v,
            c: v + 3,
            ..base
        },
        Shape {
            what: "odd output channels on padded copies",
            g: 2 * m,
            n: 1,
            k: v + 3,
            c: v,
            input: 7,
            stride: 2,
            ..base
        },
        // Both: one copy of the weights pads each filter's channels and adds zero filters (the
        // stride stays where C alone would have folded it).
        Shape {
            what: "odd input and output channels on padded copies",
            g: m,
            n: 1,
            k: v + 3,
            c: v + 5,
            input: 7,
            stride: 2,
            ..base
        },
    ];
    // Forward and backward data reduce over the source channels and taps: few pixels and many
    // source channels make one output tile with the long GEMM-K that split-K divides.
    let deep = 32 * v;
    // Channel counts off whole boxes: a half (16-bit: 32), one and a half (grouped), three
    // quarters (fp32 boxes: one and a half of their 32-channel lines), and one and an eighth.
    let [half, three_halves, three_quarters, nine_eighths] = [
        box_ch / 2,
        3 * box_ch / 2,
        3 * box_ch / 4,
        box_ch + box_ch / 8,
    ]
    .map(|c| c.next_multiple_of(v));
    match inst.op {
        Op::Fwd => shapes.extend([
            Shape {
                what: "deep channels",
                n: 1,
                c: deep,
                input: 4,
                ..base
            },
            // Input channels in half-line TMA boxes (64 bytes): a K-tile of two taps' halves,
            // the last box past the filter; then groups of one and a half lines, and three
            // quarters of a 16-bit line (half lines of fp32).
            Shape {
                what: "input channels in half boxes",
                g: 1,
                k: box_ch,
                c: half,
                input: 9,
                ..base
            },
            Shape {
                what: "input channels in half boxes, grouped",
                g: 2,
                k: box_ch,
                c: three_halves,
                input: 9,
                ..base
            },
            Shape {
                what: "input channels in three quarter boxes",
                g: 1,
                k: box_ch,
                c: three_quarters,
                input: 9,
                ..base
            },
        ]),
        Op::BwdData => shapes.extend([
            Shape {
                what: "deep channels",
                n: 1,
                k: deep,
                input: 4,
                ..base
            },
            // Input channels in whole boxes at stride 2: each stride phase (odd input and
            // one-sided pad: phases of one and two taps a side) copies through maps, the
            // output channels 4.5 boxes (16-bit: padded to 5; fp32: nine lines).
            Shape {
                what: "64-channel boxes, stride phases",
                g: 1,
                k: 4 * box_ch + box_ch / 2,
                c: box_ch,
                input: 9,
                stride: 2,
                rpad: 0,
                ..base
            },
            // Output channels off whole line boxes: three half-line boxes a tap (16-bit; whole
            // lines of fp32), K-tiles across taps and the last box past the filter; half a
            // line (one half box a tap), also over groups; three quarters (16-bit: padded to
            // a line; fp32: three half lines); one and an eighth (padded to half lines).
            Shape {
                what: "output channels in half boxes",
                g: 1,
                k: three_halves,
                c: box_ch,
                input: 9,
                ..base
            },
            Shape {
                what: "output channels: half a box",
                g: 1,
                k: half,
                c: box_ch,
                input: 9,
                ..base
            },
            Shape {
                what: "output channels: half a box, grouped",
                g: 2,
                k: half,
                c: box_ch,
                input: 9,
                ..base
            },
            Shape {
                what: "output channels padded to a box",
                g: 1,
                k: three_quarters,
                c: box_ch,
                input: 9,
                ..base
            },
            Shape {
                what: "output channels padded to half boxes",
                g: 1,
                k: nine_eighths,
                c: box_ch,
                input: 9,
                ..base
            },
            // Output channels in whole boxes, input channels (GEMM-N) not: the weight boxes
            // zero-fill past each group's last input channel, wholly past it in the last
            // tile's second box; then stride phases.
            Shape {
                what: "input channels off whole boxes",
                g: 2,
                k: 2 * box_ch,
                c: 5 * v,
                input: 9,
                ..base
            },
            Shape {
                what: "input channels off whole boxes, stride phases",
                g: 1,
                k: box_ch,
                c: 3 * v,
                input: 9,
                stride: 2,
                rpad: 0,
                ..base
            },
            // A filter narrower than the stride: one stride phase has the tap, the other
            // three get zeros.
            Shape {
                what: "1x1, strided",
                c: 2 * v,
                filter: 1,
                input: 7,
                stride: 2,
                lpad: 0,
                rpad: 0,
                ..base
            },
        ]),
        Op::BwdWeight => {
            // Tiles whose warps lie along K run few output channels on their sliced entry: K
            // under the tile's M in 8-byte chunks but not 16-byte ones (36 for a 48-row tile),
            // C in whole N tiles (pixels not a multiple of 16, several N tiles a tap, groups;
            // then a smaller K with stride, dilation and a one-sided pad).
            if inst.waves[2] > 1 {
                let (m, n) = (u64::from(inst.tile.m), u64::from(inst.tile.n));
                let k = m.saturating_sub(12).max(4);
                let s = Shape {
                    what: "warps along K",
                    g: 2,
                    n: 3,
                    k,
                    c: 2 * n,
                    input: 11,
                    ..base
                };
                shapes.extend([
                    s,
                    // More pixels than the warps' rings hold, in one N tile a tap.
                    Shape {
                        what: "warps along K, many pixels",
                        g: 1,
                        n: 8,
                        c: n,
                        input: 19,
                        ..s
                    },
                    Shape {
                        what: "warps along K, strided, dilated",
                        g: 1,
                        n: 2,
                        k: k / 2 + 2,
                        c: n,
                        input: 9,
                        stride: 2,
                        dilation: 2,
                        lpad: 2,
                        rpad: 0,
                        ..s
                    },
                ]);
                // A vector under 4 reads a step's output gradient as one run: K of 1 and 3
                // (pixels off the steps, the last chunk cut short), and enough pixels for
                // rows of workgroups to split them (workspace slices and the convert).
                if vectors(inst)[0] < 4 {
                    let one = Shape {
                        what: "warps along K, one output channel",
                        g: 1,
                        k: 1,
                        c: n,
                        ..s
                    };
                    shapes.extend([
                        one,
                        Shape {
                            what: "warps along K, three output channels, strided",
                            k: 3,
                            input: 13,
                            stride: 2,
                            ..one
                        },
                        Shape {
                            what: "warps along K, pixels split over workgroups",
                            n: 4,
                            k: 2,
                            input: 51,
                            ..one
                        },
                    ]);
                }
            }
            // Instances whose A vector is wider than B's and C's run a K that only B and C
            // divide as its transpose (unit strides, pads within the filter's reach).
            let [va, vb, vc] = vectors(inst);
            let narrow = vb / gcd(vb, vc) * vc;
            if va > narrow {
                let t = Shape {
                    what: "transposed",
                    k: 3 * narrow,
                    input: 6,
                    ..base
                };
                shapes.extend([
                    t,
                    Shape {
                        what: "transposed, dilated, asymmetric pads",
                        g: 2 * m,
                        n: 1,
                        c: 2 * v,
                        input: 7,
                        dilation: 2,
                        lpad: 2,
                        rpad: 1,
                        ..t
                    },
                    Shape {
                        what: "transposed, deep",
                        n: 16,
                        filter: 1,
                        input: 8,
                        lpad: 0,
                        rpad: 0,
                        ..t
                    },
                ]);
            }
        }
    }
    // The pointwise entries' kernels (Filter1x1Stride1Pad0 forward and backward data) on
    // tensor cores: source channels off its 16-channel steps, an odd count of 8-channel
    // destination vectors over several 64-channel passes (either way round), pixels off its
    // 16-pixel runs.
    if inst.spec == ConvSpec::Filter1x1Stride1Pad0 && inst.op != Op::BwdWeight {
        shapes.push(Shape {
            what: "pointwise, wide",
            n: 2,
            k: 17 * v,
            c: 9 * v,
            filter: 1,
            input: 9,
            lpad: 0,
            rpad: 0,
            ..base
        });
        // Channel pairs (4-byte vectors): a destination past the staged passes' 48 channels
        // that is not whole 8-channel vectors stores pairs, over grouped strides.
        if v == 2 {
            shapes.push(Shape {
                what: "pointwise, channel pairs",
                g: 2,
                n: 2,
                k: 29 * v,
                c: 23 * v,
                filter: 1,
                input: 5,
                lpad: 0,
                rpad: 0,
                ..base
            });
        }
    }
    // Scalar-load forward kernels run few input channels on their window entry: a strided
    // three-channel stem whose output vectors do not divide the workgroup, one channel a group
    // through a dilated filter with a one-sided pad, and an output count that leaves the last
    // vector partial. On tensor cores also: a 7x7 stem of ten window steps whose pixels end
    // mid-pass (3-D: past the window the entry takes, the SIMT lanes), and more outputs than
    // it takes (the SIMT lanes), the last vector partial.
    if inst.op == Op::Fwd && v == 1 && m == 1 {
        shapes.extend([
            Shape {
                what: "few input channels, strided",
                k: 24,
                c: 3,
                input: 9,
                stride: 2,
                rpad: 0,
                ..base
            },
            Shape {
                what: "few input channels, grouped, dilated",
                g: 2,
                n: 1,
                k: 16,
                c: 1,
                filter: 3,
                input: 8,
                dilation: 2,
                lpad: 2,
                rpad: 0,
                ..base
            },
            Shape {
                what: "few input channels, a partial output vector",
                g: 2,
                n: 1,
                k: 13,
                c: 3,
                filter: 3,
                input: 7,
                ..base
            },
            Shape {
                what: "few input channels, a 7x7 stem",
                g: 1,
                n: 3,
                k: 64,
                c: 3,
                filter: 7,
                input: 13,
                stride: 2,
                lpad: 3,
                rpad: 2,
                ..base
            },
            Shape {
                what: "few input channels, wide outputs",
                g: 1,
                n: 2,
                k: 100,
                c: 2,
                filter: 3,
                input: 9,
                ..base
            },
        ]);
    }
    // Merged groups are for narrow groups: 2, 4 and 8 channels, which the kernels run on their
    // small-channel paths.
    if m > 1 {
        let strided = Shape {
            what: "narrow groups, strided",
            g: m,
            n: 1,
            k: 8 * v,
            c: 8 * v,
            input: 7,
            stride: 2,
            ..base
        };
        shapes.extend([
            Shape {
                what: "narrow groups",
                g: 2 * m,
                k: 4 * v,
                c: 4 * v,
                input: 6,
                ..base
            },
            Shape {
                what: "narrow groups, K > C",
                g: m,
                n: 3,
                k: 4 * v,
                c: 2 * v,
                ..base
            },
            Shape {
                what: "narrow groups, two channels, dilated",
                g: 4 * m,
                n: 1,
                k: 2 * v,
                c: 2 * v,
                input: 6,
                dilation: 2,
                lpad: 2,
                rpad: 2,
                ..base
            },
            // Eight channels a group: the forward and backward-data small-channel entry runs
            // them on tensor cores (sm_80+).
            Shape {
                what: "eight-channel groups, dilated",
                g: 2 * m,
                k: 8 * v,
                c: 8 * v,
                input: 7,
                dilation: 2,
                lpad: 2,
                rpad: 1,
                ..base
            },
            strided,
            // Backward data divides by the stride; dilation 2 at stride 2 leaves every other
            // destination pixel without a tap.
            Shape {
                what: "eight-channel groups, strided, dilated",
                n: 2,
                input: 9,
                dilation: 2,
                lpad: 2,
                rpad: 1,
                ..strided
            },
            // Filters under 3x3 (the stride phases' filters) on the tensor-core body, forward
            // too.
            Shape {
                what: "eight-channel groups, 2x2 filter",
                filter: 2,
                input: 7,
                lpad: 1,
                rpad: 0,
                ..strided
            },
            Shape {
                what: "eight-channel groups, 1x1 filter",
                filter: 1,
                input: 6,
                stride: 1,
                lpad: 0,
                rpad: 0,
                ..strided
            },
            // Group counts off the merge run on copies with zero groups added
            // (`ConvProblem::groups_padded`): depthwise, then eight-channel groups at stride 2
            // and at unit stride.
            Shape {
                what: "groups padded, depthwise",
                g: 2 * m + 3,
                k: 1,
                c: 1,
                input: 6,
                ..base
            },
            // An even count off whole vectors: the small-channel entry reads pairs of
            // channels as stated (a partial last vector; rows of 9 and 7 pixels end in partial
            // strips), at unit stride, at stride 2 and over 5 x 5 taps.
            Shape {
                what: "groups padded, depthwise pairs",
                g: 2 * m + 2,
                k: 1,
                c: 1,
                input: 9,
                ..base
            },
            Shape {
                what: "groups padded, depthwise pairs, strided",
                g: 2 * m + 2,
                k: 1,
                c: 1,
                input: 7,
                stride: 2,
                ..base
            },
            Shape {
                what: "groups padded, depthwise pairs, 5 x 5",
                g: 2 * m + 2,
                k: 1,
                c: 1,
                filter: 5,
                input: 7,
                lpad: 2,
                rpad: 2,
                ..base
            },
            Shape {
                what: "groups padded, eight channels, strided",
                g: m + 1,
                ..strided
            },
            // The small-channel entry runs these as stated, without the copies.
            Shape {
                what: "groups padded, eight channels, row windows",
                g: m + 1,
                input: 14,
                stride: 1,
                ..strided
            },
        ]);
        // Small channels only, which keeps the reference cheap: rows of three 16-pixel runs
        // split into chunks of rows, some blocks taking more than one (the backward-weight
        // tensor-core path's row rings); depthwise rows of 11 columns (past whole steps of the
        // rows entry's columns) read from two columns left of the input, in blocks of rows
        // that straddle images.
        if v == 1 {
            shapes.extend([
                Shape {
                    what: "eight-channel groups, wide",
                    g: 2 * m,
                    n: 4,
                    k: 8,
                    c: 8,
                    input: 37,
                    ..base
                },
                // Rows of 13 and 24 destination pixels, padded to whole 16-pixel runs (the
                // tensor-core path's row windows), with a window reaching two columns left of
                // the source and blocks that straddle images.
                Shape {
                    what: "eight-channel groups, row windows",
                    g: 2 * m,
                    n: 3,
                    k: 8,
                    c: 8,
                    input: 13,
                    lpad: 2,
                    rpad: 0,
                    ..base
                },
                Shape {
                    what: "four-channel groups, row windows",
                    g: 4 * m,
                    n: 2,
                    k: 4,
                    c: 4,
                    input: 14,
                    lpad: 0,
                    rpad: 2,
                    ..base
                },
                Shape {
                    what: "eight-channel groups, row windows of 24",
                    g: m,
                    n: 2,
                    k: 8,
                    c: 8,
                    input: 24,
                    ..base
                },
                // Sixteen channels a group (a tap's k16 step on tensor cores): row windows of
                // 13, tap pairs at stride 2 (backward data's stride phases), row windows at
                // stride 2, dilated, and a group count off the merge.
                Shape {
                    what: "sixteen-channel groups, row windows",
                    g: m,
                    n: 3,
                    k: 16,
                    c: 16,
                    input: 13,
                    lpad: 2,
                    rpad: 0,
                    ..base
                },
                Shape {
                    what: "sixteen-channel groups, strided",
                    g: m,
                    n: 2,
                    k: 16,
                    c: 16,
                    input: 9,
                    stride: 2,
                    ..base
                },
                // Backward data's stride phases in row windows (rows of 13 destination pixels
                // a phase), at 8 and 4 channels a group.
                Shape {
                    what: "eight-channel groups, strided row windows",
                    g: m,
                    n: 2,
                    k: 8,
                    c: 8,
                    input: 26,
                    stride: 2,
                    ..base
                },
                Shape {
                    what: "four-channel groups, strided row windows",
                    g: 2 * m,
                    n: 1,
                    k: 4,
                    c: 4,
                    input: 27,
                    stride: 2,
                    lpad: 2,
                    rpad: 0,
                    ..base
                },
                // Forward: row windows at stride 2, rows of 13 destination pixels (backward
                // data: its phases').
                Shape {
                    what: "sixteen-channel groups, strided row windows",
                    g: m,
                    n: 2,
                    k: 16,
                    c: 16,
                    input: 26,
                    stride: 2,
                    ..base
                },
                Shape {
                    what: "sixteen-channel groups, strided, dilated",
                    g: 2 * m,
                    n: 1,
                    k: 16,
                    c: 16,
                    input: 9,
                    stride: 2,
                    dilation: 2,
                    lpad: 2,
                    rpad: 1,
                    ..base
                },
                Shape {
                    what: "groups padded, sixteen channels, row windows",
                    g: m + 1,
                    n: 2,
                    k: 16,
                    c: 16,
                    input: 16,
                    ..base
                },
                Shape {
                    what: "depthwise, long rows",
                    g: 4 * m,
                    n: 3,
                    k: 1,
                    c: 1,
                    input: 11,
                    lpad: 2,
                    rpad: 0,
                    ..base
                },
                // Few rows of 67 columns: backward weight's rows entry splits them into
                // segments (the last one short of whole steps).
                Shape {
                    what: "depthwise, rows in segments",
                    g: 2 * m,
                    n: 2,
                    k: 1,
                    c: 1,
                    input: 67,
                    ..base
                },
                // Forward / backward-data depthwise bands: sixteen vectors a block, whose rows
                // of 67 columns fit the LDS only in two bands of columns (the last strip and
                // the second band's last one past the row); and 17 vectors, in blocks of 8
                // whose last holds one.
                Shape {
                    what: "depthwise, bands of columns",
                    g: 16 * m,
                    n: 1,
                    k: 1,
                    c: 1,
                    input: 67,
                    ..base
                },
                Shape {
                    what: "depthwise, a last block of one vector",
                    g: 17 * m,
                    n: 2,
                    k: 1,
                    c: 1,
                    input: 9,
                    stride: 2,
                    ..base
                },
                // Filters other than 3x3, which the forward / backward-data small-channel
                // entry takes at one or two channels a group: a strided 5x5 and a 7x7 (depthwise
                // strips, rows of 5 and 10 pixels), a dilated 7x7 of two channels and a filter
                // wider than its loads' chunk of seven columns (in 1-D, backward weight's rows
                // entry in pieces of seven taps and segments of the row).
                Shape {
                    what: "depthwise 5x5, strided",
                    g: 2 * m,
                    k: 1,
                    c: 1,
                    filter: 5,
                    input: 9,
                    stride: 2,
                    lpad: 2,
                    rpad: 2,
                    ..base
                },
                Shape {
                    what: "depthwise 7x7",
                    g: 2 * m,
                    k: 1,
                    c: 1,
                    filter: 7,
                    input: 10,
                    lpad: 3,
                    rpad: 3,
                    ..base
                },
                Shape {
                    what: "two-channel groups 7x7, dilated",
                    g: 4 * m,
                    n: 1,
                    k: 2,
                    c: 2,
                    filter: 7,
                    input: 9,
                    dilation: 2,
                    lpad: 6,
                    rpad: 5,
                    ..base
                },
                Shape {
                    what: "depthwise, long filter",
                    g: m,
                    n: 1,
                    k: 1,
                    c: 1,
                    filter: 15,
                    input: 17,
                    lpad: 7,
                    rpad: 7,
                    ..base
                },
            ]);
        }
    }
    shapes
}

/// The shape as a problem of the instance's op, dimensionality, layouts and types.
pub fn problem(inst: &Checked, s: &Shape) -> Result<ConvProblem, ProblemError> {
    let d = inst.ndim as usize;
    // A 1-D shape takes as many pixels as the 2-D one (a row of input² samples), so that its
    // deep shapes have the GEMM-K that split-K tiles need.
    let input = if d == 1 { s.input * s.input } else { s.input };
    let p = ConvProblem {
        op: inst.op,
        ndim: inst.ndim,
        g: s.g,
        n: s.n,
        k: s.k,
        c: s.c,
        filter: vec![s.filter; d],
        input: vec![input; d],
        stride: vec![s.stride; d],
        dilation: vec![s.dilation; d],
        left_pad: vec![s.lpad; d],
        right_pad: vec![s.rpad; d],
        layout: ProblemLayout {
            input: inst.layout.input,
            weight: inst.layout.weight,
            output: inst.layout.output,
        },
        dtype: ProblemTypes::computed_by(&inst.types),
    };
    p.validate()?;
    Ok(p)
}

/// The shape's problem, or one with a larger GEMM-K when a split or prefetch rule wants more
/// K loops, with the instance's verdict on it for `dev`.
pub fn fit(
    inst: &Checked,
    mut s: Shape,
    dev: &DeviceModel,
) -> Result<(ConvProblem, Result<(), Unsupported>), ProblemError> {
    for _ in 0..6 {
        let p = problem(inst, &s)?;
        match supports_on(inst, &p, dev) {
            Err(why) if matches!(why.rule, Rule::Prefetch | Rule::SplitK) => match p.op {
                // GemmK: bwd_weight N·Ho·Wo, fwd C·Y·X, bwd_data K·Y·X.
                Op::BwdWeight => s.n *= 2,
                Op::Fwd => s.c *= 2,
                Op::BwdData => s.k *= 2,
            },
            verdict => return Ok((p, verdict)),
        }
    }
    let p = problem(inst, &s)?;
    let verdict = supports_on(inst, &p, dev);
    Ok((p, verdict))
}

/// The problems of [`shapes`] the instance supports on `dev` (after [`fit`]), each with what
/// its shape exercises.
pub fn problems_for(inst: &Checked, dev: &DeviceModel) -> Vec<(String, ConvProblem)> {
    shapes(inst)
        .into_iter()
        .filter_map(|s| match fit(inst, s, dev) {
            Ok((p, Ok(()))) => Some((s.what.to_string(), p)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Variant, instance};

    #[test]
    fn shapes_respect_vector_widths_and_merged_groups() {
        let inst = instance(Variant::FwdXdl);
        let v = vectors(&inst).into_iter().max().unwrap();
        let dev = DeviceModel::default();
        let found = problems_for(&inst, &dev);
        assert!(!found.is_empty());
        for (what, p) in &found {
            assert!(supports_on(&inst, p, &dev).is_ok(), "{what}");
            assert_eq!(p.g % u64::from(inst.work.merge_groups.max(1)), 0);
        }
        // A vector tile runs channels that break its vectors on padded copies only.
        if v > 1 {
            for (_, p) in found.iter().filter(|(what, _)| what == "odd channels") {
                let form = crate::support::formulation(&inst, p, &dev).unwrap();
                assert!(matches!(form, crate::support::Formulation::Padded(_)));
            }
        }
    }
}
