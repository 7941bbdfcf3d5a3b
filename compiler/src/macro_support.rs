//! The testable core of `conv_instance! { ... }`: the macro body is a token stream, which is turned
//! back into `.ck` text while recording which token each byte came from, compiled by the same front
//! end as files, and either expanded or turned into `compile_error!`s pointing at the right tokens.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::quote_spanned;

/// `.ck` text rebuilt from tokens, with the byte range and span of every token.
pub struct TokenText {
    pub text: String,
    /// `(start, end, span)` per token, in text order.
    pieces: Vec<(usize, usize, Span)>,
}

impl TokenText {
    pub fn new(tokens: TokenStream) -> Self {
        let mut t = TokenText {
            text: String::new(),
            pieces: Vec::new(),
        };
        t.push_stream(tokens);
        t
    }

    fn push(&mut self, s: &str, span: Span) {
        let start = self.text.len();
        self.text.push_str(s);
        self.pieces.push((start, self.text.len(), span));
        self.text.push(' ');
    }

    fn push_stream(&mut self, tokens: TokenStream) {
        let mut iter = tokens.into_iter().peekable();
        while let Some(tt) = iter.next() {
            match tt {
                // `/// text` arrives as `# [doc = "text"]`; turn it back into a doc comment.
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    if let Some(TokenTree::Group(g)) = iter.peek()
                        && let Some(doc) = doc_text(g.stream())
                    {
                        let span = g.span();
                        iter.next();
                        self.text.push('\n');
                        self.push(&format!("///{doc}"), span);
                        self.text.push('\n');
                        continue;
                    }
                    self.push("#", p.span());
                }
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    self.push(open, g.span_open());
                    self.push_stream(g.stream());
                    self.push(close, g.span_close());
                }
                TokenTree::Ident(i) => self.push(&i.to_string(), i.span()),
                TokenTree::Punct(p) => self.push(&p.as_char().to_string(), p.span()),
                TokenTree::Literal(l) => self.push(&l.to_string(), l.span()),
            }
        }
    }

    /// The span of the token covering byte `offset` (or the nearest one before it).
    pub fn span_at(&self, offset: usize) -> Span {
        let i = self
            .pieces
            .partition_point(|&(start, _, _)| start <= offset);
        self.pieces
            .get(i.saturating_sub(1))
            .map_or_else(Span::call_site, |p| p.2)
    }

    /// One `compile_error!` per diagnostic, at the token its primary label points to; the message
    /// carries the rendered diagnostic (labels, notes, help) so nothing is lost.
    pub fn errors(&self, diags: &ck_dsl::Diagnostics, sources: &ck_dsl::SourceMap) -> TokenStream {
        let mut out = TokenStream::new();
        for d in diags.iter().filter(|d| d.is_error()) {
            let span = d
                .primary_span()
                .map_or_else(Span::call_site, |s| self.span_at(s.start as usize));
            let one = ck_dsl::Diagnostics(vec![d.clone()]);
            let message = one.render(sources);
            let message = message.trim_end();
            out.extend(quote_spanned!(span=> ::core::compile_error!(#message);));
        }
        out
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
        ] if i == "doc" && eq.as_char() == '=' => {
            let s = lit.to_string();
            let inner = s.strip_prefix('"')?.strip_suffix('"')?;
            Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
        }
        _ => None,
    }
}
