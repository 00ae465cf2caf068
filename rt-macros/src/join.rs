//! `join!` and `try_join!`: run several futures concurrently inside the
//! calling task and wait for all of them (or, for `try_join!`, for the
//! first error).
//!
//! Each future is pinned in place with `core::pin::pin!` inside the
//! facade's `MaybeDone` slot; when it finishes, the future is dropped on
//! the spot and its output takes its place, so a finished future is never
//! polled again and a slot costs the larger of the future and its output.
//! The one `poll_fn` owns the pinned references (a `move` closure): a
//! `join!` of one ready `i32` makes a 32-byte future, as tokio's does. No
//! box, no allocation, no unsafe in the expansion. The futures are
//! evaluated once, in order, each as the scrutinee of a nested `match`, so
//! temporaries they borrow live long enough.
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
    let all_done = hidden("__rt_all_done");
    let error = hidden("__rt_error");
    let out = hidden("__rt_out");
    let index = hidden("__rt_index");
    let values: Vec<Ident> = (0..count)
        .map(|i| hidden(&format!("__rt_value_{i}")))
        .collect();
    let list = hidden("__rt_futures");
    // Slot `i` of the pinned list: `i` tails, then the head.
    let slots: Vec<TokenStream> = (0..count)
        .map(|i| {
            let tails = (0..i).map(|_| quote!(.tail()));
            quote!(#list.as_mut()#(#tails)*.head())
        })
        .collect();

    let poll_arms = slots.iter().enumerate().map(|(i, slot)| {
        let on_done = match kind {
            JoinKind::Join => TokenStream::new(),
            JoinKind::TryJoin => quote! {
                if let #support::Option::Some(#support::Result::Err(_)) = #slot.output_mut() {
                    if let #support::Option::Some(#support::Result::Err(#error)) = #slot.take_output() {
                        return #support::Poll::Ready(#support::Result::Err(#error));
                    }
                }
            },
        };
        quote! {
            #i => {
                if #slot.poll_done(#cx) {
                    #on_done
                } else {
                    #all_done = false;
                }
            }
        }
    });

    let take_outputs = slots.iter().map(|slot| {
        let take = quote! {
            match #slot.take_output() {
                #support::Option::Some(#out) => #out,
                #support::Option::None => #support::unreachable!("join! output taken twice"),
            }
        };
        match kind {
            JoinKind::Join => take,
            JoinKind::TryJoin => quote! {
                match #take {
                    #support::Result::Ok(#out) => #out,
                    #support::Result::Err(_) => #support::unreachable!("try_join! error kept"),
                }
            },
        }
    });
    let all_outputs = quote!((#(#take_outputs,)*));
    let finished = match kind {
        JoinKind::Join => all_outputs,
        JoinKind::TryJoin => quote!(#support::Result::Ok(#all_outputs)),
    };

    // `biased;` polls in the written order and keeps no counter at all.
    let (start, index_of, rotate) = if join.biased {
        (TokenStream::new(), quote!(#offset), TokenStream::new())
    } else {
        (
            quote!(let mut #first: u32 = 0;),
            quote!((#first + #offset) % #count_u32),
            quote! {
                #first = if #first + 1 == #count_u32 { 0 } else { #first + 1 };
            },
        )
    };

    // The body: every future pinned in one list of slots, and one
    // `poll_fn` that owns the pinned reference and the rotation counter (a
    // `move` closure, so the task's future holds the slots, one pointer and
    // the counter, nothing else).
    let new_list = values.iter().rev().fold(quote!(()), |tail, value| {
        quote! {
            #support::SlotList::new(
                #support::MaybeDone::new(#support::IntoFuture::into_future(#value)),
                #tail,
            )
        }
    });
    let body = quote! {
        let mut #list = #support::pin!(#new_list);
        #start
        #support::poll_fn(move |#cx| {
            if #support::poll_budget_available(#cx).is_pending() {
                return #support::Poll::Pending;
            }
            let mut #all_done = true;
            for #offset in 0..#count_u32 {
                #[allow(clippy::modulo_one)]
                let #index = #index_of;
                match #index as usize {
                    #(#poll_arms)*
                    _ => #support::unreachable!("join! future index out of range"),
                }
            }
            #rotate
            if !#all_done {
                return #support::Poll::Pending;
            }
            #support::Poll::Ready(#finished)
        })
        .await
    };

    // The futures are evaluated in order, each as the scrutinee of its own
    // `match`, so the temporaries they borrow live until the join ends;
    // each is moved whole into its slot, so no second copy stays behind.
    join.futures
        .iter()
        .zip(&values)
        .rev()
        .fold(body, |inner, (future, value)| {
            quote! {
                match #future {
                    #value => { #inner }
                }
            }
        })
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
