//! The instance's identity: op, kind, dims, layouts, data types, element ops, ConvSpec and
//! targets, with their semantic defaults, and which keys the kind has at all.

use super::codes as c;
use super::report::{Report, SpanOf, join};
use crate::arch::{self, MmaUnit};
use crate::ir::{ConvLayout, ElementOps, Instance, Types};
use crate::model::*;
use crate::ops::{self, DeviceOp, Mma, PipelineFamily, Support, layout_info};
use crate::spec::Sp;
use ck_dsl::Diagnostic;

/// What every later rule needs to know about an instance.
pub(crate) struct Basics {
    pub op: Op,
    pub kind: Kind,
    pub dev: &'static DeviceOp,
    pub ndim: u32,
    pub layout: ConvLayout,
    pub types: Types,
    pub elementwise: ElementOps,
    pub spec: ConvSpec,
    pub gemm_spec: GemmSpec,
    pub targets: Vec<Arch>,
}

impl Basics {
    /// Whether the source an `elementwise.*` key names has several tensors.
    fn sources_of(&self, key: &str) -> bool {
        match key {
            "elementwise.in" => self.types.input_sources.len() > 1,
            "elementwise.wei" => self.types.weight_sources.len() > 1,
            _ => false,
        }
    }

    /// Storage types of the GEMM's A and B operands and of its result E.
    /// Bwd-weight: A = dOut, B = In, E = dWei; bwd-data: A = dOut, B = Wei, E = dIn.
    pub fn gemm_types(&self) -> (DataType, DataType, DataType) {
        let t = &self.types;
        match self.op {
            Op::Fwd => (t.input, t.weight, t.output),
            Op::BwdData => (t.output, t.weight, t.input),
            Op::BwdWeight => (t.output, t.input, t.weight),
        }
    }
}

/// A required key the instance does not set (reported at the instance's name).
pub(crate) fn missing(r: &mut Report, key: &str, example: &str) {
    let name = r.spec.name.value.clone();
    r.error(
        c::MISSING_KEY,
        None,
        format!("instance `{name}` has no `{key}`"),
        format!("`{key}` is required"),
        format!("add `{example};`"),
    );
}

pub(crate) fn resolve(r: &mut Report) -> Option<Basics> {
    let spec = r.spec;
    let before = r.count();
    let op = spec.op.as_ref().map(|v| v.value);
    let kind = spec.kind.as_ref().map(|v| v.value);
    if op.is_none() {
        missing(r, "op", "op = bwd_weight");
    }
    if kind.is_none() {
        missing(r, "kind", "kind = xdl_v3");
    }
    let ndim = match &spec.dims {
        None => {
            missing(r, "dims", "dims = 2");
            None
        }
        Some(d) if !(1..=3).contains(&d.value) => {
            dims_error(r, d.value, Some(d.span));
            None
        }
        Some(d) => Some(d.value as u32),
    };
    let dev = match (op, kind) {
        (Some(op), Some(kind)) => device_op(r, op, kind),
        _ => None,
    };
    let targets = targets(r);
    let types = types(r, op);
    let layout = match (dev, ndim) {
        (Some(dev), Some(ndim)) => layouts(r, dev, ndim),
        _ => None,
    };
    let (dev, ndim, layout, types, targets) = (dev?, ndim?, layout?, types?, targets?);
    let e = |v: &Option<Sp<ElementOp>>| v.as_ref().map_or(ElementOp::PassThrough, |v| v.value);
    let elementwise = ElementOps {
        input: e(&spec.in_op),
        weight: e(&spec.wei_op),
        output: e(&spec.out_op),
    };
    let conv_spec = spec.spec.as_ref().map_or(ConvSpec::Default, |v| v.value);
    let gemm_spec = spec
        .gemm_spec
        .as_ref()
        .map_or(GemmSpec::Default, |v| v.value);
    let basics = Basics {
        op: dev.op,
        kind: dev.kind,
        dev,
        ndim,
        layout,
        types,
        elementwise,
        spec: conv_spec,
        gemm_spec,
        targets,
    };
    check(r, &basics);
    (r.count() == before).then_some(basics)
}

