//! Reads CK's C++ instance lists: a `.cpp` of CK's instance library instantiates alias templates
//! (`template <...> using name = std::tuple<Op<...>, ...>;`, in the headers it includes) through
//! `add_device_operation_instances(instances, name<args...>{})`. Each tuple row, its template
//! parameters bound and the files' aliases (`using F16 = ck::half_t;`, `static constexpr auto
//! ConvFwdDefault = ...;`) resolved, is written as the instance string CK prints for it and read
//! as [`import_trait`] reads one, so that both importers agree on every field. The CK release
//! the files are from picks among an op's formats where they differ by release.

use super::traits::{ImportError, ImportedInstance, import_trait};
use crate::emit::CkRelease;
use crate::emit::ck_cpp::{Param, class_name, template_order};
use crate::emit::format::{CkFormat, Field, Role, Spelling, TypeSlot, Value};
use crate::model::Op;
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;

/// Most files one `.cpp` may pull in through its includes, and their bytes in all: enough for an
/// instance file and its list headers, bounded against hostile input.
const MAX_FILES: usize = 64;
const MAX_BYTES: usize = 16 << 20;
/// Deepest alias chain and template nesting followed, and most names one row resolves to (a
/// row of CK's has about 60).
const MAX_DEPTH: usize = 32;
const MAX_NAMES: usize = 4096;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CppError {
    #[error("{file}:{line}: {message}")]
    Syntax {
        file: String,
        line: usize,
        message: String,
    },
    #[error("more than {MAX_FILES} files or {MAX_BYTES} bytes through the includes")]
    TooLarge,
    #[error("no `add_device_operation_instances` call")]
    NoInstances,
    #[error("instance list `{0}` is not defined in the files read")]
    UnknownList(String),
    #[error("`{list}` takes {expected} template arguments, given {given}")]
    Arity {
        list: String,
        expected: usize,
        given: usize,
    },
}

/// One row of an instantiated list.
#[derive(Clone, Debug, PartialEq)]
pub struct CppRow {
    /// The list's name and the row's file and line.
    pub list: String,
    pub file: String,
    pub line: usize,
    /// The instance string the row spells, or why there is none, then what importing it gave.
    pub result: Result<ImportedInstance, RowError>,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RowError {
    #[error("unknown op `{0}`")]
    UnknownOp(String),
    #[error("`{op}` with {given} template arguments: {expected} expected")]
    Arity {
        op: String,
        given: usize,
        expected: String,
    },
    #[error("{field}: cannot spell `{text}` as an instance-string field")]
    Field { field: &'static str, text: String },
    #[error("{field} is left to its default, which is not known here")]
    NoDefault { field: &'static str },
    #[error("`{0}` rows wrap a batched GEMM op, which this importer does not read")]
    ExplicitGemm(String),
    #[error("alias chain deeper than {MAX_DEPTH} or more than {MAX_NAMES} names at `{0}`")]
    TooDeep(String),
    #[error("{0}")]
    Import(ImportError),
}

/// A template argument: a name (qualified) with its own arguments, or a number.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Name(String, Option<Vec<Expr>>),
    Num(String),
}

#[derive(Clone, Debug, PartialEq)]
struct Tok {
    text: String,
    file: usize,
    line: usize,
}

struct List {
    params: Vec<String>,
    rows: Vec<(Expr, usize, usize)>,
}

#[derive(Default)]
struct Defs {
    aliases: BTreeMap<String, Expr>,
    lists: BTreeMap<String, List>,
    /// `(list, arguments)` of each `add_device_operation_instances` call, in order.
    calls: Vec<(String, Vec<Expr>)>,
}

/// The rows of every list `main` instantiates; `include` gives the text of an included file
/// (`None` for files not to read, such as CK's own headers outside the instance lists).
pub fn import_cpp(
    name: &str,
    main: &str,
    include: &mut dyn FnMut(&str) -> Option<String>,
    release: CkRelease,
) -> Result<Vec<CppRow>, CppError> {
    let mut files = vec![(name.to_string(), main.to_string())];
    let mut seen = BTreeSet::new();
    let mut bytes = main.len();
    let mut next = 0;
    while next < files.len() {
        let includes = includes_of(&files[next].1);
        next += 1;
        for path in includes {
            if !seen.insert(path.clone()) {
                continue;
            }
            if let Some(text) = include(&path) {
                bytes += text.len();
                if files.len() >= MAX_FILES || bytes > MAX_BYTES {
                    return Err(CppError::TooLarge);
                }
                files.push((path, text));
            }
        }
    }
    let mut defs = Defs::default();
    // Headers first, so that the main file's definitions come last and win.
    for (i, (file, text)) in files.iter().enumerate().rev() {
        let toks = tokens(text, i);
        parse_defs(&toks, &mut defs).map_err(|(line, message)| CppError::Syntax {
            file: file.clone(),
            line,
            message,
        })?;
    }
    if defs.calls.is_empty() {
        return Err(CppError::NoInstances);
    }
    let mut rows = Vec::new();
    for (list_name, args) in &defs.calls {
        let list = defs
            .lists
            .get(list_name)
            .ok_or_else(|| CppError::UnknownList(list_name.clone()))?;
        if list.params.len() != args.len() {
            return Err(CppError::Arity {
                list: list_name.clone(),
                expected: list.params.len(),
                given: args.len(),
            });
        }
        let bound: BTreeMap<&str, &Expr> = list
            .params
            .iter()
            .map(String::as_str)
            .zip(args.iter())
            .collect();
        for (row, file, line) in &list.rows {
            let mut budget = MAX_NAMES;
            let result = resolve(row, &bound, &defs.aliases, 0, &mut budget)
                .and_then(|r| instance_string(&r, release))
                .and_then(|s| import_trait(&s).map_err(RowError::Import));
            rows.push(CppRow {
                list: list_name.clone(),
                file: files[*file].0.clone(),
                line: *line,
                result,
            });
        }
    }
    Ok(rows)
}

/// The quoted `#include` paths of a file, in order.
fn includes_of(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim();
            let inner = rest.strip_prefix('"')?;
            Some(inner[..inner.find('"')?].to_string())
        })
        .collect()
}

