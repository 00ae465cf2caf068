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
