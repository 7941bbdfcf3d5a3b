//! Fuzz target: saved benchmark runs (`ckc bench-report` input) ([`ck_fuzz::bench_json`]).

ck_fuzz::main!(bench_json);
