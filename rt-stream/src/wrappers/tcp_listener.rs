//! [`TcpListenerStream`]: a [`TcpListener`] read as a stream of accepted
//! connections.

use core::pin::Pin;
use core::task::{Context, Poll};
use std::io;

use futures_core::Stream;
use rt_io::net::{TcpListener, TcpStream};

/// A never-ending stream of the connections a [`TcpListener`] accepts.
///
/// A failed accept comes out as an `Err` item and the stream goes on; the
/// peer addresses are dropped (ask each stream for `peer_addr`).
///
/// ```
/// use rt_io::net::{TcpListener, TcpStream};
/// use rt_stream::{wrappers::TcpListenerStream, StreamExt};
///
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build()
/// #     .unwrap();
/// # rt.block_on(async {
/// let listener = TcpListener::bind("127.0.0.1:0").await?;
/// let addr = listener.local_addr()?;
/// let mut incoming = TcpListenerStream::new(listener);
/// let client = TcpStream::connect(addr).await?;
/// let server = incoming.next().await.expect("never ends")?;
/// assert_eq!(server.peer_addr()?, client.local_addr()?);
/// # Ok::<(), std::io::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct TcpListenerStream {
    inner: TcpListener,
}

impl TcpListenerStream {
    /// Wraps `listener`.
    pub fn new(listener: TcpListener) -> TcpListenerStream {
        TcpListenerStream { inner: listener }
    }

    /// The listener back.
    pub fn into_inner(self) -> TcpListener {
        self.inner
    }
}

impl AsRef<TcpListener> for TcpListenerStream {
    fn as_ref(&self) -> &TcpListener {
        &self.inner
    }
}

impl AsMut<TcpListener> for TcpListenerStream {
    fn as_mut(&mut self) -> &mut TcpListener {
        &mut self.inner
    }
}

impl Stream for TcpListenerStream {
    type Item = io::Result<TcpStream>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner
            .poll_accept(cx)
            .map(|accepted| Some(accepted.map(|(stream, _peer)| stream)))
    }
}
