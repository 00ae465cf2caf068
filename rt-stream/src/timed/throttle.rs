//! `Throttle`: the stream's items, at least a given duration apart.

use core::future::Future;
use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::time::Duration;

use futures_core::Stream;
use pin_project_lite::pin_project;
use rt_time::Sleep;

use super::arm;

pin_project! {
    /// Stream for [`StreamExt::throttle`](crate::StreamExt::throttle).
    ///
    /// After each item the inner stream is not polled again until the
    /// delay, armed for the duration, has expired. The first item is not
    /// delayed.
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    pub struct Throttle<S> {
        #[pin]
        stream: S,
        // Created at the first arming; see `timed::arm`.
        #[pin]
        delay: Option<Sleep>,
        duration: Duration,
        // Whether the pause since the last item is over (true before the
        // first).
        rested: bool,
    }
}

impl<S> Throttle<S> {
    pub(crate) fn new(stream: S, duration: Duration) -> Throttle<S> {
        Throttle {
            stream,
            delay: None,
            duration,
            rested: true,
        }
    }

    /// The wrapped stream.
    pub fn get_ref(&self) -> &S {
        &self.stream
    }

    /// The wrapped stream, mutably. Taking items from it directly bypasses
    /// the throttle.
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.stream
    }

    /// The wrapped stream, pinned and mutably. Taking items from it
    /// directly bypasses the throttle.
    pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut S> {
        self.project().stream
    }

    /// The wrapped stream, with the items it has not yielded yet.
    pub fn into_inner(self) -> S {
        self.stream
    }
}

impl<S: Stream> Stream for Throttle<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let mut this = self.project();
        if !*this.rested {
            if let Some(delay) = this.delay.as_mut().as_pin_mut() {
                ready!(delay.poll(cx));
            }
            *this.rested = true;
        }
        let item = ready!(this.stream.poll_next(cx));
        if item.is_some() && !this.duration.is_zero() {
            arm(this.delay, *this.duration);
            *this.rested = false;
        }
        Poll::Ready(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}
