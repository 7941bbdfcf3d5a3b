//! Turns what pest expected at an error position into words ("expected `;` or `}`"), never into
//! grammar rule names.

use super::Rule;
use std::collections::BTreeSet;

/// What could have come at the error position, as phrases, and the innermost construct being parsed.
pub(super) struct Expected {
    phrases: BTreeSet<&'static str>,
    context: Option<Rule>,
}

const VALUE: &str = "a value";
const ITEM: &str = "an item (`import`, `defaults`, `instance` or `family`)";

/// The phrase for a literal token of the grammar; `None` for trivia (whitespace, comments).
/// `after_word` drops the characters that would only continue the previous name or integer.
fn token_phrase(token: &str, after_word: bool) -> Option<&'static str> {
    Some(match token {
        ";" => "`;`",
        "=" => "`=`",
        "," => "`,`",
        "." => "`.`",
        ":" => "`:`",
        "{" => "`{`",
        "}" => "`}`",
        "[" => LIST,
        "]" => "`]`",
        "(" => "`(`",
        ")" => "`)`",
        "\"" => STRING,
        "over" => "`over`",
        "rows" => "`rows`",
        "import" | "defaults" | "instance" | "family" => ITEM,
        "true" | "false" | "auto" => "`true`, `false` or `auto`",
        "0..9" if !after_word => INTEGER,
        "a..z" | "A..Z" | "_" if !after_word => NAME,
        _ => return None,
    })
}

const LIST: &str = "a list";
const STRING: &str = "a string";
const INTEGER: &str = "an integer";
const NAME: &str = "a name";

impl Expected {
    /// What pest expected at its furthest position, and that position (relative to the parsed text).
    pub(super) fn from_error(err: &pest::error::Error<Rule>, text: &str) -> (Self, usize) {
        let pos = furthest(err);
        let Some(attempts) = err.parse_attempts() else {
            return (
                Expected {
                    phrases: BTreeSet::new(),
                    context: None,
                },
                pos,
            );
        };
        let after_word = text[..pos].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let mut phrases: BTreeSet<&'static str> = attempts
            .expected_tokens()
            .iter()
            .filter_map(|t| token_phrase(&t.to_string(), after_word))
            .collect();
        // Every alternative of a value is possible: say so once.
        if [LIST, STRING, INTEGER, NAME]
            .iter()
            .all(|p| phrases.contains(p))
        {
            for p in [LIST, STRING, INTEGER, NAME, "`true`, `false` or `auto`"] {
                phrases.remove(p);
            }
            phrases.insert(VALUE);
        }
        let stacks = attempts.call_stacks();
        let deepest = stacks.iter().filter_map(|s| s.deepest.get_rule().copied());
        let positives = match &err.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } => positives.clone(),
            pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
        };
        let context = if phrases.contains(ITEM) {
            None
        } else {
            deepest
                .chain(positives)
                .find(|&r| help_for(r).is_some())
                .or_else(|| stacks.iter().find_map(|s| s.parent))
        };
        (Expected { phrases, context }, pos)
    }

    pub(super) fn message(&self) -> String {
        let words: Vec<&str> = self
            .phrases
            .iter()
            .map(|&p| {
                if p == VALUE {
                    "a value: an integer, `true`/`false`, a name, a string, a list or `auto`"
                } else {
                    p
                }
            })
            .collect();
        match words.as_slice() {
            [] => "unexpected input".to_string(),
            [one] => format!("expected {one}"),
            [init @ .., last] => format!("expected {} or {last}", init.join(", ")),
        }
    }

    /// How the construct being parsed is written.
    pub(super) fn help(&self) -> &'static str {
        self.context
            .and_then(help_for)
            .unwrap_or("items start with `import`, `defaults`, `instance` or `family`")
    }
}

fn help_for(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::import | Rule::kw_import => "an import is written `import \"path/to/file.ck\";`",
        Rule::axis => "an axis is written `over key = [value, value, ...];`",
        Rule::rows | Rule::columns => {
            "a table is written `rows (key, key, ...) { name = (value, value, ...); ... }`"
        }
        Rule::row | Rule::tuple => "a row is written `name = (value, value, ...);`",
        Rule::list => "a list is written `[value, value, ...]`",
        Rule::bases => "bases are written `: base, base` after the item's name",
        Rule::assign | Rule::section | Rule::key => {
            "an entry is written `key = value;` and a section `name { key = value; ... }`"
        }
        Rule::defaults | Rule::instance | Rule::family => {
            "an item is written `instance NAME [: BASE, ...] { key = value; ... }`"
        }
        _ => return None,
    })
}

/// The furthest position pest reached: where the text stops making sense.
pub(super) fn furthest(err: &pest::error::Error<Rule>) -> usize {
    let located = match err.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    err.parse_attempts()
        .map_or(located, |a| a.max_position.max(located))
}

/// The token at the start of `rest`, for "found ..." (`None` at the end of the file).
pub(super) fn found(rest: &str) -> Option<&str> {
    let c = rest.chars().next()?;
    let len = if c.is_ascii_alphanumeric() || c == '_' {
        rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())
    } else if c == '"' {
        rest[1..].find('"').map_or(rest.len(), |n| n + 2)
    } else {
        c.len_utf8()
    };
    Some(&rest[..len])
}
