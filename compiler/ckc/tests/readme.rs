//! The README's `ckc` command lines run as shown: every one of its shell blocks that needs no
//! GPU (no `--backend cuda` / `hip`, no device timing or its saved results), reads no standard
//! input and names no placeholder (`NAME`, `FILE.ck`, `...`) exits 0, run in a scratch folder
//! that holds the repository's `instances` and `bench` (so that `--out build/…` writes there).

use std::process::Command;

const README: &str = include_str!("../../../README.md");

/// Words of a shell line: blanks split, double quotes group, `#` outside quotes ends it.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            '#' if !quoted => break,
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// The `ckc` invocations of the README's `sh` blocks (the main job's `cargo run … --` too),
/// as argument lists.
fn commands() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in README.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let w = words(line);
        let args = match w.iter().position(|x| x == "ckc") {
            Some(0) => &w[1..],
            // `cargo run --release -p ckc -- ARGS`
            Some(_) => match w.iter().position(|x| x == "--") {
                Some(i) => &w[i + 1..],
                None => continue,
            },
            None => continue,
        };
        out.push(args.to_vec());
    }
    out
}

fn needs_gpu_or_placeholder(args: &[String]) -> bool {
    let placeholder = |a: &str| {
        let stem = a.split('.').next().unwrap_or("");
        stem.len() >= 3 && stem.bytes().all(|b| b.is_ascii_uppercase())
    };
    args.iter().any(|a| {
        matches!(
            a.as_str(),
            "cuda" | "hip" | "--tune" | "tune" | "bench" | "bench-report" | "<" | "|"
        ) || a.contains("...")
            || a.contains("my_")
            || placeholder(a)
    })
}

#[test]
fn the_readme_commands_that_need_no_gpu_run() {
    let all = commands();
    let runnable: Vec<_> = all
        .iter()
        .filter(|a| !needs_gpu_or_placeholder(a))
        .collect();
    assert!(runnable.len() >= 12, "{all:?}");
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let scratch = std::env::temp_dir().join(format!("ckc-readme-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for dir in ["instances", "bench"] {
        let link = scratch.join(dir);
        if !link.exists() {
            std::os::unix::fs::symlink(root.join(dir), &link).unwrap();
        }
    }
    for args in runnable {
        let out = Command::new(env!("CARGO_BIN_EXE_ckc"))
            .args(args)
            .current_dir(&scratch)
            .output()
            .expect("ckc runs");
        assert!(
            out.status.success(),
            "ckc {}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[test]
fn shell_words_group_quotes_and_drop_comments() {
    assert_eq!(
        words(r#"ckc run --problem "fwd 2d N=4" --verify  # a comment"#),
        ["ckc", "run", "--problem", "fwd 2d N=4", "--verify"]
    );
    assert_eq!(words(r#"a "b # c" d"#), ["a", "b # c", "d"]);
}
