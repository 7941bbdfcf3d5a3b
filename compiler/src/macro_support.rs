//! The testable core of `conv_instance! { ... }`: the macro body is a token stream, which is turned
//! back into `.ck` text while recording which token each byte came from, compiled by the same front
//! end as files, and either expanded or turned into `compile_error!`s pointing at the right tokens.
//!
//! The expansion is `::ck_runtime::Declared::__new(name, ir_json, instance_string)`, a constant
//! expression, so a declaration can live in a `static`.

use crate::ir::Checked;
use crate::load::Session;
use ck_dsl::ast::Item;
use ck_dsl::{Diagnostics, FileId, SourceMap};
use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use std::ops::Range;

/// The name the macro body goes by in rendered diagnostics.
pub const SOURCE_NAME: &str = "conv_instance!";

/// Expands a `conv_instance!` body: the declared instance, or `compile_error!`s at the offending
/// tokens.
pub fn expand(body: TokenStream) -> TokenStream {
    let text = TokenText::new(body);
    match compile_one(&text.text) {
        Ok(inst) => declared(&inst),
        Err(Failure::Diagnostics(diags, sources)) => text.errors(&diags, &sources),
        Err(Failure::Body(errors)) => {
            let mut out = TokenStream::new();
            for (range, message) in errors {
                out.extend(text.error_at(range, &message));
            }
            abort(out)
        }
    }
}

/// Why a body did not yield one instance.
#[derive(Debug)]
pub enum Failure {
    /// Errors of a compiler stage, with the sources to render them.
    Diagnostics(Diagnostics, SourceMap),
    /// The body is valid `.ck` but not what the macro takes: byte range and message per error.
    Body(Vec<(Range<usize>, String)>),
}

/// Compiles `.ck` text holding one `instance` item (and any `defaults` it uses).
pub fn compile_one(text: &str) -> Result<Checked, Failure> {
    let mut sources = SourceMap::new();
    let id = sources.add(SOURCE_NAME, text);
    let (file, diags) = ck_dsl::parse(id, text);
    if diags.has_errors() {
        return Err(Failure::Diagnostics(diags, sources));
    }
    check_items(&file.items, text)?;
    // Items are checked first so that no import is followed from the compiler's directory.
    let mut session = Session::new();
    session.add_source(SOURCE_NAME, text);
    let validated = crate::compile(&session).map_err(|d| Failure::Diagnostics(d, sources))?;
    let mut instances = validated.into_instances();
    match instances.pop() {
        Some(inst) if instances.is_empty() => Ok(inst),
        // `check_items` allows exactly one `instance` item, which yields one instance.
        _ => Err(Failure::Body(vec![(
            0..text.len(),
            "conv_instance! must declare exactly one instance".into(),
        )])),
    }
}

