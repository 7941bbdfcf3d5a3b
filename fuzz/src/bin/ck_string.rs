//! Fuzz target: CK instance strings, one a line ([`ck_fuzz::ck_string`]).

ck_fuzz::main!(ck_string);
