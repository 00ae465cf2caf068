//! [`StreamExt`]: the combinators every [`Stream`] gets, and the named
//! adapter and future types they return.
//!
//! Every adapter is a plain generic struct around the stream it wraps, so a
//! chain of adapters is one value with no allocation, and the compiler can
//! inline the nested `poll_next` calls.

use core::future::Future;

use futures_core::Stream;

#[cfg(feature = "time")]
use crate::timed::{ChunksTimeout, Throttle, Timeout, TimeoutRepeating};
#[cfg(feature = "time")]
use std::time::Duration;

mod all;
mod any;
mod chain;
mod collect;
mod filter;
mod filter_map;
mod fold;
mod fuse;
mod map;
mod map_while;
mod merge;
mod next;
mod peekable;
pub(crate) mod size_hint;
mod skip;
mod skip_while;
mod take;
mod take_while;
mod then;
mod try_next;

pub use all::AllFuture;
pub use any::AnyFuture;
pub use chain::Chain;
pub use collect::{Collect, FromStream};
pub use filter::Filter;
pub use filter_map::FilterMap;
pub use fold::FoldFuture;
pub use fuse::Fuse;
pub use map::Map;
pub use map_while::MapWhile;
pub use merge::Merge;
pub use next::Next;
pub use peekable::Peekable;
pub use skip::Skip;
pub use skip_while::SkipWhile;
pub use take::Take;
pub use take_while::TakeWhile;
pub use then::Then;
pub use try_next::TryNext;

/// How many ready items a future that consumes a stream handles in one poll
/// before it yields to the scheduler.
const ITEMS_PER_POLL: usize = 32;

/// Combinators for [`Stream`]s, in the manner of [`Iterator`]'s methods.
///
/// Implemented for every stream, `dyn Stream` included. Methods that return
/// a stream (`map`, `filter`, `take`, ...) wrap `self` in a named adapter;
/// methods that consume the stream into one value (`next`, `fold`,
/// `collect`, ...) return a future.
///
/// ```
/// use rt_stream::{self as stream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let evens: Vec<u32> = stream::iter(1..=10)
///     .filter(|n| n % 2 == 0)
///     .map(|n| n * 10)
///     .collect()
///     .await;
/// assert_eq!(evens, [20, 40, 60, 80, 100]);
/// # });
/// ```
pub trait StreamExt: Stream {
    /// The stream's next item, or `None` once it has ended.
    ///
    /// The stream is borrowed, so it must be `Unpin`; pin a `!Unpin` stream
    /// first (with `Box::pin` or `std::pin::pin!`).
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: the future only borrows the stream, so dropping it before
    /// it completes loses no item.
    ///
    /// ```
    /// use rt_stream::{self as stream, StreamExt};
    ///
    /// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut s = stream::iter([1, 2]);
    /// assert_eq!(s.next().await, Some(1));
    /// assert_eq!(s.next().await, Some(2));
    /// assert_eq!(s.next().await, None);
    /// # });
    /// ```
    fn next(&mut self) -> Next<'_, Self>
    where
        Self: Unpin,
    {
        Next::new(self)
    }

    /// The next item of a stream of `Result`s, with the error lifted out:
    /// `Ok(Some(value))`, `Err(error)`, or `Ok(None)` once it has ended.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe, like [`next`](StreamExt::next).
    fn try_next<T, E>(&mut self) -> TryNext<'_, Self>
    where
        Self: Stream<Item = Result<T, E>> + Unpin,
    {
        TryNext::new(self)
    }

    /// Each item passed through `f`.
    fn map<T, F>(self, f: F) -> Map<Self, F>
    where
        F: FnMut(Self::Item) -> T,
        Self: Sized,
    {
        Map::new(self, f)
    }

    /// Items passed through `f` for as long as it returns `Some`; the stream
    /// ends at the first `None`.
    fn map_while<T, F>(self, f: F) -> MapWhile<Self, F>
    where
        F: FnMut(Self::Item) -> Option<T>,
        Self: Sized,
    {
        MapWhile::new(self, f)
    }

    /// Each item turned into a future by `f`; yields the futures' outputs in
    /// order, running one future at a time.
    fn then<F, Fut>(self, f: F) -> Then<Self, Fut, F>
    where
        F: FnMut(Self::Item) -> Fut,
        Fut: Future,
        Self: Sized,
    {
        Then::new(self, f)
    }

    /// Both streams' items, interleaved as they become ready; ends when both
    /// have ended.
    ///
    /// When both have an item ready, they take turns: each poll asks first
    /// the side that was asked second the time before.
    ///
    /// Do not chain merges (`a.merge(b).merge(c)`) to combine more than two
    /// streams: the last one would get half of the turns. Use
    /// [`StreamMap`](crate::StreamMap) for that.
    ///
    /// ```
    /// use rt_stream::{self as stream, StreamExt};
    ///
    /// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let merged: Vec<&str> = stream::iter(["a", "a"])
    ///     .merge(stream::iter(["b", "b"]))
    ///     .collect()
    ///     .await;
    /// assert_eq!(merged, ["a", "b", "a", "b"]);
    /// # });
    /// ```
    fn merge<U>(self, other: U) -> Merge<Self, U>
    where
        U: Stream<Item = Self::Item>,
        Self: Sized,
    {
        Merge::new(self, other)
    }