/// The identity of an instance built without a spec ([`super::validate_instance`]), checked as
/// [`resolve`] checks a spec's: the op and kind name a device op, the dims, targets and layouts
/// are what resolution accepts, then the rules on the identity.
pub(crate) fn of_instance(r: &mut Report, i: &Instance) -> Option<Basics> {
    let before = r.count();
    let dev = device_op(r, i.op, i.kind)?;
    if !(1..=3).contains(&i.ndim) {
        dims_error(r, u64::from(i.ndim), None);
        return None;
    }
    if !target_list(r, &i.targets, None) {
        return None;
    }
    let l = &i.layout;
    if !layout_triple(
        r,
        dev,
        i.ndim,
        [(l.input, None), (l.weight, None), (l.output, None)],
    ) {
        return None;
    }
    let basics = Basics {
        op: dev.op,
        kind: dev.kind,
        dev,
        ndim: i.ndim,
        layout: i.layout.clone(),
        types: i.types.clone(),
        elementwise: i.elementwise,
        spec: i.spec,
        gemm_spec: i.gemm_spec,
        targets: i.targets.clone(),
    };
    check(r, &basics);
    (r.count() == before).then_some(basics)
}

/// The device op of `op` and `kind`, or an error at the kind.
fn device_op(r: &mut Report, op: Op, kind: Kind) -> Option<&'static DeviceOp> {
    let dev = ops::device_op(op, kind);
    if dev.is_none() {
        r.error(
            c::NO_DEVICE_OP,
            r.spec.kind.sp(),
            format!("CK has no `{kind}` device op for `{op}`"),
            format!("no `{kind}` op for `{op}`"),
            format!("kinds for `{op}`: {}", join(ops::kinds_for(op))),
        );
    }
    dev
}

fn dims_error(r: &mut Report, dims: u64, span: Option<ck_dsl::Span>) {
    r.error(
        c::DIMS,
        span,
        format!("dims = {dims} is not a number of spatial dimensions"),
        "expected 1, 2 or 3",
        "set `dims` to 1, 2 or 3",
    );
}

/// The rules on an identity, read from a spec or taken from a built instance.
fn check(r: &mut Report, b: &Basics) {
    check_types(r, b);
    check_elementwise(r, b);
    check_sources(r, b);
    check_ds(r, b);
    if !b.dev.specs().contains(&b.spec) {
        r.error(
            c::CONV_SPEC,
            r.spec.spec.sp(),
            format!(
                "ConvSpec `{}` does not exist for `{}` `{}`",
                b.spec, b.dev.op, b.dev.kind
            ),
            "not a ConvSpec of this op",
            format!("use one of: {}", join(b.dev.specs())),
        );
    }
    check_targets(r, b);
    check_applicable(r, b);
}

fn targets(r: &mut Report) -> Option<Vec<Arch>> {
    let Some(t) = &r.spec.targets else {
        missing(r, "targets", "targets = [gfx942]");
        return None;
    };
    target_list(r, &t.value, Some(t.span)).then(|| t.value.clone())
}

/// Whether `targets` is a non-empty list without repeats (else an error at `span`).
fn target_list(r: &mut Report, targets: &[Arch], span: Option<ck_dsl::Span>) -> bool {
    if targets.is_empty() {
        r.error(
            c::TARGETS,
            span,
            "`targets` is empty",
            "no targets",
            "list at least one target, e.g. `targets = [gfx942];`",
        );
        return false;
    }
    for (n, a) in targets.iter().enumerate() {
        if targets[..n].contains(a) {
            r.error(
                c::TARGETS,
                span,
                format!("target `{a}` is listed twice"),
                "repeated target",
                format!("remove the second `{a}`"),
            );
            return false;
        }
    }
    true
}

