//! `.ck` text → typed AST ([`crate::ast`]), with every error reported as our own [`Diagnostic`].
//!
//! The file is parsed one item at a time: after an error the parser resumes at the next line that
//! starts an item, so every broken item gets its diagnostic and the good ones still parse. A lexical
//! pre-scan (`scan.rs`) stops pest before any lexical error or over-deep nesting, so pest never
//! recurses past `scan::MAX_DEPTH` levels.

use crate::ast::*;
use crate::diag::{Diagnostic, Diagnostics};
use crate::scan::{self, LexError, LexErrorKind};
use crate::span::{FileId, Span};
use pest::Parser as _;
use pest::iterators::{Pair, Pairs};

mod expect;

#[derive(pest_derive::Parser)]
#[grammar = "ck.pest"]
struct CkParser;

/// Diagnostic codes of the parser, one per kind of error (see `docs/diagnostics.md`).
pub mod codes {
    /// A token the grammar does not allow here.
    pub const UNEXPECTED_TOKEN: &str = "CK0001";
    /// The file ends inside an item.
    pub const UNEXPECTED_EOF: &str = "CK0002";
    pub const UNTERMINATED_STRING: &str = "CK0003";
    pub const BAD_ESCAPE: &str = "CK0004";
    pub const UNTERMINATED_COMMENT: &str = "CK0005";
    pub const INVALID_CHARACTER: &str = "CK0006";
    pub const INTEGER_OVERFLOW: &str = "CK0007";
    pub const NESTING_TOO_DEEP: &str = "CK0008";
    pub const MISPLACED_DOC: &str = "CK0009";
    pub const SECOND_ROWS: &str = "CK0010";
    /// A control character in a comment or a string.
    pub const CONTROL_CHARACTER: &str = "CK0011";
    /// A doc comment ending in a backslash.
    pub const DOC_BACKSLASH: &str = "CK0012";
}

/// Parses one `.ck` file. Items with errors are left out of the AST; the diagnostics say why.
pub fn parse(file: FileId, text: &str) -> (File, Diagnostics) {
    // Collects the expected tokens that the messages are built from.
    pest::set_error_detail(true);
    let scan = scan::scan(text);
    let mut diags = Diagnostics::new();
    let mut items = Vec::new();
    let mut offset = 0;
    while offset < text.len() {
        let lex_error = scan.error_from(offset);
        let limit = lex_error.map_or(text.len(), |e| e.start);
        let chunk = &text[offset..limit];
        let start = offset + leading_trivia(chunk);
        let error_at = if start == limit {
            // Only trivia before the lexical error (or the end of the file).
            match lex_error {
                None => break,
                Some(e) => {
                    diags.push(lex_diagnostic(file, text, e));
                    e.start
                }
            }
        } else {
            match CkParser::parse(Rule::item_at, chunk) {
                Ok(pairs) => {
                    let mut build = Build {
                        file,
                        base: offset,
                        diags: &mut diags,
                    };
                    let (item, end) = build.item_at(pairs);
                    items.extend(item);
                    offset += end;
                    continue;
                }
                Err(err) => {
                    let pos = offset + expect::furthest(&err);
                    match lex_error {
                        // Stopped by the truncation at the lexical error: that error is the cause.
                        Some(e) if leading_trivia(&text[pos..limit]) == limit - pos => {
                            diags.push(lex_diagnostic(file, text, e));
                            e.start
                        }
                        _ => {
                            let (d, at) = syntax_diagnostic(file, text, offset, &err);
                            diags.push(d);
                            at
                        }
                    }
                }
            }
        };
        match scan.resume_after(text, start, error_at) {
            Some(next) => offset = next,
            None => break,
        }
    }
    (File { file, items }, diags)
}

/// Length of the whitespace and ordinary comments at the start of `text` (doc comments are tokens).
fn leading_trivia(text: &str) -> usize {
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        if trimmed.starts_with("//") && !scan::is_doc_line(trimmed.as_bytes()) {
            rest = &trimmed[trimmed.find('\n').unwrap_or(trimmed.len())..];
        } else if let Some(body) = trimmed.strip_prefix("/*") {
            // The scan truncates the text before an unterminated comment, so this one is closed.
            rest = body.find("*/").map_or("", |n| &body[n + 2..]);
        } else {
            return text.len() - trimmed.len();
        }
    }
}