/// Identifiers (with `::` qualifiers), numbers and single punctuation characters, comments and
/// preprocessor lines left out.
fn tokens(text: &str, file: usize) -> Vec<Tok> {
    let b = text.as_bytes();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // A directive runs to the end of its line (continuations included).
            while i < b.len() && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                i += 1;
            }
            continue;
        }
        line_start = false;
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                line += usize::from(b[i] == b'\n');
                i += 1;
            }
            i += 2;
            continue;
        }
        let start = i;
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if word(c) || (c == b':' && b.get(i + 1) == Some(&b':')) {
            while i < b.len() && (word(b[i]) || (b[i] == b':' && b.get(i + 1) == Some(&b':'))) {
                i += if b[i] == b':' { 2 } else { 1 };
            }
        } else {
            // One character; multi-byte UTF-8 stays whole.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(Tok {
            text: text[start..i].to_string(),
            file,
            line,
        });
    }
    out
}

type Failure = (usize, String);

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        let toks: &'a [Tok] = self.toks;
        toks.get(self.pos).map(|t| t.text.as_str())
    }
    /// The file and line of the next token (the last one's at the end).
    fn here(&self) -> (usize, usize) {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or((0, 0), |t| (t.file, t.line))
    }
    fn line(&self) -> usize {
        self.toks
            .get(self.pos.min(self.toks.len().saturating_sub(1)))
            .map_or(0, |t| t.line)
    }
    fn fail<T>(&self, message: impl Into<String>) -> Result<T, Failure> {
        Err((self.line(), message.into()))
    }
    fn eat(&mut self, t: &str) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) -> Result<(), Failure> {
        if self.eat(t) {
            Ok(())
        } else {
            self.fail(format!(
                "expected `{t}`, found `{}`",
                self.peek().unwrap_or("the end")
            ))
        }
    }
    fn ident(&mut self) -> Result<String, Failure> {
        match self.peek() {
            Some(t) if t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == ':') => {
                self.pos += 1;
                Ok(t.to_string())
            }
            other => self.fail(format!(
                "expected a name, found `{}`",
                other.unwrap_or("the end")
            )),
        }
    }
    /// Skips to just after the next `;` at nesting depth 0.
    fn skip_statement(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            self.pos += 1;
            match t {
                "(" | "{" | "[" => depth += 1,
                ")" | "}" | "]" => depth -= 1,
                ";" if depth <= 0 => return,
                _ => {}
            }
        }
    }
    fn expr(&mut self, depth: usize) -> Result<Expr, Failure> {
        if depth > MAX_DEPTH {
            return self.fail("template arguments nested too deep");
        }
        let neg = self.eat("-");
        let t = self.ident().or_else(|_| match self.peek() {
            Some(t) if t.bytes().all(|b| b.is_ascii_digit()) => {
                self.pos += 1;
                Ok(t.to_string())
            }
            other => self.fail(format!(
                "expected a template argument, found `{}`",
                other.unwrap_or("the end")
            )),
        })?;
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            return Ok(Expr::Num(if neg { format!("-{t}") } else { t }));
        }
        if neg {
            return self.fail("`-` before a name");
        }
        let args = if self.eat("<") {
            let mut args = Vec::new();
            if !self.eat(">") {
                loop {
                    args.push(self.expr(depth + 1)?);
                    // A pack expansion (`Is...`) stands for its arguments.
                    while self.eat(".") {}
                    if self.eat(">") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            Some(args)
        } else {
            None
        };
        // A value-initialised argument (`name<...>{}`).
        if self.eat("{") {
            self.expect("}")?;
        }
        Ok(Expr::Name(t, args))
    }
    /// The body of `using NAME = BODY;` after its `=`, with its file and line; `None` where it
    /// does not parse and is no instance list (those alone must parse): passed over.
    fn using_body(&mut self) -> Result<Option<(Expr, usize, usize)>, Failure> {
        let (file, line) = self.here();
        let list = self.peek().is_some_and(|t| last(t) == "tuple");
        let start = self.pos;
        match self.expr(0).and_then(|e| self.expect(";").map(|()| e)) {
            Ok(e) => Ok(Some((e, file, line))),
            Err(e) if list => Err(e),
            Err(_) => {
                self.pos = start;
                self.skip_statement();
                Ok(None)
            }
        }
    }

    /// Template parameter names of `template <...>`: each parameter's last plain name before
    /// its default (`= ...`) or its end.
    fn params(&mut self) -> Result<Vec<String>, Failure> {
        self.expect("<")?;
        let mut names = Vec::new();
        let (mut name, mut in_default, mut depth) = (None, false, 0usize);
        loop {
            let Some(t) = self.peek() else {
                return self.fail("unterminated template parameter list");
            };
            self.pos += 1;
            match t {
                "<" | "(" => depth += 1,
                ">" | ")" if depth > 0 => depth -= 1,
                ">" | "," if depth == 0 => {
                    names.extend(name.take());
                    in_default = false;
                    if t == ">" {
                        return Ok(names);
                    }
                }
                "=" if depth == 0 => in_default = true,
                _ if depth == 0
                    && !in_default
                    && t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') =>
                {
                    name = Some(t.to_string())
                }
                _ => {}
            }
        }
    }
}