/// One `instance` item; `defaults` items besides; no imports (there is no file to be relative
/// to) and no families (they declare many instances).
fn check_items(items: &[Item], text: &str) -> Result<(), Failure> {
    let mut errors = Vec::new();
    let mut instances = 0;
    for item in items {
        match item {
            Item::Defaults(_) => {}
            Item::Instance(b) => {
                instances += 1;
                if instances > 1 {
                    errors.push((
                        b.name.span.range(),
                        "conv_instance! declares one instance; use one macro per instance or a `.ck` file".into(),
                    ));
                }
            }
            Item::Family(f) => errors.push((
                f.name.span.range(),
                "conv_instance! declares one instance, not a family; put families in a `.ck` file"
                    .into(),
            )),
            Item::Import(i) => errors.push((
                i.path_span.range(),
                "conv_instance! cannot import files; declare the `defaults` in the macro body"
                    .into(),
            )),
        }
    }
    if instances == 0 && errors.is_empty() {
        errors.push((
            0..text.len(),
            "conv_instance! needs one `instance NAME { ... }` item".into(),
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure::Body(errors))
    }
}

/// `::ck_runtime::Declared::__new(name, ir_json, instance_string)`, or an error when the instance
/// cannot be written as JSON.
fn declared(inst: &Checked) -> TokenStream {
    let ir = match serde_json::to_string(inst) {
        Ok(json) => json,
        Err(e) => return call_site_error(&format!("cannot serialize the instance: {e}")),
    };
    let string = crate::emit::instance_string(inst);
    let name = &inst.name;
    quote!(::ck_runtime::Declared::__new(#name, #ir, #string))
}

fn call_site_error(message: &str) -> TokenStream {
    abort(quote!(::core::compile_error!(#message);))
}

/// A block of errors that still has the type of the expansion, so no type error follows them.
fn abort(errors: TokenStream) -> TokenStream {
    quote!({ #errors loop {} })
}

/// `.ck` text rebuilt from tokens, with the byte range and span of every token.
///
/// Tokens keep their original lines and columns when their spans carry locations (so rendered
/// diagnostics show the body as written, with the file's line numbers); tokens without
/// locations are separated by single spaces, except around `.` (keys take no spaces).
pub struct TokenText {
    pub text: String,
    /// `(range, span)` per token, in text order.
    pieces: Vec<(Range<usize>, Span)>,
    /// Line (1-based) and column (0-based, chars) where the text ends.
    line: usize,
    column: usize,
    /// The last token pushed was a `.` (or nothing was pushed yet).
    glue: bool,
}

impl TokenText {
    pub fn new(tokens: TokenStream) -> Self {
        let mut t = TokenText {
            text: String::new(),
            pieces: Vec::new(),
            line: 1,
            column: 0,
            glue: true,
        };
        t.push_stream(tokens);
        t
    }

    /// Appends `s`, placed at `span`'s location when it lies ahead of the text's end.
    fn push(&mut self, s: &str, span: Span) {
        let at = span.start();
        let glue = self.glue || s == ".";
        if at.line > self.line || (at.line == self.line && at.column > self.column) {
            while self.line < at.line {
                self.text.push('\n');
                self.line += 1;
                self.column = 0;
            }
            while self.column < at.column {
                self.text.push(' ');
                self.column += 1;
            }
        } else if !glue && (at.line, at.column) != (self.line, self.column) {
            self.text.push(' ');
            self.column += 1;
        }
        let start = self.text.len();
        self.text.push_str(s);
        self.pieces.push((start..self.text.len(), span));
        self.column += s.chars().count();
        self.glue = s == ".";
    }

    fn newline(&mut self) {
        self.text.push('\n');
        self.line += 1;
        self.column = 0;
        self.glue = true;
    }

    fn push_stream(&mut self, tokens: TokenStream) {
        let mut iter = tokens.into_iter().peekable();
        while let Some(tt) = iter.next() {
            match tt {
                // `/// text` arrives as `# [doc = "text"]`; turn it back into a doc comment.
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    let doc = match iter.peek() {
                        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
                            doc_text(g.stream())
                        }
                        _ => None,
                    };
                    match doc {
                        Some(doc) => {
                            iter.next();
                            if !self.text.is_empty() && !self.text.ends_with('\n') {
                                self.newline();
                            }
                            // A `/** */` comment may hold several lines.
                            for line in doc.split('\n') {
                                self.push(&format!("///{line}"), p.span());
                                self.newline();
                            }
                        }
                        None => self.push("#", p.span()),
                    }
                }
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    if g.delimiter() == Delimiter::None {
                        self.push_stream(g.stream());
                    } else {
                        self.push(open, g.span_open());
                        self.push_stream(g.stream());
                        self.push(close, g.span_close());
                    }
                }
                TokenTree::Ident(i) => self.push(&i.to_string(), i.span()),
                TokenTree::Punct(p) => self.push(&p.as_char().to_string(), p.span()),
                TokenTree::Literal(l) => self.push(&l.to_string(), l.span()),
            }
        }
    }

    /// The index of the token covering byte `offset` (or the nearest one before it).
    fn piece_at(&self, offset: usize) -> Option<usize> {
        let i = self
            .pieces
            .partition_point(|(range, _)| range.start <= offset);
        i.checked_sub(1).or((!self.pieces.is_empty()).then_some(0))
    }

    /// The span of the token covering byte `offset` (or the nearest one before it).
    pub fn span_at(&self, offset: usize) -> Span {
        self.piece_at(offset)
            .map_or_else(Span::call_site, |i| self.pieces[i].1)
    }

    /// The text of the token covering byte `offset`, as rebuilt.
    pub fn token_at(&self, offset: usize) -> Option<&str> {
        self.piece_at(offset)
            .map(|i| &self.text[self.pieces[i].0.clone()])
    }

    /// A `compile_error!` covering the tokens of `range` (from its first to its last token: the
    /// path carries the first token's span and the braces the last's, so the compiler underlines
    /// the whole stretch).
    pub fn error_at(&self, range: Range<usize>, message: &str) -> TokenStream {
        let first = self.span_at(range.start);
        let last = self.span_at(range.end.saturating_sub(1).max(range.start));
        let mut body = Group::new(
            Delimiter::Brace,
            TokenTree::Literal(Literal::string(message)).into(),
        );
        body.set_span(last);
        quote_spanned!(first=> ::core::compile_error! #body)
    }

    /// One `compile_error!` per error diagnostic, at the tokens its primary label points to; the
    /// message carries the rendered diagnostic (labels, notes, help) so nothing is lost.
    pub fn errors(&self, diags: &Diagnostics, sources: &SourceMap) -> TokenStream {
        let mut out = TokenStream::new();
        for d in diags.iter().filter(|d| d.is_error()) {
            let one = Diagnostics(vec![d.clone()]);
            let message = one.render(sources);
            let range = match d.primary_span() {
                Some(s) if s.file == FileId(0) => s.range(),
                _ => 0..0,
            };
            out.extend(self.error_at(range, message.trim_end()));
        }
        abort(out)
    }
}

/// The text of a `doc = "..."` attribute body.
fn doc_text(attr: TokenStream) -> Option<String> {
    let tokens: Vec<TokenTree> = attr.into_iter().collect();
    match tokens.as_slice() {
        [
            TokenTree::Ident(i),
            TokenTree::Punct(eq),
            TokenTree::Literal(lit),
        ] if i == "doc" && eq.as_char() == '=' => string_value(&lit.to_string()),
        _ => None,
    }
}

/// The value of a Rust string literal (plain or raw), as the compiler writes doc attributes.
fn string_value(lit: &str) -> Option<String> {
    if let Some(raw) = lit.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let inner = raw.get(hashes..raw.len().checked_sub(hashes)?)?;
        return Some(inner.strip_prefix('"')?.strip_suffix('"')?.to_string());
    }
    let inner = lit.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).ok()?));
            }
            'u' => {
                let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let code = u32::from_str_radix(rest.strip_prefix('{')?, 16).ok()?;
                out.push(char::from_u32(code)?);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests;
