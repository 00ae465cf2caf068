//! The future behind [`StreamExt::collect`](crate::StreamExt::collect) and
//! [`FromStream`], the collections it can build.

use core::fmt;
use core::future::Future;
use core::hash::{BuildHasher, Hash};
use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::collections::HashMap;

use futures_core::Stream;

/// A collection that [`StreamExt::collect`](crate::StreamExt::collect) can
/// build from a stream of `T`.
///
/// Implemented for `()`, `Vec<T>`, `Box<[T]>`, `String` (from `char`,
/// `String` or `&str` items), `HashMap<K, V, S>` (from `(K, V)` items) and
/// `Result<C, E>` (from `Result<T, E>` items, stopping at the first error).
/// The trait is sealed: its methods are not part of the public API.
pub trait FromStream<T>: sealed::Collector<T> {}

pub(crate) mod sealed {
    /// How a collection is built item by item. Kept out of the public API
    /// so that the building steps can change.
    pub trait Collector<T>: Sized {
        /// The collection while it is being built.
        type Building;

        /// An empty collection sized for the stream's hint.
        fn start(size_hint: (usize, Option<usize>)) -> Self::Building;

        /// Adds one item; `false` means the collection is complete early.
        fn push(building: &mut Self::Building, item: T) -> bool;

        /// The finished collection.
        fn finish(building: Self::Building) -> Self;
    }
}

use pin_project_lite::pin_project;
use sealed::Collector;

impl<T> FromStream<T> for () {}
impl<T> Collector<T> for () {
    type Building = ();
    fn start(_: (usize, Option<usize>)) {}
    fn push(_: &mut (), _: T) -> bool {
        true
    }
    fn finish(_: ()) {}
}

impl<T> FromStream<T> for Vec<T> {}
impl<T> Collector<T> for Vec<T> {
    type Building = Vec<T>;
    fn start((low, _): (usize, Option<usize>)) -> Vec<T> {
        Vec::with_capacity(low)
    }
    fn push(building: &mut Vec<T>, item: T) -> bool {
        building.push(item);
        true
    }
    fn finish(building: Vec<T>) -> Vec<T> {
        building
    }
}

impl<T> FromStream<T> for Box<[T]> {}
impl<T> Collector<T> for Box<[T]> {
    type Building = Vec<T>;
    fn start(hint: (usize, Option<usize>)) -> Vec<T> {
        <Vec<T> as Collector<T>>::start(hint)
    }
    fn push(building: &mut Vec<T>, item: T) -> bool {
        <Vec<T> as Collector<T>>::push(building, item)
    }
    fn finish(building: Vec<T>) -> Box<[T]> {
        building.into_boxed_slice()
    }
}

impl FromStream<char> for String {}
impl Collector<char> for String {
    type Building = String;
    fn start(_: (usize, Option<usize>)) -> String {
        String::new()
    }
    fn push(building: &mut String, item: char) -> bool {
        building.push(item);
        true
    }
    fn finish(building: String) -> String {
        building
    }
}

impl FromStream<String> for String {}
impl Collector<String> for String {
    type Building = String;
    fn start(_: (usize, Option<usize>)) -> String {
        String::new()
    }
    fn push(building: &mut String, item: String) -> bool {
        building.push_str(&item);
        true
    }
    fn finish(building: String) -> String {
        building
    }
}

impl FromStream<&str> for String {}
impl<'a> Collector<&'a str> for String {
    type Building = String;
    fn start(_: (usize, Option<usize>)) -> String {
        String::new()
    }
    fn push(building: &mut String, item: &'a str) -> bool {
        building.push_str(item);
        true
    }
    fn finish(building: String) -> String {
        building
    }
}

impl<K: Eq + Hash, V, S: BuildHasher + Default> FromStream<(K, V)> for HashMap<K, V, S> {}
impl<K: Eq + Hash, V, S: BuildHasher + Default> Collector<(K, V)> for HashMap<K, V, S> {
    type Building = HashMap<K, V, S>;
    fn start((low, _): (usize, Option<usize>)) -> HashMap<K, V, S> {
        HashMap::with_capacity_and_hasher(low, S::default())
    }
    fn push(building: &mut HashMap<K, V, S>, (key, value): (K, V)) -> bool {
        building.insert(key, value);
        true
    }
    fn finish(building: HashMap<K, V, S>) -> HashMap<K, V, S> {
        building
    }
}

impl<T, E, C: FromStream<T>> FromStream<Result<T, E>> for Result<C, E> {}
impl<T, E, C: FromStream<T>> Collector<Result<T, E>> for Result<C, E> {
    type Building = Result<C::Building, E>;
    fn start((_, high): (usize, Option<usize>)) -> Self::Building {
        // Any item may be the error that ends the stream, so only the upper
        // bound carries over.
        Ok(C::start((0, high)))
    }
    fn push(building: &mut Self::Building, item: Result<T, E>) -> bool {
        match (building.as_mut(), item) {
            (Ok(collection), Ok(item)) => C::push(collection, item),
            (Ok(_), Err(error)) => {
                *building = Err(error);
                false
            }
            (Err(_), _) => false,
        }
    }
    fn finish(building: Self::Building) -> Result<C, E> {
        building.map(C::finish)
    }
}

pin_project! {
    /// Future for [`StreamExt::collect`](crate::StreamExt::collect).
    #[must_use = "futures do nothing unless you `.await` or poll them"]
    #[project = CollectProj]
    pub struct Collect<St, C>
    where
        St: Stream,
        C: FromStream<St::Item>,
    {
        #[pin]
        stream: St,
        // `None` only after the future has completed.
        building: Option<C::Building>,
    }
}

impl<St, C> Collect<St, C>
where
    St: Stream,
    C: FromStream<St::Item>,
{
    pub(super) fn new(stream: St) -> Self {
        let building = C::start(stream.size_hint());
        Collect {
            stream,
            building: Some(building),
        }
    }
}

impl<St, C> fmt::Debug for Collect<St, C>
where
    St: Stream + fmt::Debug,
    C: FromStream<St::Item>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Collect")
            .field("stream", &self.stream)
            .finish_non_exhaustive()
    }
}

impl<St, C> Future for Collect<St, C>
where
    St: Stream,
    C: FromStream<St::Item>,
{
    type Output = C;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<C> {
        let CollectProj {
            mut stream,
            building,
        } = self.project();
        loop {
            let item = ready!(stream.as_mut().poll_next(cx));
            let collection = building.as_mut().expect("Collect polled after completion");
            let more = match item {
                Some(item) => C::push(collection, item),
                None => false,
            };
            if !more {
                let finished = building.take().expect("checked above");
                return Poll::Ready(C::finish(finished));
            }
        }
    }
}
