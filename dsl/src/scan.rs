//! A lexical pre-scan of a `.ck` file, run before pest: it finds the errors pest would report
//! poorly (unterminated strings and comments, bad escapes, invalid characters), bounds nesting depth
//! so pest's recursion cannot overflow the stack, and lists the points where parsing may resume.

/// Deepest nesting of `[`, `{` and `(` the grammar is given; real files use three or four levels.
pub(crate) const MAX_DEPTH: usize = 32;

/// The item keywords; a line starting with one is a point where parsing can resume after an error.
pub(crate) const ITEM_KEYWORDS: [&str; 4] = ["import", "defaults", "instance", "family"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LexErrorKind {
    UnterminatedString,
    BadEscape,
    UnterminatedComment,
    InvalidChar(char),
    TooDeep,
    /// A control character (other than tab, or CR before LF) in a comment or string: in text
    /// copied to C++ or HIP it could end a comment line early.
    ControlChar(char),
    /// A doc comment ending in `\\`, which would continue its C++ comment onto the next line.
    DocBackslash,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LexError {
    pub kind: LexErrorKind,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// Byte offsets where an item starts at the beginning of a line (its doc comment included),
    /// ascending.
    pub recovery: Vec<usize>,
    /// Lexical errors, ascending by start.
    pub errors: Vec<LexError>,
}

impl Scan {
    /// The first lexical error at or after `offset`.
    pub fn error_from(&self, offset: usize) -> Option<LexError> {
        let i = self.errors.partition_point(|e| e.start < offset);
        self.errors.get(i).copied()
    }

    /// Where to resume after an error at `error` in an item whose first token is at `item_start`:
    /// the first item line that starts after the item's first token and not before the error's line.
    pub fn resume_after(&self, text: &str, item_start: usize, error: usize) -> Option<usize> {
        let error_line = text[..error.min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let from = self
            .recovery
            .partition_point(|&r| r <= item_start || r < error_line);
        self.recovery.get(from).copied()
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// True when `line` (without its indentation) starts with an item keyword as a whole word.
fn starts_item(line: &[u8]) -> bool {
    ITEM_KEYWORDS.iter().any(|kw| {
        line.starts_with(kw.as_bytes()) && !line.get(kw.len()).is_some_and(|&b| is_ident_byte(b))
    })
}

/// True when `line` starts with a `///` doc comment (`////` is an ordinary comment).
pub(crate) fn is_doc_line(line: &[u8]) -> bool {
    line.starts_with(b"///") && line.get(3) != Some(&b'/')
}

pub(crate) fn scan(text: &str) -> Scan {
    let bytes = text.as_bytes();
    let mut out = Scan::default();
    let mut depth = 0usize;
    let mut deep_reported = false;
    let mut doc_run: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        if i == 0 || bytes[i - 1] == b'\n' {
            let indent = bytes[i..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            let line = &bytes[i + indent..];
            if is_doc_line(line) {
                doc_run.get_or_insert(i);
            } else {
                if starts_item(line) {
                    out.recovery.push(doc_run.unwrap_or(i));
                    depth = 0;
                    deep_reported = false;
                }
                doc_run = None;
            }
        }
        match bytes[i] {
            b'"' => i = scan_string(text, i, &mut out.errors),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |n| i + n);
                check_controls(text, i, end, &mut out.errors);
                if is_doc_line(&bytes[i..end]) {
                    let body = text[i..end].trim_end();
                    if body.ends_with('\\') {
                        out.errors.push(LexError {
                            kind: LexErrorKind::DocBackslash,
                            start: i + body.len() - 1,
                            end: i + body.len(),
                        });
                    }
                }
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => match text[i + 2..].find("*/") {
                Some(n) => {
                    check_controls(text, i, i + n + 4, &mut out.errors);
                    i += n + 4;
                }
                None => {
                    out.errors.push(LexError {
                        kind: LexErrorKind::UnterminatedComment,
                        start: i,
                        end: i + 2,
                    });
                    i = bytes.len();
                }
            },
            b'[' | b'{' | b'(' => {
                depth += 1;
                if depth > MAX_DEPTH && !deep_reported {
                    deep_reported = true;
                    out.errors.push(LexError {
                        kind: LexErrorKind::TooDeep,
                        start: i,
                        end: i + 1,
                    });
                }
                i += 1;
            }
            b']' | b'}' | b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b if is_ident_byte(b) || b" \t\r\n;=,.:".contains(&b) => i += 1,
            _ => {
                // `i` is always on a char boundary: every other branch steps over ASCII bytes only.
                let c = text[i..].chars().next().unwrap_or('\u{fffd}');
                let end = i + c.len_utf8();
                out.errors.push(LexError {
                    kind: LexErrorKind::InvalidChar(c),
                    start: i,
                    end,
                });
                i = end;
            }
        }
    }
    out
}

/// A control character other than tab, or a line separator, is a line break to some compiler or
/// editor; CR is allowed only as part of CRLF.
fn is_control(c: char, next: Option<char>) -> bool {
    match c {
        '\t' | '\n' => false,
        '\r' => next != Some('\n'),
        '\u{85}' | '\u{2028}' | '\u{2029}' => true,
        c => c.is_control(),
    }
}

/// Reports each control character in `text[start..end]` (a comment or a string).
fn check_controls(text: &str, start: usize, end: usize, errors: &mut Vec<LexError>) {
    for (at, c) in text[start..end].char_indices() {
        let next = text[start + at + c.len_utf8()..].chars().next();
        if is_control(c, next) {
            errors.push(LexError {
                kind: LexErrorKind::ControlChar(c),
                start: start + at,
                end: start + at + c.len_utf8(),
            });
        }
    }
}

/// Scans the string literal opening at `start`; returns the offset just past it.
fn scan_string(text: &str, start: usize, errors: &mut Vec<LexError>) -> usize {
    let end = scan_string_end(text.as_bytes(), start, errors);
    check_controls(text, start, end, errors);
    end
}

fn scan_string_end(bytes: &[u8], start: usize, errors: &mut Vec<LexError>) -> usize {
    let mut j = start + 1;
    loop {
        match bytes.get(j) {
            None | Some(b'\n') => {
                errors.push(LexError {
                    kind: LexErrorKind::UnterminatedString,
                    start,
                    end: j,
                });
                return j;
            }
            Some(b'"') => return j + 1,
            Some(b'\\') => {
                if !matches!(bytes.get(j + 1), Some(b'"' | b'\\' | b'\n') | None) {
                    errors.push(LexError {
                        kind: LexErrorKind::BadEscape,
                        start: j,
                        end: j + 1,
                    });
                }
                // Skip the escaped character unless it ends the line (then the string is unterminated).
                j += if matches!(bytes.get(j + 1), None | Some(b'\n')) {
                    1
                } else {
                    2
                };
            }
            Some(_) => j += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<LexErrorKind> {
        scan(text).errors.iter().map(|e| e.kind).collect()
    }

    #[test]
    fn clean_text_has_no_errors() {
        assert!(kinds("instance a { b = \"x\\\"y\\\\\"; } // ü\n/* ü */").is_empty());
        // CRLF line ends, tabs, and a backslash ending an ordinary comment are fine.
        assert!(kinds("/// a\tb\r\ninstance a {} // c \\\r\n").is_empty());
    }

    #[test]
    fn finds_each_lexical_error() {
        assert_eq!(kinds("a = \"abc\n"), [LexErrorKind::UnterminatedString]);
        assert_eq!(kinds("a = \"a\\nb\";"), [LexErrorKind::BadEscape]);
        assert_eq!(kinds("/* x"), [LexErrorKind::UnterminatedComment]);
        assert_eq!(kinds("a = -1;"), [LexErrorKind::InvalidChar('-')]);
        assert_eq!(kinds("a = é;"), [LexErrorKind::InvalidChar('é')]);
        assert_eq!(kinds(&"[".repeat(MAX_DEPTH + 1)), [LexErrorKind::TooDeep]);
        assert_eq!(
            kinds("/// a\r#error x\ninstance a {}"),
            [LexErrorKind::ControlChar('\r')]
        );
        assert_eq!(
            kinds("/* \u{2028} */"),
            [LexErrorKind::ControlChar('\u{2028}')]
        );
        assert_eq!(kinds("a = \"\u{0}\";"), [LexErrorKind::ControlChar('\0')]);
        assert_eq!(
            kinds("/// a \\ \ninstance a {}"),
            [LexErrorKind::DocBackslash]
        );
        assert!(kinds(&"[".repeat(MAX_DEPTH)).is_empty());
    }

    #[test]
    fn string_with_escaped_backslash_before_newline_is_unterminated() {
        let s = scan("a = \"x\\\nb");
        assert_eq!(s.errors[0].kind, LexErrorKind::UnterminatedString);
    }

    #[test]
    fn recovery_points_include_doc_comments_and_reset_depth() {
        let text = "instance a {\n  [[[\n/// doc\n/// more\nfamily b {}\n  import_x = 1;\n/* instance c */\n";
        let s = scan(text);
        assert_eq!(s.recovery, [0, text.find("/// doc").unwrap()]);
    }

    #[test]
    fn depth_resets_at_item_lines() {
        let deep = "[".repeat(MAX_DEPTH - 1);
        let text = format!("instance a {deep}\ninstance b {deep}\n");
        assert!(scan(&text).errors.is_empty());
    }
}