fn parse_defs(toks: &[Tok], defs: &mut Defs) -> Result<(), Failure> {
    let mut p = Parser { toks, pos: 0 };
    while let Some(t) = p.peek() {
        match t {
            "template" => {
                p.pos += 1;
                let params = p.params()?;
                if !p.eat("using") {
                    p.skip_statement();
                    continue;
                }
                let name = p.ident()?;
                p.expect("=")?;
                if let Some((body, file, line)) = p.using_body()?
                    && let Some(rows) = tuple_rows(body, toks, file, line)
                {
                    defs.lists.insert(name, List { params, rows });
                }
            }
            "using" => {
                p.pos += 1;
                if p.eat("namespace") {
                    p.skip_statement();
                    continue;
                }
                let name = p.ident()?;
                if !p.eat("=") {
                    p.skip_statement();
                    continue;
                }
                let Some((body, file, line)) = p.using_body()? else {
                    continue;
                };
                match tuple_rows(body.clone(), toks, file, line) {
                    Some(rows) => {
                        defs.lists.insert(
                            name,
                            List {
                                params: Vec::new(),
                                rows,
                            },
                        );
                    }
                    None => {
                        defs.aliases.insert(name, body);
                    }
                }
            }
            "static" | "constexpr" | "inline" => {
                // `static constexpr auto NAME = EXPR;`
                while matches!(p.peek(), Some("static" | "constexpr" | "inline" | "const")) {
                    p.pos += 1;
                }
                let _type = p.ident()?;
                let name = p.ident()?;
                if p.eat("=") {
                    let start = p.pos;
                    match p.expr(0) {
                        Ok(e) if p.eat(";") => {
                            defs.aliases.insert(name, e);
                        }
                        _ => {
                            p.pos = start;
                            p.skip_statement();
                        }
                    }
                } else {
                    p.skip_statement();
                }
            }
            "add_device_operation_instances" => {
                p.pos += 1;
                p.expect("(")?;
                let _target = p.ident()?;
                p.expect(",")?;
                match p.expr(0)? {
                    Expr::Name(list, args) => defs
                        .calls
                        .push((last(&list).to_string(), args.unwrap_or_default())),
                    Expr::Num(n) => {
                        return p.fail(format!("expected an instance list, found `{n}`"));
                    }
                }
                p.expect(")")?;
                p.expect(";")?;
            }
            _ => p.pos += 1,
        }
    }
    Ok(())
}

