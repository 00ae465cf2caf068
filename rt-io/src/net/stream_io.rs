//! The poll hooks every stream socket and half provides, through which
//! `async_io` implements `AsyncRead`/`AsyncWrite` for all of them once.
//!
//! Code that reads or writes a stream uses those traits
//! (`rt_io::io::{AsyncReadExt, AsyncWriteExt}`); these hooks are private.

use std::io;
use std::mem::MaybeUninit;
use std::task::{Context, Poll};

/// A stream side that can be read by polling.
pub trait PollRead {
    /// Reads into `buf`, initialised or not, once the stream is readable;
    /// the bytes read are initialised afterwards, the rest untouched.
    fn poll_read_uninit(
        &self,
        cx: &mut Context<'_>,
        buf: &mut [MaybeUninit<u8>],
    ) -> Poll<io::Result<usize>>;
}

/// A stream side that can be written by polling.
pub trait PollWrite {
    /// Writes from `buf` once the stream is writable.
    fn poll_write_bytes(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>>;
    /// Shuts the write direction down.
    fn poll_shutdown_write(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
}
