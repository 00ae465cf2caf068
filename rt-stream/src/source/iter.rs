//! [`iter()`]: a stream over an iterator's items.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use rt_core::task::coop;

/// Stream for [`iter()`].
#[derive(Debug, Clone)]
#[must_use = "streams do nothing unless polled"]
pub struct Iter<I> {
    iter: I,
}

/// A stream that yields the items of `i`, always ready.
///
/// Each item spends one unit of the task's cooperative budget, so a long
/// iterator inside a busy task still lets other tasks run.
///
/// ```
/// use rt_stream::{self as stream, StreamExt};
///
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut s = stream::iter(vec![17, 19]);
/// assert_eq!(s.next().await, Some(17));
/// assert_eq!(s.next().await, Some(19));
/// assert_eq!(s.next().await, None);
/// # });
/// ```
pub fn iter<I: IntoIterator>(i: I) -> Iter<I::IntoIter> {
    Iter {
        iter: i.into_iter(),
    }
}

// The iterator is never pinned.
impl<I> Unpin for Iter<I> {}

impl<I: Iterator> Stream for Iter<I> {
    type Item = I::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<I::Item>> {
        let budget = ready!(coop::poll_proceed(cx));
        budget.made_progress();
        Poll::Ready(self.iter.next())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}