fn types(r: &mut Report, op: Option<Op>) -> Option<Types> {
    let spec = r.spec;
    let pick = |v: &Option<Sp<DataType>>| v.as_ref().or(spec.dtype.as_ref()).map(|v| v.value);
    let sources =
        |v: &Option<Sp<Vec<DataType>>>| v.as_ref().map_or_else(Vec::new, |v| v.value.clone());
    let (input_sources, weight_sources) = (sources(&spec.in_sources), sources(&spec.wei_sources));
    // A multiple-A/B op computes in its first source's type unless told otherwise.
    let (input, weight, output) = (
        pick(&spec.in_type).or(input_sources.first().copied()),
        pick(&spec.wei_type).or(weight_sources.first().copied()),
        pick(&spec.out_type),
    );
    let (Some(input), Some(weight), Some(output)) = (input, weight, output) else {
        missing(r, "dtype", "dtype = fp16");
        return None;
    };
    let compute_a = spec.compute_a.as_ref().map_or(input, |v| v.value);
    let compute_b = spec.compute_b.as_ref().map_or(compute_a, |v| v.value);
    let acc_default = if compute_a == DataType::Int8 {
        DataType::Int32
    } else {
        DataType::Fp32
    };
    let result = match op {
        Some(Op::BwdData) => input,
        Some(Op::BwdWeight) => weight,
        _ => output,
    };
    Some(Types {
        input,
        weight,
        output,
        acc: spec.acc_type.as_ref().map_or(acc_default, |v| v.value),
        compute_a,
        compute_b,
        cshuffle: spec.cshuffle_type.as_ref().map_or(result, |v| v.value),
        ds: spec
            .ds_types
            .as_ref()
            .map_or_else(Vec::new, |v| v.value.clone()),
        input_sources,
        weight_sources,
    })
}

fn layouts(r: &mut Report, dev: &DeviceOp, ndim: u32) -> Option<ConvLayout> {
    let spec = r.spec;
    let Some(input) = &spec.layout else {
        missing(r, "layout", "layout = nhwgc");
        return None;
    };
    let Some((dw, do_)) = ops::companions(input.value) else {
        r.error(
            c::LAYOUT_TRIPLE,
            Some(input.span),
            format!("`{}` is not an input layout", input.value),
            "not an input layout",
            accepted_hint(dev, ndim),
        );
        return None;
    };
    let weight = spec.weight_layout.as_ref().map_or(dw, |v| v.value);
    let output = spec.output_layout.as_ref().map_or(do_, |v| v.value);
    let given = [
        (input.value, Some(input.span)),
        (weight, Some(spec.weight_layout.sp().unwrap_or(input.span))),
        (output, Some(spec.output_layout.sp().unwrap_or(input.span))),
    ];
    if !layout_triple(r, dev, ndim, given) {
        return None;
    }
    let ds = spec
        .ds_layouts
        .as_ref()
        .map_or_else(Vec::new, |v| v.value.clone());
    Some(ConvLayout {
        input: input.value,
        weight,
        output,
        ds,
    })
}

/// Whether each of the input, weight and output layouts (with the span each was given at) has
/// `ndim` dimensions and the device op accepts the triple.
fn layout_triple(
    r: &mut Report,
    dev: &DeviceOp,
    ndim: u32,
    given: [(Layout, Option<ck_dsl::Span>); 3],
) -> bool {
    for (l, span) in given {
        let dims = layout_info(l).dims;
        if dims != ndim {
            r.error(
                c::LAYOUT_DIMS,
                span,
                format!("layout `{l}` is {dims}-D but dims = {ndim}"),
                format!("{dims}-D layout"),
                format!("use the {ndim}-D spelling of this layout or set `dims = {dims};`"),
            );
            return false;
        }
    }
    let [(input, span), (weight, _), (output, _)] = given;
    if !dev.accepts(ndim, (input, weight, output)) {
        r.error(
            c::LAYOUT_TRIPLE,
            span,
            format!(
                "`{}` `{}` does not accept layouts {input}/{weight}/{output} ({ndim}-D)",
                dev.op, dev.kind
            ),
            "layout triple not accepted",
            accepted_hint(dev, ndim),
        );
        return false;
    }
    true
}

