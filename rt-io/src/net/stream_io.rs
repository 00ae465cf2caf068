//! Poll-based read/write entry points shared by the stream types, and the
//! async helpers built on them.
//!
//! These are the hooks the `AsyncRead`/`AsyncWrite` implementations call;
//! until then the helpers below let code (and the tests) drive streams. The
//! module is hidden: it is not part of rt's public API.

use std::future::poll_fn;
use std::io;
use std::task::{Context, Poll};

/// A stream side that can be read by polling.
pub trait PollRead {
    /// Reads into `buf` once the stream is readable.
    fn poll_read_bytes(&self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<io::Result<usize>>;
}

/// A stream side that can be written by polling.
pub trait PollWrite {
    /// Writes from `buf` once the stream is writable.
    fn poll_write_bytes(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>>;
    /// Shuts the write direction down.
    fn poll_shutdown_write(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
}

/// Reads some bytes; `Ok(0)` at end of stream.
pub async fn read(stream: &impl PollRead, buf: &mut [u8]) -> io::Result<usize> {
    poll_fn(|cx| stream.poll_read_bytes(cx, buf)).await
}

/// Fills `buf` completely, or fails with `UnexpectedEof`.
pub async fn read_exact(stream: &impl PollRead, mut buf: &mut [u8]) -> io::Result<()> {
    while !buf.is_empty() {
        let n = read(stream, buf).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
    }
    Ok(())
}

/// Reads until end of stream, appending to `out`; returns the count read.
pub async fn read_to_end(stream: &impl PollRead, out: &mut Vec<u8>) -> io::Result<usize> {
    let mut chunk = [0u8; 4096];
    let mut total = 0;
    loop {
        let n = read(stream, &mut chunk).await?;
        if n == 0 {
            return Ok(total);
        }
        out.extend_from_slice(&chunk[..n]);
        total += n;
    }
}

/// Writes some bytes.
pub async fn write(stream: &impl PollWrite, buf: &[u8]) -> io::Result<usize> {
    poll_fn(|cx| stream.poll_write_bytes(cx, buf)).await
}

/// Writes all of `buf`.
pub async fn write_all(stream: &impl PollWrite, mut buf: &[u8]) -> io::Result<()> {
    while !buf.is_empty() {
        let n = write(stream, buf).await?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        buf = &buf[n..];
    }
    Ok(())
}

/// Shuts the write direction down (the peer reads end of stream).
pub async fn shutdown(stream: &impl PollWrite) -> io::Result<()> {
    poll_fn(|cx| stream.poll_shutdown_write(cx)).await
}
