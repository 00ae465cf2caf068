//! What the expansions of rt's macros refer to, by a path that works from
//! any crate: `$crate::macros::support::NAME`. Not a public API.

pub use core::future::{poll_fn, Future, IntoFuture};
pub use core::option::Option;
pub use core::pin::{pin, Pin};
pub use core::result::Result;
pub use core::task::Poll;
pub use core::{panic, unreachable};

pub use rt_core::task::coop::poll_budget_available;
pub use rt_core::util::rng::thread_rng_n;

#[cfg(feature = "macros")]
pub use rt_macros::{join_inner, select_inner, try_join_inner};

#[cfg(feature = "macros")]
pub use super::join::{MaybeDone, SlotList};

#[cfg(feature = "macros")]
pub use super::watchdog::TestRuntime;

/// The seed of an `#[rt::test]` without `seed = N`: taken from the `RT_SEED`
/// environment variable when set (read by rt-core's one parser), otherwise
/// chosen at random; printed when the test panics, so that a failure can be
/// replayed.
pub struct TestSeed(u64);

impl TestSeed {
    /// Picks the seed for this test run.
    ///
    /// # Panics
    ///
    /// If `RT_SEED` is set to anything but a decimal `u64`; the message
    /// names the variable and the value.
    #[track_caller]
    pub fn choose() -> TestSeed {
        use rt_core::util::rng;
        match rng::seed_from_env() {
            Ok(seed) => TestSeed(seed.unwrap_or_else(rng::random_seed)),
            Err(invalid) => panic!("{invalid}"),
        }
    }

    /// The seed to give the runtime builder.
    pub fn seed(&self) -> crate::runtime::RngSeed {
        crate::runtime::RngSeed::from_u64(self.0)
    }
}

impl Drop for TestSeed {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "rt: this test ran with seed {0}; replay its random choices with RT_SEED={0} \
                 or #[rt::test(seed = {0})]",
                self.0
            );
        }
    }
}
