//! Reporting helpers: every rule reports through [`Report`], which puts the primary label on
//! the offending value's span, or on the instance name when the value was defaulted or derived.

use crate::spec::{InstanceSpec, Int, Ints, Sp};
use ck_dsl::{Diagnostic, Diagnostics, Span};

pub(crate) struct Report<'a> {
    pub spec: &'a InstanceSpec,
    pub diags: &'a mut Diagnostics,
    /// Errors this report added: a stage that adds any stops the instance (warnings do not).
    pub errors: usize,
    /// Whether the rules reporting now are the ones `allow` may relax (those on the concrete
    /// instance): a broken rule the instance allows is a warning.
    pub relaxable: bool,
}

impl Report<'_> {
    /// Reports one broken rule; `span` is where the user wrote the value, if they did.
    pub fn error(
        &mut self,
        code: &'static str,
        span: Option<Span>,
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        let allowed = self.relaxable
            && self
                .spec
                .allow
                .as_ref()
                .is_some_and(|a| a.value.iter().any(|c| c.0 == code));
        if allowed {
            let d = Diagnostic::warning(code, message).note(format!(
                "the instance allows {code}: CK can print it, but no back end runs it"
            ));
            let d = self.place(d, span, label.into());
            self.diags.push(d.help(help));
            return;
        }
        let d = self.place(Diagnostic::error(code, message), span, label.into());
        self.diags.push(d.help(help));
        self.errors += 1;
    }

    /// Reports `warning` (a [`Diagnostic::warning`] with its help: something that builds but is
    /// likely not what was meant, stable `CK09xx` codes), labelled on `span` like an error.
    pub fn warn(&mut self, warning: Diagnostic, span: Option<Span>, label: impl Into<String>) {
        let d = self.place(warning, span, label.into());
        self.diags.push(d);
    }

    /// The primary label on `span`, or on the instance name when the value was not written.
    fn place(&self, d: Diagnostic, span: Option<Span>, label: String) -> Diagnostic {
        match span {
            Some(s) => d.at(s, label),
            None => d.at(
                self.spec.name.span,
                format!("{label} (defaulted or derived in this instance)"),
            ),
        }
    }

    /// Errors reported so far.
    pub fn count(&self) -> usize {
        self.errors
    }
}

/// The span of an optional value.
pub(crate) trait SpanOf {
    fn sp(&self) -> Option<Span>;
}

impl<T> SpanOf for Option<Sp<T>> {
    fn sp(&self) -> Option<Span> {
        self.as_ref().map(|v| v.span)
    }
}

/// Largest integer any size parameter may take (CK tiles and blocks stay far below); keeps
/// products of a few parameters within `u32`.
pub(crate) const MAX_INT: u64 = 4096;

/// Reads an optional positive integer, reporting values of 0 or above [`MAX_INT`].
pub(crate) fn int(r: &mut Report, v: &Option<Int>, key: &str) -> Option<u32> {
    let v = v.as_ref()?;
    if v.value == 0 || v.value > MAX_INT {
        r.error(
            super::codes::RANGE,
            Some(v.span),
            format!("`{key}` = {} is out of range 1..={MAX_INT}", v.value),
            "out of range",
            format!("set `{key}` to a positive value no larger than {MAX_INT}"),
        );
        return None;
    }
    Some(v.value as u32)
}

/// Reads an optional list of positive integers with `len` elements (any length when `None`).
pub(crate) fn ints(
    r: &mut Report,
    v: &Option<Ints>,
    key: &str,
    len: Option<usize>,
) -> Option<Vec<u32>> {
    list(r, v, key, len, 1)
}

/// Reads an optional list of indices (zero allowed), such as an access order.
pub(crate) fn indices(r: &mut Report, v: &Option<Ints>, key: &str) -> Option<Vec<u32>> {
    list(r, v, key, None, 0)
}

fn list(
    r: &mut Report,
    v: &Option<Ints>,
    key: &str,
    len: Option<usize>,
    min: u64,
) -> Option<Vec<u32>> {
    let v = v.as_ref()?;
    if let Some(n) = len
        && v.value.len() != n
    {
        r.error(
            super::codes::LIST_LEN,
            Some(v.span),
            format!("`{key}` has {} elements, expected {n}", v.value.len()),
            format!("expected {n} elements"),
            format!("write `{key}` as a list of {n} integers"),
        );
        return None;
    }
    if v.value.is_empty() {
        r.error(
            super::codes::LIST_LEN,
            Some(v.span),
            format!("`{key}` is empty"),
            "empty list",
            format!("give `{key}` at least one element"),
        );
        return None;
    }
    if let Some(bad) = v.value.iter().find(|&&x| x < min || x > MAX_INT) {
        r.error(
            super::codes::RANGE,
            Some(v.span),
            format!("`{key}` contains {bad}, out of range {min}..={MAX_INT}"),
            "element out of range",
            format!("use values from {min} to {MAX_INT} in `{key}`"),
        );
        return None;
    }
    Some(v.value.iter().map(|&x| x as u32).collect())
}

/// Reads a fixed-size list.
pub(crate) fn array<const N: usize>(
    r: &mut Report,
    v: &Option<Ints>,
    key: &str,
) -> Option<[u32; N]> {
    ints(r, v, key, Some(N)).and_then(|v| v.try_into().ok())
}

/// Joins values with commas, for messages.
pub(crate) fn join<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Product of list elements, wide enough for any [`MAX_INT`]-bounded list.
pub(crate) fn product(v: &[u32]) -> u64 {
    v.iter().map(|&x| u64::from(x)).product()
}
