//! Fuzz target: problem strings and JSON problems ([`ck_fuzz::problem`]).

ck_fuzz::main!(problem);
