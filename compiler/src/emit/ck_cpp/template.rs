//! Text templates of the CK C++ sources: `${name}` placeholders filled from a table, so the
//! C++ stays as written (braces and indentation included) in the template files.

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
    fn placeholders_are_filled_and_unknown_ones_kept() {
        let t = "a ${x} b {c} ${y}${x} ${z";
        assert_eq!(render(t, &[("x", "1"), ("y", "{2}")]), "a 1 b {c} {2}1 ${z");
        assert_eq!(render("${w}", &[]), "${w}");
    }
}
