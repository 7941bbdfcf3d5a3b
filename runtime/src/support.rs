//! Problem-dependent support checks: whether an instance can run a problem, and if not, which
//! rule says no and with which numbers.
//!
//! Rules that depend only on the instance are the compiler's; these are CK's
//! `IsSupportedArgument` rules that need the problem (per-op tensor roles: bwd_weight A=out,
//! B=in, C=wei; fwd A=in, B=wei, C=out; bwd_data A=out, B=wei, C=in):
//!
//! - op, spatial rank, layouts and data types equal the instance's;
//! - vector widths divide the channel count their tensor is read or written along (two-stage
//!   XDL: A and B need not when K = C = 1 with unit group strides; forward XDL A of vector
//!   dimension 1 is read along G, which needs C = 1 where groups merge and a channels-last or
//!   NGC layout);
//! - ConvSpec conditions (Filter1x1Stride1Pad0, Filter1x1Pad0, Filter3x3), explicit GEMM ⇒ 1x1 s1 p0;
//! - `G % merge_groups == 0`; two-stage with merged groups needs GemmM ≤ MPB, GemmN ≤ NPB, C = K = 1;
//! - NGCHW transposes of the v1 op divide the channel and spatial products;
//! - every tensor ≤ 2 GB unless the instance uses 64-bit indexing;
//! - split-K: k_batch ≥ 1, StreamK ⇒ k_batch = 1, gfx11 ⇒ k_batch = 1, CK-Tile limits
//!   (≤ 128 for non-fp32 output, ≤ ceil(GemmK/KWarpTile), odd VecC with 16-bit output ⇒ 1 unless two-stage), and
//!   pipelines with prefetch stages need more K loops per split than stages.
//!
//! Beyond CK: a problem that breaks only a vector rule runs as its transpose (backward weight)
//! or on copies with its channels padded, where that passes every rule ([`formulation`]); the
//! runtime's back ends place the weights and make the copies.

use crate::decompose::{
    GemmShape, checks_prefetch, k_batch, k_batch_cap, k_loops, needs_single_split,
};
use crate::device::DeviceModel;
use crate::elementwise::{is_binary, ops_by_role};
use crate::layout::{Role, gemm_roles};
use crate::padded::Padded;
use crate::problem::{ConvProblem, ProblemTypes};
use ck_compiler::ir::Checked;
use ck_compiler::kernel::{KernelConfig, gcd};
use ck_compiler::model::{ConvSpec, DataType, Kind, Layout, Op};
use serde::Serialize;
use std::cell::OnceCell;
use std::fmt;
use std::sync::Arc;

/// The rule an unsupported problem breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Rule {
    /// The problem itself is impossible ([`ConvProblem::validate`]).
    Problem,
    Op,
    SpatialRank,
    Layout,
    DataType,
    VectorA,
    VectorB,
    VectorC,
    ConvSpec,
    ExplicitGemm,
    MergeGroups,
    TwoStageMerge,
    Transpose,
    TensorSize,
    SplitK,
    Prefetch,
    Target,
    /// The back end cannot run the instance (types, element-wise ops, D tensors).
    Backend,
    /// The instance breaks CK's rules knowingly (`allow`): it is for printing, not running.
    Allowed,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::Problem => "problem",
            Rule::Op => "op",
            Rule::SpatialRank => "spatial rank",
            Rule::Layout => "layout",
            Rule::DataType => "data type",
            Rule::VectorA => "A vector",
            Rule::VectorB => "B vector",
            Rule::VectorC => "C vector",
            Rule::ConvSpec => "conv spec",
            Rule::ExplicitGemm => "explicit gemm",
            Rule::MergeGroups => "merge groups",
            Rule::TwoStageMerge => "two-stage merge",
            Rule::Transpose => "NGCHW transpose",
            Rule::TensorSize => "2 GB limit",
            Rule::SplitK => "split-K",
            Rule::Prefetch => "pipeline prefetch",
            Rule::Target => "target",
            Rule::Backend => "back end",
            Rule::Allowed => "rule breaks allowed",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an instance cannot run a problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct Unsupported {
    pub rule: Rule,
    pub reason: String,
}

fn fail(rule: Rule, reason: String) -> Result<(), Unsupported> {
    Err(Unsupported { rule, reason })
}

