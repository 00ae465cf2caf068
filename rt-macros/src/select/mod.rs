//! `select!`: wait on several futures at once and run the handler of the
//! first one whose output matches its pattern.
//!
//! The expansion keeps everything on the stack of the calling future:
//!
//! 1. The `if` conditions run first, in order; a false one sets the branch's
//!    bit in a `disabled` mask (`u8` to `u64`, by branch count).
//! 2. The future expressions are evaluated once, in order, each as the
//!    scrutinee of its own `match`, so temporaries they borrow live until
//!    the select ends. They are moved into one `SlotList` pinned with
//!    `core::pin::pin!`, which the `poll_fn` owns as a single pointer and
//!    projects to branch `i` safely (no box, no unsafe): a select costs its
//!    futures, one pointer and the mask, as tokio's does.
//! 3. A `poll_fn` yields at once if the task's coop budget is spent, then
//!    polls the enabled branches starting from a random one (or the first,
//!    under `biased;`). A ready branch is disabled before its output is
//!    tested against a `ref`/`mut`-free copy of the pattern; on a mismatch
//!    the loop goes on with the other branches.
//! 4. The futures are dropped, and only then the chosen handler runs with
//!    the user's pattern binding the output, outside any closure, so that
//!    `return`, `break`, `continue` and `?` act on the caller's code.
//!    When every branch is disabled, the `else` handler runs, or the select
//!    panics if there is none.
//!
//! Internal names carry mixed-site hygiene: user code cannot see them and
//! they cannot shadow the user's.

mod parse;
mod pattern;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use parse::SelectInput;

/// Expands the tokens the facade's `select!` forwards.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match syn::parse2::<SelectInput>(input) {
        Ok(select) => expand_select(&select),
        Err(err) => err.to_compile_error(),
    }
}

