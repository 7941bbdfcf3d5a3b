//! Reads CK instance strings back into instances: recognises the op by its whole name and the
//! format variant by field count and positions, then parses each field of that variant's list.

use crate::emit::access::{
    blank_instance, element_op_slot, flag_slot, int_slot, layout_slot, seq_slot, sources_slot,
    type_slot,
};
use crate::emit::format::{CkFormat, IntField, Role, Spelling, TypeSlot, Value, formats_named};
use crate::emit::spelling::*;
use crate::ir::{Instance, SplitK, StreamK};
use crate::model::{Arch, Kind, PipelineVersion};
use thiserror::Error;

/// An instance read from an instance string, with the variant it was written in.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedInstance {
    pub instance: Instance,
    pub format: CkFormat,
    /// The string as read.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ImportError {
    #[error("empty instance string")]
    Empty,
    #[error("not an instance string: {0}")]
    NotInstance(String),
    #[error("malformed instance string: {0}")]
    Syntax(String),
    #[error("unknown op name `{0}`")]
    UnknownName(String),
    #[error("`{name}` has {expected} fields, found {found}")]
    FieldCount {
        name: String,
        expected: String,
        found: usize,
    },
    #[error("field {index} ({name}): {message}")]
    Field {
        index: usize,
        name: &'static str,
        message: String,
    },
}

/// One line of an instance list.
#[derive(Clone, Debug, PartialEq)]
pub struct ListEntry {
    /// 1-based line number.
    pub line: usize,
    pub result: Result<ImportedInstance, ImportError>,
}

/// Reads one instance string.
pub fn import_trait(s: &str) -> Result<ImportedInstance, ImportError> {
    let text = s.trim();
    let (name, tokens) = split(text)?;
    let candidates = formats_named(name);
    if candidates.is_empty() {
        return Err(ImportError::UnknownName(name.to_string()));
    }
    let fitting: Vec<CkFormat> = candidates
        .iter()
        .copied()
        .filter(|f| field_counts(*f).contains(&tokens.len()))
        .collect();
    if fitting.is_empty() {
        let mut counts: Vec<usize> = candidates.iter().flat_map(|f| field_counts(*f)).collect();
        counts.sort_unstable();
        counts.dedup();
        let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
        return Err(ImportError::FieldCount {
            name: name.to_string(),
            expected: counts.join(" or "),
            found: tokens.len(),
        });
    }
    // Variants under one name differ in count, boolean spelling or positions; the first that
    // parses is the one. Otherwise report the failure that got furthest.
    let mut best: Option<ImportError> = None;
    for format in fitting {
        match parse_fields(format, &tokens) {
            Ok(mut instance) => {
                instance.name = instance_name(&instance, text);
                return Ok(ImportedInstance {
                    instance,
                    format,
                    text: text.to_string(),
                });
            }
            Err(e) => {
                if error_index(&e) >= best.as_ref().map_or(0, error_index) {
                    best = Some(e);
                }
            }
        }
    }
    Err(best.unwrap_or(ImportError::UnknownName(name.to_string())))
}

/// Reads a list: one string per line; blank lines and `#` comments are skipped.
pub fn import_list(text: &str) -> Vec<ListEntry> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| ListEntry {
            line: i + 1,
            result: import_trait(l),
        })
        .collect()
}

fn error_index(e: &ImportError) -> usize {
    match e {
        ImportError::Field { index, .. } => *index,
        _ => 0,
    }
}

/// Every field count a format can print (CK-Tile StreamK lines carry two more).
fn field_counts(format: CkFormat) -> Vec<usize> {
    let fields = format.fields();
    let n = fields.len();
    if fields.iter().any(|f| f.value == Value::StreamK) {
        vec![n, n + 2]
    } else {
        vec![n]
    }
}