/// CK's 2 GB limit on each tensor of 32-bit-indexed kernels.
const TWO_GB: u64 = 1 << 31;

/// Checks with no device: arch rules apply when every target of the instance breaks them.
pub fn supports(inst: &Checked, p: &ConvProblem) -> Result<(), Unsupported> {
    supports_on(
        inst,
        p,
        &DeviceModel {
            arch: None,
            ..DeviceModel::default()
        },
    )
}

/// Checks for a device; with `dev.arch` set, the instance must target it and its rules apply.
/// A problem the instance runs as its transpose ([`formulation`]) is supported.
pub fn supports_on(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> Result<(), Unsupported> {
    formulation(inst, p, dev).map(drop)
}

/// How an instance runs a problem it supports. The problems it runs are shared with the
/// problem's other instances (selection judges hundreds against one problem's forms): a
/// formulation is a pointer, not a copy of a problem's six dimension lists.
#[derive(Clone, Debug, PartialEq)]
pub enum Formulation {
    /// As stated.
    Direct,
    /// As its transpose ([`ConvProblem::transposed`]), which the instance supports as stated.
    Transposed(Arc<ConvProblem>),
    /// As its fold ([`ConvProblem::folded`]: the same tensors, the last spatial stride in the
    /// channels), which the instance supports as stated.
    Folded(Arc<ConvProblem>),
    /// On copies of some of its tensors with the channels `C` or `K` padded
    /// ([`ConvProblem::padded`]) or the groups `G` ([`ConvProblem::groups_padded`]), whose
    /// problem the instance supports as stated.
    Padded(Arc<Padded>),
}

/// How an instance runs a problem, without the problem it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunsAs {
    Stated,
    Transposed,
    Folded,
    Padded,
}

impl Formulation {
    pub fn runs_as(&self) -> RunsAs {
        match self {
            Formulation::Direct => RunsAs::Stated,
            Formulation::Transposed(_) => RunsAs::Transposed,
            Formulation::Folded(_) => RunsAs::Folded,
            Formulation::Padded(_) => RunsAs::Padded,
        }
    }

    /// The problem the instance's GEMM computes for `p`.
    pub fn problem<'a>(&'a self, p: &'a ConvProblem) -> &'a ConvProblem {
        match self {
            Formulation::Direct => p,
            Formulation::Transposed(q) | Formulation::Folded(q) => q,
            Formulation::Padded(pd) => &pd.problem,
        }
    }
}

/// How `inst` runs `p` on `dev`: as its fold where the problem has one that the instance
/// supports (the same work with whole pixels of more channels, never slower to read); else as
/// stated where CK's rules allow it. Where the channel counts break the instance's vector
/// widths: for backward weight (K = 36 against an A vector of 8), as its transpose where that
/// passes every rule (C and K swap places; the transpose's A operand is the input and its B
/// the output gradient, so the instance must treat both alike: one element-wise op and one
/// compute type for the two); then on copies with C and K padded to the instance's vectors
/// where that passes every rule, unless the destination is copied and its op reads a D tensor
/// (RGB stems and 3-channel outputs on vector tiles).
pub fn formulation(
    inst: &Checked,
    p: &ConvProblem,
    dev: &DeviceModel,
) -> Result<Formulation, Unsupported> {
    formulation_among(inst, &Forms::of(p), dev)
}

/// A problem with the problems an instance may run in its place ([`ConvProblem::folded`],
/// [`ConvProblem::transposed`], [`ConvProblem::padded`]), derived once for ranking many
/// instances.
pub(crate) struct Forms<'p> {
    problem: &'p ConvProblem,
    /// Why the problem is impossible, if it is: no instance supports it.
    invalid: Option<String>,
    folded: Option<Arc<ConvProblem>>,
    transposed: Option<Arc<ConvProblem>>,
    /// [`ConvProblem::padded`] to vectors of 1, 2, 4, 8 and 16 channels (C, then K), derived on
    /// first use, each with its 2 GB rule.
    padded: [[PaddedForm; 5]; 5],
    /// [`ConvProblem::groups_padded`] to merges of 2, 4, 8 and 16 groups, likewise.
    grouped: [PaddedForm; 4],
    /// The 2 GB rule ([`tensor_sizes`]) for the problem as stated, folded and transposed: it
    /// depends on the instance only through its 64-bit indexing.
    sizes: [Sizes; 3],
}

