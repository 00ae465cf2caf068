//! [`StreamExt`]: the combinators every [`Stream`] gets, and the named
//! adapter and future types they return.
//!
//! Every adapter is a plain generic struct around the stream it wraps, so a
//! chain of adapters is one value with no allocation, and the compiler can
//! inline the nested `poll_next` calls.

use core::future::Future;

use futures_core::Stream;

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
