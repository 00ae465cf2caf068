//! `#[rt::main]` and `#[rt::test]`: rewrite an `async fn` into a plain one
//! that builds a runtime and blocks on the original body.
//!
//! `config` reads and checks the attribute's options, `function` checks the
//! function itself, `expand` writes the result. Whatever goes wrong, the
//! function is still emitted (as a stand-in with the same signature) next
//! to the errors, so that the rest of the crate still resolves and
//! type-checks and the user sees only the errors that matter.

mod config;
mod expand;
mod function;

use proc_macro2::TokenStream;

/// Which attribute is being expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// `#[rt::main]`: a multi-thread runtime unless told otherwise.
    Main,
    /// `#[rt::test]`: a current-thread runtime unless told otherwise, plus
    /// a `#[test]` attribute.
    Test,
}

/// The build of rt an attribute expands for, and the name it is reached by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    /// Whether that build has the multi-thread scheduler (rt's
    /// `rt-multi-thread` feature).
    pub(crate) multi_thread: bool,
    /// The crate the expansion names unless `crate = "..."` says otherwise:
    /// `rt`, or `tokio` for the attributes compat/tokio exports, since a
    /// crate that patches that in knows it only as `tokio`.
    pub(crate) crate_name: &'static str,
}

/// Expands `#[rt::main(args)]` or `#[rt::test(args)]` on `item` for
/// `target`.
pub(crate) fn expand(
    kind: EntryKind,
    target: Target,
    args: TokenStream,
    item: TokenStream,
) -> TokenStream {
    let function = match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(function) => function,
        Err(error) => {
            // Not a function we can read: give the item back untouched so
            // that only this error is reported.
            let error = error.to_compile_error();
            return quote::quote!(#item #error);
        }
    };
    let mut errors = config::Errors::default();
    let config = config::parse(kind, target, args);
    if let Err(error) = function::check(kind, &function) {
        errors.push(error);
    }
    match config {
        Ok(config) if errors.is_empty() => expand::runtime_entry(kind, &config, function),
        Ok(_) => expand::stand_in(kind, function, errors.into_error()),
        Err(error) => {
            errors.push(error);
            expand::stand_in(kind, function, errors.into_error())
        }
    }
}