fn accepted_hint(dev: &DeviceOp, ndim: u32) -> String {
    let inputs: Vec<_> = Layout::ALL
        .iter()
        .filter(|&&l| ops::companions(l).is_some_and(|(w, o)| dev.accepts(ndim, (l, w, o))))
        .collect();
    if inputs.is_empty() {
        format!(
            "this op has no {ndim}-D layouts; it needs dims >= {}",
            dev.layouts.min_dims
        )
    } else {
        format!("use `layout` = {}", join(inputs))
    }
}

const FLOATS: &[DataType] = &[
    DataType::Fp32,
    DataType::Tf32,
    DataType::Fp16,
    DataType::Bf16,
];

fn check_types(r: &mut Report, b: &Basics) {
    use DataType::*;
    let t = &b.types;
    let dtype_span = r.spec.dtype.sp();
    let span = r.spec.in_type.sp().or(dtype_span);
    let storage_ok = match (b.op, b.kind) {
        (Op::Fwd, Kind::Tile) => {
            [Fp16, Bf16, Fp32, Fp8, Bf8].contains(&t.input) && t.weight == t.input
        }
        (_, Kind::Tile) => {
            [Fp16, Bf16, Fp32].contains(&t.input) && t.weight == t.input && t.output == t.input
        }
        // CK's forward lists also mix fp8 and bf8 inputs into fp8 (`..._fp8_bf8_instance`).
        (Op::Fwd, _) if [Fp8, Bf8].contains(&t.input) && [Fp8, Bf8].contains(&t.weight) => {
            FLOATS.contains(&t.output) || t.output == Fp8 || t.output == t.input
        }
        (Op::Fwd, _) => {
            [Fp32, Tf32, Fp16, Bf16, Int8].contains(&t.input)
                && t.weight == t.input
                && (FLOATS.contains(&t.output) || t.output == t.input)
        }
        // CK's old WMMA backward ops have int8 lists (int32 accumulators).
        (Op::BwdWeight | Op::BwdData, Kind::Wmma) if t.input == Int8 => {
            t.weight == Int8 && t.output == Int8
        }
        (Op::BwdData, _) => FLOATS.contains(&t.input) && t.weight == t.input && t.output == t.input,
        // Mixed bf16/fp32/bf16 instances keep an fp32 weight.
        (Op::BwdWeight, _) => {
            FLOATS.contains(&t.input)
                && t.output == t.input
                && (t.weight == t.input || t.weight == Fp32)
        }
    };
    if !storage_ok {
        r.error(
            c::TYPES_OP,
            span,
            format!(
                "`{}` `{}` has no instance with in/wei/out types {}/{}/{}",
                b.op, b.kind, t.input, t.weight, t.output
            ),
            "unsupported type combination",
            "use one dtype for in, wei and out (fp32, tf32, fp16 or bf16; forward also fp8, bf8, int8)",
        );
    }
    let acc_ok = match t.compute_a {
        Int8 => t.acc == Int32,
        Fp64 => t.acc == Fp64,
        _ => t.acc == Fp32,
    };
    if !acc_ok {
        r.error(
            c::TYPES_OP,
            r.spec.acc_type.sp(),
            format!(
                "accumulator type {} does not match compute type {}",
                t.acc, t.compute_a
            ),
            "wrong accumulator",
            "use `types.acc = fp32` (int32 for int8)",
        );
    }
    let computes = [Fp32, Tf32, Fp16, Bf16, Fp8, Bf8, Int8];
    let pair_ok = computes.contains(&t.compute_a)
        && computes.contains(&t.compute_b)
        && (t.compute_a == t.compute_b || (t.compute_a.bytes() == 1 && t.compute_b.bytes() == 1));
    if !pair_ok {
        r.error(
            c::TYPES_OP,
            r.spec.compute_b.sp().or(r.spec.compute_a.sp()),
            format!(
                "compute types {}/{} cannot feed one instruction",
                t.compute_a, t.compute_b
            ),
            "mismatched compute types",
            "use equal compute types (only fp8/bf8 may be mixed; tf32 needs both tf32)",
        );
    }
    if b.dev.mma == Mma::Dl {
        return;
    }
    for &a in &b.targets {
        let info = arch::info(a);
        if info.mma_shapes(t.compute_a).is_empty() {
            r.error(
                c::TYPE_TARGET,
                r.spec.compute_a.sp().or(span),
                format!("target `{a}` has no matrix instruction for {}", t.compute_a),
                format!("{} not supported on {a}", t.compute_a),
                format!("remove `{a}` from `targets` or use a type it supports"),
            );
        }
    }
}

