//! The one diagnostic type of ckdsl: severity, stable code, message, labelled spans, notes, help;
//! rendered rustc-style through codespan-reporting, or as JSON.

use crate::span::{FileId, SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{self, Files};
use codespan_reporting::term;
use serde::Serialize;
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A span with a message; the primary label marks the offending value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code such as `CK0101`; `docs/diagnostics.md` lists them all.
    pub code: &'static str,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(code, message)
        }
    }

    /// Adds the primary label.
    pub fn at(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    /// Adds a secondary label.
    pub fn with(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The first primary label's span, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }
}

/// Diagnostics collected by one stage; stages report all their errors, then stop at the boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Diagnostics(pub Vec<Diagnostic>);

/// Diagnostics rendered at most, so that a file of thousands of errors reports in bounded time
/// and length; the rest are counted.
pub const MAX_RENDERED: usize = 200;

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }

    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }

    /// Drops later copies of a diagnostic, keeping the order: a value set in shared defaults or a
    /// family fails the same way for every instance that inherits it, and is reported once.
    pub fn dedup(&mut self) {
        let mut seen = std::collections::HashSet::new();
        self.0.retain(|d| {
            let span = d.primary_span().map(|s| (s.file, s.start, s.end));
            seen.insert((d.code, d.message.clone(), span, d.help.clone()))
        });
    }

    /// Orders diagnostics by file and position so output is deterministic.
    pub fn sort(&mut self) {
        self.0
            .sort_by_key(|d| d.primary_span().map(|s| (s.file, s.start, s.end)));
    }

    /// Renders every diagnostic rustc-style, without colour (stable for snapshots and build.rs).
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = term::termcolor::NoColor::new(Vec::new());
        self.emit(sources, &mut out);
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }

    /// Renders to a terminal writer (the CLI passes a colour-capable stream): the first
    /// [`MAX_RENDERED`], then how many more there are.
    pub fn emit(&self, sources: &SourceMap, out: &mut dyn term::termcolor::WriteColor) {
        let config = term::Config::default();
        for d in self.0.iter().take(MAX_RENDERED) {
            // A failed write to stderr leaves nothing useful to report.
            let _ = term::emit(out, &config, &Files_(sources), &to_codespan(d));
        }
        if self.0.len() > MAX_RENDERED {
            let rest = &self.0[MAX_RENDERED..];
            let errors = rest.iter().filter(|d| d.is_error()).count();
            let _ = writeln!(
                out,
                "note: {} more diagnostics not shown ({errors} of them errors); the first {MAX_RENDERED} are above",
                rest.len()
            );
        }
    }

    /// The diagnostics as JSON objects with resolved file names and line/column positions.
    pub fn to_json(&self, sources: &SourceMap) -> json::Report {
        json::Report(self.0.iter().map(|d| json_diag(d, sources)).collect())
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<FileId> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let labels = d
        .labels
        .iter()
        .map(|l| {
            let style = if l.primary {
                cs::LabelStyle::Primary
            } else {
                cs::LabelStyle::Secondary
            };
            cs::Label::new(style, l.span.file, l.span.range()).with_message(&l.message)
        })
        .collect();
    let mut notes = d.notes.clone();
    if let Some(h) = &d.help {
        notes.push(format!("help: {h}"));
    }
    cs::Diagnostic::new(severity)
        .with_code(d.code)
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// Adapter so codespan can read a [`SourceMap`].
struct Files_<'a>(&'a SourceMap);

impl<'a> Files<'a> for Files_<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        self.check(id)?;
        Ok(self.0.name(id))
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        self.check(id)?;
        Ok(self.0.text(id))
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, files::Error> {
        self.check(id)?;
        Ok(self.0.get(id).line_of(byte_index))
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, files::Error> {
        self.check(id)?;
        let f = self.0.get(id);
        f.line_range(line_index).ok_or(files::Error::LineTooLarge {
            given: line_index,
            max: f.line_count() - 1,
        })
    }
}

impl Files_<'_> {
    fn check(&self, id: FileId) -> Result<(), files::Error> {
        if (id.0 as usize) < self.0.len() {
            Ok(())
        } else {
            Err(files::Error::FileMissing)
        }
    }
}

fn json_diag(d: &Diagnostic, sources: &SourceMap) -> json::Diagnostic {
    let labels = d
        .labels
        .iter()
        .map(|l| {
            let (line, column) = sources.line_col(l.span.file, l.span.start);
            json::Label {
                file: sources.name(l.span.file).to_string(),
                line,
                column,
                start: l.span.start,
                end: l.span.end,
                message: l.message.clone(),
                primary: l.primary,
            }
        })
        .collect();
    json::Diagnostic {
        severity: d.severity,
        code: d.code,
        message: d.message.clone(),
        labels,
        notes: d.notes.clone(),
        help: d.help.clone(),
    }
}

/// Serializable shapes of the JSON diagnostic output (serialized by the caller with serde_json).
pub mod json {
    use super::Severity;
    use serde::Serialize;

    #[derive(Serialize)]
    pub struct Report(pub Vec<Diagnostic>);

    #[derive(Serialize)]
    pub struct Diagnostic {
        pub severity: Severity,
        pub code: &'static str,
        pub message: String,
        pub labels: Vec<Label>,
        pub notes: Vec<String>,
        pub help: Option<String>,
    }

    #[derive(Serialize)]
    pub struct Label {
        pub file: String,
        pub line: usize,
        pub column: usize,
        pub start: u32,
        pub end: u32,
        pub message: String,
        pub primary: bool,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::FileId;

    #[test]
    fn dedup_keeps_the_first_of_each_repeat_in_order() {
        let at = |start| Span {
            file: FileId(0),
            start,
            end: start + 1,
        };
        let e = |code, start| Diagnostic::error(code, "bad").at(at(start), "here");
        let mut d = Diagnostics(vec![
            e("CK0001", 4),
            e("CK0002", 1),
            e("CK0001", 4),
            e("CK0001", 5),
        ]);
        d.dedup();
        let kept: Vec<_> = d
            .iter()
            .map(|x| (x.code, x.primary_span().unwrap().start))
            .collect();
        assert_eq!(kept, [("CK0001", 4), ("CK0002", 1), ("CK0001", 5)]);
    }

    #[test]
    fn thousands_of_diagnostics_render_the_first_ones_and_a_count() {
        // 50,000 lines, one error on each: line lookups by binary search, 200 rendered.
        let mut sources = SourceMap::new();
        let text = "x = 1;\n".repeat(50_000);
        let file = sources.add("big.ck", text);
        let d = Diagnostics(
            (0..50_000u32)
                .map(|i| {
                    let span = Span {
                        file,
                        start: i * 7,
                        end: i * 7 + 1,
                    };
                    Diagnostic::error("CK0110", "unknown key").at(span, "here")
                })
                .collect(),
        );
        let out = d.render(&sources);
        assert_eq!(out.matches("error[CK0110]").count(), MAX_RENDERED);
        assert!(out.contains("big.ck:200:1"), "{}", &out[out.len() - 400..]);
        assert!(out.trim_end().ends_with(&format!(
            "note: {} more diagnostics not shown ({} of them errors); the first {MAX_RENDERED} are above",
            50_000 - MAX_RENDERED,
            50_000 - MAX_RENDERED
        )));
        assert_eq!(sources.line_col(file, 7 * 49_999 + 3), (50_000, 4));
        assert_eq!(sources.line_col(file, u32::MAX), (50_001, 1));
    }
}
