//! `join!` and `try_join!`: run several futures concurrently inside the
//! calling task and wait for all of them (or, for `try_join!`, for the
//! first error).
//!
//! Each future is pinned in place inside an `Option` with
//! `core::pin::pin!`; when it finishes, its output moves to a local and the
//! future is dropped on the spot (`Pin::set(None)`), so a finished future is
//! never polled again and holds nothing while the others run. No box, no
//! allocation, no unsafe. The futures are evaluated once, in order, as the
//! scrutinee of a `match`, so temporaries they borrow live long enough.
//!
//! Every poll first checks the task's coop budget, then polls each
//! unfinished future once. The first future polled rotates from one poll to
//! the next so that none is always served first; `biased;` keeps the order
//! of the list instead.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

use crate::support_path::{parse_biased, parse_support_path};

/// Which of the two macros is being expanded.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum JoinKind {
    /// `join!`: wait for every output.
    Join,
    /// `try_join!`: wait for every `Ok`, stop at the first `Err`.
    TryJoin,
}

struct JoinInput {
    support: TokenStream,
    biased: bool,
    futures: Vec<Expr>,
}

impl Parse for JoinInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let support = parse_support_path(input)?;
        let biased = parse_biased(input)?;
        let futures = Punctuated::<Expr, Token![,]>::parse_terminated(input)?;
        Ok(JoinInput {
            support,
            biased,
            futures: futures.into_iter().collect(),
        })
    }
}

/// Expands the tokens the facade's `join!` or `try_join!` forwards.
pub(crate) fn expand(kind: JoinKind, input: TokenStream) -> TokenStream {
    match syn::parse2::<JoinInput>(input) {
        Ok(join) => expand_join(kind, &join),
        Err(err) => err.to_compile_error(),
    }
}

fn hidden(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

fn expand_join(kind: JoinKind, join: &JoinInput) -> TokenStream {
    let support = &join.support;
    let count = join.futures.len();
    if count == 0 {
        return match kind {
            JoinKind::Join => quote!(()),
            JoinKind::TryJoin => quote!(#support::Result::Ok(())),
        };
    }
    let count_u32 = count as u32;

    let cx = hidden("__rt_cx");
    let first = hidden("__rt_first");
    let offset = hidden("__rt_offset");
    let any_pending = hidden("__rt_any_pending");
    let value = hidden("__rt_value");
    let future = hidden("__rt_future");
    let error = hidden("__rt_error");
    let index = hidden("__rt_index");
    let slots: Vec<Ident> = (0..count)
        .map(|i| hidden(&format!("__rt_future_{i}")))
        .collect();
    let outputs: Vec<Ident> = (0..count)
        .map(|i| hidden(&format!("__rt_output_{i}")))
        .collect();

    let futures = join
        .futures
        .iter()
        .map(|future| quote!(#support::IntoFuture::into_future(#future)));

    let poll_arms = (0..count).map(|i| {
        let slot = &slots[i];
        let output = &outputs[i];
        let store = match kind {
            JoinKind::Join => quote!(#output = #support::Option::Some(#value);),
            JoinKind::TryJoin => quote! {
                match #value {
                    #support::Result::Ok(#value) => #output = #support::Option::Some(#value),
                    #support::Result::Err(#error) => {
                        return #support::Poll::Ready(#support::Result::Err(#error));
                    }
                }
            },
        };
        quote! {
            #i => {
                if let #support::Option::Some(#future) = #slot.as_mut().as_pin_mut() {
                    match #support::Future::poll(#future, #cx) {
                        #support::Poll::Ready(#value) => {
                            #slot.set(#support::Option::None);
                            #store
                        }
                        #support::Poll::Pending => #any_pending = true,
                    }
                }
            }
        }
    });

    let take_outputs = outputs.iter().map(|output| {
        quote! {
            match #output.take() {
                #support::Option::Some(#value) => #value,
                #support::Option::None => #support::unreachable!("join! output taken twice"),
            }
        }
    });
    let all_outputs = quote!((#(#take_outputs,)*));
    let finished = match kind {
        JoinKind::Join => all_outputs,
        JoinKind::TryJoin => quote!(#support::Result::Ok(#all_outputs)),
    };

    let (first_binding, rotate) = if join.biased {
        (quote!(#first), TokenStream::new())
    } else {
        let rotate = quote! {
            #first = if #first + 1 == #count_u32 { 0 } else { #first + 1 };
        };
        (quote!(mut #first), rotate)
    };

    quote! {
        match (#(#futures,)*) {
            (#(#slots,)*) => {
                #(
                    let mut #slots = #support::pin!(#support::Option::Some(#slots));
                    let mut #outputs = #support::Option::None;
                )*
                let #first_binding: u32 = 0;
                #support::poll_fn(|#cx| {
                    if #support::poll_budget_available(#cx).is_pending() {
                        return #support::Poll::Pending;
                    }
                    let mut #any_pending = false;
                    for #offset in 0..#count_u32 {
                        #[allow(clippy::modulo_one)]
                        let #index = (#first + #offset) % #count_u32;
                        match #index as usize {
                            #(#poll_arms)*
                            _ => #support::unreachable!("join! future index out of range"),
                        }
                    }
                    #rotate
                    if #any_pending {
                        return #support::Poll::Pending;
                    }
                    #support::Poll::Ready(#finished)
                })
                .await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(kind: JoinKind, source: &str) -> String {
        expand(kind, source.parse().expect("test input tokenizes")).to_string()
    }

    #[test]
    fn empty_join_is_unit() {
        assert_eq!(expand_str(JoinKind::Join, "krate;"), "()");
        assert!(expand_str(JoinKind::TryJoin, "krate;").contains("Ok (())"));
    }

    #[test]
    fn biased_does_not_rotate() {
        let fair = expand_str(JoinKind::Join, "krate; a, b");
        let biased = expand_str(JoinKind::Join, "krate; biased; a, b");
        assert!(fair.matches("__rt_first =").count() > biased.matches("__rt_first =").count());
    }

    #[test]
    fn try_join_returns_early_on_error() {
        let expanded = expand_str(JoinKind::TryJoin, "krate; a, b,");
        assert!(expanded.contains("return"));
        assert!(expanded.contains("Result :: Err (__rt_error)"));
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(expand_str(JoinKind::Join, "krate; a b").contains("compile_error"));
    }
}
