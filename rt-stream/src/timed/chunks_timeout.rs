//! `ChunksTimeout`: items gathered into `Vec`s of up to `max_size`, a
//! partial chunk going out once it has waited for the duration.

use core::fmt;
use core::future::Future;
use core::mem;
use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use pin_project_lite::pin_project;
use rt_time::Sleep;

use super::arm;
use crate::stream_ext::Fuse;

pin_project! {
    /// Stream for
    /// [`StreamExt::chunks_timeout`](crate::StreamExt::chunks_timeout).
    ///
    /// A chunk goes out as soon as it holds `max_size` items, or when the
    /// duration has passed since its first item arrived, or when the stream
    /// ends; a chunk is never empty.
    #[must_use = "streams do nothing unless polled"]
    pub struct ChunksTimeout<S: Stream> {
        #[pin]
        stream: Fuse<S>,
        // Created at the first arming; see `timed::arm`.
        #[pin]
        deadline: Option<Sleep>,
        duration: Duration,
        max_size: usize,
        chunk: Vec<S::Item>,
    }
}

impl<S> fmt::Debug for ChunksTimeout<S>
where
    S: Stream + fmt::Debug,
    S::Item: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunksTimeout")
            .field("stream", &self.stream)
            .field("deadline", &self.deadline)
            .field("duration", &self.duration)
            .field("max_size", &self.max_size)
            .field("chunk", &self.chunk)
            .finish()
    }
}

impl<S: Stream> ChunksTimeout<S> {
    /// # Panics
    ///
    /// If `max_size` is 0, at the caller's location.
    #[track_caller]
    pub(crate) fn new(stream: S, max_size: usize, duration: Duration) -> ChunksTimeout<S> {
        assert!(max_size > 0, "`max_size` must be non-zero.");
        ChunksTimeout {
            stream: Fuse::new(stream),
            deadline: None,
            duration,
            max_size,
            chunk: Vec::new(),
        }
    }
}

impl<S: Stream> Stream for ChunksTimeout<S> {
    type Item = Vec<S::Item>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Vec<S::Item>>> {
        let mut this = self.project();
        loop {
            match this.stream.as_mut().poll_next(cx) {
                Poll::Pending => break,
                Poll::Ready(Some(item)) => {
                    if this.chunk.is_empty() {
                        // The chunk's clock starts with its first item.
                        arm(this.deadline.as_mut(), *this.duration);
                        this.chunk.reserve_exact(*this.max_size);
                    }
                    this.chunk.push(item);
                    if this.chunk.len() >= *this.max_size {
                        return Poll::Ready(Some(mem::take(this.chunk)));
                    }
                }
                Poll::Ready(None) => {
                    return Poll::Ready(if this.chunk.is_empty() {
                        None
                    } else {
                        Some(mem::take(this.chunk))
                    });
                }
            }
        }
        if this.chunk.is_empty() {
            return Poll::Pending;
        }
        if let Some(deadline) = this.deadline.as_pin_mut() {
            ready!(deadline.poll(cx));
        }
        Poll::Ready(Some(mem::take(this.chunk)))
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
