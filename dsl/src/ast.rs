//! Typed AST of a `.ck` file. Every node carries the byte span it was parsed from.
//!
//! The grammar (`ck.pest`) fixes the shape of items, entries and values; which keys exist and what
//! values they take is checked during resolution (`ck-compiler`), against one key table.

use crate::span::{FileId, Span};
use serde::Serialize;

/// One parsed `.ck` file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct File {
    pub file: FileId,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Item {
    /// `import "path/to/other.ck";`
    Import(Import),
    /// `defaults NAME [: BASE, ...] { entries }`: a named set of settings others inherit.
    Defaults(Block),
    /// `instance NAME [: BASE, ...] { entries }`: exactly one instance.
    Instance(Block),
    /// `family NAME [: BASE, ...] { entries; over ...; rows (...) { ... } }`: many instances.
    Family(Family),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Import {
    pub path: String,
    /// Span of the path string literal.
    pub path_span: Span,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `defaults` and `instance` items.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    /// `///` doc comment lines, without the slashes and the first space.
    pub doc: Vec<String>,
    pub name: Ident,
    /// Names of `defaults` items inherited in order (later ones win).
    pub bases: Vec<Ident>,
    pub entries: Vec<Entry>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Family {
    pub doc: Vec<String>,
    pub name: Ident,
    pub bases: Vec<Ident>,
    /// Settings shared by every instance of the family.
    pub entries: Vec<Entry>,
    /// `over KEY = [v1, v2, ...];` axes, expanded as a cartesian product in declaration order.
    pub axes: Vec<Axis>,
    /// The row table; absent means one instance per axis combination.
    pub rows: Option<Rows>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Axis {
    pub key: KeyPath,
    pub values: Vec<Value>,
    pub span: Span,
}

/// `rows (col, col, ...) { name = (v, v, ...); ... }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rows {
    pub columns: Vec<KeyPath>,
    pub rows: Vec<Row>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub doc: Vec<String>,
    pub name: Ident,
    pub values: Vec<Value>,
    pub span: Span,
}

/// A dotted key such as `pipeline.version`; each segment keeps its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyPath {
    pub segments: Vec<Ident>,
    pub span: Span,
}

impl KeyPath {
    /// The key as written, segments joined by `.`.
    pub fn dotted(&self) -> String {
        self.segments
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(".")
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Entry {
    /// `key = value;`
    Assign {
        key: KeyPath,
        value: Value,
        span: Span,
    },
    /// `name { entries }`: every key inside is prefixed by `name.`.
    Section {
        name: KeyPath,
        entries: Vec<Entry>,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Value {
    pub kind: ValueKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ValueKind {
    /// A non-negative decimal integer (the parser reports overflow past `u64`).
    Int(u64),
    /// `true` / `false`
    Bool(bool),
    /// A bare word: enum values such as `fp16`, `intrawave`, `gfx942`.
    Ident(String),
    /// A double-quoted string.
    Str(String),
    /// `[a, b, ...]`
    List(Vec<Value>),
    /// `auto`: let the compiler choose (split-K, derived parameters).
    Auto,
}

impl ValueKind {
    /// What the value is, in words, for diagnostics ("an integer", "a list", ...).
    pub fn describe(&self) -> &'static str {
        match self {
            ValueKind::Int(_) => "an integer",
            ValueKind::Bool(_) => "a boolean",
            ValueKind::Ident(_) => "a name",
            ValueKind::Str(_) => "a string",
            ValueKind::List(_) => "a list",
            ValueKind::Auto => "`auto`",
        }
    }
}