fn check_elementwise(r: &mut Report, b: &Basics) {
    let spec = r.spec;
    let ops = [
        (
            "elementwise.in",
            b.elementwise.input,
            spec.in_op.sp(),
            b.op == Op::BwdData,
        ),
        (
            "elementwise.wei",
            b.elementwise.weight,
            spec.wei_op.sp(),
            b.op == Op::BwdWeight,
        ),
        (
            "elementwise.out",
            b.elementwise.output,
            spec.out_op.sp(),
            b.op == Op::Fwd,
        ),
    ];
    for (key, op, span, is_result) in ops {
        if op == ElementOp::PassThrough {
            continue;
        }
        if b.dev.pass_through_only {
            r.error(
                c::ELEMENT_OP,
                span,
                format!("`{}` `{}` only supports pass_through element ops, but `{key}` = {op}", b.op, b.kind),
                "must be pass_through",
                "remove the element op, or use a kind with element ops (xdl, a multiple-D kind, tile)",
            );
            continue;
        }
        if is_result {
            result_op(r, b, key, op, span);
        } else if op.fp8_output() || op == ElementOp::ScaleAddScaleAddRelu {
            r.error(
                c::ELEMENT_OP,
                span,
                format!(
                    "`{key}` = {op} is one of CK's output ops, defined only on the GEMM result"
                ),
                "applies to the result only",
                "set it as the result's op (`elementwise.out` of a forward instance)",
            );
        } else if op.operands() > 1 && !b.sources_of(key) {
            r.error(
                c::ELEMENT_OP,
                span,
                format!("`{key}` = {op} combines {} tensors, which this tensor does not have", op.operands()),
                "needs several tensors",
                "apply binary ops to the GEMM result of a multiple-D instance (set `ds.layouts`/`ds.types`), or to the sources of a multiple-A/B forward `xdl` instance (`sources.in`/`sources.wei`)",
            );
        }
    }
}

