//! Parsing `select!`'s input: an optional `biased;`, then branches of the
//! form `pattern = future, if condition => handler` and at most one
//! `else => handler`.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{token, Expr, Pat, Token};

use crate::support_path::{parse_biased, parse_support_path};

/// The most branches one `select!` accepts: one bit each in a `u64` mask.
pub(crate) const MAX_BRANCHES: usize = 64;

/// One `pattern = future, if condition => handler` branch.
pub(crate) struct Branch {
    pub(crate) pattern: Pat,
    pub(crate) future: Expr,
    pub(crate) condition: Option<Expr>,
    pub(crate) handler: Expr,
}

/// A whole `select!` invocation, as the facade forwards it.
pub(crate) struct SelectInput {
    pub(crate) support: TokenStream,
    pub(crate) biased: bool,
    pub(crate) branches: Vec<Branch>,
    pub(crate) else_handler: Option<Expr>,
}

impl Parse for SelectInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let support = parse_support_path(input)?;
        let biased = parse_biased(input)?;
        let mut branches = Vec::new();
        let mut else_handler = None;
        while !input.is_empty() {
            if input.peek(Token![else]) {
                let else_token: Token![else] = input.parse()?;
                if else_handler.is_some() {
                    return Err(syn::Error::new(
                        else_token.span,
                        "`select!` takes at most one `else` branch; remove this one",
                    ));
                }
                input.parse::<Token![=>]>()?;
                else_handler = Some(parse_handler(input)?);
                continue;
            }
            let branch_start = input.span();
            let branch = parse_branch(input)?;
            if branches.len() == MAX_BRANCHES {
                return Err(too_many_branches(branch_start));
            }
            branches.push(branch);
        }
        if branches.is_empty() && else_handler.is_none() {
            // With only an `else` branch the select is that handler (as in
            // tokio); with nothing at all there is nothing to wait for.
            return Err(syn::Error::new(
                Span::call_site(),
                "`select!` needs at least one `pattern = future => handler` branch or an \
                 `else` branch",
            ));
        }
        Ok(SelectInput {
            support,
            biased,
            branches,
            else_handler,
        })
    }
}

fn parse_branch(input: ParseStream<'_>) -> syn::Result<Branch> {
    let mut pattern = Pat::parse_multi_with_leading_vert(input)?;
    // The pattern ends up nested in a variant, where a leading `|` is not
    // accepted; it means nothing anyway.
    if let Pat::Or(alternatives) = &mut pattern {
        alternatives.leading_vert = None;
    }
    input.parse::<Token![=]>().map_err(|err| {
        syn::Error::new(
            err.span(),
            "expected `=` after the pattern: write `pattern = future => handler`",
        )
    })?;
    let future: Expr = input.parse()?;
    let condition = if input.peek(Token![,]) && input.peek2(Token![if]) {
        input.parse::<Token![,]>()?;
        input.parse::<Token![if]>()?;
        Some(input.parse::<Expr>()?)
    } else {
        None
    };
    input.parse::<Token![=>]>().map_err(|err| {
        syn::Error::new(
            err.span(),
            "expected `=>` after the future: write `pattern = future => handler` \
             or `pattern = future, if condition => handler`",
        )
    })?;
    let handler = parse_handler(input)?;
    Ok(Branch {
        pattern,
        future,
        condition,
        handler,
    })
}

/// A handler is an expression followed by `,`; a braced block may leave the
/// comma out, as in a `match` arm.
fn parse_handler(input: ParseStream<'_>) -> syn::Result<Expr> {
    if input.peek(token::Brace) {
        let block: syn::Block = input.parse()?;
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        }
        return Ok(Expr::Block(syn::ExprBlock {
            attrs: Vec::new(),
            label: None,
            block,
        }));
    }
    let handler: Expr = input.parse()?;
    if input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
    } else if !input.is_empty() {
        return Err(syn::Error::new(
            handler.span(),
            "expected `,` after this handler: branches are separated by commas \
             unless the handler is a `{ ... }` block",
        ));
    }
    Ok(handler)
}

fn too_many_branches(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "`select!` takes at most {MAX_BRANCHES} branches and this is branch {}; \
             split the branches over nested `select!` calls",
            MAX_BRANCHES + 1
        ),
    )
}
