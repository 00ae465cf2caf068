//! [`StreamMap`]: a set of keyed streams, added and removed at run time,
//! read as one stream of `(key, item)` pairs with no stream favoured.

use core::borrow::Borrow;
use core::future::poll_fn;
use core::hash::Hash;
use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_core::util::rng::thread_rng_n;

use crate::stream_ext::size_hint::add_hints;

/// A map of keyed streams that is itself a stream of `(key, item)` pairs.
///
/// Streams can be inserted and removed while the map is being read, which
/// a fixed set of `select!` branches cannot do. A stream that ends is
/// removed from the map; the map ends once it holds no stream.
///
/// # Fairness
///
/// Each poll starts at a random entry, drawn from the thread's generator
/// ([`rt_core::util::rng::thread_rng_n`]), and goes round from there, so a
/// stream that is always ready cannot starve the others. On a runtime built
/// with a seed the order is reproducible.
///
/// # Cost
///
/// Entries are kept in a `Vec`: insert, remove and poll scan it, so the map
/// is meant for a modest number of streams. For thousands, spawn a task per
/// stream feeding one channel instead. Removal swaps the last entry into the
/// hole, so the order of [`iter`](StreamMap::iter) is not stable.
///
/// ```
/// use rt_stream::{self as stream, StreamExt, StreamMap};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut map = StreamMap::new();
/// map.insert("one", stream::iter(vec![1]));
/// map.insert("two", stream::iter(vec![2, 2]));
///
/// let mut got: Vec<(&str, i32)> = map.collect().await;
/// got.sort();
/// assert_eq!(got, [("one", 1), ("two", 2), ("two", 2)]);
/// # });
/// ```
#[derive(Debug, Clone)]
#[must_use = "streams do nothing unless polled"]
pub struct StreamMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> StreamMap<K, V> {
    /// An empty map.
    pub fn new() -> StreamMap<K, V> {
        StreamMap {
            entries: Vec::new(),
        }
    }

    /// An empty map with room for `capacity` streams before it reallocates.
    pub fn with_capacity(capacity: usize) -> StreamMap<K, V> {
        StreamMap {
            entries: Vec::with_capacity(capacity),
        }
    }

    /// The `(key, stream)` pairs, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &(K, V)> {
        self.entries.iter()
    }

    /// The `(key, stream)` pairs, mutably, in no particular order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut (K, V)> {
        self.entries.iter_mut()
    }

    /// The keys, in no particular order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(key, _)| key)
    }

    /// The streams, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, stream)| stream)
    }

    /// The streams, mutably, in no particular order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.entries.iter_mut().map(|(_, stream)| stream)
    }

    /// How many streams the map can hold without reallocating.
    pub fn capacity(&self) -> usize {
        self.entries.capacity()
    }

    /// How many streams the map holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map holds no stream.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Drops every stream, keeping the allocation.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Adds `stream` under `k`, returning the stream that was there before.
    pub fn insert(&mut self, k: K, stream: V) -> Option<V>
    where
        K: Hash + Eq,
    {
        let previous = self.remove(&k);
        self.entries.push((k, stream));
        previous
    }

    /// Takes out the stream under `k`, if there is one.
    pub fn remove<Q>(&mut self, k: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let index = self.entries.iter().position(|(key, _)| key.borrow() == k)?;
        Some(self.entries.swap_remove(index).1)
    }

    /// Whether a stream is held under `k`.
    pub fn contains_key<Q>(&self, k: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.iter().any(|(key, _)| key.borrow() == k)
    }
}

