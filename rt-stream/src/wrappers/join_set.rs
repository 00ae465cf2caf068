//! [`JoinSetStream`]: a [`JoinSet`]'s tasks as a stream of their results,
//! in the order they finish.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_core::task::{JoinError, JoinSet};

/// A stream of the results of a [`JoinSet`]'s tasks, each yielded as soon as
/// its task finishes; it ends once the set is empty.
///
/// Tasks spawned into the set (through [`AsMut`] or
/// [`get_mut`](JoinSetStream::get_mut)) while it is being read are
/// picked up too. Dropping the stream drops the set, which aborts the
/// tasks still running.
///
/// ```
/// use rt_core::task::JoinSet;
/// use rt_stream::{wrappers::JoinSetStream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut set = JoinSet::new();
/// for n in 0..3u32 {
///     set.spawn(async move { n * 2 });
/// }
/// let mut results: Vec<u32> = JoinSetStream::new(set)
///     .map(|res| res.expect("task panicked"))
///     .collect()
///     .await;
/// results.sort();
/// assert_eq!(results, [0, 2, 4]);
/// # });
/// ```
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct JoinSetStream<T> {
    inner: JoinSet<T>,
}

impl<T> JoinSetStream<T> {
    /// Wraps `set`.
    pub fn new(set: JoinSet<T>) -> JoinSetStream<T> {
        JoinSetStream { inner: set }
    }

    /// The set, mutably: to spawn more tasks or abort them.
    pub fn get_mut(&mut self) -> &mut JoinSet<T> {
        &mut self.inner
    }

    /// The set, with the tasks that have not been yielded yet.
    pub fn into_inner(self) -> JoinSet<T> {
        self.inner
    }
}

impl<T> AsRef<JoinSet<T>> for JoinSetStream<T> {
    fn as_ref(&self) -> &JoinSet<T> {
        &self.inner
    }
}

impl<T> AsMut<JoinSet<T>> for JoinSetStream<T> {
    fn as_mut(&mut self) -> &mut JoinSet<T> {
        &mut self.inner
    }
}

// The set is never pinned.
impl<T> Unpin for JoinSetStream<T> {}

impl<T> Stream for JoinSetStream<T> {
    type Item = Result<T, JoinError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.poll_join_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Every task in the set yields exactly one result, though more tasks
        // may be spawned later.
        (self.inner.len(), None)
    }
}
