//! Fuzz targets of the inputs a user hands ckdsl: `.ck` source, problem strings, CK instance
//! strings, CK's C++ instance lists and saved benchmark runs. Each target is one function of an input's bytes
//! ([`targets`]); `src/bin/` gives each a binary whose `main` ([`main!`]) is AFL's loop under
//! the `afl` feature and a replay of files with random mutants ([`replay`]) without it, and the
//! workspace's tests replay the corpora through the same functions, so a target's body is
//! written once and whatever AFL finds replays anywhere.

pub mod mutate;
pub mod replay;
pub mod targets;

pub use targets::{bench_json, ck_cpp, ck_source, ck_string, problem};

/// A target: its name (its binary's, and its folder's under `corpus/`), its function, and its
/// AFL dictionary (`dict/<name>.dict`), whose tokens the plain mutator inserts too.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
    pub dict: &'static str,
}

pub const TARGETS: [Target; 5] = [
    Target {
        name: "ck_source",
        run: ck_source,
        dict: include_str!("../dict/ck_source.dict"),
    },
    Target {
        name: "problem",
        run: problem,
        dict: include_str!("../dict/problem.dict"),
    },
    Target {
        name: "ck_string",
        run: ck_string,
        dict: include_str!("../dict/ck_string.dict"),
    },
    Target {
        name: "ck_cpp",
        run: ck_cpp,
        dict: include_str!("../dict/ck_cpp.dict"),
    },
    Target {
        name: "bench_json",
        run: bench_json,
        dict: include_str!("../dict/bench_json.dict"),
    },
];

/// The `main` of target `$name`'s binary: AFL's persistent loop with the `afl` feature (built by
/// `cargo afl build`), else [`replay::main`].
#[macro_export]
macro_rules! main {
    ($name:ident) => {
        #[cfg(feature = "afl")]
        fn main() {
            afl::fuzz!(|data: &[u8]| $crate::$name(data));
        }

        #[cfg(not(feature = "afl"))]
        fn main() -> std::process::ExitCode {
            $crate::replay::main(stringify!($name))
        }
    };
}