/// Splits `Name<f1,...>` into the name and its top-level fields, after ruling out the config
/// lines that are not instance strings.
fn split(text: &str) -> Result<(&str, Vec<&str>), ImportError> {
    if text.is_empty() {
        return Err(ImportError::Empty);
    }
    let Some(open) = text.find('<') else {
        return Err(ImportError::Syntax(
            "expected `Name<fields>`, found no `<`".to_string(),
        ));
    };
    let name = &text[..open];
    let body = &text[open + 1..];
    if name == "DeviceGroupedConvBwdWeight_Explicit_Xdl"
        && (body.contains("DeviceBatchedGemm") || body.contains(": "))
    {
        return Err(ImportError::NotInstance(
            "explicit-GEMM configuration line (a nested GEMM op and `Key: value` items)"
                .to_string(),
        ));
    }
    if name == "GroupedConvolutionForwardDepthwise" {
        return Err(ImportError::NotInstance(
            "CK-Tile forward depthwise configuration line".to_string(),
        ));
    }
    if name.ends_with("_v1") {
        return Err(ImportError::NotInstance(format!(
            "old GetTypeString() form of `{name}`"
        )));
    }
    if body.contains(", ") || body.contains(": ") {
        return Err(ImportError::NotInstance(
            "GetTypeString() form (`, ` separators or `Key: value` items)".to_string(),
        ));
    }
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(ImportError::Syntax(format!("invalid op name `{name}`")));
    }
    if text.chars().any(char::is_whitespace) {
        return Err(ImportError::NotInstance("contains white space".to_string()));
    }
    let Some(inner) = body.strip_suffix('>') else {
        return Err(ImportError::Syntax("expected `>` at the end".to_string()));
    };
    let mut fields = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' => {
                depth -= 1;
                if depth < 0 {
                    return Err(ImportError::Syntax(format!(
                        "unbalanced `{c}` in field {}",
                        fields.len() + 1
                    )));
                }
            }
            ',' if depth == 0 => {
                fields.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(ImportError::Syntax("unbalanced `(`".to_string()));
    }
    if !inner.is_empty() {
        fields.push(&inner[start..]);
    }
    Ok((name, fields))
}

/// A cursor over the fields, numbering them from 1 as CK's documentation does.
struct Cursor<'a> {
    tokens: &'a [&'a str],
    pos: usize,
    name: &'static str,
}

impl<'a> Cursor<'a> {
    fn next(&mut self) -> Result<&'a str, ImportError> {
        let t = self.tokens.get(self.pos).copied();
        self.pos += 1;
        t.ok_or_else(|| self.err("missing".to_string()))
    }

    fn err(&self, message: String) -> ImportError {
        ImportError::Field {
            index: self.pos,
            name: self.name,
            message,
        }
    }

    fn expected(&self, what: &str, found: &str) -> ImportError {
        self.err(format!("expected {what}, found `{found}`"))
    }

    fn int(&mut self) -> Result<u32, ImportError> {
        let t = self.next()?;
        parse_u32(t).ok_or_else(|| self.expected("an integer", t))
    }

    fn spelled<T: Copy + PartialEq>(
        &mut self,
        table: &Spelled<T>,
        what: &str,
    ) -> Result<T, ImportError> {
        let t = self.next()?;
        table
            .parse(t)
            .ok_or_else(|| self.expected(&format!("{what} ({})", table.expected()), t))
    }
}

/// A decimal as CK prints one: ASCII digits without a leading zero (`0` alone is zero), so
/// that two fields run together by a lost comma (`1` and `064`) are not taken for one.
fn parse_u32(t: &str) -> Option<u32> {
    let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits || (t.len() > 1 && t.starts_with('0')) {
        return None;
    }
    t.parse().ok()
}

/// `Seq(a,b,...)` elements.
fn parse_seq(t: &str) -> Option<Vec<u32>> {
    let inner = t.strip_prefix("Seq(")?.strip_suffix(')')?;
    if inner.is_empty() {
        return Some(Vec::new());
    }
    inner.split(',').map(parse_u32).collect()
}

/// `EmptyTuple` or `Tuple(x,y)` items.
fn parse_tuple<T>(t: &str, item: impl Fn(&str) -> Option<T>) -> Option<Vec<T>> {
    if t == "EmptyTuple" {
        return Some(Vec::new());
    }
    let inner = t.strip_prefix("Tuple(")?.strip_suffix(')')?;
    inner.split(',').map(item).collect()
}