/// The rules on the op applied to the GEMM result: the D tensors it combines, and the types
/// CK defines it for.
fn result_op(r: &mut Report, b: &Basics, key: &str, op: ElementOp, span: Option<ck_dsl::Span>) {
    let t = &b.types;
    let ds = op.d_tensors();
    if ds > 0 && t.ds.is_empty() {
        r.error(
            c::ELEMENT_OP,
            span,
            format!("`{key}` = {op} combines with a D tensor, which this tensor does not have"),
            "needs a D tensor",
            "apply binary ops to the GEMM result of a multiple-D instance (set `ds.layouts`/`ds.types`)",
        );
        return;
    }
    if ds > 0 && t.ds.len() != ds && t.ds.len() == b.layout.ds.len() {
        // CK's ops take the GEMM result and a fixed number of D values (lists of unequal
        // lengths are reported by themselves).
        let tensors = if ds == 1 {
            "one D tensor"
        } else {
            "two D tensors"
        };
        r.error(
            c::DS,
            span,
            format!(
                "`{key}` = {op} combines the result with {tensors}, not {}",
                t.ds.len()
            ),
            tensors,
            "give as many D tensors as the op combines, or another op",
        );
        return;
    }
    // CK defines these ops for some types only (explicit specializations of an undefined
    // template): `ConvScale`, `ConvScaleRelu`, `ConvInvscale` `<f8_t, float>` and
    // `ConvScaleAdd` `<f8_t, float, float>`; `ScaleAddScaleAddRelu` for
    // (E, C, D0, D1) of fp32, fp16 or bf16 throughout, or int8 with fp32 D tensors; `Relu`
    // `static_assert`s its type. C is the C-shuffle type the result is staged in.
    let typed = |e: DataType, c: DataType, d: DataType| {
        t.output == e && t.cshuffle == c && t.ds.iter().all(|&x| x == d)
    };
    let (ok, want) = match op {
        _ if op.fp8_output() => (
            typed(DataType::Fp8, DataType::Fp32, DataType::Fp32),
            "fp8 output from an fp32 C-shuffle value (fp32 D tensors)",
        ),
        ElementOp::ScaleAddScaleAddRelu => (
            [DataType::Fp32, DataType::Fp16, DataType::Bf16]
                .into_iter()
                .any(|x| typed(x, x, x))
                || typed(DataType::Int8, DataType::Int8, DataType::Fp32),
            "fp32, fp16 or bf16 output, C-shuffle and D tensors alike, or int8 output and C-shuffle with fp32 D tensors",
        ),
        ElementOp::ScaleScaleRelu => (
            [
                DataType::Fp32,
                DataType::Fp64,
                DataType::Fp16,
                DataType::Bf16,
                DataType::Int32,
                DataType::Int8,
            ]
            .contains(&t.output),
            "an fp32, fp64, fp16, bf16, int32 or int8 output (Relu's types)",
        ),
        _ => (true, ""),
    };
    if !ok {
        let ds: Vec<&str> = t.ds.iter().map(|d| d.keyword()).collect();
        r.error(
            c::ELEMENT_OP,
            span,
            format!(
                "`{key}` = {op} is not defined for output {}, C-shuffle {} and D tensors [{}]",
                t.output,
                t.cshuffle,
                ds.join(", ")
            ),
            "no such specialization in CK",
            format!("CK defines it for {want}"),
        );
    }
}

/// The rules on several input or weight tensors (CK's `ADataType`/`BDataType` tuples): only the
/// forward XDL op reads them, not with NGC layouts, the compute type is the first's, and the
/// source's element op combines exactly that many.
fn check_sources(r: &mut Report, b: &Basics) {
    let spec = r.spec;
    let sides = [
        (
            "sources.in",
            "types.in",
            &b.types.input_sources,
            b.types.input,
            b.elementwise.input,
            spec.in_sources.sp(),
            spec.in_type.sp(),
        ),
        (
            "sources.wei",
            "types.wei",
            &b.types.weight_sources,
            b.types.weight,
            b.elementwise.weight,
            spec.wei_sources.sp(),
            spec.wei_type.sp(),
        ),
    ];
    for (key, type_key, sources, ty, op, span, type_span) in sides {
        let Some(&first) = sources.first() else {
            if span.is_some() {
                r.error(
                    c::SOURCES,
                    span,
                    format!("`{key}` is empty"),
                    "no tensors",
                    format!("list the tensors' types, or remove `{key}`"),
                );
            }
            continue;
        };
        let ngc = layout_info(b.layout.input).family == ops::LayoutFamily::NGCSpatial;
        if !(b.op == Op::Fwd && b.kind == Kind::Xdl) {
            r.error(
                c::SOURCES,
                span,
                format!(
                    "`{}` `{}` reads one tensor of each source, not a tuple",
                    b.op, b.kind
                ),
                "no multiple A/B tensors",
                "use forward `xdl` (DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle)",
            );
        } else if ngc {
            r.error(
                c::SOURCES,
                span,
                format!(
                    "multiple A/B tensors with the NGC layout `{}`",
                    b.layout.input
                ),
                "not with NGC layouts",
                "use an N…GC or GN…C layout",
            );
        } else if first != ty {
            r.error(
                c::SOURCES,
                type_span.or(spec.dtype.sp()).or(span),
                format!("`{type_key}` is {ty}, but the first of `{key}` is {first}"),
                "differs from the first source",
                format!("set `{type_key}` to {first}, or leave it out"),
            );
        } else if op.operands() != sources.len() {
            r.error(
                c::SOURCES,
                span,
                format!(
                    "{} tensors in `{key}`, but its element op {op} combines {}",
                    sources.len(),
                    op.operands()
                ),
                "count differs from the element op's",
                "give as many tensors as the element op combines (`scale_add` takes 2)",
            );
        }
    }
}

