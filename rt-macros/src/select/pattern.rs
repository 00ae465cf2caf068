//! The pattern `select!` tests an output against before choosing a branch.
//!
//! The poll loop checks whether a branch's output matches its pattern by
//! matching a *reference* to the output, so that the output can still be
//! moved into the handler afterwards. Under a reference, `ref` and `mut`
//! bindings either mean something else or do not compile, so this copy of
//! the pattern has them removed; the handler still binds with the user's
//! original pattern.

use syn::visit_mut::{self, VisitMut};
use syn::Pat;

/// The user's pattern with every `ref`/`mut` binding mode removed.
///
/// Reference patterns keep their `&mut`: it still has to match an output
/// that holds a `&mut T`.
pub(crate) fn match_test_pattern(pattern: &Pat) -> Pat {
    let mut pattern = pattern.clone();
    StripBindingModes.visit_pat_mut(&mut pattern);
    pattern
}

struct StripBindingModes;

impl VisitMut for StripBindingModes {
    fn visit_pat_ident_mut(&mut self, binding: &mut syn::PatIdent) {
        binding.by_ref = None;
        binding.mutability = None;
        visit_mut::visit_pat_ident_mut(self, binding);
    }

    // Expressions inside patterns (constants in ranges, paths) are left as
    // they are: only bindings change meaning under a reference.
    fn visit_expr_mut(&mut self, _: &mut syn::Expr) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn strip(source: &str) -> String {
        let pattern = syn::parse::Parser::parse_str(Pat::parse_multi_with_leading_vert, source)
            .expect("test pattern parses");
        match_test_pattern(&pattern).to_token_stream().to_string()
    }

    #[test]
    fn binding_modes_are_removed() {
        assert_eq!(strip("ref x"), "x");
        assert_eq!(strip("mut x"), "x");
        assert_eq!(strip("ref mut x"), "x");
        assert_eq!(strip("Some((ref a, mut b))"), "Some ((a , b))");
    }

    #[test]
    fn reference_patterns_are_kept() {
        assert_eq!(strip("&mut x"), "& mut x");
        assert_eq!(strip("&x"), "& x");
    }

    #[test]
    fn other_patterns_are_unchanged() {
        assert_eq!(strip("Ok(v) | Err(v)"), "Ok (v) | Err (v)");
        assert_eq!(strip("None"), "None");
        assert_eq!(strip("1..=3"), "1 ..= 3");
        assert_eq!(strip("x @ Some(_)"), "x @ Some (_)");
    }
}
