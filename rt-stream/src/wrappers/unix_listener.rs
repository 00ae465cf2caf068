//! [`UnixListenerStream`]: a [`UnixListener`] read as a stream of accepted
//! connections.

use core::pin::Pin;
use core::task::{Context, Poll};
use std::io;

use futures_core::Stream;
use rt_io::net::{UnixListener, UnixStream};

/// A never-ending stream of the connections a [`UnixListener`] accepts.
///
/// A failed accept comes out as an `Err` item and the stream goes on; the
/// peer addresses are dropped.
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct UnixListenerStream {
    inner: UnixListener,
}

impl UnixListenerStream {
    /// Wraps `listener`.
    pub fn new(listener: UnixListener) -> UnixListenerStream {
        UnixListenerStream { inner: listener }
    }

    /// The listener back.
    pub fn into_inner(self) -> UnixListener {
        self.inner
    }
}

impl AsRef<UnixListener> for UnixListenerStream {
    fn as_ref(&self) -> &UnixListener {
        &self.inner
    }
}

impl AsMut<UnixListener> for UnixListenerStream {
    fn as_mut(&mut self) -> &mut UnixListener {
        &mut self.inner
    }
}

impl Stream for UnixListenerStream {
    type Item = io::Result<UnixStream>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner
            .poll_accept(cx)
            .map(|accepted| Some(accepted.map(|(stream, _peer)| stream)))
    }
}
