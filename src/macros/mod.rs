//! The macros: `select!`, `join!`, `try_join!` and `pin!`, exported at the
//! crate root (`rt::select!`, ...), next to the attributes `#[rt::main]` and
//! `#[rt::test]` that the crate root re-exports from `rt-macros`.
//!
//! `select!`, `join!` and `try_join!` are `macro_rules!` wrappers that hand
//! their input, prefixed with this crate's `$crate` path, to the procedural
//! macros that do the work. Their expansions reach everything they need
//! through [`support`], so they keep working when rt is renamed and inside
//! `#![no_implicit_prelude]` modules. This module is public only for that.
//!
//! `watchdog` bounds an `#[rt::test]` that has a deadline (`deadline_secs`,
//! or `RT_TEST_DEADLINE`): a test that hangs past it prints its name and
//! its runtime's task dump, then aborts the process.

#[cfg(feature = "macros")]
mod join;
mod pin;
#[cfg(feature = "macros")]
mod select;
#[cfg(feature = "macros")]
mod watchdog;

#[doc(hidden)]
pub mod support;
