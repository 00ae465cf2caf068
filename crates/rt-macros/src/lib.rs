//! `rt-macros` will own `#[rt::main]`, `#[rt::test]`, `select!`, `join!` and `try_join!`.
