//! Fuzz target: CK C++ instance lists ([`ck_fuzz::ck_cpp`]).

ck_fuzz::main!(ck_cpp);
