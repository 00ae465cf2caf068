//! [`StreamNotifyClose`]: a stream that announces its own end with one
//! extra `None` item, so that a [`StreamMap`](crate::StreamMap) reader
//! learns which stream finished.

use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Wraps a stream so that its items come out as `Some(item)`, its end as
    /// one `None` item, and only then does the wrapper itself end.
    ///
    /// A [`StreamMap`](crate::StreamMap) drops streams that end without a word;
    /// wrapped this way, the map yields `(key, None)` for the stream that ended.
    ///
    /// ```
    /// use rt_stream::{self as stream, StreamExt, StreamMap, StreamNotifyClose};
    ///
    /// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut map = StreamMap::new();
    /// map.insert("a", StreamNotifyClose::new(stream::iter([7])));
    /// assert_eq!(map.next().await, Some(("a", Some(7))));
    /// assert_eq!(map.next().await, Some(("a", None)));
    /// assert_eq!(map.next().await, None);
    /// # });
    /// ```
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    pub struct StreamNotifyClose<S> {
        // `None` once the end has been announced.
        #[pin]
        inner: Option<S>,
    }
}

impl<S> StreamNotifyClose<S> {
    /// Wraps `stream`.
    pub fn new(stream: S) -> StreamNotifyClose<S> {
        StreamNotifyClose {
            inner: Some(stream),
        }
    }

    /// The wrapped stream, or `None` once it has ended.
    pub fn get_ref(&self) -> Option<&S> {
        self.inner.as_ref()
    }

    /// The wrapped stream, mutably, or `None` once it has ended.
    pub fn get_mut(&mut self) -> Option<&mut S> {
        self.inner.as_mut()
    }

    /// The wrapped stream, pinned, or `None` once it has ended.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Option<Pin<&mut S>> {
        self.project().inner.as_pin_mut()
    }

    /// The wrapped stream, or `None` once it has ended.
    pub fn into_inner(self) -> Option<S> {
        self.inner
    }
}

impl<S: Stream> Stream for StreamNotifyClose<S> {
    type Item = Option<S::Item>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Option<S::Item>>> {
        let mut inner = self.project().inner;
        let Some(stream) = inner.as_mut().as_pin_mut() else {
            return Poll::Ready(None);
        };
        match ready!(stream.poll_next(cx)) {
            Some(item) => Poll::Ready(Some(Some(item))),
            None => {
                inner.set(None);
                Poll::Ready(Some(None))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            // One more item: the end notice.
            Some(stream) => {
                let (low, high) = stream.size_hint();
                (
                    low.saturating_add(1),
                    high.and_then(|high| high.checked_add(1)),
                )
            }
            None => (0, Some(0)),
        }
    }
}