fn check_ds(r: &mut Report, b: &Basics) {
    let spec = r.spec;
    let (nl, nt) = (b.layout.ds.len(), b.types.ds.len());
    let span = spec.ds_layouts.sp().or(spec.ds_types.sp());
    if nl != nt {
        r.error(
            c::DS,
            span,
            format!("{nl} D layouts but {nt} D types"),
            "lengths differ",
            "give `ds.layouts` and `ds.types` the same number of entries",
        );
    } else if b.dev.ds == Support::No && nl > 0 {
        r.error(
            c::DS,
            span,
            format!("`{}` `{}` takes no D tensors", b.op, b.kind),
            "unexpected D tensors",
            "remove `ds.*`, or use a multiple-D kind",
        );
    } else if let Some(&l) = b
        .layout
        .ds
        .iter()
        .find(|&&l| ![0, b.ndim].contains(&layout_info(l).dims))
    {
        // CK builds a D tensor's descriptor with the problem's rank (`MakeCDescriptor_M_N` has
        // no overload of another), or broadcasts a bias layout.
        r.error(
            c::DS,
            span,
            format!(
                "D layout `{l}` has {} spatial dimensions, the instance {}",
                layout_info(l).dims,
                b.ndim
            ),
            "wrong rank",
            "use the D layout of the instance's rank (or a bias layout)",
        );
    }
}

fn check_targets(r: &mut Report, b: &Basics) {
    for &a in &b.targets {
        let info = arch::info(a);
        let ok = match (b.dev.mma, info.mma) {
            (_, MmaUnit::MmaSync) | (Mma::Dl, _) => true,
            (Mma::Xdl, MmaUnit::Mfma) => true,
            (Mma::Xdl, MmaUnit::Wmma) => b.dev.wave32_variant,
            (Mma::Wmma, unit) => unit == MmaUnit::Wmma,
            (Mma::Tile, _) => info.has_tile_kernels(),
        };
        let amd_kind = matches!(b.dev.mma, Mma::Xdl | Mma::Wmma | Mma::Dl);
        if ok && amd_kind && info.mma == MmaUnit::MmaSync {
            let warning = Diagnostic::warning(
                c::KIND_ON_NVIDIA,
                format!(
                    "`{}` is one of CK's AMD kernels: on `{a}` only its portable kernel runs, in warps of {} (CK's C++ builds for AMD targets only)",
                    b.kind, info.wave_size
                ),
            )
            .help("use a `tile` kind for NVIDIA targets, or see `ckc explain` for the warp layout this one gets");
            r.warn(
                warning,
                r.spec.targets.sp(),
                format!("`{a}` runs the portable kernel only"),
            );
        }
        if !ok {
            r.error(
                c::TARGET_KIND,
                r.spec.targets.sp(),
                format!(
                    "`{}` `{}` cannot run on `{a}` ({:?}, wave{})",
                    b.op, b.kind, info.family, info.wave_size
                ),
                format!("`{a}` not supported by this kind"),
                match b.dev.mma {
                    Mma::Wmma => {
                        "WMMA kinds run on gfx11/gfx12 (and sm_80/sm_90); use an xdl kind for CDNA"
                            .to_string()
                    }
                    Mma::Tile => {
                        "CK-Tile kernels need gfx90a, gfx942, gfx950, gfx11 or gfx12".to_string()
                    }
                    _ => format!("remove `{a}`, or use a V3 or WMMA kind for RDNA targets"),
                },
            );
        }
    }
}

