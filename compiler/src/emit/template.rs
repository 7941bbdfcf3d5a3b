//! Text templates of the CK C++ sources: `${name}` placeholders filled from a table, so the
//! C++ stays as written (braces and indentation included) in the template files; and `Text`,
//! the writer of the generated lines between them (and of the CMake lists).

use std::fmt;

/// Generated text being written: `write!` and `writeln!` on it return nothing, since writing
/// into memory cannot fail.
#[derive(Default)]
pub(super) struct Text(String);

impl Text {
    pub(super) fn write_fmt(&mut self, args: fmt::Arguments<'_>) {
        // A `String` takes every write: only a `Display` impl that fails could make this an
        // error, and the values written here are strings and integers.
        let _ = fmt::Write::write_fmt(&mut self.0, args);
    }

    pub(super) fn push_str(&mut self, s: &str) {
        self.0.push_str(s);
    }

    pub(super) fn push(&mut self, c: char) {
        self.0.push(c);
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        t.0
    }
}

/// `template` with each `${name}` replaced by its value in `vars`. A placeholder without a
/// value stays as it is, which the templates' tests catch.
pub(super) fn render(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let value = after.find('}').and_then(|end| {
            let name = &after[..end];
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v, end))
        });
        match value {
            Some((v, end)) => {
                out.push_str(v);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str("${");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_takes_writes_and_pushes_in_order() {
        let mut t = Text::default();
        write!(t, "a{}", 1);
        t.push(' ');
        t.push_str("b");
        writeln!(t, " {:>3}|", "c");
        assert_eq!(String::from(t), "a1 b   c|\n");
    }

    #[test]
    fn placeholders_are_filled_and_unknown_ones_kept() {
        let t = "a ${x} b {c} ${y}${x} ${z";
        assert_eq!(render(t, &[("x", "1"), ("y", "{2}")]), "a 1 b {c} {2}1 ${z");
        assert_eq!(render("${w}", &[]), "${w}");
    }
}