/// The rows of a `std::tuple<...>` body, each with its file and line: the lines of the row's
/// op name, found again in the tokens (an `Expr` keeps none).
fn tuple_rows(
    body: Expr,
    toks: &[Tok],
    file: usize,
    from: usize,
) -> Option<Vec<(Expr, usize, usize)>> {
    let Expr::Name(name, Some(rows)) = body else {
        return None;
    };
    if last(&name) != "tuple" {
        return None;
    }
    // One pass: each row's name is the next token of that text after the row before.
    let mut at = toks.iter().filter(|t| t.file == file && t.line >= from);
    Some(
        rows.into_iter()
            .map(|r| {
                let line = match &r {
                    Expr::Name(n, _) => at.find(|t| t.text == *n).map(|t| t.line),
                    Expr::Num(_) => None,
                };
                (r, file, line.unwrap_or(from))
            })
            .collect(),
    )
}

/// The last component of a qualified name.
fn last(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// `e` with the list's parameters bound and aliases followed to what they name, in at most
/// `budget` names (aliases of aliases could otherwise double at each level).
fn resolve(
    e: &Expr,
    bound: &BTreeMap<&str, &Expr>,
    aliases: &BTreeMap<String, Expr>,
    depth: usize,
    budget: &mut usize,
) -> Result<Expr, RowError> {
    if depth > MAX_DEPTH || *budget == 0 {
        return Err(RowError::TooDeep(cpp_text(e)));
    }
    *budget -= 1;
    match e {
        Expr::Num(_) => Ok(e.clone()),
        Expr::Name(n, None) => {
            if let Some(b) = bound.get(n.as_str()) {
                resolve(b, &BTreeMap::new(), aliases, depth + 1, budget)
            } else if let Some(a) = aliases.get(n.as_str()) {
                resolve(a, &BTreeMap::new(), aliases, depth + 1, budget)
            } else {
                Ok(e.clone())
            }
        }
        Expr::Name(n, Some(args)) => {
            let args = args
                .iter()
                .map(|a| resolve(a, bound, aliases, depth + 1, budget))
                .collect::<Result<Vec<_>, _>>()?;
            // An alias template without parameters of its own (`S<...>` = `ck::Sequence<...>`).
            let head = match aliases.get(n.as_str()) {
                Some(Expr::Name(target, None)) => target.clone(),
                _ => n.clone(),
            };
            Ok(Expr::Name(head, Some(args)))
        }
    }
}

/// CK's element types by the names its headers give them and the aliases CK's lists use.
const ELEMENT_TYPES: &[(&str, &str)] = &[
    ("half_t", "fp16"),
    ("F16", "fp16"),
    ("bhalf_t", "bf16"),
    ("BF16", "bf16"),
    ("float", "fp32"),
    ("F32", "fp32"),
    ("tf32_t", "tf32"),
    ("TF32", "tf32"),
    ("f8_t", "fp8"),
    ("F8", "fp8"),
    ("bf8_t", "bf8"),
    ("BF8", "bf8"),
    ("int8_t", "s8"),
    ("I8", "s8"),
    ("int32_t", "s32"),
    ("I32", "s32"),
    ("double", "fp64"),
    ("F64", "fp64"),
];

fn element_type(e: &Expr) -> Option<&'static str> {
    let Expr::Name(n, None) = e else {
        return None;
    };
    ELEMENT_TYPES
        .iter()
        .find(|(c, _)| *c == last(n))
        .map(|(_, s)| *s)
}