    /// Only the items for which `f` returns `true`.
    fn filter<F>(self, f: F) -> Filter<Self, F>
    where
        F: FnMut(&Self::Item) -> bool,
        Self: Sized,
    {
        Filter::new(self, f)
    }

    /// Each item passed through `f`, keeping the `Some` results.
    fn filter_map<T, F>(self, f: F) -> FilterMap<Self, F>
    where
        F: FnMut(Self::Item) -> Option<T>,
        Self: Sized,
    {
        FilterMap::new(self, f)
    }

    /// A stream that answers `None` for good once this one has ended, and
    /// never polls it again.
    fn fuse(self) -> Fuse<Self>
    where
        Self: Sized,
    {
        Fuse::new(self)
    }

    /// At most the first `n` items.
    fn take(self, n: usize) -> Take<Self>
    where
        Self: Sized,
    {
        Take::new(self, n)
    }

    /// Items for as long as `f` returns `true`; the stream ends at the first
    /// item it rejects (which is dropped).
    fn take_while<F>(self, f: F) -> TakeWhile<Self, F>
    where
        F: FnMut(&Self::Item) -> bool,
        Self: Sized,
    {
        TakeWhile::new(self, f)
    }

    /// All items after the first `n`.
    fn skip(self, n: usize) -> Skip<Self>
    where
        Self: Sized,
    {
        Skip::new(self, n)
    }

    /// All items from the first one for which `f` returns `false` on.
    fn skip_while<F>(self, f: F) -> SkipWhile<Self, F>
    where
        F: FnMut(&Self::Item) -> bool,
        Self: Sized,
    {
        SkipWhile::new(self, f)
    }

    /// Whether `f` returns `true` for every item; stops at the first
    /// `false`. `true` for an empty stream.
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe: items already tested are consumed.
    fn all<F>(&mut self, f: F) -> AllFuture<'_, Self, F>
    where
        Self: Unpin,
        F: FnMut(Self::Item) -> bool,
    {
        AllFuture::new(self, f)
    }

    /// Whether `f` returns `true` for some item; stops at the first `true`.
    /// `false` for an empty stream.
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe: items already tested are consumed.
    fn any<F>(&mut self, f: F) -> AnyFuture<'_, Self, F>
    where
        Self: Unpin,
        F: FnMut(Self::Item) -> bool,
    {
        AnyFuture::new(self, f)
    }

    /// This stream's items, then `other`'s.
    fn chain<U>(self, other: U) -> Chain<Self, U>
    where
        U: Stream<Item = Self::Item>,
        Self: Sized,
    {
        Chain::new(self, other)
    }

    /// Every item combined into `init` by `f`; the output is the final
    /// accumulator.
    ///
    /// ```
    /// use rt_stream::{self as stream, StreamExt};
    ///
    /// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let sum = stream::iter(1..=4).fold(0, |acc, n| acc + n).await;
    /// assert_eq!(sum, 10);
    /// # });
    /// ```
    fn fold<B, F>(self, init: B, f: F) -> FoldFuture<Self, B, F>
    where
        Self: Sized,
        F: FnMut(B, Self::Item) -> B,
    {
        FoldFuture::new(self, init, f)
    }

    /// All items gathered into a collection: a `Vec`, a `String`, a
    /// `HashMap`, or a `Result` of one of those that stops at the first
    /// error (see [`FromStream`]).
    ///
    /// # Cancel safety
    ///
    /// Not cancel-safe: items gathered so far are lost with the future.
    ///
    /// ```
    /// use rt_stream::{self as stream, StreamExt};
    ///
    /// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let ok: Result<Vec<u8>, &str> = stream::iter([Ok(1), Ok(2)]).collect().await;
    /// assert_eq!(ok, Ok(vec![1, 2]));
    /// let err: Result<Vec<u8>, &str> =
    ///     stream::iter([Ok(1), Err("bad"), Ok(3)]).collect().await;
    /// assert_eq!(err, Err("bad"));
    /// # });
    /// ```
    fn collect<T>(self) -> Collect<Self, T>
    where
        T: FromStream<Self::Item>,
        Self: Sized,
    {
        Collect::new(self)
    }

