//! `rt-stream`: utilities for [`Stream`]s, the asynchronous counterpart of
//! iterators.
//!
//! - [`StreamExt`] gives every stream its combinators (`next`, `map`,
//!   `filter`, `merge`, `collect`, ...); the adapter types live in
//!   [`adapters`].
//! - [`iter()`], [`once()`], [`empty()`] and [`pending()`] build streams
//!   from plain values.
//! - [`StreamMap`] reads a changing set of keyed streams fairly, and
//!   [`StreamNotifyClose`] makes it report which stream ended.
//! - [`stream_fn`] and [`try_stream_fn`] write a stream as an async body.
//! - [`wrappers`] presents rt's own types as streams: a `JoinSet`'s
//!   results (feature `rt`), the receivers of rt-sync's mpsc, broadcast
//!   and watch channels (feature `sync`), an rt-time `Interval`'s ticks
//!   (feature `time`), the connections a TCP or Unix listener accepts
//!   (feature `net`) and a Unix signal's deliveries (feature `signal`).
//! - With the `time` feature, `StreamExt` adds the time-based adapters
//!   `timeout`, `timeout_repeating`, `throttle` and `chunks_timeout`;
//!   [`Elapsed`] is the error item of the two timeouts.
//!
//! `Stream` itself is `futures-core`'s trait, re-exported, so streams from
//! other libraries work with all of the above.

mod generator;
mod source;
mod stream_close;
mod stream_ext;
mod stream_map;
mod timed;
pub mod wrappers;

/// The adapter types returned by [`StreamExt`]'s methods.
pub mod adapters {
    pub use crate::stream_ext::{
        Chain, Filter, FilterMap, Fuse, Map, MapWhile, Merge, Peekable, Skip, SkipWhile, Take,
        TakeWhile, Then,
    };
    #[cfg(feature = "time")]
    pub use crate::timed::{ChunksTimeout, Throttle, Timeout, TimeoutRepeating};
}

pub use futures_core::Stream;

pub use generator::{stream_fn, try_stream_fn, AsyncStream, SendItem, Sender, TryAsyncStream};
pub use source::{empty, iter, once, pending, Empty, Iter, Once, Pending};
pub use stream_close::StreamNotifyClose;
pub use stream_ext::{
    AllFuture, AnyFuture, Collect, FoldFuture, FromStream, Next, StreamExt, TryNext,
};
pub use stream_map::StreamMap;
pub use timed::Elapsed;