impl<K, V> StreamMap<K, V>
where
    K: Unpin,
    V: Stream + Unpin,
{
    /// Polls each stream at most once, going round from entry `start`, and
    /// hands each item to `emit` until it returns `false`. Streams that end
    /// are removed. Returns how many items were emitted.
    ///
    /// If nothing is emitted and the map is not empty, every remaining
    /// stream was polled in this round and holds the caller's waker.
    fn poll_round(
        &mut self,
        cx: &mut Context<'_>,
        start: usize,
        mut emit: impl FnMut(&K, V::Item) -> bool,
    ) -> usize {
        let mut emitted = 0;
        let mut idx = start;
        // Each turn of the loop deals with one entry that was not yet looked
        // at in this round: it is polled once, and then either kept (the
        // cursor moves on) or removed (another entry moves into its slot).
        for _ in 0..self.entries.len() {
            let (key, stream) = &mut self.entries[idx];
            match Pin::new(stream).poll_next(cx) {
                Poll::Ready(Some(item)) => {
                    emitted += 1;
                    if !emit(key, item) {
                        return emitted;
                    }
                    idx = (idx + 1) % self.entries.len();
                }
                Poll::Pending => idx = (idx + 1) % self.entries.len(),
                Poll::Ready(None) => {
                    // `swap_remove` moves the last entry into `idx`.
                    self.entries.swap_remove(idx);
                    if idx == self.entries.len() {
                        // The removed entry was the last one: go round.
                        idx = 0;
                    } else if idx < start && start <= self.entries.len() {
                        // We have gone round already, and every entry from
                        // `start` on was looked at in this round, including
                        // the one just moved here: step over it.
                        idx = (idx + 1) % self.entries.len();
                    }
                    // Otherwise the entry moved here has not been looked at
                    // yet, so the cursor stays on it.
                }
            }
        }
        emitted
    }

    fn random_start(&self) -> usize {
        // Maps hold far fewer than `u32::MAX` streams; clamp rather than
        // truncate in case one does not.
        let len = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        thread_rng_n(len) as usize
    }

    /// Polls for up to `limit` items and appends them to `buffer` as
    /// `(key, item)` pairs.
    ///
    /// Returns `Ready(n)` with `1 <= n <= limit` once at least one item
    /// arrived, `Ready(0)` if `limit` is 0 or the map is empty, and
    /// `Pending` (with the task's waker held by every stream) otherwise.
    /// Several rounds are made over the streams while they keep yielding.
    pub fn poll_next_many(
        &mut self,
        cx: &mut Context<'_>,
        buffer: &mut Vec<(K, V::Item)>,
        limit: usize,
    ) -> Poll<usize>
    where
        K: Clone,
    {
        if limit == 0 || self.entries.is_empty() {
            return Poll::Ready(0);
        }
        let mut added = 0;
        while added < limit && !self.entries.is_empty() {
            let start = self.random_start();
            let round = self.poll_round(cx, start, |key, item| {
                buffer.push((key.clone(), item));
                added += 1;
                added < limit
            });
            if round == 0 {
                break;
            }
        }
        if added > 0 || self.entries.is_empty() {
            Poll::Ready(added)
        } else {
            Poll::Pending
        }
    }

    /// Waits for up to `limit` items and appends them to `buffer` as
    /// `(key, item)` pairs; returns how many were added. `0` means `limit`
    /// was 0 or the map is (or has become) empty.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: items go straight into `buffer` in the poll that
    /// receives them, so a future dropped before it completes has taken
    /// nothing from the streams.
    pub async fn next_many(&mut self, buffer: &mut Vec<(K, V::Item)>, limit: usize) -> usize
    where
        K: Clone,
    {
        poll_fn(|cx| self.poll_next_many(cx, buffer, limit)).await
    }
}

impl<K, V> Default for StreamMap<K, V> {
    fn default() -> Self {
        StreamMap::new()
    }
}

impl<K, V> Stream for StreamMap<K, V>
where
    K: Clone + Unpin,
    V: Stream + Unpin,
{
    type Item = (K, V::Item);

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<(K, V::Item)>> {
        let this = &mut *self;
        if this.entries.is_empty() {
            return Poll::Ready(None);
        }
        let start = this.random_start();
        let mut next = None;
        this.poll_round(cx, start, |key, item| {
            next = Some((key.clone(), item));
            false
        });
        match next {
            Some(pair) => Poll::Ready(Some(pair)),
            None if this.entries.is_empty() => Poll::Ready(None),
            None => Poll::Pending,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.iter().fold((0, Some(0)), |sum, (_, stream)| {
            add_hints(sum, stream.size_hint())
        })
    }
}

impl<K: Hash + Eq, V> FromIterator<(K, V)> for StreamMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut map = StreamMap::with_capacity(iter.size_hint().0);
        for (key, stream) in iter {
            map.insert(key, stream);
        }
        map
    }
}

impl<K: Hash + Eq, V> Extend<(K, V)> for StreamMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (key, stream) in iter {
            self.insert(key, stream);
        }
    }
}