fn lex_diagnostic(file: FileId, text: &str, e: LexError) -> Diagnostic {
    let span = Span::new(file, e.start, e.end);
    match e.kind {
        LexErrorKind::UnterminatedString => {
            Diagnostic::error(codes::UNTERMINATED_STRING, "unterminated string")
                .at(span, "this string has no closing `\"` on its line")
                .help("close the string with `\"`; strings cannot span lines")
        }
        LexErrorKind::BadEscape => {
            let found = text[e.start..]
                .chars()
                .nth(1)
                .map_or(String::new(), |c| c.to_string());
            Diagnostic::error(
                codes::BAD_ESCAPE,
                format!("unknown escape `\\{found}` in a string"),
            )
            .at(span, "unknown escape")
            .help("the only escapes are `\\\"` and `\\\\`")
        }
        LexErrorKind::UnterminatedComment => {
            Diagnostic::error(codes::UNTERMINATED_COMMENT, "unterminated block comment")
                .at(span, "this comment is never closed")
                .help("close the comment with `*/` (block comments do not nest)")
        }
        LexErrorKind::InvalidChar(c) => {
            let help = match c {
                '-' => "integers in `.ck` files are never negative".to_string(),
                '\'' => "strings are written with double quotes: `\"...\"`".to_string(),
                _ => "names use ASCII letters, digits and `_`; other text belongs in strings or comments"
                    .to_string(),
            };
            Diagnostic::error(
                codes::INVALID_CHARACTER,
                format!("invalid character {c:?} (U+{:04X})", c as u32),
            )
            .at(span, "not allowed here")
            .help(help)
        }
        LexErrorKind::ControlChar(c) => Diagnostic::error(
            codes::CONTROL_CHARACTER,
            format!(
                "control character U+{:04X} in a comment or string",
                c as u32
            ),
        )
        .at(span, "not allowed here")
        .help(
            "comments and strings hold printable text and tabs; doc comments are copied into \
             generated C++, where this character would break the line",
        ),
        LexErrorKind::DocBackslash => Diagnostic::error(
            codes::DOC_BACKSLASH,
            "doc comment ends in a backslash",
        )
        .at(span, "the last character of the line")
        .help(
            "doc comments are copied into generated C++, where a line ending in `\\` continues \
             onto the next line; end the comment with another character",
        ),
        LexErrorKind::TooDeep => Diagnostic::error(codes::NESTING_TOO_DEEP, "nesting too deep")
            .at(
                span,
                format!("more than {} levels of `[`, `{{` and `(`", scan::MAX_DEPTH),
            )
            .help("values nest at most a few levels; check for unclosed brackets"),
    }
}

/// The diagnostic for a pest error in the chunk starting at `offset`, and the error's position.
fn syntax_diagnostic(
    file: FileId,
    text: &str,
    offset: usize,
    err: &pest::error::Error<Rule>,
) -> (Diagnostic, usize) {
    let (expected, pos) = expect::Expected::from_error(err, &text[offset..]);
    let pos = offset + pos;
    // Pest stops just inside a `///` it cannot place; report it from its start.
    let doc = if text[..pos].ends_with("///") {
        Some(pos - 3)
    } else {
        text[pos..].starts_with("///").then_some(pos)
    };
    if let Some(doc) = doc {
        let line_end = text[doc..].find('\n').map_or(text.len(), |n| doc + n);
        return (misplaced_doc(Span::new(file, doc, line_end)), doc);
    }
    let rest = &text[pos..];
    let (code, found, span) = match expect::found(rest) {
        None => (
            codes::UNEXPECTED_EOF,
            "the end of the file".to_string(),
            Span::new(file, pos, pos),
        ),
        Some(token) => (
            codes::UNEXPECTED_TOKEN,
            format!("`{token}`"),
            Span::new(file, pos, pos + token.len()),
        ),
    };
    let message = format!("{}, found {found}", expected.message());
    let label = if code == codes::UNEXPECTED_EOF {
        "the file ends here".to_string()
    } else {
        format!("unexpected {found}")
    };
    (
        Diagnostic::error(code, message)
            .at(span, label)
            .help(expected.help()),
        pos,
    )
}

fn misplaced_doc(span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::MISPLACED_DOC,
        "doc comment not attached to an item or a row",
    )
    .at(
        span,
        "`///` comments document the `defaults`, `instance`, `family` or row that follows",
    )
    .help("use `//` for an ordinary comment")
}