    /// Each item wrapped in `Ok`, with an `Err(Elapsed)` in between when
    /// the stream stays silent for `duration` (feature `time`).
    ///
    /// The first deadline starts when the adapter is built, and each item
    /// starts a new one. Only one error comes out per deadline: after it,
    /// the adapter waits for the next item as long as it takes, and that
    /// item starts the next deadline. An item that is ready when the
    /// deadline passes goes out rather than the error. The stream ends when
    /// the inner stream does.
    ///
    /// # Panics
    ///
    /// If it is called outside a runtime with timers enabled.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rt_stream::{self as stream, Elapsed, StreamExt};
    ///
    /// # let rt = rt_core::runtime::Builder::new_current_thread()
    /// #     .driver_layer(rt_time::driver_layer(true))
    /// #     .build()
    /// #     .unwrap();
    /// # rt.block_on(async {
    /// let stalls = stream::iter([1]).chain(stream::pending());
    /// let got: Vec<Result<u32, Elapsed>> = stalls
    ///     .timeout(Duration::from_millis(100))
    ///     .take(2)
    ///     .collect()
    ///     .await;
    /// assert_eq!(got[0], Ok(1));
    /// assert!(got[1].is_err());
    /// # });
    /// ```
    #[cfg(feature = "time")]
    #[track_caller]
    fn timeout(self, duration: Duration) -> Timeout<Self>
    where
        Self: Sized,
    {
        Timeout::new(self, duration)
    }

    /// Each item wrapped in `Ok`, with an `Err(Elapsed)` on every tick of
    /// `interval` while the stream stays silent (feature `time`).
    ///
    /// Each item restarts the interval, so the errors say how many periods
    /// have passed since the last item. The interval's first tick is
    /// whenever it was built to be: an `interval(period)` ticks at once, an
    /// `interval_at(Instant::now() + period, period)` one period later.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rt_stream::{self as stream, StreamExt};
    /// use rt_time::{interval_at, Instant};
    ///
    /// # let rt = rt_core::runtime::Builder::new_current_thread()
    /// #     .driver_layer(rt_time::driver_layer(true))
    /// #     .build()
    /// #     .unwrap();
    /// # rt.block_on(async {
    /// let period = Duration::from_millis(50);
    /// let silent = stream::pending::<u32>();
    /// let errors = silent
    ///     .timeout_repeating(interval_at(Instant::now() + period, period))
    ///     .take(3)
    ///     .filter(Result::is_err)
    ///     .fold(0, |n, _| n + 1)
    ///     .await;
    /// assert_eq!(errors, 3);
    /// # });
    /// ```
    #[cfg(feature = "time")]
    fn timeout_repeating(self, interval: rt_time::Interval) -> TimeoutRepeating<Self>
    where
        Self: Sized,
    {
        TimeoutRepeating::new(self, interval)
    }

    /// The same items, at least `duration` apart (feature `time`).
    ///
    /// After each item the inner stream is left alone until `duration` has
    /// passed, so items it produces meanwhile wait in it (a channel stays
    /// full, a socket unread). The first item is not delayed, and a zero
    /// duration never waits.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rt_stream::{self as stream, StreamExt};
    /// use rt_time::Instant;
    ///
    /// # let rt = rt_core::runtime::Builder::new_current_thread()
    /// #     .driver_layer(rt_time::driver_layer(true))
    /// #     .build()
    /// #     .unwrap();
    /// # rt.block_on(async {
    /// let start = Instant::now();
    /// let items: Vec<u32> = stream::iter([1, 2, 3])
    ///     .throttle(Duration::from_millis(10))
    ///     .collect()
    ///     .await;
    /// assert_eq!(items, [1, 2, 3]);
    /// assert!(start.elapsed() >= Duration::from_millis(20));
    /// # });
    /// ```
    #[cfg(feature = "time")]
    fn throttle(self, duration: Duration) -> Throttle<Self>
    where
        Self: Sized,
    {
        Throttle::new(self, duration)
    }

    /// The items gathered into `Vec`s of at most `max_size` (feature
    /// `time`).
    ///
    /// A chunk goes out as soon as it is full, or once `duration` has
    /// passed since its first item arrived, or when the stream ends; a
    /// chunk is never empty.
    ///
    /// # Panics
    ///
    /// If `max_size` is 0.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rt_stream::{self as stream, StreamExt};
    ///
    /// # let rt = rt_core::runtime::Builder::new_current_thread()
    /// #     .driver_layer(rt_time::driver_layer(true))
    /// #     .build()
    /// #     .unwrap();
    /// # rt.block_on(async {
    /// let chunks: Vec<Vec<u32>> = stream::iter(1..=5)
    ///     .chunks_timeout(2, Duration::from_secs(1))
    ///     .collect()
    ///     .await;
    /// assert_eq!(chunks, [vec![1, 2], vec![3, 4], vec![5]]);
    /// # });
    /// ```
    #[cfg(feature = "time")]
    #[track_caller]
    fn chunks_timeout(self, max_size: usize, duration: Duration) -> ChunksTimeout<Self>
    where
        Self: Sized,
    {
        ChunksTimeout::new(self, max_size, duration)
    }

    /// A stream whose next item can be looked at before it is taken (see
    /// [`Peekable::peek`]).
    fn peekable(self) -> Peekable<Self>
    where
        Self: Sized,
    {
        Peekable::new(self)
    }
}

impl<St: ?Sized + Stream> StreamExt for St {}
