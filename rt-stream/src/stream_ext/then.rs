//! [`Then`]: each item turned into a future whose output is yielded.

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{ready, Context, Poll};

use futures_core::Stream;
use pin_project_lite::pin_project;

pin_project! {
    /// Stream for [`StreamExt::then`](crate::StreamExt::then).
    ///
    /// At most one future is in flight: the next item is not pulled from the
    /// inner stream until the current future has finished.
    #[must_use = "streams do nothing unless polled"]
    #[project = ThenProj]
    pub struct Then<St, Fut, F> {
        #[pin]
        stream: St,
        #[pin]
        future: Option<Fut>,
        f: F,
    }
}

impl<St, Fut, F> Then<St, Fut, F> {
    pub(super) fn new(stream: St, f: F) -> Self {
        Then {
            stream,
            future: None,
            f,
        }
    }
}

impl<St: fmt::Debug, Fut: fmt::Debug, F> fmt::Debug for Then<St, Fut, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Then")
            .field("stream", &self.stream)
            .field("future", &self.future)
            .finish()
    }
}

impl<St, Fut, F> Stream for Then<St, Fut, F>
where
    St: Stream,
    F: FnMut(St::Item) -> Fut,
    Fut: Future,
{
    type Item = Fut::Output;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Fut::Output>> {
        let ThenProj {
            mut stream,
            mut future,
            f,
        } = self.project();
        loop {
            if let Some(fut) = future.as_mut().as_pin_mut() {
                let output = ready!(fut.poll(cx));
                future.set(None);
                return Poll::Ready(Some(output));
            }
            match ready!(stream.as_mut().poll_next(cx)) {
                Some(item) => future.set(Some(f(item))),
                None => return Poll::Ready(None),
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let in_flight = usize::from(self.future.is_some());
        super::size_hint::add_hints(self.stream.size_hint(), (in_flight, Some(in_flight)))
    }
}
