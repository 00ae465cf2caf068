//! The prefix the facade's `macro_rules!` wrappers put before the user's
//! tokens: the facade's own path (`$crate`), a `;`, and nothing else.
//!
//! Every item a function-like expansion needs is reached through
//! `<facade>::macros::support`, so the expansion works under a renamed
//! dependency and inside `#![no_implicit_prelude]` modules alike.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::parse::ParseStream;
use syn::Token;

/// Reads the facade path up to the first `;` and returns the path of its
/// support module.
pub(crate) fn parse_support_path(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let mut facade = TokenStream::new();
    while !input.peek(Token![;]) {
        if input.is_empty() {
            return Err(input.error(
                "this macro is an implementation detail of rt; call `rt::select!`, \
                 `rt::join!` or `rt::try_join!` instead",
            ));
        }
        facade.extend(std::iter::once(input.parse::<TokenTree>()?));
    }
    input.parse::<Token![;]>()?;
    Ok(quote!(#facade::macros::support))
}

/// Consumes a leading `biased;` if there is one.
pub(crate) fn parse_biased(input: ParseStream<'_>) -> syn::Result<bool> {
    let fork = input.fork();
    let is_biased = fork
        .parse::<syn::Ident>()
        .map(|ident| ident == "biased")
        .unwrap_or(false)
        && fork.peek(Token![;]);
    if is_biased {
        input.parse::<syn::Ident>()?;
        input.parse::<Token![;]>()?;
    }
    Ok(is_biased)
}
