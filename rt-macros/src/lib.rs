//! `rt-macros`: the procedural half of rt's macros.
//!
//! The attributes `#[rt::main]` and `#[rt::test]` turn an `async fn` into a
//! plain function that builds a runtime and blocks on the body. The function
//! macros behind `rt::select!`, `rt::join!` and `rt::try_join!` are not meant
//! to be called directly: the facade wraps each of them in a `macro_rules!`
//! that passes its own `$crate` path first, so that the expansion names the
//! facade correctly under any dependency name.
//!
//! Each entry point here only forwards to the module that owns it:
//! `entry` for the attributes, `select` and `join` for the rest.

mod entry;
mod join;
mod select;
mod support_path;

use proc_macro::TokenStream;

/// Runs an `async fn` to completion on a freshly built rt runtime.
///
/// Put it on `async fn main` to get a synchronous `main` that builds a
/// runtime, blocks on the body and returns its value:
///
/// ```text
/// #[rt::main]
/// async fn main() {
///     println!("hello from the runtime");
/// }
/// ```
///
/// becomes, roughly,
///
/// ```text
/// fn main() {
///     let body = async { println!("hello from the runtime"); };
///     rt::runtime::Builder::new_multi_thread()
///         .enable_all()
///         .build()
///         .expect("failed to build the runtime")
///         .block_on(body)
/// }
/// ```
///
/// # Options
///
/// * `flavor = "multi_thread"` (the default) or `flavor = "current_thread"`.
///   The multi-thread flavor needs rt's `rt-multi-thread` feature; without
///   it, `#[rt::main]` must say `flavor = "current_thread"`.
/// * `flavor = "local"`: a `LocalRuntime`, on the current thread, where
///   `rt::task::spawn_local` can spawn `!Send` futures.
/// * `name = "..."`: the runtime's name, as `Handle::name` reports it.
/// * `worker_threads = N`: the number of workers (multi-thread only).
/// * `start_paused = true`: start with the clock paused (current-thread only).
/// * `crate = "path"`: where to find rt, for a renamed dependency
///   (`crate = "tokio"` after `tokio = { package = "rt", .. }`).
///
/// Mistakes are compile errors that point at the offending option and say
/// what to write instead, tokio's older option names included. Each call of
/// the function builds a new runtime: for a function called often, build one
/// runtime with `rt::runtime::Builder` and reuse it.
#[proc_macro_attribute]
pub fn main(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand(entry::EntryKind::Main, true, args.into(), item.into()).into()
}

/// [`macro@main`] for an rt built without its `rt-multi-thread` feature:
/// the facade exports it as `main` then, and the multi-thread flavor
/// (the default of `main`) is a compile error that says what to write.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn main_rt(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand(entry::EntryKind::Main, false, args.into(), item.into()).into()
}

/// Runs an `async` test function on its own rt runtime.
///
/// ```text
/// #[rt::test]
/// async fn answers() {
///     assert_eq!(async { 42 }.await, 42);
/// }
/// ```
///
/// The test gets a current-thread runtime unless told otherwise, and a
/// `#[test]` attribute: do not add one yourself.
///
/// # Options
///
/// Those of [`macro@main`] (with `flavor = "current_thread"` as the default),
/// plus:
///
/// * `seed = N`, which seeds the runtime's random generator so that every
///   random choice it makes (the first branch `select!` polls, for one) is
///   the same on every run;
/// * `deadline_secs = N` (at least 1), a deadline for the test: a test
///   still running `N` seconds after it started prints its name and its
///   runtime's task dump (where each idle task waits) to stderr and aborts
///   the process, so that a hang fails at once and says where.
///
/// A test without `deadline_secs` has the deadline the environment
/// variable `RT_TEST_DEADLINE` gives in seconds, when it is set and not
/// `0`, and no deadline otherwise (as with `#[tokio::test]`).
///
/// ```text
/// #[rt::test(deadline_secs = 30)]
/// async fn finishes_soon() { /* ... */ }
/// ```
#[proc_macro_attribute]
pub fn test(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand(entry::EntryKind::Test, true, args.into(), item.into()).into()
}

/// [`macro@test`] for an rt built without its `rt-multi-thread` feature,
/// exported by the facade as `test` then.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn test_rt(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand(entry::EntryKind::Test, false, args.into(), item.into()).into()
}

/// [`macro@main`] as compat/tokio exports it: the expansion names `::tokio`,
/// the only name a crate that patches compat/tokio in knows rt by.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn tokio_main(args: TokenStream, item: TokenStream) -> TokenStream {
    tokio_entry(entry::EntryKind::Main, true, args, item)
}

/// [`tokio_main`](macro@tokio_main) without the `rt-multi-thread` feature.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn tokio_main_rt(args: TokenStream, item: TokenStream) -> TokenStream {
    tokio_entry(entry::EntryKind::Main, false, args, item)
}

/// [`macro@test`] as compat/tokio exports it, naming `::tokio`.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn tokio_test(args: TokenStream, item: TokenStream) -> TokenStream {
    tokio_entry(entry::EntryKind::Test, true, args, item)
}

/// [`tokio_test`](macro@tokio_test) without the `rt-multi-thread` feature.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn tokio_test_rt(args: TokenStream, item: TokenStream) -> TokenStream {
    tokio_entry(entry::EntryKind::Test, false, args, item)
}

/// An attribute as compat/tokio exports it: `crate = "::tokio"` unless the
/// arguments name a crate.
fn tokio_entry(
    kind: entry::EntryKind,
    multi_thread: bool,
    args: TokenStream,
    item: TokenStream,
) -> TokenStream {
    let args = entry::with_default_crate(args.into(), "::tokio");
    entry::expand(kind, multi_thread, args, item.into()).into()
}

/// The expansion of `rt::select!`; call that macro instead.
#[doc(hidden)]
#[proc_macro]
pub fn select_inner(input: TokenStream) -> TokenStream {
    select::expand(input.into()).into()
}

/// The expansion of `rt::join!`; call that macro instead.
#[doc(hidden)]
#[proc_macro]
pub fn join_inner(input: TokenStream) -> TokenStream {
    join::expand(join::JoinKind::Join, input.into()).into()
}

/// The expansion of `rt::try_join!`; call that macro instead.
#[doc(hidden)]
#[proc_macro]
pub fn try_join_inner(input: TokenStream) -> TokenStream {
    join::expand(join::JoinKind::TryJoin, input.into()).into()
}
