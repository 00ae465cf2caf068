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

use proc_macro2::{TokenStream, TokenTree};

/// Which attribute is being expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// `#[rt::main]`: a multi-thread runtime unless told otherwise.
    Main,
    /// `#[rt::test]`: a current-thread runtime unless told otherwise, plus
    /// a `#[test]` attribute.
    Test,
}

/// Expands `#[rt::main(args)]` or `#[rt::test(args)]` on `item`, for an rt
/// build with (`multi_thread`) or without the multi-thread scheduler.
pub(crate) fn expand(
    kind: EntryKind,
    multi_thread: bool,
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
    let config = config::parse(kind, multi_thread, args);
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

/// `args` with `crate = "path"` added, unless they name a crate already:
/// how the attributes compat/tokio exports expand to `::tokio` paths, the
/// only name a crate that patches compat/tokio in knows rt by.
pub(crate) fn with_default_crate(args: TokenStream, path: &str) -> TokenStream {
    let names_crate = args
        .clone()
        .into_iter()
        .any(|token| matches!(&token, TokenTree::Ident(ident) if ident == "crate"));
    if names_crate {
        return args;
    }
    let path = proc_macro2::Literal::string(path);
    let trailing_comma = matches!(
        args.clone().into_iter().last(),
        Some(TokenTree::Punct(punct)) if punct.as_char() == ','
    );
    if args.is_empty() || trailing_comma {
        quote::quote!(#args crate = #path)
    } else {
        quote::quote!(#args, crate = #path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_crate_is_added_unless_one_is_named() {
        let add = |args: &str| with_default_crate(args.parse().unwrap(), "::tokio").to_string();
        assert_eq!(add(""), "crate = \"::tokio\"");
        assert_eq!(
            add("flavor = \"current_thread\""),
            "flavor = \"current_thread\" , crate = \"::tokio\""
        );
        assert_eq!(add("seed = 1,"), "seed = 1 , crate = \"::tokio\"");
        assert_eq!(add("crate = \"tokio1\""), "crate = \"tokio1\"");
    }
}
