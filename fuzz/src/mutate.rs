//! Random mutants of corpus files for the plain build: a few stacked edits of AFL's havoc kinds
//! (bits, bytes, deleted and copied runs, dictionary tokens, numbers, splices). No coverage
//! guides them; they reach what the seeds nearly reach, which is what a bounded CI run can do.

use ck_runtime::rng::SplitMix64;

/// The runtime's SplitMix64: the same seed gives the same mutants, so a failure can be replayed.
pub struct Rng(SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n`; `n` must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Numbers at the edges of the types and limits the inputs meet.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "8",
    "16",
    "255",
    "256",
    "4096",
    "65536",
    "100000",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
    "1e-308",
    "0.001",
    "-0",
    "NaN",
];

/// Inputs are kept under this many bytes, as AFL's are by default.
const MAX_LEN: usize = 1 << 16;

/// `input` with one to eight edits; `corpus` gives splices, `dict` tokens.
pub fn mutate(rng: &mut Rng, input: &[u8], corpus: &[Vec<u8>], dict: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(out.len() + 1);
        match rng.below(8) {
            0 if at < out.len() => out[at] ^= 1 << rng.below(8),
            1 if at < out.len() => out[at] = rng.next_u64() as u8,
            2 => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                out.drain(at..end);
            }
            3 if !out.is_empty() => {
                let from = rng.below(out.len());
                let end = (from + 1 + rng.below(32)).min(out.len());
                let run = out[from..end].to_vec();
                out.splice(at..at, run);
            }
            4 if !dict.is_empty() => {
                let token = &dict[rng.below(dict.len())];
                out.splice(at..at, token.iter().copied());
            }
            5 if !dict.is_empty() => {
                let token = &dict[rng.below(dict.len())];
                let end = (at + token.len()).min(out.len());
                out.splice(at..end, token.iter().copied());
            }
            6 => {
                // The run of digits at or after `at` becomes another number.
                let start = (at..out.len())
                    .find(|&i| out[i].is_ascii_digit())
                    .unwrap_or(at);
                let end = (start..out.len())
                    .find(|&i| !out[i].is_ascii_digit())
                    .unwrap_or(out.len());
                let n = NUMBERS[rng.below(NUMBERS.len())];
                out.splice(start..end, n.bytes());
            }
            7 if !corpus.is_empty() => {
                let other = &corpus[rng.below(corpus.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(256)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
            _ => {}
        }
        out.truncate(MAX_LEN);
    }
    out
}

/// The tokens of an AFL dictionary: `"value"` or `name="value"` a line, with `\\`, `\"` and
/// `\xNN` escapes; `#` comments and blank lines skipped.
pub fn dictionary(text: &str) -> Vec<Vec<u8>> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            if line.starts_with('#') {
                return None;
            }
            let value = line.get(line.find('"')? + 1..line.rfind('"')?)?;
            let mut out = Vec::new();
            let mut bytes = value.bytes();
            while let Some(b) = bytes.next() {
                match (b, bytes.clone().next()) {
                    (b'\\', Some(b'x')) => {
                        bytes.next();
                        let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                        let digits = std::str::from_utf8(&hex).ok()?;
                        out.push(u8::from_str_radix(digits, 16).ok()?);
                    }
                    (b'\\', Some(c)) => {
                        bytes.next();
                        out.push(c);
                    }
                    _ => out.push(b),
                }
            }
            Some(out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dictionary_escapes() {
        let d = dictionary("# c\n\nkw_a=\"instance\"\n\"\\x00\\\\\\\"\"\n");
        assert_eq!(d, [b"instance".to_vec(), b"\0\\\"".to_vec()]);
    }

    #[test]
    fn mutants_are_reproducible_and_bounded() {
        let corpus = vec![b"family f { }".to_vec()];
        let dict = dictionary("\"import\"");
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..200)
                .map(|_| mutate(&mut rng, &corpus[0], &corpus, &dict))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert!(run(7).iter().any(|m| m != &corpus[0]));
        assert!(run(7).iter().all(|m| m.len() <= MAX_LEN));
    }
}
