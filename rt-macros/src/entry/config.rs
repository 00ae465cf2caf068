//! The options of `#[rt::main(...)]` and `#[rt::test(...)]`, and the checks
//! that turn them into a [`Config`] or into errors that say what to write.
//!
//! Every error is spanned at the user's tokens. Parsing goes on after an
//! error so that one compile shows every mistake at once.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Lit, LitBool, LitInt, LitStr, Meta, Token};

use super::EntryKind;

/// Which scheduler the generated runtime uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// Everything on the thread that calls the function.
    CurrentThread,
    /// A pool of worker threads.
    MultiThread,
    /// A `LocalRuntime`: the current thread, and `!Send` tasks
    /// (`spawn_local`) allowed.
    Local,
}

impl Flavor {
    fn parse(value: &LitStr) -> syn::Result<Flavor> {
        let hint = |message: &str| Err(syn::Error::new(value.span(), message));
        match value.value().as_str() {
            "current_thread" => Ok(Flavor::CurrentThread),
            "multi_thread" => Ok(Flavor::MultiThread),
            "local" => Ok(Flavor::Local),
            "single_thread" => hint(
                "there is no `single_thread` flavor; for a runtime on one thread write \
                 `flavor = \"current_thread\"`",
            ),
            "basic_scheduler" => hint(
                "`basic_scheduler` is now called `current_thread`; write \
                 `flavor = \"current_thread\"`",
            ),
            "threaded_scheduler" => hint(
                "`threaded_scheduler` is now called `multi_thread`; write \
                 `flavor = \"multi_thread\"`",
            ),
            other => hint(&format!(
                "unknown runtime flavor `{other}`; write `flavor = \"current_thread\"`, \
                 `flavor = \"multi_thread\"` or `flavor = \"local\"`"
            )),
        }
    }
}

/// The validated options of one attribute.
pub(crate) struct Config {
    pub(crate) flavor: Flavor,
    pub(crate) worker_threads: Option<LitInt>,
    pub(crate) start_paused: Option<LitBool>,
    pub(crate) seed: Option<LitInt>,
    /// The runtime's name (`Builder::name`).
    pub(crate) name: Option<LitStr>,
    /// A test's deadline in seconds (at least 1); `None`: the
    /// `RT_TEST_DEADLINE` environment variable's, or none.
    pub(crate) deadline_secs: Option<LitInt>,
    /// The path the expansion reaches rt through (`::rt` unless overridden).
    pub(crate) crate_path: TokenStream,
}

/// The options as written, before the checks that relate them.
#[derive(Default)]
struct Written {
    flavor: Option<(Flavor, Span)>,
    worker_threads: Option<LitInt>,
    start_paused: Option<LitBool>,
    seed: Option<LitInt>,
    name: Option<LitStr>,
    deadline_secs: Option<LitInt>,
    crate_path: Option<TokenStream>,
}