fn parse_fields(format: CkFormat, tokens: &[&str]) -> Result<Instance, ImportError> {
    let op = format.op();
    let mut inst = blank_instance(op, format.kind());
    let mut k0 = None;
    let fields = format.fields();
    let mut cur = Cursor {
        tokens,
        pos: 0,
        name: "",
    };
    for field in &fields {
        cur.name = field.name;
        match field.value {
            Value::NDim => {
                inst.ndim = cur.int()?;
                if !(1..=3).contains(&inst.ndim) {
                    return Err(cur.err(format!("expected 1, 2 or 3, found `{}`", inst.ndim)));
                }
            }
            Value::Layout(role) => {
                let t = cur.next()?;
                *layout_slot(&mut inst, op, role) = parse_layout(t)
                    .ok_or_else(|| cur.expected("a layout name such as NHWGC", t))?;
            }
            Value::DsLayouts => {
                let t = cur.next()?;
                inst.layout.ds = parse_tuple(t, parse_layout)
                    .ok_or_else(|| cur.expected("EmptyTuple or Tuple(layouts)", t))?;
            }
            Value::Type(slot) => {
                *type_slot(&mut inst, op, slot) = cur.spelled(&DATA_TYPE, "a data type")?
            }
            Value::Sources(role) => {
                let t = cur.next()?;
                let (one, several) = match DATA_TYPE.parse(t) {
                    Some(one) => (one, Vec::new()),
                    None => {
                        let several = parse_tuple(t, |s| DATA_TYPE.parse(s))
                            .filter(|s| !s.is_empty())
                            .ok_or_else(|| cur.expected("a data type or Tuple(data types)", t))?;
                        (several[0], several)
                    }
                };
                *type_slot(&mut inst, op, TypeSlot::Tensor(role)) = one;
                *sources_slot(&mut inst, op, role) = several;
            }
            Value::DsTypes => {
                let t = cur.next()?;
                inst.types.ds = parse_tuple(t, |s| DATA_TYPE.parse(s))
                    .ok_or_else(|| cur.expected("EmptyTuple or Tuple(data types)", t))?;
            }
            Value::ElementOp(role) => {
                *element_op_slot(&mut inst, op, role) =
                    cur.spelled(&ELEMENT_OP, "an element-wise op")?
            }
            Value::ConvSpec => inst.spec = cur.spelled(&CONV_SPEC, "a conv specialization")?,
            Value::GemmSpec => inst.gemm_spec = cur.spelled(&GEMM_SPEC, "a GEMM specialization")?,
            Value::Int(IntField::K0) => k0 = Some(cur.int()?),
            Value::Int(IntField::K1) => {
                let k1 = cur.int()?;
                inst.k1 = [k1, k1];
            }
            Value::Int(f) => {
                let v = cur.int()?;
                if let Some(slot) = int_slot(&mut inst, f) {
                    *slot = v;
                }
            }
            Value::Seq(f) => {
                let t = cur.next()?;
                *seq_slot(&mut inst, f) =
                    parse_seq(t).ok_or_else(|| cur.expected("Seq(...)", t))?;
            }
            Value::Flag(f, spelling) => {
                let t = cur.next()?;
                *flag_slot(&mut inst, f) = match (spelling, t) {
                    (Spelling::TrueFalse, "true") | (Spelling::ZeroOne, "1") => true,
                    (Spelling::TrueFalse, "false") | (Spelling::ZeroOne, "0") => false,
                    (Spelling::TrueFalse, _) => return Err(cur.expected("true or false", t)),
                    (Spelling::ZeroOne, _) => return Err(cur.expected("0 or 1", t)),
                };
            }
            Value::Scheduler => inst.pipeline.scheduler = cur.spelled(&SCHEDULER, "a scheduler")?,
            Value::BlockGemmVersion => {
                inst.pipeline.version = cur.spelled(&BLOCK_GEMM_VERSION, "a pipeline version")?
            }
            Value::WmmaPipelineVersion => {
                inst.pipeline.version = cur.spelled(&WMMA_PIPELINE_VERSION, "a pipeline version")?
            }
            Value::TilePipeline => {
                inst.pipeline.version = cur.spelled(&TILE_PIPELINE, "a CK-Tile pipeline name")?
            }
            Value::LoopScheduler => {
                inst.pipeline.loop_scheduler = cur.spelled(&LOOP_SCHEDULER, "a loop scheduler")?
            }
            Value::PrefetchAgain => {
                let v = cur.int()?;
                if v != inst.pipeline.prefetch {
                    return Err(cur.err(format!(
                        "must repeat NumGemmKPrefetchStage ({}), found `{v}`",
                        inst.pipeline.prefetch
                    )));
                }
            }
            Value::StreamK => {
                let t = cur.next()?;
                inst.work.streamk = match t {
                    "0" => None,
                    "1" => {
                        cur.name = "ReductionStrategy";
                        let reduction = cur.spelled(&REDUCTION, "a reduction strategy")?;
                        cur.name = "PersistentDP";
                        let persistent = match cur.next()? {
                            "0" => false,
                            "1" => true,
                            other => return Err(cur.expected("0 or 1", other)),
                        };
                        Some(StreamK {
                            reduction,
                            persistent,
                        })
                    }
                    _ => return Err(cur.expected("0 or 1", t)),
                };
            }
        }
    }
    if cur.pos != tokens.len() {
        return Err(ImportError::FieldCount {
            name: format.ck_name().to_string(),
            expected: cur.pos.to_string(),
            found: tokens.len(),
        });
    }
    if let Some(k0) = k0 {
        inst.tile.k = k0
            .checked_mul(inst.k1[0])
            .ok_or_else(|| ImportError::Field {
                index: 0,
                name: "K0PerBlock",
                message: "K0PerBlock × K1 overflows".to_string(),
            })?;
    }
    complete(&mut inst, format, &fields);
    Ok(inst)
}

