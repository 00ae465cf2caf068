//! The checks on the annotated function itself.

use syn::ItemFn;

use super::config::Errors;
use super::EntryKind;

/// Checks that `function` can be run by the attribute.
pub(crate) fn check(kind: EntryKind, function: &ItemFn) -> syn::Result<()> {
    let mut errors = Errors::default();
    let signature = &function.sig;
    if signature.asyncness.is_none() {
        errors.push(syn::Error::new(
            signature.fn_token.span,
            format!(
                "the `async` keyword is missing from the function declaration; \
                 write `async fn {}`",
                signature.ident
            ),
        ));
    }
    if !signature.inputs.is_empty() {
        match kind {
            EntryKind::Main if signature.ident == "main" => errors.push(syn::Error::new_spanned(
                &signature.inputs,
                "the main function cannot take arguments; remove them and read \
                 `std::env::args()` in the body instead",
            )),
            EntryKind::Main => {}
            EntryKind::Test => errors.push(syn::Error::new_spanned(
                &signature.inputs,
                "a test function cannot take arguments; remove them",
            )),
        }
    }
    if kind == EntryKind::Test {
        if let Some(attribute) = function.attrs.iter().find(|a| is_test_attribute(a)) {
            errors.push(syn::Error::new_spanned(
                attribute,
                "`#[rt::test]` already adds `#[test]`; remove this attribute",
            ));
        }
    }
    errors.into_result()
}

/// `#[test]` or `#[core::prelude::v1::test]`-like paths ending in `test`
/// with nothing before them but `std`/`core` prelude segments.
fn is_test_attribute(attribute: &syn::Attribute) -> bool {
    let path = attribute.path();
    let Some(last) = path.segments.last() else {
        return false;
    };
    last.ident == "test"
        && path
            .segments
            .iter()
            .take(path.segments.len() - 1)
            .all(|segment| {
                [
                    "core",
                    "std",
                    "prelude",
                    "v1",
                    "rust_2015",
                    "rust_2018",
                    "rust_2021",
                    "rust_2024",
                ]
                .iter()
                .any(|known| segment.ident == known)
            })
}
