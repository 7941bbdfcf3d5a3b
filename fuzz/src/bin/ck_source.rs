//! Fuzz target: `.ck` source ([`ck_fuzz::ck_source`]).

ck_fuzz::main!(ck_source);
