//! The one table of `.ck` keys: each key's dotted name, the shape of value it takes, what it means,
//! and how it sets an [`InstanceSpec`]. Resolution types and applies values through it; the
//! language reference's key table is generated from it.

use crate::codes::RuleCode;
use crate::model::*;
use crate::spec::{InstanceSpec, Int, Ints, Sp, SplitKSpec};
use ck_dsl::Diagnostic;
use ck_dsl::ast::{Value, ValueKind};

/// Diagnostic codes of key lookup and value typing (see `docs/diagnostics.md`).
pub mod codes {
    pub const UNKNOWN_KEY: &str = "CK0110";
    pub const WRONG_SHAPE: &str = "CK0111";
    pub const UNKNOWN_WORD: &str = "CK0112";
}

/// The shape of value a key takes.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Int,
    /// An integer or `auto`.
    IntOrAuto,
    Bool,
    Str,
    Ints,
    Bools,
    /// One of the keywords `keywords()` lists.
    Word(fn() -> Vec<&'static str>),
    /// A list of such keywords.
    Words(fn() -> Vec<&'static str>),
}

impl Shape {
    /// The shape in words, for messages: "a list of integers".
    pub fn describe(self) -> &'static str {
        match self {
            Shape::Int => "an integer",
            Shape::IntOrAuto => "an integer or `auto`",
            Shape::Bool => "`true` or `false`",
            Shape::Str => "a string",
            Shape::Ints => "a list of integers",
            Shape::Bools => "a list of `true`/`false`",
            Shape::Word(_) => "a name",
            Shape::Words(_) => "a list of names",
        }
    }

    /// The accepted values, for the reference table.
    pub fn values(self) -> String {
        match self {
            Shape::Word(words) => words()
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", "),
            Shape::Words(words) => {
                format!(
                    "list of {}",
                    words()
                        .iter()
                        .map(|w| format!("`{w}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            other => other.describe().to_string(),
        }
    }
}

/// What a key sets.
#[derive(Clone, Copy)]
pub enum Target {
    /// A field of [`InstanceSpec`]: `set` types the value into a spec (failing with a diagnostic);
    /// `copy` moves the field from one spec to another (resolution layers specs this way).
    Spec {
        set: fn(&mut InstanceSpec, &Value) -> Result<(), Diagnostic>,
        copy: fn(&mut InstanceSpec, &InstanceSpec),
    },
    /// `name`: a family's naming pattern, handled by resolution.
    FamilyName,
}

/// One key of the language.
#[derive(Clone, Copy)]
pub struct Key {
    pub name: &'static str,
    pub shape: Shape,
    pub doc: &'static str,
    pub target: Target,
}

/// Enums of `model.rs` spelled by keywords in `.ck` source.
trait Keyword: Sized + Copy {
    fn parse(word: &str) -> Option<Self>;
    fn all() -> Vec<&'static str>;
}

macro_rules! keyword_impl {
    ($($t:ty),*) => {$(
        impl Keyword for $t {
            fn parse(word: &str) -> Option<Self> {
                <$t>::from_keyword(word)
            }
            fn all() -> Vec<&'static str> {
                <$t>::keywords().collect()
            }
        }
    )*};
}
impl Keyword for RuleCode {
    fn parse(word: &str) -> Option<Self> {
        RuleCode::all().find(|c| c.0 == word)
    }
    fn all() -> Vec<&'static str> {
        RuleCode::all().map(|c| c.0).collect()
    }
}

keyword_impl!(
    Op,
    Kind,
    Layout,
    DataType,
    ElementOp,
    ConvSpec,
    GemmSpec,
    Scheduler,
    LoopScheduler,
    PipelineVersion,
    Arch,
    Reduction,
    Epilogue
);

fn wrong_shape(v: &Value, shape: Shape) -> Diagnostic {
    Diagnostic::error(
        codes::WRONG_SHAPE,
        format!("expected {}, found {}", shape.describe(), v.kind.describe()),
    )
    .at(v.span, format!("expected {}", shape.describe()))
}

fn int(v: &Value) -> Result<Int, Diagnostic> {
    match v.kind {
        ValueKind::Int(n) => Ok(Sp::new(n, v.span)),
        _ => Err(wrong_shape(v, Shape::Int)),
    }
}

fn boolean(v: &Value) -> Result<Sp<bool>, Diagnostic> {
    match v.kind {
        ValueKind::Bool(b) => Ok(Sp::new(b, v.span)),
        _ => Err(wrong_shape(v, Shape::Bool)),
    }
}

fn string(v: &Value) -> Result<Sp<String>, Diagnostic> {
    match &v.kind {
        ValueKind::Str(s) => Ok(Sp::new(s.clone(), v.span)),
        _ => Err(wrong_shape(v, Shape::Str)),
    }
}

fn split_k(v: &Value) -> Result<Sp<SplitKSpec>, Diagnostic> {
    match v.kind {
        ValueKind::Int(n) => Ok(Sp::new(SplitKSpec::Fixed(n), v.span)),
        ValueKind::Auto => Ok(Sp::new(SplitKSpec::Auto, v.span)),
        _ => Err(wrong_shape(v, Shape::IntOrAuto)),
    }
}

/// The items of a list value, each typed by `item`; `shape` names the whole for messages.
fn list<T>(
    v: &Value,
    shape: Shape,
    item: impl Fn(&Value) -> Result<T, Diagnostic>,
) -> Result<Sp<Vec<T>>, Diagnostic> {
    match &v.kind {
        ValueKind::List(items) => {
            let typed = items
                .iter()
                .map(item)
                .collect::<Result<Vec<T>, Diagnostic>>();
            // An item of the wrong shape is reported against the whole list's shape.
            typed
                .map(|t| Sp::new(t, v.span))
                .map_err(|_| wrong_shape_in_list(v, items, shape))
        }
        _ => Err(wrong_shape(v, shape)),
    }
}

fn wrong_shape_in_list(v: &Value, items: &[Value], shape: Shape) -> Diagnostic {
    let bad = items.iter().find(|i| !matches_item(i, shape)).unwrap_or(v);
    match (shape, &bad.kind) {
        (Shape::Words(words), ValueKind::Ident(w)) => unknown_word(bad, w, &words()),
        _ => Diagnostic::error(
            codes::WRONG_SHAPE,
            format!(
                "expected {}, found {} in the list",
                shape.describe(),
                bad.kind.describe()
            ),
        )
        .at(bad.span, "this item")
        .with(v.span, format!("expected {}", shape.describe())),
    }
}

fn matches_item(item: &Value, shape: Shape) -> bool {
    match (shape, &item.kind) {
        (Shape::Ints, ValueKind::Int(_)) | (Shape::Bools, ValueKind::Bool(_)) => true,
        (Shape::Words(words), ValueKind::Ident(w)) => words().contains(&w.as_str()),
        _ => false,
    }
}

fn ints(v: &Value) -> Result<Ints, Diagnostic> {
    list(v, Shape::Ints, |i| int(i).map(|n| n.value))
}

fn bools(v: &Value) -> Result<Sp<Vec<bool>>, Diagnostic> {
    list(v, Shape::Bools, |i| boolean(i).map(|b| b.value))
}

fn word<E: Keyword>(v: &Value) -> Result<Sp<E>, Diagnostic> {
    match &v.kind {
        ValueKind::Ident(w) => E::parse(w)
            .map(|e| Sp::new(e, v.span))
            .ok_or_else(|| unknown_word(v, w, &E::all())),
        _ => Err(wrong_shape(v, Shape::Word(E::all))),
    }
}

fn words<E: Keyword>(v: &Value) -> Result<Sp<Vec<E>>, Diagnostic> {
    list(v, Shape::Words(E::all), |i| word::<E>(i).map(|e| e.value))
}

fn unknown_word(v: &Value, w: &str, words: &[&'static str]) -> Diagnostic {
    let d = Diagnostic::error(codes::UNKNOWN_WORD, format!("unknown value `{w}`"))
        .at(v.span, "not a known value here")
        .note(format!("expected one of: {}", words.join(", ")));
    match own_spelling(w, words).or_else(|| closest(w, words.iter().copied()).first().copied()) {
        Some(best) => d.help(format!("did you mean `{best}`?")),
        None => d,
    }
}

/// The keyword `w` names in another spelling: another case (`NHWGC`, `Intrawave`), or CK's own
/// type names (`F16`, `BF16`, `F32`, `F8`, `BF8`, `I8`, `I32`, `F64`), where `words` has it.
fn own_spelling(w: &str, words: &[&'static str]) -> Option<&'static str> {
    let lower = w.to_ascii_lowercase();
    let ck_type = match lower.as_str() {
        "f16" | "half" => "fp16",
        "f32" | "float" => "fp32",
        "f64" | "double" => "fp64",
        "f8" => "fp8",
        "i8" => "int8",
        "i32" => "int32",
        other => other,
    };
    words.iter().copied().find(|&k| k == lower || k == ck_type)
}

/// Up to three candidates close to `word` by edit distance, closest first.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = (word.len() / 3).max(1);
    let dotted = format!(".{word}");
    let chars = word.chars().count();
    let mut scored: Vec<(usize, &str)> = candidates
        // The distance is at least the difference in length, so a word far longer than every
        // candidate (a key of megabytes) is not compared letter by letter: that took seconds.
        .filter(|c| chars.abs_diff(c.chars().count()) <= limit || c.ends_with(&dotted))
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|&(d, c)| d <= limit || c.ends_with(&dotted))
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// A key setting `$field` (a path into [`InstanceSpec`]) through the typing function `$ty`;
/// with `copy = …`, its own way of copying the field from a base.
macro_rules! key {
    ($name:literal, $shape:expr, $ty:expr, $doc:literal, $($field:ident).+) => {
        key!($name, $shape, $ty, $doc, $($field).+, copy = |d, s| {
            d.$($field).+ = s.$($field).+.clone()
        })
    };
    ($name:literal, $shape:expr, $ty:expr, $doc:literal, $($field:ident).+, copy = $copy:expr) => {
        Key {
            name: $name,
            shape: $shape,
            doc: $doc,
            target: Target::Spec {
                set: |s, v| {
                    s.$($field).+ = Some($ty(v)?);
                    Ok(())
                },
                copy: $copy,
            },
        }
    };
}

/// A `streamk.*` key: also records the first StreamK setting's span.
macro_rules! streamk_key {
    ($name:literal, $shape:expr, $ty:expr, $doc:literal, $field:ident) => {
        key!(
            $name,
            $shape,
            $ty,
            $doc,
            streamk.$field,
            copy = |d, s| {
                if let Some(v) = &s.streamk.$field {
                    d.streamk_span.get_or_insert(v.span);
                    d.streamk.$field = Some(v.clone());
                }
            }
        )
    };
}

use Shape as S;

fn w<E: Keyword>() -> fn() -> Vec<&'static str> {
    E::all
}

/// Every key of the language, in the order of the reference table.
pub fn keys() -> &'static [Key] {
    static KEYS: std::sync::OnceLock<Vec<Key>> = std::sync::OnceLock::new();
    KEYS.get_or_init(table)
}

fn table() -> Vec<Key> {
    vec![
        key!(
            "op",
            S::Word(w::<Op>()),
            word::<Op>,
            "convolution direction",
            op
        ),
        key!(
            "dims",
            S::Int,
            int,
            "number of spatial dimensions (NDimSpatial): 1, 2 or 3",
            dims
        ),
        key!(
            "kind",
            S::Word(w::<Kind>()),
            word::<Kind>,
            "device-op family; with `op` it names the CK device op",
            kind
        ),
        key!(
            "layout",
            S::Word(w::<Layout>()),
            word::<Layout>,
            "input layout; weight and output follow unless given",
            layout
        ),
        key!(
            "weight_layout",
            S::Word(w::<Layout>()),
            word::<Layout>,
            "explicit weight layout",
            weight_layout
        ),
        key!(
            "output_layout",
            S::Word(w::<Layout>()),
            word::<Layout>,
            "explicit output layout",
            output_layout
        ),
        key!(
            "ds.layouts",
            S::Words(w::<Layout>()),
            words::<Layout>,
            "layouts of the D tensors of multiple-D ops",
            ds_layouts
        ),
        key!(
            "ds.types",
            S::Words(w::<DataType>()),
            words::<DataType>,
            "data types of the D tensors",
            ds_types
        ),
        key!(
            "sources.in",
            S::Words(w::<DataType>()),
            words::<DataType>,
            "data types of the input tensors a forward `xdl` op combines with `elementwise.in` before the GEMM (CK's `ADataType` tuple); one tensor of `types.in` unless given",
            in_sources
        ),
        key!(
            "sources.wei",
            S::Words(w::<DataType>()),
            words::<DataType>,
            "data types of the weight tensors a forward `xdl` op combines with `elementwise.wei` before the GEMM (CK's `BDataType` tuple)",
            wei_sources
        ),
        key!(
            "dtype",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "sets `types.in`, `types.wei` and `types.out`",
            dtype
        ),
        key!(
            "types.in",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "input data type",
            in_type
        ),
        key!(
            "types.wei",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "weight data type",
            wei_type
        ),
        key!(
            "types.out",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "output data type",
            out_type
        ),
        key!(
            "types.acc",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "accumulator type; fp32 unless given (int32 for int8)",
            acc_type
        ),
        key!(
            "types.compute_a",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "A compute type; the input type unless given",
            compute_a
        ),
        key!(
            "types.compute_b",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "B compute type; the input type unless given",
            compute_b
        ),
        key!(
            "types.cshuffle",
            S::Word(w::<DataType>()),
            word::<DataType>,
            "C-shuffle data type",
            cshuffle_type
        ),
        key!(
            "elementwise.in",
            S::Word(w::<ElementOp>()),
            word::<ElementOp>,
            "element-wise op on the input",
            in_op
        ),
        key!(
            "elementwise.wei",
            S::Word(w::<ElementOp>()),
            word::<ElementOp>,
            "element-wise op on the weight",
            wei_op
        ),
        key!(
            "elementwise.out",
            S::Word(w::<ElementOp>()),
            word::<ElementOp>,
            "element-wise op on the output",
            out_op
        ),
        key!(
            "spec",
            S::Word(w::<ConvSpec>()),
            word::<ConvSpec>,
            "convolution specialization (ConvSpec)",
            spec
        ),
        key!(
            "gemm_spec",
            S::Word(w::<GemmSpec>()),
            word::<GemmSpec>,
            "GemmSpecialization of the old forward and bwd-data ops",
            gemm_spec
        ),
        key!(
            "block",
            S::Int,
            int,
            "BlockSize (derived for CK-Tile and wavelet)",
            block
        ),
        key!(
            "tile",
            S::Ints,
            ints,
            "`[M, N, K]` per block (MPerBlock, NPerBlock, K per block)",
            tile
        ),
        Key {
            name: "k1",
            shape: S::Int,
            doc: "K1: sets both `ak1` and `bk1`",
            target: Target::Spec {
                set: |s, v| {
                    let k1 = int(v)?;
                    s.ak1 = Some(k1.clone());
                    s.bk1 = Some(k1);
                    Ok(())
                },
                copy: |d, s| {
                    d.ak1 = s.ak1.clone();
                    d.bk1 = s.bk1.clone();
                },
            },
        },
        key!("ak1", S::Int, int, "AK1 (forward ops)", ak1),
        key!("bk1", S::Int, int, "BK1 (forward ops)", bk1),
        key!(
            "instr",
            S::Ints,
            ints,
            "`[M, N]` per XDL/WMMA instruction (MPerXdl, NPerXdl)",
            instr
        ),
        key!(
            "repeat",
            S::Ints,
            ints,
            "`[M, N]` instruction repeats per wave (MXdlPerWave, NXdlPerWave)",
            repeat
        ),
        key!(
            "warps",
            S::Ints,
            ints,
            "CK-Tile warps per block `[M, N, K]` (backward-weight tiles with K > 1 also carry the `sliced` entry, docs/kernels.md)",
            warps
        ),
        key!(
            "warp_tile",
            S::Ints,
            ints,
            "CK-Tile warp tile `[M, N, K]`",
            warp_tile
        ),
        key!(
            "vector",
            S::Ints,
            ints,
            "CK-Tile vector sizes `[A, B, C]`",
            vector
        ),
        key!(
            "wave_groups",
            S::Int,
            int,
            "CK-Tile wave groups",
            wave_groups
        ),
        key!(
            "epilogue",
            S::Word(w::<Epilogue>()),
            word::<Epilogue>,
            "CK-Tile epilogue",
            epilogue
        ),
        key!(
            "explicit_gemm",
            S::Bool,
            boolean,
            "CK-Tile explicit GEMM",
            explicit_gemm
        ),
        key!(
            "split_image",
            S::Bool,
            boolean,
            "CK-Tile split image",
            split_image
        ),
        key!(
            "pad",
            S::Bools,
            bools,
            "CK-Tile `[m, n, k]` padding; bwd-data DoPadGemmM/N use the first two",
            pad
        ),
        key!(
            "a.cluster",
            S::Ints,
            ints,
            "A transfer thread cluster lengths",
            a.cluster
        ),
        key!(
            "a.arrange",
            S::Ints,
            ints,
            "A transfer thread cluster arrange order",
            a.arrange
        ),
        key!(
            "a.access",
            S::Ints,
            ints,
            "A transfer source access order",
            a.access
        ),
        key!(
            "a.vector_dim",
            S::Int,
            int,
            "A transfer source vector dimension",
            a.vector_dim
        ),
        key!(
            "a.src_vector",
            S::Int,
            int,
            "A global read vector width (SrcScalarPerVector)",
            a.src_vector
        ),
        key!(
            "a.dst_vector",
            S::Int,
            int,
            "A LDS write vector width (DstScalarPerVector_K1)",
            a.dst_vector
        ),
        key!(
            "a.lds_pad",
            S::Bool,
            boolean,
            "A LDS padding (ABlockLdsAddExtraM)",
            a.lds_pad
        ),
        key!(
            "b.cluster",
            S::Ints,
            ints,
            "B transfer thread cluster lengths",
            b.cluster
        ),
        key!(
            "b.arrange",
            S::Ints,
            ints,
            "B transfer thread cluster arrange order",
            b.arrange
        ),
        key!(
            "b.access",
            S::Ints,
            ints,
            "B transfer source access order",
            b.access
        ),
        key!(
            "b.vector_dim",
            S::Int,
            int,
            "B transfer source vector dimension",
            b.vector_dim
        ),
        key!(
            "b.src_vector",
            S::Int,
            int,
            "B global read vector width (SrcScalarPerVector)",
            b.src_vector
        ),
        key!(
            "b.dst_vector",
            S::Int,
            int,
            "B LDS write vector width (DstScalarPerVector_K1)",
            b.dst_vector
        ),
        key!(
            "b.lds_pad",
            S::Bool,
            boolean,
            "B LDS padding (BBlockLdsAddExtraN)",
            b.lds_pad
        ),
        key!(
            "c.shuffle",
            S::Ints,
            ints,
            "`[M, N]` XDL per wave per C shuffle",
            c.shuffle
        ),
        key!(
            "c.cluster",
            S::Ints,
            ints,
            "`[1, M, 1, N]` C-shuffle block transfer cluster lengths",
            c.cluster
        ),
        key!(
            "c.vector",
            S::Int,
            int,
            "C-shuffle scalar per vector",
            c.vector
        ),
        key!(
            "pipeline.scheduler",
            S::Word(w::<Scheduler>()),
            word::<Scheduler>,
            "BlkGemmPipeSched",
            pipeline.scheduler
        ),
        key!(
            "pipeline.version",
            S::Word(w::<PipelineVersion>()),
            word::<PipelineVersion>,
            "pipeline version",
            pipeline.version
        ),
        key!(
            "pipeline.prefetch",
            S::Int,
            int,
            "prefetch stages (NumGemmKPrefetchStage)",
            pipeline.prefetch
        ),
        key!(
            "pipeline.double_buffer",
            S::Bool,
            boolean,
            "double LDS buffer",
            pipeline.double_buffer
        ),
        key!(
            "pipeline.direct_load",
            S::Bool,
            boolean,
            "direct global-to-LDS load",
            pipeline.direct_load
        ),
        key!(
            "pipeline.thread_tile_transfer",
            S::Bool,
            boolean,
            "forward WMMA V3 UseThreadTileTransfer",
            pipeline.thread_tile_transfer
        ),
        key!(
            "pipeline.loop_scheduler",
            S::Word(w::<LoopScheduler>()),
            word::<LoopScheduler>,
            "LoopScheduler of the old non-V3 ops",
            pipeline.loop_scheduler
        ),
        key!(
            "wavelet.load",
            S::Int,
            int,
            "load thread-group size of wavelet ops",
            wavelet_load
        ),
        key!(
            "wavelet.math",
            S::Int,
            int,
            "math thread-group size of wavelet ops",
            wavelet_math
        ),
        key!(
            "split_k",
            S::IntOrAuto,
            split_k,
            "k_batch: fixed, or `auto` from occupancy (sm_90+: a tile's auto slices may add up in a cluster); the portable kernels' plans take more where a slice would sum more than 2^17 GEMM-K products (docs/kernels.md, long reductions)",
            split_k
        ),
        key!(
            "two_stage",
            S::Bool,
            boolean,
            "fp32 workspace plus a convert kernel",
            two_stage
        ),
        streamk_key!(
            "streamk.reduction",
            S::Word(w::<Reduction>()),
            word::<Reduction>,
            "StreamK fix-up strategy",
            reduction
        ),
        streamk_key!(
            "streamk.persistent",
            S::Bool,
            boolean,
            "persistent StreamK data-parallel section",
            persistent
        ),
        key!(
            "merge_groups",
            S::Int,
            int,
            "NumGroupsToMerge: 1, 2, 4, ..., 64",
            merge_groups
        ),
        key!(
            "large_tensor",
            S::Bool,
            boolean,
            "64-bit indexing",
            large_tensor
        ),
        key!(
            "transpose",
            S::Ints,
            ints,
            "`[src, dst]` MaxTransposeTransfer vector sizes",
            transpose
        ),
        key!(
            "dl.m1_per_thread",
            S::Int,
            int,
            "DL M1PerThread",
            dl.m1_per_thread
        ),
        key!(
            "dl.n1_per_thread",
            S::Int,
            int,
            "DL N1PerThread",
            dl.n1_per_thread
        ),
        key!(
            "dl.k_per_thread",
            S::Int,
            int,
            "DL KPerThread",
            dl.k_per_thread
        ),
        key!(
            "dl.cluster_m1",
            S::Ints,
            ints,
            "DL M1N1ThreadClusterM1Xs",
            dl.cluster_m1
        ),
        key!(
            "dl.cluster_n1",
            S::Ints,
            ints,
            "DL M1N1ThreadClusterN1Xs",
            dl.cluster_n1
        ),
        key!(
            "dl.a.slice",
            S::Ints,
            ints,
            "DL A thread slice lengths",
            dl.a.slice
        ),
        key!(
            "dl.a.cluster",
            S::Ints,
            ints,
            "DL A thread cluster lengths",
            dl.a.cluster
        ),
        key!(
            "dl.a.arrange",
            S::Ints,
            ints,
            "DL A thread cluster arrange order",
            dl.a.arrange
        ),
        key!(
            "dl.a.access",
            S::Ints,
            ints,
            "DL A source access order",
            dl.a.access
        ),
        key!(
            "dl.a.src_vector",
            S::Ints,
            ints,
            "DL A source vector tensor lengths",
            dl.a.src_vector
        ),
        key!(
            "dl.a.src_order",
            S::Ints,
            ints,
            "DL A source vector tensor contiguous order",
            dl.a.src_order
        ),
        key!(
            "dl.a.dst_vector",
            S::Ints,
            ints,
            "DL A destination vector tensor lengths",
            dl.a.dst_vector
        ),
        key!(
            "dl.b.slice",
            S::Ints,
            ints,
            "DL B thread slice lengths",
            dl.b.slice
        ),
        key!(
            "dl.b.cluster",
            S::Ints,
            ints,
            "DL B thread cluster lengths",
            dl.b.cluster
        ),
        key!(
            "dl.b.arrange",
            S::Ints,
            ints,
            "DL B thread cluster arrange order",
            dl.b.arrange
        ),
        key!(
            "dl.b.access",
            S::Ints,
            ints,
            "DL B source access order",
            dl.b.access
        ),
        key!(
            "dl.b.src_vector",
            S::Ints,
            ints,
            "DL B source vector tensor lengths",
            dl.b.src_vector
        ),
        key!(
            "dl.b.src_order",
            S::Ints,
            ints,
            "DL B source vector tensor contiguous order",
            dl.b.src_order
        ),
        key!(
            "dl.b.dst_vector",
            S::Ints,
            ints,
            "DL B destination vector tensor lengths",
            dl.b.dst_vector
        ),
        key!(
            "dl.c_access_order",
            S::Ints,
            ints,
            "DL C thread transfer access order",
            dl.c_access_order
        ),
        key!(
            "dl.c_vector_dim",
            S::Int,
            int,
            "DL C thread transfer vector dimension",
            dl.c_vector_dim
        ),
        key!(
            "dl.c_vector",
            S::Int,
            int,
            "DL C thread transfer scalar per vector",
            dl.c_vector
        ),
        key!(
            "targets",
            S::Words(w::<Arch>()),
            words::<Arch>,
            "target architectures",
            targets
        ),
        key!(
            "ck_format",
            S::Str,
            string,
            "instance-string format variant",
            ck_format
        ),
        key!(
            "allow",
            S::Words(w::<RuleCode>()),
            words::<RuleCode>,
            "rule codes the instance knowingly breaks, e.g. `[CK0302]`: CK can name and print it, but no back end runs it; those rules warn",
            allow
        ),
        Key {
            name: "name",
            shape: S::Str,
            doc: "families only: the expanded-name pattern, e.g. `\"{family}_{dtype}_{row}\"`",
            target: Target::FamilyName,
        },
    ]
}

/// The key named `dotted`.
pub fn lookup(dotted: &str) -> Option<&'static Key> {
    static INDEX: std::sync::OnceLock<std::collections::HashMap<&'static str, usize>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        keys()
            .iter()
            .enumerate()
            .map(|(i, k)| (k.name, i))
            .collect()
    });
    index.get(dotted).map(|&i| &keys()[i])
}

