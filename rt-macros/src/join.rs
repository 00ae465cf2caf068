//! `join!` and `try_join!`: run several futures concurrently inside the
//! calling task and wait for all of them (or, for `try_join!`, for the
//! first error).
//!
//! The futures are pinned in place together, each in a `MaybeDone` slot of
//! the facade, as one tuple (`core::pin::pin!`), and each slot is reached
//! pinned through the facade's `ProjectTuple`: the future `join!` expands to
//! then holds one pointer to them all. More than 64 futures are grouped
//! into a tuple of tuples of at most 64. When a future finishes, it is
//! dropped on the spot and its output takes its place in the slot, so a
//! finished future is never polled again and holds nothing while the others
//! run. No box, no allocation, and no unsafe code in the caller's crate. The futures are evaluated once, in order, as the
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
use syn::Index;
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

/// The most futures one tuple of the expansion holds.
const GROUP: usize = 64;

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
    let slot = hidden("__rt_slot");
    let index = hidden("__rt_index");
    let pinned = hidden("__rt_futures");
    let futures: Vec<Ident> = (0..count)
        .map(|i| hidden(&format!("__rt_future_{i}")))
        .collect();

    let into_futures = join
        .futures
        .iter()
        .map(|future| quote!(#support::IntoFuture::into_future(#future)));

    // The slots' tuple: flat up to 64 futures (the most `ProjectTuple`
    // covers), else a tuple of tuples of 64.
    let slot_of = |future: &Ident| quote!(#support::MaybeDone::Future(#future));
    let grouped = if count <= GROUP {
        let slots = futures.iter().map(slot_of);
        quote!((#(#slots,)*))
    } else {
        let groups = futures.chunks(GROUP).map(|group| {
            let slots = group.iter().map(slot_of);
            quote!((#(#slots,)*))
        });
        quote!((#(#groups,)*))
    };
    // The pinned slot of future `i`.
    let project = |i: usize| {
        let all = quote!(#support::ProjectTuple::project(#pinned.as_mut()));
        if count <= GROUP {
            let i = Index::from(i);
            quote!(#all.#i)
        } else {
            let (group, i) = (Index::from(i / GROUP), Index::from(i % GROUP));
            quote!(#support::ProjectTuple::project(#all.#group).#i)
        }
    };

    let poll_arms = (0..count).map(|i| {
        let projected = project(i);
        // `try_join!` returns the first error as soon as it is there.
        let check = match kind {
            JoinKind::Join => TokenStream::new(),
            JoinKind::TryJoin => quote! {
                if let #support::Option::Some(#support::Result::Err(_)) = #slot.as_mut().output() {
                    if let #support::Option::Some(#support::Result::Err(#value)) =
                        #slot.as_mut().take_output()
                    {
                        return #support::Poll::Ready(#support::Result::Err(#value));
                    }
                }
            },
        };
        quote! {
            #i => {
                let mut #slot = #projected;
                if #slot.as_mut().poll_done(#cx).is_pending() {
                    #any_pending = true;
                }
                #check
            }
        }
    });

    let take_outputs = (0..count).map(|i| {
        let projected = project(i);
        let taken = match kind {
            JoinKind::Join => quote!(#support::Option::Some(#value)),
            JoinKind::TryJoin => {
                quote!(#support::Option::Some(#support::Result::Ok(#value)))
            }
        };
        quote! {
            match #projected.take_output() {
                #taken => #value,
                _ => #support::unreachable!("join! output taken twice"),
            }
        }
    });
    let all_outputs = quote!((#(#take_outputs,)*));
    let finished = match kind {
        JoinKind::Join => all_outputs,
        JoinKind::TryJoin => quote!(#support::Result::Ok(#all_outputs)),
    };

    // Which future to poll `offset`-th: in list order under `biased;`
    // (no state at all), else from a first one that rotates.
    let (first_binding, order, rotate) = if join.biased {
        (TokenStream::new(), quote!(#offset), TokenStream::new())
    } else {
        let rotate = quote! {
            #first = if #first + 1 == #count_u32 { 0 } else { #first + 1 };
        };
        (
            quote!(let mut #first: u32 = 0;),
            quote!((#first + #offset) % #count_u32),
            rotate,
        )
    };

    quote! {
        match (#(#into_futures,)*) {
            (#(#futures,)*) => {
                let mut #pinned = #support::pin!(#grouped);
                #first_binding
                // `move`: the closure owns the rotation and the pointer to
                // the slots instead of pointing at them, which keeps the
                // future small.
                #support::poll_fn(move |#cx| {
                    if #support::poll_budget_available(#cx).is_pending() {
                        return #support::Poll::Pending;
                    }
                    let mut #any_pending = false;
                    for #offset in 0..#count_u32 {
                        #[allow(clippy::modulo_one)]
                        let #index = #order;
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
        assert!(expanded.contains("Result :: Err (__rt_value)"));
    }

    #[test]
    fn many_futures_are_grouped_by_64() {
        let futures: Vec<String> = (0..70).map(|i| format!("f{i}")).collect();
        let expanded = expand_str(JoinKind::Join, &format!("krate; {}", futures.join(",")));
        assert!(
            expanded.contains(". 1) . 5"),
            "future 69 is field 5 of group 1"
        );
        let few = expand_str(JoinKind::Join, "krate; a, b");
        assert!(few.contains("project (__rt_futures . as_mut ()) . 1"));
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(expand_str(JoinKind::Join, "krate; a b").contains("compile_error"));
    }
}