/// Keys the kind does not have (each other rule covers keys that exist but have wrong values).
fn check_applicable(r: &mut Report, b: &Basics) {
    let s = r.spec;
    let dev = b.dev;
    let tile = dev.mma == Mma::Tile;
    let dl = dev.mma == Mma::Dl;
    let wavelet = dev.kind == Kind::Wavelet;
    let p = &s.pipeline;
    let dl_given =
        s.dl.m1_per_thread.is_some() || s.dl.cluster_m1.is_some() || s.dl.a.slice.is_some();
    let has_loop = dev.pipeline == PipelineFamily::OldWmma
        || (dev.pipeline == PipelineFamily::Gridwise && dev.prefetch);
    let has_sched = matches!(
        dev.pipeline,
        PipelineFamily::BlockGemm | PipelineFamily::Tile
    );
    let checks: [(&str, Option<ck_dsl::Span>, bool); 23] = [
        ("block", s.block.sp(), !tile),
        ("k1", s.ak1.sp().or(s.bk1.sp()), !tile),
        ("instr", s.instr.sp(), !tile && !dl),
        ("repeat", s.repeat.sp(), !tile && !dl),
        (
            "a.*",
            s.a.cluster
                .sp()
                .or(s.a.src_vector.sp())
                .or(s.a.dst_vector.sp()),
            !tile && !dl,
        ),
        (
            "b.*",
            s.b.cluster
                .sp()
                .or(s.b.src_vector.sp())
                .or(s.b.dst_vector.sp()),
            !tile && !dl,
        ),
        (
            "c.*",
            s.c.cluster.sp().or(s.c.vector.sp()).or(s.c.shuffle.sp()),
            !tile && !dl,
        ),
        ("warps", s.warps.sp(), tile),
        ("warp_tile", s.warp_tile.sp(), tile),
        ("vector", s.vector.sp(), tile),
        ("wave_groups", s.wave_groups.sp(), tile),
        ("epilogue", s.epilogue.sp(), tile),
        ("explicit_gemm", s.explicit_gemm.sp(), tile),
        ("split_image", s.split_image.sp(), tile),
        ("pad", s.pad.sp(), tile || dev.pad_gemm),
        (
            "wavelet.*",
            s.wavelet_load.sp().or(s.wavelet_math.sp()),
            wavelet,
        ),
        ("dl.*", dl_given.then_some(s.name.span), dl),
        ("transpose", s.transpose.sp(), dev.transpose),
        ("gemm_spec", s.gemm_spec.sp(), dev.gemm_spec),
        ("pipeline.loop_scheduler", p.loop_scheduler.sp(), has_loop),
        ("pipeline.scheduler", p.scheduler.sp(), has_sched),
        ("pipeline.prefetch", p.prefetch.sp(), dev.prefetch),
        ("pipeline.double_buffer", p.double_buffer.sp(), has_sched),
    ];
    for (key, span, applicable) in checks {
        if let Some(span) = span
            && !applicable
        {
            r.error(
                c::NOT_APPLICABLE,
                Some(span),
                format!("`{key}` is not a parameter of `{}` `{}`", b.op, b.kind),
                "not used by this kind",
                format!("remove `{key}`"),
            );
        }
    }
    if let (Some(a), Some(bk)) = (&s.ak1, &s.bk1)
        && !dev.separate_k1
        && a.value != bk.value
    {
        r.error(
            c::NOT_APPLICABLE,
            Some(bk.span),
            format!(
                "`{}` `{}` has one K1, but ak1 = {} and bk1 = {}",
                b.op, b.kind, a.value, bk.value
            ),
            "differs from ak1",
            "set both with `k1 = ...;`",
        );
    }
}
