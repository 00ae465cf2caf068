//! Compile-fail cases for the macros (`tests/ui/*.rs`): every validation
//! error of `#[rt::main]`/`#[rt::test]`, the body's return-type check, and
//! `select!`'s branch limit and syntax errors. Each case's expected
//! compiler output is checked in next to it as `.stderr`; regenerate with
//! `TRYBUILD=overwrite cargo test --test macros_ui` after reviewing a change.

#![cfg(feature = "macros")]

#[test]
fn compile_errors() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
