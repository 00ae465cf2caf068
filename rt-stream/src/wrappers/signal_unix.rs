//! [`SignalStream`]: a Unix [`Signal`] read as a stream of deliveries.

use core::pin::Pin;
use core::task::{Context, Poll};

use futures_core::Stream;
use rt_io::signal::unix::Signal;

/// A never-ending stream with one `()` item per delivery of a Unix signal;
/// deliveries between two reads count once.
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct SignalStream {
    inner: Signal,
}

impl SignalStream {
    /// Wraps `signal`.
    pub fn new(signal: Signal) -> SignalStream {
        SignalStream { inner: signal }
    }

    /// The signal listener back.
    pub fn into_inner(self) -> Signal {
        self.inner
    }
}

impl AsRef<Signal> for SignalStream {
    fn as_ref(&self) -> &Signal {
        &self.inner
    }
}

impl AsMut<Signal> for SignalStream {
    fn as_mut(&mut self) -> &mut Signal {
        &mut self.inner
    }
}

impl Stream for SignalStream {
    type Item = ();

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<()>> {
        self.inner.poll_recv(cx)
    }
}