fn hidden(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

fn mask_type(branches: usize) -> Ident {
    let name = match branches {
        0..=8 => "u8",
        9..=16 => "u16",
        17..=32 => "u32",
        _ => "u64",
    };
    Ident::new(name, Span::call_site())
}

fn expand_select(select: &SelectInput) -> TokenStream {
    let support = &select.support;
    let count = select.branches.len();
    if count == 0 {
        // Only an `else` branch (the parser allows nothing less): every
        // branch is disabled from the start, so the handler runs at once.
        let handler = &select.else_handler;
        return quote!({ #handler });
    }
    let count_u32 = count as u32;
    let mask = mask_type(count);

    let out_enum = hidden("__RtSelectOut");
    let disabled = hidden("__rt_disabled");
    let output = hidden("__rt_output");
    let cx = hidden("__rt_cx");
    let start = hidden("__rt_start");
    let offset = hidden("__rt_offset");
    let any_pending = hidden("__rt_any_pending");
    let polled = hidden("__rt_polled");
    let value_ident = hidden("__rt_value");
    let bit = hidden("__rt_bit");

    let type_params: Vec<Ident> = (0..count).map(|i| format_ident!("T{}", i)).collect();
    let variants: Vec<Ident> = (0..count)
        .map(|i| Ident::new(&format!("_{i}"), Span::mixed_site()))
        .collect();
    let values: Vec<Ident> = (0..count)
        .map(|i| Ident::new(&format!("__rt_future_{i}"), Span::mixed_site()))
        .collect();
    let list = hidden("__rt_futures");
    // Branch `i`'s future in the pinned list: `i` tails, then the head.
    let slots: Vec<TokenStream> = (0..count)
        .map(|i| {
            let tails = (0..i).map(|_| quote!(.tail()));
            quote!(#list.as_mut()#(#tails)*.head())
        })
        .collect();

    let conditions = select
        .branches
        .iter()
        .enumerate()
        .filter_map(|(i, branch)| {
            let condition = branch.condition.as_ref()?;
            Some(quote! {
                if !(#condition) {
                    #disabled |= (1 as #mask) << #i;
                }
            })
        });

    let start_value = if select.biased {
        quote!(0u32)
    } else {
        quote!(#support::thread_rng_n(#count_u32))
    };

    let poll_arms = select.branches.iter().enumerate().map(|(i, branch)| {
        let slot = &slots[i];
        let variant = &variants[i];
        let test_pattern = pattern::match_test_pattern(&branch.pattern);
        quote! {
            #i => {
                let #bit: #mask = (1 as #mask) << #i;
                if #disabled & #bit != 0 {
                    continue;
                }
                let #value_ident = match #support::Future::poll(#slot, #cx) {
                    #support::Poll::Ready(#value_ident) => #value_ident,
                    #support::Poll::Pending => {
                        #any_pending = true;
                        continue;
                    }
                };
                // Disabled before the pattern test: a finished future is
                // never polled again, matched or not.
                #disabled |= #bit;
                match &#value_ident {
                    #[allow(unused_variables)]
                    #test_pattern => {}
                    #[allow(unreachable_patterns)]
                    _ => continue,
                }
                return #support::Poll::Ready(#out_enum::#variant(#value_ident));
            }
        }
    });

    let handler_arms = select.branches.iter().enumerate().map(|(i, branch)| {
        let variant = &variants[i];
        let pattern = &branch.pattern;
        let handler = &branch.handler;
        quote!(#out_enum::#variant(#pattern) => #handler,)
    });

    let else_arm = match &select.else_handler {
        Some(handler) => quote!(#out_enum::Disabled => #handler,),
        None => quote! {
            #out_enum::Disabled => #support::panic!(
                "all branches of this select! are disabled and it has no `else` branch"
            ),
        },
    };

    // The body: every future moved into one pinned list, and one `poll_fn`
    // that owns the disabled mask and the pinned reference (a `move`
    // closure: the task's future holds the futures, one pointer and the
    // mask, nothing else).
    let new_list = values.iter().rev().fold(
        quote!(()),
        |tail, value| quote!(#support::SlotList::new(#value, #tail)),
    );
    let body = quote! {
        let mut #list = #support::pin!(#new_list);
        #support::poll_fn(move |#cx| {
            if #support::poll_budget_available(#cx).is_pending() {
                return #support::Poll::Pending;
            }
            let #start: u32 = #start_value;
            let mut #any_pending = false;
            for #offset in 0..#count_u32 {
                #[allow(clippy::modulo_one)]
                let #polled = (#start + #offset) % #count_u32;
                match #polled as usize {
                    #(#poll_arms)*
                    _ => #support::unreachable!("select! branch index out of range"),
                }
            }
            if #any_pending {
                #support::Poll::Pending
            } else {
                #support::Poll::Ready(#out_enum::Disabled)
            }
        })
        .await
    };
    // Each future expression is the scrutinee of its own `match`, in order.
    let selected =
        select
            .branches
            .iter()
            .zip(&values)
            .rev()
            .fold(body, |inner, (branch, value)| {
                let future = &branch.future;
                quote! {
                    match #support::IntoFuture::into_future(#future) {
                        #value => { #inner }
                    }
                }
            });

    quote! {{
        #[allow(non_camel_case_types, clippy::enum_variant_names)]
        enum #out_enum<#(#type_params,)*> {
            #(#variants(#type_params),)*
            Disabled,
        }

        let mut #disabled: #mask = 0;
        #(#conditions)*

        // `mut`: a handler's pattern may bind by `ref mut`.
        #[allow(unused_mut)]
        let mut #output = #selected;

        match #output {
            #(#handler_arms)*
            #else_arm
            #[allow(unreachable_patterns)]
            _ => #support::unreachable!("select! chose a branch whose pattern does not match"),
        }
    }}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(source: &str) -> String {
        expand(source.parse().expect("test input tokenizes")).to_string()
    }

    #[test]
    fn mask_grows_with_the_branch_count() {
        assert_eq!(mask_type(1), "u8");
        assert_eq!(mask_type(8), "u8");
        assert_eq!(mask_type(9), "u16");
        assert_eq!(mask_type(32), "u32");
        assert_eq!(mask_type(33), "u64");
        assert_eq!(mask_type(64), "u64");
    }

    #[test]
    fn biased_starts_at_the_first_branch() {
        let biased = expand_str("krate; biased; v = f => v,");
        assert!(biased.contains("0u32"));
        assert!(!biased.contains("thread_rng_n"));
        let fair = expand_str("krate; v = f => v,");
        assert!(fair.contains("thread_rng_n (1u32)"));
    }

    #[test]
    fn budget_is_checked_before_polling() {
        let expanded = expand_str("krate; v = f => v, else => 0,");
        let budget = expanded
            .find("poll_budget_available")
            .expect("budget check");
        let poll = expanded.find("Future :: poll").expect("branch poll");
        assert!(budget < poll);
    }

    #[test]
    fn no_else_branch_panics_when_all_disabled() {
        assert!(expand_str("krate; v = f => v,").contains("no `else` branch"));
        assert!(!expand_str("krate; v = f => v, else => 1").contains("no `else` branch"));
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(expand_str("krate; v = f").contains("compile_error"));
        assert!(expand_str("krate; v = f => 1 w = g => 2,").contains("compile_error"));
        assert!(expand_str("krate;").contains("at least one"));
        assert_eq!(expand_str("krate; else => 1,"), "{ 1 }");
        assert!(expand_str("krate; v = f => 1, else => 2, else => 3").contains("at most one"));
        assert!(expand_str("v = f => 1").contains("implementation detail"));
    }
}
