//! The code the entry attributes write.
//!
//! A checked function becomes:
//!
//! ```text
//! fn name() -> T {
//!     let body = async { /* the original body */ };
//!     let body: Pin<&mut dyn Future<Output = T>> = pin!(body);
//!     return <crate>::runtime::Builder::new_current_thread()   // or new_multi_thread()
//!         /* .worker_threads(n) .start_paused(b) .rng_seed(RngSeed::from_u64(n)) */
//!         .enable_all()
//!         .build()
//!         .expect("...")
//!         .block_on(body);
//! }
//! ```
//!
//! Coercing the body to `dyn Future<Output = T>` does two things: a body
//! whose value is not `T` is reported at the user's return type and body,
//! not inside the expansion, and `block_on` is instantiated for one future
//! type per output type instead of once per function. The `return` keeps
//! inference from leaking out of the block (a bare tail expression can leave
//! the output type undecided when the body ends in `loop {}`).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ItemFn, ReturnType, Type};

use super::config::{Config, Flavor};
use super::EntryKind;

/// The function rewritten to build a runtime and block on its body.
pub(crate) fn runtime_entry(kind: EntryKind, config: &Config, mut function: ItemFn) -> TokenStream {
    function.sig.asyncness = None;
    let rt = &config.crate_path;
    let body_ident = Ident::new("body", Span::mixed_site());
    let original_body = &function.block;

    let constructor = match config.flavor {
        Flavor::CurrentThread => quote!(new_current_thread),
        Flavor::MultiThread => quote!(new_multi_thread),
    };
    let mut options = TokenStream::new();
    if let Some(threads) = &config.worker_threads {
        options.extend(quote!(.worker_threads(#threads)));
    }
    if let Some(paused) = &config.start_paused {
        options.extend(quote!(.start_paused(#paused)));
    }
    if let Some(seed) = &config.seed {
        options.extend(quote!(.rng_seed(#rt::runtime::RngSeed::from_u64(#seed))));
    }

    let type_check = match output_type(&function.sig.output) {
        Some(output) => quote_spanned! {output.span()=>
            let #body_ident = ::core::pin::pin!(#body_ident);
            let #body_ident: ::core::pin::Pin<
                &mut dyn ::core::future::Future<Output = #output>
            > = #body_ident;
        },
        None => TokenStream::new(),
    };

    let body = quote! {{
        let #body_ident = async #original_body;
        #type_check
        #[allow(clippy::expect_used, clippy::diverging_sub_expression, clippy::needless_return)]
        {
            return #rt::runtime::Builder::#constructor()
                #options
                .enable_all()
                .build()
                .expect("failed to build the runtime")
                .block_on(#body_ident);
        }
    }};

    let test_attribute = match kind {
        EntryKind::Test => quote!(#[::core::prelude::v1::test]),
        EntryKind::Main => TokenStream::new(),
    };
    let ItemFn {
        attrs, vis, sig, ..
    } = function;
    quote! {
        #test_attribute
        #(#attrs)*
        #vis #sig #body
    }
}

/// The type the body's value must have, or `None` where it cannot be named
/// in a `dyn Future<Output = _>` (`impl Trait`, `!`).
fn output_type(output: &ReturnType) -> Option<TokenStream> {
    match output {
        ReturnType::Default => Some(quote!(())),
        ReturnType::Type(_, ty) if nameable(ty) => Some(quote!(#ty)),
        ReturnType::Type(..) => None,
    }
}

fn nameable(ty: &Type) -> bool {
    struct FindsUnnameable(bool);
    impl<'ast> syn::visit::Visit<'ast> for FindsUnnameable {
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0 = true;
        }
        fn visit_type_never(&mut self, _: &'ast syn::TypeNever) {
            self.0 = true;
        }
    }
    let mut finder = FindsUnnameable(false);
    syn::visit::Visit::visit_type(&mut finder, ty);
    !finder.0
}

/// What is emitted next to the errors: the function with its signature
/// (less `async`) and a body that still type-checks the original code but
/// builds no runtime, so that no error about the runtime hides the real
/// one.
pub(crate) fn stand_in(mut function: ItemFn, error: syn::Error) -> TokenStream {
    function.sig.asyncness = None;
    let error = error.to_compile_error();
    let ItemFn {
        attrs,
        vis,
        sig,
        block,
    } = function;
    quote! {
        #error
        #(#attrs)*
        #vis #sig {
            let _ = async move #block;
            #[allow(clippy::empty_loop)]
            loop {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{expand, EntryKind};

    fn expand_str(kind: EntryKind, args: &str, item: &str) -> String {
        expand(
            kind,
            args.parse().expect("test arguments tokenize"),
            item.parse().expect("test item tokenizes"),
        )
        .to_string()
    }

    #[test]
    fn main_defaults_to_the_multi_thread_runtime() {
        let out = expand_str(EntryKind::Main, "", "async fn main() {}");
        assert!(out.contains(":: rt :: runtime :: Builder :: new_multi_thread ()"));
        assert!(out.contains(". enable_all () . build ()"));
        assert!(out.contains(". block_on (body)"));
        assert!(!out.contains("async fn"));
        assert!(!out.contains("prelude :: v1 :: test"));
    }

    #[test]
    fn test_defaults_to_current_thread_and_adds_the_test_attribute() {
        let out = expand_str(EntryKind::Test, "", "async fn works() {}");
        assert!(out.contains("new_current_thread ()"));
        assert!(out.starts_with("# [:: core :: prelude :: v1 :: test]"));
    }

    #[test]
    fn every_option_becomes_a_builder_call() {
        let out = expand_str(
            EntryKind::Main,
            r#"flavor = "multi_thread", worker_threads = 3, crate = "renamed""#,
            "async fn main() {}",
        );
        assert!(out.contains("renamed :: runtime :: Builder :: new_multi_thread () . worker_threads (3) . enable_all ()"));
        let out = expand_str(
            EntryKind::Test,
            "start_paused = true, seed = 42",
            "async fn t() {}",
        );
        assert!(out.contains(
            ". start_paused (true) . rng_seed (:: rt :: runtime :: RngSeed :: from_u64 (42))"
        ));
    }

    #[test]
    fn the_return_type_is_checked_unless_unnameable() {
        let out = expand_str(
            EntryKind::Main,
            "",
            "async fn main() -> Result<(), E> { Ok(()) }",
        );
        assert!(out.contains("Output = Result < () , E >"));
        let out = expand_str(EntryKind::Main, "", "async fn main() -> impl Sized { 1 }");
        assert!(!out.contains("Output ="));
        let out = expand_str(EntryKind::Main, "", "async fn main() -> ! { loop {} }");
        assert!(!out.contains("Output ="));
    }

    #[test]
    fn errors_keep_the_function_without_a_runtime() {
        let out = expand_str(EntryKind::Main, "core_threads = 2", "async fn main() {}");
        assert!(out.contains("compile_error"));
        assert!(out.contains("fn main ()"));
        assert!(!out.contains("runtime"));
        let out = expand_str(EntryKind::Main, "", "fn main() {}");
        assert!(out.contains("`async` keyword is missing"));
        let out = expand_str(EntryKind::Test, "", "#[test] async fn t() {}");
        assert!(out.contains("already adds"));
    }

    #[test]
    fn an_unreadable_item_is_given_back() {
        let out = expand_str(EntryKind::Main, "", "struct NotAFunction;");
        assert!(out.contains("struct NotAFunction"));
        assert!(out.contains("compile_error"));
    }
}