/// Collects errors so that all of them are reported together.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The collected errors; call only when [`Errors::is_empty`] is false.
    pub(crate) fn into_error(self) -> syn::Error {
        self.0
            .unwrap_or_else(|| syn::Error::new(Span::call_site(), "no error was recorded"))
    }

    pub(crate) fn into_result(self) -> syn::Result<()> {
        match self.0 {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

fn option_names(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Main => "`flavor`, `worker_threads`, `start_paused`, `name` or `crate`",
        EntryKind::Test => {
            "`flavor`, `worker_threads`, `start_paused`, `name`, `crate`, `seed` or \
             `deadline_secs`"
        }
    }
}

/// Parses and checks the attribute's arguments. `multi_thread` says
/// whether the rt build has the multi-thread scheduler (its
/// `rt-multi-thread` feature).
pub(crate) fn parse(kind: EntryKind, multi_thread: bool, args: TokenStream) -> syn::Result<Config> {
    let metas = Punctuated::<Meta, Token![,]>::parse_terminated.parse2(args)?;
    let mut errors = Errors::default();
    let mut written = Written::default();
    for meta in metas {
        if let Err(error) = parse_one(kind, &meta, &mut written) {
            errors.push(error);
        }
    }
    let config = check(kind, multi_thread, written, &mut errors);
    errors.into_result().map(|()| config)
}

fn parse_one(kind: EntryKind, meta: &Meta, written: &mut Written) -> syn::Result<()> {
    let name = meta
        .path()
        .get_ident()
        .map(|ident| ident.to_string())
        .unwrap_or_else(|| quote!(#meta).to_string());
    let value = match meta {
        Meta::NameValue(pair) => &pair.value,
        Meta::Path(path) => return Err(bare_word(kind, &name, path.span())),
        Meta::List(list) => {
            return Err(syn::Error::new(
                list.span(),
                format!(
                    "options are written `name = value`, e.g. `flavor = \"current_thread\"`; \
                     expected one of {}",
                    option_names(kind)
                ),
            ))
        }
    };
    let span = meta.path().span();
    match name.as_str() {
        "flavor" => {
            let text = string_literal(value, "flavor = \"multi_thread\"")?;
            set_once(
                &mut written.flavor,
                (Flavor::parse(&text)?, text.span()),
                span,
                &name,
            )
        }
        "worker_threads" => {
            let threads = positive_literal(value, "worker_threads = 4", "")?;
            set_once(&mut written.worker_threads, threads, span, &name)
        }
        "start_paused" => {
            let paused = bool_literal(value, "start_paused = true")?;
            set_once(&mut written.start_paused, paused, span, &name)
        }
        "name" => {
            let text = string_literal(value, "name = \"my-runtime\"")?;
            if text.value().trim().is_empty() {
                return Err(syn::Error::new(
                    text.span(),
                    "the runtime's `name` must not be empty",
                ));
            }
            set_once(&mut written.name, text, span, &name)
        }
        "crate" => {
            let text = string_literal(value, "crate = \"rt\"")?;
            let path: syn::Path = text.parse().map_err(|_| {
                syn::Error::new(
                    text.span(),
                    "`crate` takes the path of the rt crate as a string, e.g. `crate = \"rt\"`",
                )
            })?;
            set_once(&mut written.crate_path, quote!(#path), span, &name)
        }
        "seed" if kind == EntryKind::Test => {
            let seed = integer_literal(value, "seed = 42")?;
            seed.base10_parse::<u64>()?;
            set_once(&mut written.seed, seed, span, &name)
        }
        "seed" => Err(syn::Error::new(
            span,
            "`seed` is an option of `#[rt::test]`; to seed a runtime in `main`, build it \
             with `rt::runtime::Builder` and call `.rng_seed(..)`",
        )),
        "deadline_secs" if kind == EntryKind::Test => {
            let seconds =
                positive_literal(value, "deadline_secs = 30", "; for no deadline, remove it")?;
            set_once(&mut written.deadline_secs, seconds, span, &name)
        }
        "deadline_secs" => Err(syn::Error::new(
            span,
            "`deadline_secs` is an option of `#[rt::test]`; `main` runs without a deadline",
        )),
        "core_threads" => Err(syn::Error::new(
            span,
            "`core_threads` is now called `worker_threads`; write `worker_threads = N`",
        )),
        "max_threads" => Err(syn::Error::new(
            span,
            "`max_threads` is not an option; to set the number of workers write \
             `worker_threads = N`",
        )),
        "basic_scheduler" | "threaded_scheduler" | "single_thread" => {
            Err(bare_word(kind, &name, span))
        }
        _ => Err(syn::Error::new(
            span,
            format!(
                "unknown option `{name}`; expected one of {}",
                option_names(kind)
            ),
        )),
    }
}

/// A lone word where `name = value` was expected; the old tokio spellings
/// of a flavor get the flavor to write instead.
fn bare_word(kind: EntryKind, name: &str, span: Span) -> syn::Error {
    let message = match name {
        "basic_scheduler" | "single_thread" | "current_thread" => {
            "the flavor is an option now; write `flavor = \"current_thread\"`".to_owned()
        }
        "threaded_scheduler" | "multi_thread" => {
            "the flavor is an option now; write `flavor = \"multi_thread\"`".to_owned()
        }
        _ => format!(
            "options are written `name = value`, e.g. `flavor = \"current_thread\"`; \
             expected one of {}",
            option_names(kind)
        ),
    };
    syn::Error::new(span, message)
}

fn set_once<T>(slot: &mut Option<T>, value: T, span: Span, name: &str) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            span,
            format!("`{name}` is set more than once; keep one"),
        ));
    }
    *slot = Some(value);
    Ok(())
}

fn literal(value: &Expr) -> Option<&Lit> {
    match value {
        Expr::Lit(expr) => Some(&expr.lit),
        Expr::Group(group) => literal(&group.expr),
        _ => None,
    }
}

fn string_literal(value: &Expr, example: &str) -> syn::Result<LitStr> {
    match literal(value) {
        Some(Lit::Str(text)) => Ok(text.clone()),
        _ => Err(expected(value, "a string", example)),
    }
}

fn integer_literal(value: &Expr, example: &str) -> syn::Result<LitInt> {
    match literal(value) {
        Some(Lit::Int(number)) => Ok(number.clone()),
        _ => Err(expected(value, "an integer", example)),
    }
}

/// An integer literal of at least 1 (`example` names the option first);
/// `hint` follows the error for a zero.
fn positive_literal(value: &Expr, example: &str, hint: &str) -> syn::Result<LitInt> {
    let number = integer_literal(value, example)?;
    if number.base10_parse::<u64>()? == 0 {
        let option = example.split(' ').next().unwrap_or(example);
        return Err(syn::Error::new(
            number.span(),
            format!("`{option}` must be at least 1{hint}"),
        ));
    }
    Ok(number)
}

fn bool_literal(value: &Expr, example: &str) -> syn::Result<LitBool> {
    match literal(value) {
        Some(Lit::Bool(flag)) => Ok(flag.clone()),
        _ => Err(expected(value, "`true` or `false`", example)),
    }
}

fn expected(value: &Expr, what: &str, example: &str) -> syn::Error {
    syn::Error::new(
        value.span(),
        format!("expected {what} here, e.g. `{example}`"),
    )
}

/// The checks between options, and the defaults.
fn check(kind: EntryKind, multi_thread: bool, written: Written, errors: &mut Errors) -> Config {
    let default_flavor = match kind {
        EntryKind::Main => Flavor::MultiThread,
        EntryKind::Test => Flavor::CurrentThread,
    };
    let flavor = written.flavor.map_or(default_flavor, |(flavor, _)| flavor);
    if flavor == Flavor::MultiThread && !multi_thread {
        errors.push(match written.flavor {
            Some((_, span)) => syn::Error::new(
                span,
                "the `multi_thread` flavor needs rt's `rt-multi-thread` feature; enable it \
                 or write `flavor = \"current_thread\"`",
            ),
            None => syn::Error::new(
                Span::call_site(),
                "`#[rt::main]` runs on the multi-thread runtime by default, which needs rt's \
                 `rt-multi-thread` feature; enable it or write \
                 `#[rt::main(flavor = \"current_thread\")]`",
            ),
        });
    }
    if let Some(threads) = &written.worker_threads {
        if flavor != Flavor::MultiThread {
            errors.push(syn::Error::new(
                threads.span(),
                "`worker_threads` only applies to the multi-thread runtime; add \
                 `flavor = \"multi_thread\"` or remove `worker_threads`",
            ));
        }
    }
    if let Some(paused) = &written.start_paused {
        if flavor == Flavor::MultiThread {
            errors.push(syn::Error::new(
                paused.span(),
                "`start_paused` needs the current-thread runtime; add \
                 `flavor = \"current_thread\"` or remove `start_paused`",
            ));
        }
    }
    Config {
        flavor,
        worker_threads: written.worker_threads,
        start_paused: written.start_paused,
        seed: written.seed,
        name: written.name,
        deadline_secs: written.deadline_secs,
        crate_path: written.crate_path.unwrap_or_else(|| quote!(::rt)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(kind: EntryKind, args: &str) -> syn::Result<Config> {
        parse(kind, true, args.parse().expect("test arguments tokenize"))
    }

    #[test]
    fn the_multi_thread_flavor_needs_its_feature() {
        let parse_without = |kind, args: &str| parse(kind, false, args.parse().unwrap());
        let error_without = |kind, args: &str| match parse_without(kind, args) {
            Ok(_) => panic!("expected an error for `{args}`"),
            Err(error) => error.to_string(),
        };
        let default = error_without(EntryKind::Main, "");
        assert!(default.contains("rt-multi-thread") && default.contains("current_thread"));
        let written = error_without(EntryKind::Test, r#"flavor = "multi_thread""#);
        assert!(written.contains("rt-multi-thread"));
        let current = parse_without(EntryKind::Main, r#"flavor = "current_thread""#).unwrap();
        assert_eq!(current.flavor, Flavor::CurrentThread);
        assert_eq!(
            parse_without(EntryKind::Test, "").unwrap().flavor,
            Flavor::CurrentThread
        );
    }

    fn error_of(kind: EntryKind, args: &str) -> String {
        match parse_str(kind, args) {
            Ok(_) => panic!("expected an error for `{args}`"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn defaults_follow_the_entry_kind() {
        let main = parse_str(EntryKind::Main, "").unwrap();
        assert_eq!(main.flavor, Flavor::MultiThread);
        assert_eq!(main.crate_path.to_string(), ":: rt");
        let test = parse_str(EntryKind::Test, "").unwrap();
        assert_eq!(test.flavor, Flavor::CurrentThread);
    }

    #[test]
    fn every_option_is_read() {
        let config = parse_str(
            EntryKind::Test,
            r#"flavor = "current_thread", start_paused = true, seed = 7, crate = "my::rt",
               deadline_secs = 30"#,
        )
        .unwrap();
        assert_eq!(
            config.deadline_secs.unwrap().base10_parse::<u64>().unwrap(),
            30
        );
        assert_eq!(config.flavor, Flavor::CurrentThread);
        assert!(config.start_paused.unwrap().value);
        assert_eq!(config.seed.unwrap().base10_parse::<u64>().unwrap(), 7);
        assert_eq!(config.crate_path.to_string(), "my :: rt");
        let config = parse_str(
            EntryKind::Main,
            r#"flavor = "multi_thread", worker_threads = 3"#,
        )
        .unwrap();
        assert_eq!(
            config
                .worker_threads
                .unwrap()
                .base10_parse::<u32>()
                .unwrap(),
            3
        );
    }

    #[test]
    fn the_local_flavor_and_a_name_are_read() {
        let config = parse_str(EntryKind::Test, r#"flavor = "local", name = "rt-1""#).unwrap();
        assert_eq!(config.flavor, Flavor::Local);
        assert_eq!(config.name.unwrap().value(), "rt-1");
        assert!(
            error_of(EntryKind::Main, r#"flavor = "local", worker_threads = 2"#)
                .contains("multi-thread")
        );
        let without = parse(
            EntryKind::Main,
            false,
            r#"flavor = "local""#.parse().unwrap(),
        );
        assert_eq!(without.unwrap().flavor, Flavor::Local);
    }

    #[test]
    fn old_names_say_what_to_write() {
        assert!(error_of(EntryKind::Main, r#"flavor = "basic_scheduler""#)
            .contains("flavor = \"current_thread\""));
        assert!(
            error_of(EntryKind::Main, r#"flavor = "threaded_scheduler""#)
                .contains("flavor = \"multi_thread\"")
        );
        assert!(error_of(EntryKind::Main, r#"flavor = "single_thread""#)
            .contains("flavor = \"current_thread\""));
        assert!(error_of(EntryKind::Main, "core_threads = 2").contains("worker_threads = N"));
        assert!(error_of(EntryKind::Main, "basic_scheduler").contains("current_thread"));
        assert!(error_of(EntryKind::Main, "threaded_scheduler").contains("multi_thread"));
    }

    #[test]
    fn options_that_contradict_the_flavor_are_rejected() {
        assert!(error_of(EntryKind::Test, "worker_threads = 2").contains("multi-thread"));
        assert!(error_of(EntryKind::Main, "start_paused = true").contains("current-thread"));
        assert!(error_of(EntryKind::Main, "worker_threads = 0").contains("at least 1"));
    }

    #[test]
    fn malformed_options_are_rejected() {
        assert!(error_of(EntryKind::Main, "seed = 1").contains("rng_seed"));
        assert!(error_of(EntryKind::Test, "seed = \"1\"").contains("an integer"));
        assert!(error_of(EntryKind::Test, "start_paused = 1").contains("`true` or `false`"));
        assert!(error_of(EntryKind::Test, "flavor = current_thread").contains("a string"));
        assert!(error_of(EntryKind::Test, "crate = \"not a path\"").contains("path"));
        assert!(error_of(EntryKind::Test, "bogus = \"x\"").contains("unknown option `bogus`"));
        assert!(error_of(EntryKind::Test, "name = \" \"").contains("must not be empty"));
        assert!(error_of(EntryKind::Test, "name = 1").contains("a string"));
        assert!(error_of(EntryKind::Test, "seed = 1, seed = 2").contains("more than once"));
        assert!(error_of(EntryKind::Test, "flavor(x)").contains("name = value"));
        assert!(error_of(EntryKind::Test, "deadline_secs = 0").contains("at least 1"));
        assert!(error_of(EntryKind::Test, "deadline_secs = \"30s\"").contains("an integer"));
        assert!(error_of(EntryKind::Main, "deadline_secs = 30").contains("`#[rt::test]`"));
    }

    #[test]
    fn every_error_is_reported() {
        let errors = match parse_str(EntryKind::Main, "core_threads = 2, bogus = 1") {
            Err(error) => error.into_iter().count(),
            Ok(_) => 0,
        };
        assert_eq!(errors, 2);
    }
}
