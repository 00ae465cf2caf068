//! Receiving into a [`ReadBuf`]: the one step every `poll_recv`,
//! `poll_recv_from`, `poll_peek` and `poll_read` of the socket types shares.

use crate::io::ReadBuf;
use std::io;
use std::task::{ready, Poll};

/// Runs `op` on the unfilled part of `buf` (zeroing what was never
/// initialised, so `op` sees plain bytes) and marks the count it returns as
/// filled. `op` also returns a value the caller wants, such as the sender's
/// address.
pub(crate) fn poll_fill<T>(
    buf: &mut ReadBuf<'_>,
    op: impl FnOnce(&mut [u8]) -> Poll<io::Result<(usize, T)>>,
) -> Poll<io::Result<T>> {
    let (n, value) = ready!(op(buf.initialize_unfilled()))?;
    buf.advance(n);
    Poll::Ready(Ok(value))
}