/// A plain name's last component (`ck::...::Default` is `Default`).
fn plain(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name(n, None) => Some(last(n)),
        _ => None,
    }
}

fn tuple_items(e: &Expr) -> Option<&[Expr]> {
    match e {
        Expr::Name(n, Some(items)) if last(n) == "Tuple" => Some(items),
        _ => None,
    }
}

/// A field's instance-string token for template argument `e`.
fn spell(field: &Field, e: &Expr) -> Option<String> {
    let tuple = |item: &dyn Fn(&Expr) -> Option<String>| {
        let items = tuple_items(e)?;
        if items.is_empty() {
            return Some("EmptyTuple".to_string());
        }
        let items: Option<Vec<String>> = items.iter().map(item).collect();
        Some(format!("Tuple({})", items?.join(",")))
    };
    Some(match field.value {
        Value::NDim | Value::Int(_) | Value::PrefetchAgain => match e {
            Expr::Num(n) => n.clone(),
            _ => return None,
        },
        Value::Type(_) => element_type(e)?.to_string(),
        Value::Sources(_) => match tuple_items(e) {
            Some(_) => tuple(&|i| element_type(i).map(str::to_string))?,
            None => element_type(e)?.to_string(),
        },
        Value::DsTypes => tuple(&|i| element_type(i).map(str::to_string))?,
        Value::DsLayouts => tuple(&|i| plain(i).map(str::to_string))?,
        Value::Seq(_) => match e {
            Expr::Name(n, Some(items)) if matches!(last(n), "S" | "Sequence") => {
                let items: Option<Vec<&str>> = items
                    .iter()
                    .map(|i| match i {
                        Expr::Num(n) => Some(n.as_str()),
                        Expr::Name(..) => None,
                    })
                    .collect();
                format!("Seq({})", items?.join(","))
            }
            _ => return None,
        },
        Value::Flag(_, spelling) => {
            let on = match e {
                Expr::Num(n) if n == "0" || n == "1" => n == "1",
                Expr::Name(n, None) if n == "true" || n == "false" => n == "true",
                _ => return None,
            };
            match (spelling, on) {
                (Spelling::TrueFalse, true) => "true",
                (Spelling::TrueFalse, false) => "false",
                (Spelling::ZeroOne, true) => "1",
                (Spelling::ZeroOne, false) => "0",
            }
            .to_string()
        }
        Value::Layout(_)
        | Value::ElementOp(_)
        | Value::ConvSpec
        | Value::GemmSpec
        | Value::Scheduler
        | Value::BlockGemmVersion
        | Value::WmmaPipelineVersion
        | Value::LoopScheduler
        | Value::TilePipeline => plain(e)?.to_string(),
        Value::StreamK => return None,
    })
}

