//! `ChunksTimeout`: items gathered into `Vec`s of up to `max_size`, a
//! partial chunk going out once it has waited for the duration.

use core::mem;
use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::time::Duration;

use futures_core::Stream;

use super::Delay;
use crate::stream_ext::Fuse;

/// Stream for `StreamExt::chunks_timeout`.
///
/// A chunk goes out as soon as it holds `max_size` items, or when the
/// duration has passed since its first item arrived, or when the stream
/// ends; a chunk is never empty.
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub(crate) struct ChunksTimeout<S: Stream, D> {
    stream: Fuse<S>,
    deadline: D,
    duration: Duration,
    max_size: usize,
    chunk: Vec<S::Item>,
}

impl<S: Stream, D: Delay> ChunksTimeout<S, D> {
    /// # Panics
    ///
    /// If `max_size` is 0, at the caller's location.
    #[track_caller]
    pub(crate) fn new(stream: S, deadline: D, max_size: usize, duration: Duration) -> Self {
        assert!(max_size > 0, "`max_size` must be non-zero.");
        ChunksTimeout {
            stream: Fuse::new(stream),
            deadline,
            duration,
            max_size,
            chunk: Vec::new(),
        }
    }

    #[allow(clippy::type_complexity)]
    fn project(
        self: Pin<&mut Self>,
    ) -> (
        Pin<&mut Fuse<S>>,
        Pin<&mut D>,
        Duration,
        usize,
        &mut Vec<S::Item>,
    ) {
        // SAFETY: `stream` and `deadline` are structurally pinned. The
        // adapter never moves them while pinned, has no `Drop` impl, and is
        // `Unpin` only when both are (the chunk is a `Vec`, always `Unpin`);
        // the other fields are never pinned.
        unsafe {
            let this = self.get_unchecked_mut();
            (
                Pin::new_unchecked(&mut this.stream),
                Pin::new_unchecked(&mut this.deadline),
                this.duration,
                this.max_size,
                &mut this.chunk,
            )
        }
    }
}

impl<S: Stream, D: Delay> Stream for ChunksTimeout<S, D> {
    type Item = Vec<S::Item>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Vec<S::Item>>> {
        let (mut stream, mut deadline, duration, max_size, chunk) = self.project();
        loop {
            match stream.as_mut().poll_next(cx) {
                Poll::Pending => break,
                Poll::Ready(Some(item)) => {
                    if chunk.is_empty() {
                        // The chunk's clock starts with its first item.
                        deadline.as_mut().arm(duration);
                        chunk.reserve_exact(max_size);
                    }
                    chunk.push(item);
                    if chunk.len() >= max_size {
                        return Poll::Ready(Some(mem::take(chunk)));
                    }
                }
                Poll::Ready(None) => {
                    return Poll::Ready(if chunk.is_empty() {
                        None
                    } else {
                        Some(mem::take(chunk))
                    });
                }
            }
        }
        if chunk.is_empty() {
            return Poll::Pending;
        }
        ready!(deadline.poll_expired(cx));
        Poll::Ready(Some(mem::take(chunk)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Every item ends up in a chunk of at most `max_size` items, and
        // every chunk holds at least one.
        let held = self.chunk.len();
        let (low, high) = self.stream.size_hint();
        let items = low.saturating_add(held);
        let fewest = items / self.max_size + usize::from(items % self.max_size != 0);
        let most = high.and_then(|high| high.checked_add(usize::from(held > 0)));
        (fewest, most)
    }
}

#[cfg(test)]
mod tests {
    use std::task::Poll;
    use std::time::Duration;

    use super::ChunksTimeout;
    use crate::source::iter;
    use crate::timed::manual::{poll_once, ManualDelay, Script};

    const D: Duration = Duration::from_millis(20);

    #[test]
    fn full_chunks_go_out_at_once_and_the_rest_at_the_end() {
        let mut s = ChunksTimeout::new(iter(1..=5), ManualDelay::default(), 2, D);
        assert_eq!(futures_core::Stream::size_hint(&s), (3, Some(5)));
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(vec![1, 2])));
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(vec![3, 4])));
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(vec![5])));
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
    }

    #[test]
    fn a_partial_chunk_goes_out_when_its_deadline_passes() {
        let delay = ManualDelay::default();
        let script = Script::new([
            Poll::Ready(Some('a')),
            Poll::Pending,
            Poll::Pending,
            Poll::Pending,
            Poll::Ready(Some('b')),
            Poll::Pending,
        ]);
        let mut s = ChunksTimeout::new(script, delay.clone(), 3, D);
        assert_eq!(poll_once(&mut s), Poll::Pending);
        assert_eq!(delay.arms(), 1);
        assert_eq!(delay.armed_for(), Some(D));
        assert_eq!(futures_core::Stream::size_hint(&s), (1, Some(5)));
        delay.expire();
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(vec!['a'])));
        // The old deadline has passed, but an empty chunk never goes out.
        assert_eq!(poll_once(&mut s), Poll::Pending);
        // The next chunk's clock starts with its first item.
        assert_eq!(poll_once(&mut s), Poll::Pending);
        assert_eq!(delay.arms(), 2);
        // The stream's end flushes the partial chunk without waiting.
        assert_eq!(poll_once(&mut s), Poll::Ready(Some(vec!['b'])));
        assert_eq!(poll_once(&mut s), Poll::Ready(None));
    }

    #[test]
    #[should_panic(expected = "`max_size` must be non-zero.")]
    fn a_zero_max_size_is_refused() {
        let _ = ChunksTimeout::new(iter([1]), ManualDelay::default(), 0, D);
    }
}