/// A problem's 2 GB rule, decided on first use.
type Sizes = OnceCell<Result<(), Unsupported>>;
/// A padded form and its 2 GB rule, derived on first use (none where padding changes nothing).
type PaddedForm = OnceCell<Option<(Arc<Padded>, Sizes)>>;

impl<'p> Forms<'p> {
    pub(crate) fn of(problem: &'p ConvProblem) -> Forms<'p> {
        Forms {
            problem,
            invalid: problem.validate().err().map(|e| e.to_string()),
            folded: problem.folded().map(Arc::new),
            transposed: problem.transposed().map(Arc::new),
            padded: Default::default(),
            grouped: Default::default(),
            sizes: Default::default(),
        }
    }

    fn padded(&self, vc: u64, vk: u64) -> Option<&(Arc<Padded>, Sizes)> {
        let slot = |v: u64| [1, 2, 4, 8, 16].iter().position(|&w| w == v);
        self.padded[slot(vc)?][slot(vk)?]
            .get_or_init(|| {
                self.problem
                    .padded(vc, vk)
                    .map(|pd| (Arc::new(pd), Sizes::new()))
            })
            .as_ref()
    }

    fn groups_padded(&self, merge: u64) -> Option<&(Arc<Padded>, Sizes)> {
        let slot = [2, 4, 8, 16].iter().position(|&m| m == merge)?;
        self.grouped[slot]
            .get_or_init(|| {
                self.problem
                    .groups_padded(merge)
                    .map(|pd| (Arc::new(pd), Sizes::new()))
            })
            .as_ref()
    }
}

/// [`formulation`] of `forms`' problem.
pub(crate) fn formulation_among(
    inst: &Checked,
    forms: &Forms<'_>,
    dev: &DeviceModel,
) -> Result<Formulation, Unsupported> {
    let p = forms.problem;
    if let Some(why) = &forms.invalid {
        return Err(Unsupported {
            rule: Rule::Problem,
            reason: why.clone(),
        });
    }
    identity(inst, p)?;
    let [stated, folded, transposed] = &forms.sizes;
    if let Some(q) = &forms.folded
        && check(inst, q, folded, dev).is_ok()
    {
        return Ok(Formulation::Folded(q.clone()));
    }
    let direct = check(inst, p, stated, dev);
    let (sources, result) = ops_by_role(inst.op, &inst.elementwise);
    // Zero groups complete the last merge (of groups of at most 8 channels, or of 16, which the
    // small-channel tensor-core body takes), and the last 8-channel vector of groups that the
    // merged kernels' small-channel entries take whole (a GEMM tile over a partial one runs
    // a thousand times slower); every tensor is copied, so the result must not also be read.
    let merge = group_multiple(inst, p);
    let grouped = forms
        .groups_padded(merge)
        .filter(|(pd, _)| !is_binary(result) && weights_copied_ok(inst, pd));
    let err = match direct {
        Ok(()) => {
            return Ok(grouped
                .filter(|(pd, sizes)| check(inst, &pd.problem, sizes, dev).is_ok())
                .map_or(Formulation::Direct, |(pd, _)| {
                    Formulation::Padded(pd.clone())
                }));
        }
        Err(e) => e,
    };
    if err.rule == Rule::MergeGroups {
        if let Some((pd, sizes)) = grouped {
            return match check(inst, &pd.problem, sizes, dev) {
                Ok(()) => Ok(Formulation::Padded(pd.clone())),
                Err(pe) => Err(Unsupported {
                    rule: err.rule,
                    reason: format!(
                        "{}; with G padded to {}, {}: {}",
                        err.reason, pd.problem.g, pe.rule, pe.reason
                    ),
                }),
            };
        }
        return Err(err);
    }
    if !matches!(err.rule, Rule::VectorA | Rule::VectorB | Rule::VectorC) {
        return Err(err);
    }
    let alike = sources[0] == sources[1] && inst.types.compute_a == inst.types.compute_b;
    let mut reason = err.reason;
    if let Some(t) = forms.transposed.as_ref().filter(|_| alike) {
        match check(inst, t, transposed, dev) {
            Ok(()) => return Ok(Formulation::Transposed(t.clone())),
            Err(te) => reason = format!("{reason}; as its transpose, {}: {}", te.rule, te.reason),
        }
    }
    let [vc, vk] = channel_vectors(inst, p.op);
    let dst = gemm_roles(p.op).1.index();
    if let Some((pd, sizes)) = forms.padded(vc, vk) {
        if !weights_copied_ok(inst, pd) {
            reason = format!(
                "{reason}; its kernel reads the weights transposed, from a copy of its own, \
                 which cannot also pad them"
            );
        } else if pd.maps[dst].is_none() || !is_binary(result) {
            match check(inst, &pd.problem, sizes, dev) {
                Ok(()) => return Ok(Formulation::Padded(pd.clone())),
                Err(pe) => {
                    reason = format!(
                        "{reason}; with C and K padded to {vc} and {vk}, {}: {}",
                        pe.rule, pe.reason
                    )
                }
            }
        }
    }
    Err(Unsupported {
        rule: err.rule,
        reason,
    })
}

/// Whether the instance's kernel may run `pd`'s copies: any that leave the weights as they
/// are, and padded weights only where it does not read them transposed from a copy of its own
/// ([`KernelConfig::weights_transposed`]: tf32 backward data on warpgroup MMAs; the op and
/// type test first spares every other instance its kernel configuration).
fn weights_copied_ok(inst: &Checked, pd: &Padded) -> bool {
    pd.maps[1].is_none()
        || !(inst.op == Op::BwdData && inst.types.tf32_products())
        || KernelConfig::new(inst).is_ok_and(|c| !c.weights_transposed())
}

/// The multiple of groups an instance that merges groups runs `p` over: its merge, and for
/// C = K of 1, 2 or 4 channels also whole 8-channel vectors of groups; 1 (no zero groups) for
/// other instances and for problems other than narrow groups (at most 8 channels a group on
/// either side), which zero groups would only slow.
fn group_multiple(inst: &Checked, p: &ConvProblem) -> u64 {
    let merge = u64::from(inst.work.merge_groups);
    let sixteen = (p.c, p.k) == (16, 16);
    if p.g < 2 || (p.c > 8 || p.k > 8) && !sixteen {
        return 1;
    }
    let per_vector = match (p.c, p.k) {
        (c @ (1 | 2 | 4), k) if k == c && merge > 1 => 8 / c,
        _ => 1,
    };
    lcm(merge, per_vector)
}

fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

/// The vector widths an instance reads and writes the channels `C` and `K` with ([`vectors`]):
/// the multiples [`ConvProblem::padded`] rounds them up to.
fn channel_vectors(inst: &Checked, op: Op) -> [u64; 2] {
    let [va, vb, vc] = match &inst.tile_kernel {
        Some(tk) => tk.vector,
        None => [inst.a.src_vector, inst.b.src_vector, inst.c.vector],
    }
    .map(|v| u64::from(v.max(1)));
    match op {
        Op::Fwd => [lcm(va, vb), vc],
        Op::BwdData | Op::BwdWeight => [lcm(vb, vc), va],
    }
}

/// CK's rules for `inst` running `p` as stated, past the identity rule ([`formulation_among`]
/// checks it once: a fold or transpose keeps the op, rank, layouts and types); `sizes` keeps
/// `p`'s 2 GB verdict for other instances.
fn check(
    inst: &Checked,
    p: &ConvProblem,
    sizes: &Sizes,
    dev: &DeviceModel,
) -> Result<(), Unsupported> {
    if let Some(arch) = dev.arch
        && !inst.targets.contains(&arch)
    {
        let targets: Vec<_> = inst.targets.iter().map(|a| a.keyword()).collect();
        return fail(
            Rule::Target,
            format!("instance targets [{}], not {arch}", targets.join(", ")),
        );
    }
    vectors(inst, p)?;
    conv_spec(inst, p)?;
    groups(inst, p)?;
    transpose(inst, p)?;
    tensor_sizes(inst, p, sizes)?;
    split_k(inst, p, dev)
}

/// Whether the instance computes the problem's op at its rank, in its layouts and types: the
/// first rule, which most of a library fails, checked without a reason.
pub(crate) fn same_kind(inst: &Checked, p: &ConvProblem) -> bool {
    let l = &inst.layout;
    (inst.op, inst.ndim) == (p.op, p.ndim)
        && (l.input, l.weight, l.output) == (p.layout.input, p.layout.weight, p.layout.output)
        && computes(inst, p)
}

/// Whether the instance's tensor and compute types serve the problem's: the same types in
/// memory, and tf32 products only where the problem allows them.
fn computes(inst: &Checked, p: &ConvProblem) -> bool {
    let t = ProblemTypes::computed_by(&inst.types);
    t.storage() == p.dtype.storage() && (!t.allows_tf32() || p.dtype.allows_tf32())
}

fn identity(inst: &Checked, p: &ConvProblem) -> Result<(), Unsupported> {
    if !inst.allow.is_empty() {
        return fail(
            Rule::Allowed,
            format!(
                "the instance breaks CK's rules {} (`allow`): CK would not run it",
                inst.allow.join(", ")
            ),
        );
    }
    if same_kind(inst, p) {
        return Ok(());
    }
    if inst.op != p.op {
        return fail(
            Rule::Op,
            format!("instance computes {}, problem is {}", inst.op, p.op),
        );
    }
    if inst.ndim != p.ndim {
        return fail(
            Rule::SpatialRank,
            format!("instance is {}D, problem is {}D", inst.ndim, p.ndim),
        );
    }
    let l = &inst.layout;
    if (l.input, l.weight, l.output) != (p.layout.input, p.layout.weight, p.layout.output) {
        return fail(
            Rule::Layout,
            format!(
                "instance uses {}/{}/{}, problem {}/{}/{}",
                l.input, l.weight, l.output, p.layout.input, p.layout.weight, p.layout.output
            ),
        );
    }
    let t = &inst.types;
    if !computes(inst, p) {
        return fail(
            Rule::DataType,
            format!(
                "instance takes in={} wei={} out={} computed in {}/{}, problem in={} wei={} out={}{}",
                t.input,
                t.weight,
                t.output,
                t.compute_a,
                t.compute_b,
                p.dtype.input,
                p.dtype.weight,
                p.dtype.output,
                if p.dtype.storage() == [DataType::Fp32; 3] && !p.dtype.allows_tf32() {
                    " (fp32 problems allow tf32 products with dtype=tf32)"
                } else {
                    ""
                }
            ),
        );
    }
    Ok(())
}

/// The A, B and C vector widths and the per-op channel counts they must divide.
fn vectors(inst: &Checked, p: &ConvProblem) -> Result<(), Unsupported> {
    let [va, vb, vc] = match &inst.tile_kernel {
        Some(tk) => tk.vector,
        None => [inst.a.src_vector, inst.b.src_vector, inst.c.vector],
    };
    // (channel name, size) that A, B and C are vectorized along.
    let (a, b, c) = match p.op {
        Op::BwdWeight => (("K", p.k), ("C", p.c), ("C", p.c)),
        Op::Fwd => (("C", p.c), ("C", p.c), ("K", p.k)),
        Op::BwdData => (("K", p.k), ("C", p.c), ("C", p.c)),
    };
    let single = single_channel_groups(inst, p);
    // CK's forward XDL op reads A along the groups where its vector dimension is 1 (the
    // merged-groups lists): one channel a group (or no merge), a channels-last or NGC layout,
    // G a multiple of the width. Its vectors along C need dimension 2, and the other forward
    // ops read A along C only.
    let along_groups = p.op == Op::Fwd && inst.tile_kernel.is_none() && inst.a.vector_dim == 1;
    if along_groups && inst.kind != Kind::Xdl {
        return fail(
            Rule::VectorA,
            format!(
                "the {} forward op reads A vectors along C only (vector dimension 2), not along the groups",
                inst.kind
            ),
        );
    }
    if along_groups {
        let family = matches!(
            inst.layout.input,
            Layout::Nwgc
                | Layout::Nhwgc
                | Layout::Ndhwgc
                | Layout::Ngcw
                | Layout::Ngchw
                | Layout::Ngcdhw
        );
        if !family {
            return fail(
                Rule::Layout,
                format!(
                    "A vectors along the groups (vector dimension 1) need a channels-last or NGC input, not {}",
                    inst.layout.input
                ),
            );
        }
        if p.c != 1 && inst.work.merge_groups > 1 {
            return fail(
                Rule::MergeGroups,
                format!(
                    "merge_groups={} reads A along the groups (vector dimension 1), which needs C=1; C={}",
                    inst.work.merge_groups, p.c
                ),
            );
        }
    }
    let a = if along_groups { ("G", p.g) } else { a };
    for (rule, tensor, v, (name, size)) in [
        (Rule::VectorA, "A", va, a),
        (Rule::VectorB, "B", vb, b),
        (Rule::VectorC, "C", vc, c),
    ] {
        if rule != Rule::VectorC && single {
            continue;
        }
        if v == 0 || !size.is_multiple_of(v as u64) {
            return fail(
                rule,
                format!("{name}={size} is not divisible by the {tensor} vector width {v}"),
            );
        }
    }
    Ok(())
}

/// CK's two-stage ops read A and B with any vector width when K = C = 1 and both tensors'
/// group stride is 1 (channels-last: one element per group, as merged groups need). The WMMA
/// two-stage op shares the XDL one's transfer rules.
fn single_channel_groups(inst: &Checked, p: &ConvProblem) -> bool {
    let unit_group_stride = |role| p.desc(role).is_ok_and(|d| d.strides[0] == 1);
    matches!(inst.kind, Kind::XdlTwoStage | Kind::WmmaTwoStage)
        && p.k == 1
        && p.c == 1
        && unit_group_stride(Role::Output)
        && unit_group_stride(Role::Input)
}

fn all(v: &[u64], x: u64) -> bool {
    v.iter().all(|&e| e == x)
}

fn dims(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join("x")
}

fn is_1x1_s1_p0(p: &ConvProblem) -> bool {
    all(&p.filter, 1) && all(&p.stride, 1) && all(&p.left_pad, 0) && all(&p.right_pad, 0)
}

fn conv_spec(inst: &Checked, p: &ConvProblem) -> Result<(), Unsupported> {
    // Written only for a refusal: most checks pass.
    let shape = || {
        format!(
            "filter={} stride={} lpad={} rpad={}",
            dims(&p.filter),
            dims(&p.stride),
            dims(&p.left_pad),
            dims(&p.right_pad)
        )
    };
    match inst.spec {
        ConvSpec::Filter1x1Stride1Pad0 if !is_1x1_s1_p0(p) => fail(
            Rule::ConvSpec,
            format!(
                "filter1x1_stride1_pad0 needs a 1x1 filter, stride 1, pads 0; {}",
                shape()
            ),
        ),
        ConvSpec::Filter1x1Pad0
            if !(all(&p.filter, 1) && all(&p.left_pad, 0) && all(&p.right_pad, 0)) =>
        {
            fail(
                Rule::ConvSpec,
                format!("filter1x1_pad0 needs a 1x1 filter and pads 0; {}", shape()),
            )
        }
        ConvSpec::Filter3x3 if !(p.c == 1 && all(&p.filter, 3)) => fail(
            Rule::ConvSpec,
            format!(
                "filter3x3 needs C=1 per group and a 3x3 filter; C={} filter={}",
                p.c,
                dims(&p.filter)
            ),
        ),
        _ => {
            let explicit = inst.kind == Kind::ExplicitGemm
                || inst.tile_kernel.is_some_and(|t| t.explicit_gemm);
            if explicit && !is_1x1_s1_p0(p) {
                return fail(
                    Rule::ExplicitGemm,
                    format!(
                        "explicit GEMM needs a 1x1 filter, stride 1, pads 0; {}",
                        shape()
                    ),
                );
            }
            Ok(())
        }
    }
}

fn groups(inst: &Checked, p: &ConvProblem) -> Result<(), Unsupported> {
    let merge = u64::from(inst.work.merge_groups);
    if !p.g.is_multiple_of(merge) {
        return fail(
            Rule::MergeGroups,
            format!("G={} is not divisible by merge_groups={merge}", p.g),
        );
    }
    if merge > 1 && matches!(inst.kind, Kind::XdlTwoStage | Kind::WmmaTwoStage) {
        let s = GemmShape::of(inst, p);
        let (mpb, npb) = (inst.tile.m as u64, inst.tile.n as u64);
        if s.m > mpb || s.n > npb || p.c != 1 || p.k != 1 {
            return fail(
                Rule::TwoStageMerge,
                format!(
                    "merge_groups={merge} needs GemmM ≤ {mpb}, GemmN ≤ {npb}, C = K = 1; GemmM={} GemmN={} C={} K={}",
                    s.m, s.n, p.c, p.k
                ),
            );
        }
    }
    Ok(())
}

/// The v1 op transposes NGCHW tensors to NHWGC in a workspace with vectorized copies.
fn transpose(inst: &Checked, p: &ConvProblem) -> Result<(), Unsupported> {
    let ngc = matches!(
        p.layout.input,
        Layout::Ngcw | Layout::Ngchw | Layout::Ngcdhw
    );
    if inst.kind != Kind::Xdl || !ngc {
        return Ok(());
    }
    let [src, dst] = inst.transpose.map(|v| v.max(1) as u64);
    let in_spatial: u64 = p.input.iter().product();
    let out_spatial: u64 = p.output().iter().product();
    for (what, size, v) in [
        ("G·C", p.g * p.c, dst),
        ("G·K", p.g * p.k, dst),
        ("input spatial size", in_spatial, src),
        ("output spatial size", out_spatial, src),
    ] {
        if !size.is_multiple_of(v) {
            return fail(
                Rule::Transpose,
                format!("{what}={size} is not divisible by the transpose vector {v}"),
            );
        }
    }
    Ok(())
}

fn tensor_sizes(inst: &Checked, p: &ConvProblem, sizes: &Sizes) -> Result<(), Unsupported> {
    if inst.work.large_tensor || inst.kind == Kind::XdlLargeTensor {
        return Ok(());
    }
    sizes.get_or_init(|| under_two_gb(p)).clone()
}

/// Whether every tensor of `p` fits a 32-bit-indexed kernel.
fn under_two_gb(p: &ConvProblem) -> Result<(), Unsupported> {
    for role in [Role::Input, Role::Weight, Role::Output] {
        let elements = p.desc(role).map(|d| d.elements()).unwrap_or(u64::MAX);
        let bytes = elements.saturating_mul(p.dtype_of(role).bytes() as u64);
        if bytes > TWO_GB {
            return fail(
                Rule::TensorSize,
                format!(
                    "the {role} tensor takes {bytes} bytes, over 2 GB; use a large_tensor instance"
                ),
            );
        }
    }
    Ok(())
}

fn split_k(inst: &Checked, p: &ConvProblem, dev: &DeviceModel) -> Result<(), Unsupported> {
    let kb = k_batch(inst, p, dev);
    if kb == 0 {
        return fail(Rule::SplitK, "k_batch must be at least 1, got 0".into());
    }
    if inst.work.streamk.is_some() && kb != 1 {
        return fail(Rule::SplitK, format!("StreamK needs k_batch = 1, got {kb}"));
    }
    if kb > 1 && needs_single_split(inst, dev) {
        return fail(
            Rule::SplitK,
            format!("gfx11 has no packed f16/bf16 atomics: k_batch must be 1, got {kb}"),
        );
    }
    let cap = k_batch_cap(inst, p);
    if kb as u64 > cap {
        let shape = GemmShape::of(inst, p);
        return fail(
            Rule::SplitK,
            format!(
                "k_batch={kb} exceeds this kernel's limit {cap} (GemmK={}, KWarpTile={}, output {}, C vector {})",
                shape.k,
                inst.mma[2],
                p.dtype.output,
                inst.tile_kernel.map_or(inst.c.vector, |t| t.vector[2])
            ),
        );
    }
    if checks_prefetch(inst) {
        let shape = GemmShape::of(inst, p);
        let loops = k_loops(inst, &shape, kb);
        if loops <= inst.pipeline.prefetch as u64 {
            return fail(
                Rule::Prefetch,
                format!(
                    "pipeline {} prefetches {} stages but each of the {kb} splits runs only {loops} K loops \
                     (GemmK={}, KPerBlock={})",
                    inst.pipeline.version, inst.pipeline.prefetch, shape.k, inst.tile.k
                ),
            );
        }
    }
    Ok(())
}
