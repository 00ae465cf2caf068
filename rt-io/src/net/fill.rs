//! Receiving into a [`ReadBuf`] or a [`BufMut`]: the one step every
//! `poll_recv`/`poll_peek` (`ReadBuf`) and `recv_buf`/`try_read_buf`
//! (`BufMut`) method of the socket types shares.

use crate::io::ReadBuf;
use bytes::BufMut;
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

/// Runs `op` on the next writable chunk of `buf` (zeroed first) and
/// advances `buf` by the count it returns.
pub(crate) fn fill_buf_mut<B: BufMut + ?Sized, T>(
    buf: &mut B,
    op: impl FnOnce(&mut [u8]) -> io::Result<(usize, T)>,
) -> io::Result<T> {
    // SAFETY: the chunk is only seen through `ReadBuf`, which writes
    // initialised bytes (zeros) before handing any of it out and never
    // reads what it did not initialise.
    let chunk = unsafe { buf.chunk_mut().as_uninit_slice_mut() };
    let mut read_buf = ReadBuf::uninit(chunk);
    let dst = read_buf.initialize_unfilled();
    let room = dst.len();
    let (n, value) = op(dst)?;
    if n > room {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the socket reported more bytes than the buffer holds",
        ));
    }
    // SAFETY: all `room >= n` bytes of the chunk were initialised above,
    // and the first `n` hold what `op` received.
    unsafe { buf.advance_mut(n) };
    Ok(value)
}