/// Fills what the string does not print: derived shapes, types the op does not name, targets.
fn complete(inst: &mut Instance, format: CkFormat, fields: &[crate::emit::format::Field]) {
    let op = format.op();
    let printed = |v: Value| fields.iter().any(|f| f.value == v);
    let a = *type_slot(inst, op, TypeSlot::Tensor(Role::A));
    let b = *type_slot(inst, op, TypeSlot::Tensor(Role::B));
    if !printed(Value::Type(TypeSlot::ComputeA)) {
        inst.types.compute_a = a;
    }
    if !printed(Value::Type(TypeSlot::ComputeB)) {
        inst.types.compute_b = b;
    }
    if !printed(Value::Type(TypeSlot::CShuffle)) {
        inst.types.cshuffle = inst.types.output;
    }
    if !printed(Value::Int(IntField::AK1)) && inst.k1[1] == 0 {
        inst.k1[1] = inst.k1[0];
    }
    inst.work.two_stage = matches!(inst.kind, Kind::XdlTwoStage | Kind::WmmaTwoStage);
    inst.targets = vec![target(inst)];
    let wave = crate::arch::info(inst.targets[0]).wave_size;
    match inst.kind {
        Kind::Tile => {
            // Saturating: a string may hold any u32, and validation refuses the block.
            inst.block = inst
                .waves
                .iter()
                .fold(wave, |block, &w| block.saturating_mul(w));
            inst.work.split_k = SplitK::Fixed(1);
        }
        Kind::Dl => {}
        _ => {
            let per_wave = |t: u32, m: u32, r: u32| t.checked_div(m.saturating_mul(r)).unwrap_or(0);
            inst.waves = [
                per_wave(inst.tile.m, inst.mma[0], inst.repeat[0]),
                per_wave(inst.tile.n, inst.mma[1], inst.repeat[1]),
                1,
            ];
            if let Some(w) = inst.wavelet {
                inst.block = w.load.saturating_add(w.math);
            }
        }
    }
    if format.is_default() {
        inst.ck_format = None;
    } else {
        inst.ck_format = Some(format.variant_name().to_string());
    }
}

/// A target on which the instance is valid: gfx942 for XDL and CK-Tile (gfx950 where direct
/// or async loads or a gfx950-only CK-Tile warp layout need it; sm_90 for a CK-Tile warp layout
/// or warp tile no AMD target has), gfx1201 for the V3 WMMA ops and gfx1100 for the older WMMA
/// ops.
fn target(inst: &Instance) -> Arch {
    let async_load = matches!(
        inst.pipeline.version,
        PipelineVersion::BasicAsyncV1 | PipelineVersion::CompAsync
    );
    match inst.kind {
        Kind::Wmma => Arch::Gfx1100,
        Kind::WmmaV3 | Kind::WmmaTwoStage | Kind::WmmaMultipleD => Arch::Gfx1201,
        _ if inst.pipeline.direct_load || async_load => Arch::Gfx950,
        Kind::Tile => {
            let fits = |a: Arch| {
                let info = crate::arch::info(a);
                info.warp_configs().is_none_or(|w| w.contains(&inst.waves))
                    && info.warp_tile_available(inst.types.compute_a, inst.mma)
            };
            [Arch::Gfx942, Arch::Gfx950, Arch::Sm90]
                .into_iter()
                .find(|&a| fits(a))
                .unwrap_or(Arch::Gfx942)
        }
        _ => Arch::Gfx942,
    }
}

/// `{op}_{kind}_{hash}`: deterministic, and distinct for distinct strings in practice.
fn instance_name(inst: &Instance, text: &str) -> String {
    // FNV-1a: stable across platforms and releases, unlike std's hasher.
    let hash = text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("{}_{}_{hash:08x}", inst.op.keyword(), inst.kind.keyword())
}