/// The diagnostic for a key not in the table, with the closest known keys.
pub fn unknown_key(dotted: &str, span: ck_dsl::Span) -> Diagnostic {
    let d = Diagnostic::error(codes::UNKNOWN_KEY, format!("unknown key `{dotted}`"))
        .at(span, "not a key of the language");
    let near = closest(dotted, keys().iter().map(|k| k.name));
    match near.as_slice() {
        [] => d.help("docs/language.md lists every key"),
        [one] => d.help(format!("did you mean `{one}`?")),
        more => d.help(format!(
            "did you mean one of: {}?",
            more.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The key table in Markdown, as `docs/language.md` shows it.
pub fn markdown_table() -> String {
    let mut out = String::from("| key | values | meaning |\n|---|---|---|\n");
    for k in keys() {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            k.name,
            k.shape.values(),
            k.doc
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ck_dsl::{FileId, Span};

    fn v(kind: ValueKind) -> Value {
        Value {
            kind,
            span: Span::new(FileId(0), 0, 1),
        }
    }

    fn set(key: &str, value: Value) -> Result<InstanceSpec, Diagnostic> {
        let mut s = InstanceSpec::new(Sp::new(String::new(), Span::default()), Default::default());
        match lookup(key).expect("known key").target {
            Target::Spec { set, .. } => set(&mut s, &value).map(|()| s),
            Target::FamilyName => panic!("not a spec key"),
        }
    }

    /// A key of 16 MiB (the largest source a session reads) is compared with no candidate
    /// letter by letter (found by the `ck_source` fuzz target: a long key took seconds).
    #[test]
    fn a_huge_word_is_close_to_no_key() {
        let word = "p".repeat(16 << 20);
        let start = std::time::Instant::now();
        assert!(closest(&word, keys().iter().map(|k| k.name)).is_empty());
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!(closest("tiel", keys().iter().map(|k| k.name)), ["tile"]);
    }

    #[test]
    fn names_are_unique_and_lookup_finds_each() {
        let mut names: Vec<_> = keys().iter().map(|k| k.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), keys().len());
        assert!(
            keys()
                .iter()
                .all(|k| lookup(k.name).is_some_and(|l| l.name == k.name))
        );
    }

    #[test]
    fn sets_typed_fields() {
        let s = set(
            "tile",
            v(ValueKind::List(vec![
                v(ValueKind::Int(32)),
                v(ValueKind::Int(64)),
            ])),
        )
        .unwrap();
        assert_eq!(s.tile.unwrap().value, [32, 64]);
        let s = set("k1", v(ValueKind::Int(8))).unwrap();
        assert_eq!((s.ak1.unwrap().value, s.bk1.unwrap().value), (8, 8));
        let s = set("pipeline.version", v(ValueKind::Ident("compv3".into()))).unwrap();
        assert_eq!(s.pipeline.version.unwrap().value, PipelineVersion::CompV3);
        let s = set("split_k", v(ValueKind::Auto)).unwrap();
        assert_eq!(s.split_k.unwrap().value, SplitKSpec::Auto);
        let s = set(
            "targets",
            v(ValueKind::List(vec![v(ValueKind::Ident("gfx942".into()))])),
        )
        .unwrap();
        assert_eq!(s.targets.unwrap().value, [Arch::Gfx942]);
    }

    #[test]
    fn streamk_copy_records_the_first_span() {
        let src = set("streamk.reduction", v(ValueKind::Ident("tree".into()))).unwrap();
        let mut dst =
            InstanceSpec::new(Sp::new(String::new(), Span::default()), Default::default());
        let Target::Spec { copy, .. } = lookup("streamk.reduction").unwrap().target else {
            panic!()
        };
        copy(&mut dst, &src);
        assert_eq!(dst.streamk_span, Some(Span::new(FileId(0), 0, 1)));
    }

    #[test]
    fn wrong_shapes_and_words_are_errors() {
        let d = set("tile", v(ValueKind::Ident("x".into()))).unwrap_err();
        assert_eq!(d.code, codes::WRONG_SHAPE);
        assert_eq!(d.message, "expected a list of integers, found a name");
        let d = set("dtype", v(ValueKind::Ident("fp61".into()))).unwrap_err();
        assert_eq!(d.code, codes::UNKNOWN_WORD);
        assert_eq!(d.help.as_deref(), Some("did you mean `fp16`?"));
        assert!(d.notes[0].starts_with("expected one of: fp32, tf32, fp16"));
        // CK's own spellings and other cases name the keyword, not the nearest by edits.
        for (ck, ours) in [
            ("f16", "fp16"),
            ("F16", "fp16"),
            ("BF16", "bf16"),
            ("I8", "int8"),
        ] {
            let d = set("dtype", v(ValueKind::Ident(ck.into()))).unwrap_err();
            assert_eq!(d.help, Some(format!("did you mean `{ours}`?")), "{ck}");
        }
        let d = set("layout", v(ValueKind::Ident("NHWGC".into()))).unwrap_err();
        assert_eq!(d.help.as_deref(), Some("did you mean `nhwgc`?"));
        let d = set(
            "targets",
            v(ValueKind::List(vec![v(ValueKind::Ident("gfx94".into()))])),
        )
        .unwrap_err();
        assert_eq!(d.code, codes::UNKNOWN_WORD);
        let d = set("tile", v(ValueKind::List(vec![v(ValueKind::Bool(true))]))).unwrap_err();
        assert_eq!(
            d.message,
            "expected a list of integers, found a boolean in the list"
        );
    }

    #[test]
    fn unknown_key_suggests_close_keys() {
        let d = unknown_key("tiles", Span::default());
        assert_eq!(d.help.as_deref(), Some("did you mean `tile`?"));
        let d = unknown_key("cluster", Span::default());
        assert!(d.help.unwrap().contains("`a.cluster`"));
        assert_eq!(
            unknown_key("zzzzzzzz", Span::default()).help.as_deref(),
            Some("docs/language.md lists every key")
        );
    }

    /// `docs/language.md` shows this table between markers; `CK_BLESS=1` rewrites it.
    #[test]
    fn language_reference_table_is_in_sync() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/language.md");
        let doc = std::fs::read_to_string(&path).expect("docs/language.md");
        let (begin, end) = ("<!-- keys:begin -->\n", "<!-- keys:end -->");
        let start = doc.find(begin).expect("begin marker") + begin.len();
        let stop = doc.find(end).expect("end marker");
        let table = markdown_table();
        if std::env::var_os("CK_BLESS").is_some() {
            std::fs::write(&path, format!("{}{table}{}", &doc[..start], &doc[stop..]))
                .expect("write docs");
        } else {
            assert_eq!(
                doc[start..stop],
                table,
                "docs/language.md key table is stale; rerun with CK_BLESS=1"
            );
        }
    }
}