/// The children of `pair` that carry content: keywords only select the rule.
fn inner(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_import
                | Rule::kw_defaults
                | Rule::kw_instance
                | Rule::kw_family
                | Rule::kw_over
                | Rule::kw_rows
        )
    })
}

/// Builds AST nodes from pest pairs: one function per grammar rule. Spans are offset by `base`,
/// where the parsed chunk starts in the file.
struct Build<'d> {
    file: FileId,
    base: usize,
    diags: &'d mut Diagnostics,
}

impl Build<'_> {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, self.base + s.start(), self.base + s.end())
    }

    /// The item of an `item_at` parse and the chunk length it consumed; `None` when building it
    /// reported errors (the item is then left out).
    fn item_at(&mut self, mut pairs: Pairs<Rule>) -> (Option<Item>, usize) {
        let Some(pair) = pairs.next() else {
            return (None, 0);
        };
        let end = pair.as_span().end();
        let errors_before = self.diags.len();
        let item = match pair.as_rule() {
            Rule::import => Item::Import(self.import(pair)),
            Rule::defaults => Item::Defaults(self.block(pair)),
            Rule::instance => Item::Instance(self.block(pair)),
            Rule::family => Item::Family(self.family(pair)),
            _ => unreachable!("item_at yields an item"),
        };
        ((self.diags.len() == errors_before).then_some(item), end)
    }

    fn import(&mut self, pair: Pair<Rule>) -> Import {
        let span = self.span(&pair);
        let mut path = None;
        for p in inner(pair) {
            match p.as_rule() {
                Rule::doc => self.diags.push(misplaced_doc(self.span(&p))),
                Rule::string => path = Some((self.string(p.clone()), self.span(&p))),
                _ => unreachable!("import holds docs and a string"),
            }
        }
        let (path, path_span) = path.unwrap_or_default();
        Import {
            path,
            path_span,
            span,
        }
    }

    fn doc(&self, pair: Pair<Rule>) -> String {
        let text = pair.into_inner().as_str();
        let text = text.strip_suffix('\r').unwrap_or(text);
        text.strip_prefix(' ').unwrap_or(text).to_string()
    }

    /// `defaults` and `instance` items.
    fn block(&mut self, pair: Pair<Rule>) -> Block {
        self.block_parts(pair, |_, _| unreachable!("unexpected rule in a block"))
    }

    fn family(&mut self, pair: Pair<Rule>) -> Family {
        let (mut axes, mut rows) = (Vec::new(), None::<Rows>);
        let block = self.block_parts(pair, |this, p| match p.as_rule() {
            Rule::axis => axes.push(this.axis(p)),
            Rule::rows => {
                let table = this.rows(p);
                match &rows {
                    Some(first) => this.diags.push(
                        Diagnostic::error(codes::SECOND_ROWS, "a family has at most one `rows` table")
                            .at(table.span, "second `rows` table")
                            .with(first.span, "first `rows` table")
                            .help("put every row in one table; families with other columns are separate families"),
                    ),
                    None => rows = Some(table),
                }
            }
            _ => unreachable!("unexpected rule in a family"),
        });
        Family {
            doc: block.doc,
            name: block.name,
            bases: block.bases,
            entries: block.entries,
            axes,
            rows,
            span: block.span,
        }
    }

    /// What every item with a body has (doc comments, name, bases, entries) as a [`Block`];
    /// `other` takes the parts of a family's body that a block does not have.
    fn block_parts(
        &mut self,
        pair: Pair<Rule>,
        mut other: impl FnMut(&mut Self, Pair<Rule>),
    ) -> Block {
        let span = self.span(&pair);
        let (mut doc, mut name, mut bases, mut entries) =
            (Vec::new(), None, Vec::new(), Vec::new());
        for p in inner(pair) {
            match p.as_rule() {
                Rule::doc => doc.push(self.doc(p)),
                Rule::ident => name = Some(self.ident(p)),
                Rule::bases => bases = self.bases(p),
                Rule::assign => entries.push(self.assign(p)),
                Rule::section => entries.push(self.section(p)),
                _ => other(self, p),
            }
        }
        Block {
            doc,
            name: name.unwrap_or_else(|| self.missing_ident(span)),
            bases,
            entries,
            span,
        }
    }

    /// The grammar requires a name after the item keyword; this only keeps the builder total.
    fn missing_ident(&self, span: Span) -> Ident {
        Ident {
            name: String::new(),
            span,
        }
    }

    fn bases(&self, pair: Pair<Rule>) -> Vec<Ident> {
        pair.into_inner().map(|p| self.ident(p)).collect()
    }

    fn axis(&mut self, pair: Pair<Rule>) -> Axis {
        let span = self.span(&pair);
        let mut inner = inner(pair);
        let (Some(key), Some(list)) = (inner.next(), inner.next()) else {
            unreachable!("axis = key list")
        };
        let key = self.key(key);
        let values = list.into_inner().map(|v| self.value(v)).collect();
        Axis { key, values, span }
    }

    fn rows(&mut self, pair: Pair<Rule>) -> Rows {
        let span = self.span(&pair);
        let mut inner = inner(pair);
        let columns = inner.next().map_or_else(Vec::new, |c| self.columns(c));
        let rows = inner.map(|r| self.row(r)).collect();
        Rows {
            columns,
            rows,
            span,
        }
    }

    fn columns(&self, pair: Pair<Rule>) -> Vec<KeyPath> {
        pair.into_inner().map(|k| self.key(k)).collect()
    }

    fn row(&mut self, pair: Pair<Rule>) -> Row {
        let span = self.span(&pair);
        let (mut doc, mut name, mut values) = (Vec::new(), None, Vec::new());
        for p in inner(pair) {
            match p.as_rule() {
                Rule::doc => doc.push(self.doc(p)),
                Rule::ident => name = Some(self.ident(p)),
                Rule::tuple => values = self.tuple(p),
                _ => unreachable!("unexpected rule in a row"),
            }
        }
        Row {
            doc,
            name: name.unwrap_or_else(|| self.missing_ident(span)),
            values,
            span,
        }
    }

    fn tuple(&mut self, pair: Pair<Rule>) -> Vec<Value> {
        pair.into_inner().map(|v| self.value(v)).collect()
    }

    fn assign(&mut self, pair: Pair<Rule>) -> Entry {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let (Some(key), Some(value)) = (inner.next(), inner.next()) else {
            unreachable!("assign = key value")
        };
        Entry::Assign {
            key: self.key(key),
            value: self.value(value),
            span,
        }
    }

    fn section(&mut self, pair: Pair<Rule>) -> Entry {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let Some(name) = inner.next() else {
            unreachable!("section starts with its key")
        };
        let name = self.key(name);
        let entries = inner
            .map(|p| match p.as_rule() {
                Rule::assign => self.assign(p),
                _ => self.section(p),
            })
            .collect();
        Entry::Section {
            name,
            entries,
            span,
        }
    }

    fn key(&self, pair: Pair<Rule>) -> KeyPath {
        let span = self.span(&pair);
        KeyPath {
            segments: pair.into_inner().map(|p| self.ident(p)).collect(),
            span,
        }
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    fn value(&mut self, pair: Pair<Rule>) -> Value {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::list => ValueKind::List(pair.into_inner().map(|v| self.value(v)).collect()),
            Rule::int => self.int(&pair, span),
            Rule::boolean => ValueKind::Bool(pair.as_str() == "true"),
            Rule::auto => ValueKind::Auto,
            Rule::string => ValueKind::Str(self.string(pair)),
            Rule::word => ValueKind::Ident(pair.as_str().to_string()),
            _ => unreachable!("unexpected rule for a value"),
        };
        Value { kind, span }
    }

    fn int(&mut self, pair: &Pair<Rule>, span: Span) -> ValueKind {
        match pair.as_str().parse::<u64>() {
            Ok(n) => ValueKind::Int(n),
            Err(_) => {
                self.diags.push(
                    Diagnostic::error(codes::INTEGER_OVERFLOW, "integer too large")
                        .at(span, format!("larger than {}", u64::MAX))
                        .help("integers must fit in 64 bits (at most 18446744073709551615)"),
                );
                ValueKind::Int(u64::MAX)
            }
        }
    }

    /// The string's contents with `\"` and `\\` unescaped (the scan rejected any other escape).
    fn string(&self, pair: Pair<Rule>) -> String {
        let raw = pair.into_inner().as_str();
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            out.push(if c == '\\' {
                chars.next().unwrap_or('\\')
            } else {
                c
            });
        }
        out
    }
}

#[cfg(test)]
mod tests;