/// The C++ template's default of a trailing field CK's rows leave out, given the tokens before
/// it (the compute types default to the A tensor's type).
fn default_of(field: &Field, format: CkFormat, done: &[(&Field, String)]) -> Option<String> {
    let token = |v: Value| {
        done.iter()
            .find(|(f, _)| f.value == v)
            .map(|(_, t)| t.clone())
    };
    // A multiple-A/B source's tuple computes in its first tensor's type.
    let tensor = |r: Role| {
        token(Value::Type(TypeSlot::Tensor(r))).or_else(|| {
            let t = token(Value::Sources(r))?;
            let inner = t.strip_prefix("Tuple(").map_or(t.as_str(), |i| i);
            Some(
                inner
                    .split([',', ')'])
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
    };
    Some(match field.value {
        // CK defaults the compute type to the input's (forward, backward weight) or the output
        // gradient's (backward data: its A), which fields name by role or by tensor.
        Value::Type(TypeSlot::ComputeA) => match format.op() {
            Op::BwdData => tensor(Role::A).or_else(|| tensor(Role::Out))?,
            Op::Fwd | Op::BwdWeight => {
                tensor(Role::In).or_else(|| tensor(Role::A.tensor(format.op())))?
            }
        },
        Value::Type(TypeSlot::ComputeB) => token(Value::Type(TypeSlot::ComputeA))?,
        Value::LoopScheduler => "Default".to_string(),
        Value::Scheduler => "Intrawave".to_string(),
        Value::BlockGemmVersion | Value::WmmaPipelineVersion => "v1".to_string(),
        Value::Int(_) if field.name.contains("TransposeTransfer") => "1".to_string(),
        Value::Int(_) if field.name == "NumGroupsToMerge" => "1".to_string(),
        Value::Int(_) if field.name == "NumGemmKPrefetchStage" => "1".to_string(),
        Value::Flag(_, Spelling::TrueFalse) => "false".to_string(),
        Value::Flag(_, Spelling::ZeroOne) => "0".to_string(),
        _ => return None,
    })
}

/// The instance string of a resolved row `Op<args...>`: the variant of the op's formats whose
/// template takes that many arguments (the repeated prefetch count and CK-Tile's StreamK fields
/// are not template arguments; trailing ones may be left to their defaults).
fn instance_string(row: &Expr, release: CkRelease) -> Result<String, RowError> {
    let Expr::Name(name, Some(args)) = row else {
        return Err(RowError::UnknownOp(format!("{row:?}")));
    };
    // The C++ class, which for some ops is not the name the string prints.
    let class = last(name);
    let mut formats: Vec<CkFormat> = CkFormat::ALL
        .iter()
        .copied()
        .filter(|&f| class_name(f) == class && release.has_format(f))
        .collect();
    let Some(op) = formats.first().map(|f| f.ck_name()) else {
        return Err(RowError::UnknownOp(class.to_string()));
    };
    if formats.contains(&CkFormat::BwdWeightExplicit) {
        return Err(RowError::ExplicitGemm(class.to_string()));
    }
    // A variant whose template takes exactly the row's arguments first (the tree's own op:
    // CK's October 2024 forward XDL V3 ends before `DirectLoad`), then the default variant,
    // the one CK prints where two spell the same arguments.
    formats.sort_by_key(|&f| (template_order(f).len() != args.len(), !f.is_default()));
    let mut last_err = None;
    let mut counts = Vec::new();
    for format in formats {
        let order = template_order(format);
        counts.push(order.len());
        if args.len() > order.len() {
            continue;
        }
        // Each argument to the field it fills; the C-shuffle type the string leaves out is
        // passed over, and trailing parameters the row leaves out take their defaults.
        let fields = format.fields();
        let mut given: Vec<Option<&Expr>> = vec![None; fields.len()];
        for (param, arg) in order.iter().zip(args) {
            if let Param::Field(i) = *param {
                given[i] = Some(arg);
            }
        }
        match spell_fields(format, &fields, &given) {
            Ok(tokens) => return Ok(format!("{op}<{}>", tokens.join(","))),
            Err(e) => last_err = Some(e),
        }
    }
    Err(last_err.unwrap_or_else(|| {
        counts.sort_unstable();
        counts.dedup();
        let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
        RowError::Arity {
            op: op.to_string(),
            given: args.len(),
            expected: format!("at most {}", counts.join(" or ")),
        }
    }))
}

/// The tokens of `fields`, each spelled from its argument in `given` (by field index) or
/// defaulted.
fn spell_fields(
    format: CkFormat,
    fields: &[Field],
    given: &[Option<&Expr>],
) -> Result<Vec<String>, RowError> {
    let mut done: Vec<(&Field, String)> = Vec::new();
    let mut prefetch = None;
    for (field, arg) in fields.iter().zip(given) {
        let token = match field.value {
            Value::PrefetchAgain => prefetch
                .clone()
                .ok_or(RowError::NoDefault { field: field.name })?,
            Value::StreamK => "0".to_string(),
            _ => match arg {
                Some(e) => spell(field, e).ok_or_else(|| RowError::Field {
                    field: field.name,
                    text: cpp_text(e),
                })?,
                None => default_of(field, format, &done)
                    .ok_or(RowError::NoDefault { field: field.name })?,
            },
        };
        if field.name == "NumGemmKPrefetchStage" {
            prefetch = Some(token.clone());
        }
        done.push((field, token));
    }
    Ok(done.into_iter().map(|(_, t)| t).collect())
}

/// `e` as C++ spells it, for messages.
fn cpp_text(e: &Expr) -> String {
    match e {
        Expr::Num(n) => n.clone(),
        Expr::Name(n, None) => n.clone(),
        Expr::Name(n, Some(args)) => {
            let args: Vec<String> = args.iter().map(cpp_text).collect();
            format!("{n}<{}>", args.join(", "))
        }
    }
}
