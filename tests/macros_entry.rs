//! What `#[rt::main]` and `#[rt::test]` expand to, run against a stand-in
//! runtime (reached through the `crate = "..."` option) that records the
//! builder calls it receives. This checks the flavor defaults, that every
//! option becomes its builder call, the path override, and how bodies,
//! return types and attributes are carried over.

#![cfg(feature = "macros")]

mod macros_common;

/// A runtime with the builder API the attributes target; it records every
/// call and runs the body on the test's thread.
mod recording {
    /// The support items a `#[rt::test]` expansion uses.
    pub mod macros {
        pub mod support {
            use std::future::Future;

            use super::super::runtime::{record, Runtime};

            /// Records which test armed its deadline watchdog, and with
            /// which deadline of its own.
            pub struct TestRuntime(Runtime);

            impl TestRuntime {
                pub fn new(
                    runtime: Runtime,
                    path: &'static str,
                    deadline: Option<std::time::Duration>,
                ) -> TestRuntime {
                    match deadline {
                        Some(after) => record(format!("watch({path}, {after:?})")),
                        None => record(format!("watch({path})")),
                    }
                    TestRuntime(runtime)
                }

                pub fn block_on<F: Future>(&self, future: F) -> F::Output {
                    self.0.block_on(future)
                }
            }

            pub struct TestSeed;

            impl TestSeed {
                pub fn choose() -> TestSeed {
                    TestSeed
                }

                pub fn seed(&self) -> super::super::runtime::RngSeed {
                    super::super::runtime::RngSeed::from_u64(0)
                }
            }
        }
    }

    pub mod runtime {
        use std::cell::RefCell;
        use std::future::Future;

        thread_local! {
            static CALLS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
        }

        pub(crate) fn record(call: impl Into<String>) {
            CALLS.with(|calls| calls.borrow_mut().push(call.into()));
        }

        /// The calls made on this thread so far, oldest first.
        pub fn calls() -> Vec<String> {
            CALLS.with(|calls| calls.borrow().clone())
        }

        pub struct RngSeed(u64);

        impl RngSeed {
            pub fn from_u64(seed: u64) -> RngSeed {
                RngSeed(seed)
            }
        }

        pub struct Builder;

        impl Builder {
            pub fn new_current_thread() -> Builder {
                record("new_current_thread");
                Builder
            }

            pub fn new_multi_thread() -> Builder {
                record("new_multi_thread");
                Builder
            }

            pub fn worker_threads(self, threads: usize) -> Builder {
                record(format!("worker_threads({threads})"));
                self
            }

            pub fn start_paused(self, paused: bool) -> Builder {
                record(format!("start_paused({paused})"));
                self
            }

            pub fn rng_seed(self, seed: RngSeed) -> Builder {
                record(format!("rng_seed({})", seed.0));
                self
            }

            pub fn enable_all(self) -> Builder {
                record("enable_all");
                self
            }

            pub fn build(self) -> std::io::Result<Runtime> {
                record("build");
                Ok(Runtime)
            }
        }

        pub struct Runtime;

        impl Runtime {
            pub fn block_on<F: Future>(&self, future: F) -> F::Output {
                record("block_on");
                super::super::macros_common::block_on(future)
            }
        }
    }
}

use recording::runtime::calls;

#[rt::test(crate = "crate::recording")]
async fn test_defaults_to_the_current_thread_runtime() {
    assert_eq!(
        calls(),
        // An unseeded test still gets a seed, printed if it fails.
        [
            "new_current_thread",
            "rng_seed(0)",
            "enable_all",
            "build",
            "watch(macros_entry::test_defaults_to_the_current_thread_runtime)",
            "block_on"
        ]
    );
}

#[rt::test(
    crate = "crate::recording",
    flavor = "current_thread",
    start_paused = true,
    seed = 42,
    deadline_secs = 5
)]
async fn test_options_become_builder_calls() {
    assert_eq!(
        calls(),
        [
            "new_current_thread",
            "start_paused(true)",
            "rng_seed(42)",
            "enable_all",
            "build",
            "watch(macros_entry::test_options_become_builder_calls, 5s)",
            "block_on"
        ]
    );
}

#[rt::test(
    crate = "crate::recording",
    flavor = "multi_thread",
    worker_threads = 3
)]
async fn test_can_ask_for_the_multi_thread_runtime() {
    assert_eq!(
        calls(),
        [
            "new_multi_thread",
            "worker_threads(3)",
            "rng_seed(0)",
            "enable_all",
            "build",
            "watch(macros_entry::test_can_ask_for_the_multi_thread_runtime)",
            "block_on"
        ]
    );
}

#[rt::main(crate = "crate::recording")]
async fn main_like() -> Vec<String> {
    calls()
}

#[test]
fn main_defaults_to_the_multi_thread_runtime() {
    assert_eq!(
        main_like(),
        ["new_multi_thread", "enable_all", "build", "block_on"]
    );
}

#[rt::main(
    crate = "crate::recording",
    flavor = "current_thread",
    start_paused = false
)]
async fn add(a: u32, (b, c): (u32, u32)) -> u32 {
    let sum = async { a + b + c }.await;
    sum
}

#[test]
fn a_non_main_function_keeps_its_arguments() {
    assert_eq!(add(1, (2, 3)), 6);
    assert_eq!(
        calls(),
        [
            "new_current_thread",
            "start_paused(false)",
            "enable_all",
            "build",
            "block_on"
        ]
    );
}

#[rt::test(crate = "crate::recording")]
async fn test_may_return_a_result() -> Result<(), String> {
    let value: u32 = "7".parse().map_err(|_| "not a number".to_owned())?;
    assert_eq!(value, 7);
    Ok(())
}

#[rt::test(crate = "crate::recording")]
#[should_panic(expected = "from the body")]
async fn attributes_are_kept() {
    panic!("from the body");
}

#[rt::test(crate = "crate::recording")]
#[ignore = "only shows that `ignore` is carried over"]
async fn ignored_attribute_is_kept() {}

#[rt::main(crate = "crate::recording")]
async fn unnameable_output() -> impl std::fmt::Display {
    "shown"
}

#[test]
fn impl_trait_return_types_are_accepted() {
    assert_eq!(unnameable_output().to_string(), "shown");
}

#[rt::main(crate = "crate::recording", flavor = "current_thread")]
async fn early_return(flag: bool) -> u32 {
    if flag {
        return 1;
    }
    2
}

#[rt::main(crate = "crate::recording", flavor = "current_thread")]
async fn shadowing(body: u32, cx: u32) -> u32 {
    // Parameters named like the expansion's locals stay the user's.
    body + cx
}

#[test]
fn parameters_may_use_any_name() {
    assert_eq!(shadowing(40, 2), 42);
}

#[test]
fn return_in_the_body_returns_from_the_function() {
    assert_eq!(early_return(true), 1);
    assert_eq!(early_return(false), 2);
}

#[rt::test(crate = "crate::recording")]
async fn the_body_can_await_and_select() {
    let picked = rt::select! {
        v = async { 3 } => v,
    };
    let (a, b) = rt::join!(async { 1 }, async { 2 });
    assert_eq!(picked + a + b, 6);
}

#[no_implicit_prelude]
mod without_prelude {
    #[::rt::test(crate = "crate::recording")]
    async fn test_in_a_module_without_prelude() {
        let calls = crate::recording::runtime::calls();
        ::std::assert_eq!(calls.len(), 6);
    }
}
