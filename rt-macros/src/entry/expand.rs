//! The code the entry attributes write.
//!
//! A checked function becomes:
//!
//! ```text
//! fn name() -> T {
//!     let body = async {
//!         if false {
//!             let output: T = unreachable!();
//!             return output;
//!         }
//!         /* the original statements */
//!     };
//!     return <crate>::runtime::Builder::new_current_thread()   // or new_multi_thread()
//!         /* .worker_threads(n) .start_paused(b) .rng_seed(RngSeed::from_u64(n)) */
//!         .enable_all()
//!         .build()
//!         .expect("...")
//!         .block_on(body);
//! }
//! ```
//!
//! A test wraps the built runtime in `support::TestRuntime::new(runtime,
//! "module::path::name", deadline)`, which arms the test's deadline
//! watchdog (when the test has a deadline: `deadline_secs`, or
//! `RT_TEST_DEADLINE`) until the runtime has shut down, and blocks on the
//! body through it.
//!
//! The dead `return` of a `T` comes first so that the compiler knows the
//! async block's output type before it reads the user's code: a wrong tail
//! expression or `return` is then reported at that expression, with a note
//! pointing at the declared return type, instead of at the attribute. It is
//! left out where the type cannot be written in a `let` (`impl Trait`, `!`).
//! Tests also pin the body as `Pin<&mut dyn Future<Output = T>>`, so that
//! `block_on` is compiled once per output type rather than once per test.
//! The `return` keeps inference from leaking out of the final block (a bare
//! tail expression can leave the output type undecided when the body ends
//! in `loop {}`).

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
        Flavor::CurrentThread | Flavor::Local => quote!(new_current_thread),
        Flavor::MultiThread => quote!(new_multi_thread),
    };
    let build = match config.flavor {
        Flavor::Local => quote!(build_local(::core::default::Default::default())),
        Flavor::CurrentThread | Flavor::MultiThread => quote!(build()),
    };
    let mut options = TokenStream::new();
    if let Some(name) = &config.name {
        options.extend(quote!(.name(#name)));
    }
    if let Some(threads) = &config.worker_threads {
        options.extend(quote!(.worker_threads(#threads)));
    }
    if let Some(paused) = &config.start_paused {
        options.extend(quote!(.start_paused(#paused)));
    }
    let seed_ident = Ident::new("__rt_test_seed", Span::mixed_site());
    let mut seed_guard = TokenStream::new();
    if let Some(seed) = &config.seed {
        options.extend(quote!(.rng_seed(#rt::runtime::RngSeed::from_u64(#seed))));
    } else if kind == EntryKind::Test {
        // An unseeded test still runs with a seed, chosen at random (or
        // taken from RT_SEED) and printed if the test fails.
        seed_guard = quote!(let #seed_ident = #rt::macros::support::TestSeed::choose(););
        options.extend(quote!(.rng_seed(#seed_ident.seed())));
    }

    let output = output_type(&function.sig);
    let output_check = match &output {
        Some((output, span)) => quote_spanned! {*span=>
            #[allow(unreachable_code, clippy::diverging_sub_expression)]
            if false {
                let __rt_output: #output = ::core::unreachable!();
                return __rt_output;
            }
        },
        None => TokenStream::new(),
    };
    let pin_as_dyn = match (&output, kind) {
        (Some((output, _)), EntryKind::Test) => quote! {
            let #body_ident = ::core::pin::pin!(#body_ident);
            let #body_ident: ::core::pin::Pin<
                &mut dyn ::core::future::Future<Output = #output>
            > = #body_ident;
        },
        _ => TokenStream::new(),
    };
    let statements = &original_body.stmts;

    let built = quote! {
        #rt::runtime::Builder::#constructor()
            #options
            .enable_all()
            .#build
            .expect("failed to build the runtime")
    };
    let runtime = match kind {
        EntryKind::Main => built,
        EntryKind::Test => {
            // The test's runtime is watched: past its deadline, if it has
            // one, the test's name and task dump are printed and the
            // process aborts.
            let name = function.sig.ident.to_string();
            let deadline = match &config.deadline_secs {
                Some(seconds) => quote! {
                    ::core::option::Option::Some(::core::time::Duration::from_secs(#seconds))
                },
                None => quote!(::core::option::Option::None),
            };
            quote! {
                #rt::macros::support::TestRuntime::new(
                    #built,
                    ::core::concat!(::core::module_path!(), "::", #name),
                    #deadline,
                )
            }
        }
    };

    let body = quote! {{
        #seed_guard
        let #body_ident = async {
            #output_check
            #(#statements)*
        };
        #pin_as_dyn
        #[allow(clippy::expect_used, clippy::diverging_sub_expression, clippy::needless_return)]
        {
            return #runtime.block_on(#body_ident);
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

/// The type the body's value must have and the span to report it at, or
/// `None` where the type cannot be written in a `let` (`impl Trait`, `!`).
fn output_type(signature: &syn::Signature) -> Option<(TokenStream, Span)> {
    match &signature.output {
        ReturnType::Default => Some((quote!(()), signature.paren_token.span.close())),
        ReturnType::Type(_, ty) if nameable(ty) => Some((quote!(#ty), ty.span())),
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
///
/// A `main` given arguments loses them and its body: kept, they would only
/// add the compiler's own complaint about `main`'s signature.
pub(crate) fn stand_in(kind: EntryKind, mut function: ItemFn, error: syn::Error) -> TokenStream {
    function.sig.asyncness = None;
    let error = error.to_compile_error();
    let body = if kind == EntryKind::Main
        && function.sig.ident == "main"
        && !function.sig.inputs.is_empty()
    {
        function.sig.inputs.clear();
        TokenStream::new()
    } else {
        let block = &function.block;
        quote!(let _ = async move #block;)
    };
    let ItemFn {
        attrs, vis, sig, ..
    } = function;
    quote! {
        #error
        #(#attrs)*
        #[allow(dead_code)]
        #vis #sig {
            #body
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
            true,
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
        assert!(out.contains(":: rt :: macros :: support :: TestRuntime :: new ("));
        assert!(out.contains(":: core :: module_path ! () , \"::\" , \"works\""));
        let out = expand_str(EntryKind::Main, "", "async fn main() {}");
        assert!(!out.contains("TestRuntime"), "main runs unwatched");
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
    fn the_local_flavor_builds_a_local_runtime_with_its_name() {
        let out = expand_str(
            EntryKind::Test,
            r#"flavor = "local", name = "r""#,
            "async fn t() {}",
        );
        assert!(out.contains("new_current_thread () . name (\"r\")"));
        assert!(out.contains(". build_local (:: core :: default :: Default :: default ())"));
    }

    #[test]
    fn the_return_type_is_checked_unless_unnameable() {
        let source = "async fn main() -> Result<(), E> { Ok(()) }";
        let out = expand_str(EntryKind::Main, "", source);
        assert!(out.contains("let __rt_output : Result < () , E > = :: core :: unreachable ! () ;"));
        assert!(!out.contains("dyn"), "main does not pin the body as dyn");
        let source = "async fn t() -> Result<(), E> { Ok(()) }";
        let out = expand_str(EntryKind::Test, "", source);
        assert!(out.contains("dyn :: core :: future :: Future < Output = Result < () , E > >"));
        let out = expand_str(EntryKind::Main, "", "async fn main() -> impl Sized { 1 }");
        assert!(!out.contains("__rt_output"));
        let out = expand_str(EntryKind::Test, "", "async fn t() -> ! { loop {} }");
        assert!(!out.contains("__rt_output"));
        assert!(!out.contains("dyn"));
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
