//! [`ChildStdin`], [`ChildStdout`], [`ChildStderr`] on Windows: a child's
//! piped standard streams, each read or written on the blocking pool
//! through [`Blocking`], as the process's own standard streams are. The
//! handle number is kept apart, since the pipe end itself is on the pool
//! while a call runs.

use crate::io::blocking::Blocking;
use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use std::io;
use std::os::windows::io::{AsHandle, AsRawHandle, BorrowedHandle, RawHandle};
use std::pin::Pin;
use std::task::{Context, Poll};

/// Declares one pipe type: its `from_std` and handle traits.
macro_rules! child_pipe {
    ($(#[$doc:meta])* $ty:ident, $std:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $ty {
            raw: RawHandle,
            inner: Blocking<std::process::$std>,
        }

        // SAFETY: `raw` is only read, as a handle number, by the handle
        // traits; the pipe end it names is `Send` and `Sync`.
        unsafe impl Send for $ty {}
        // SAFETY: as above.
        unsafe impl Sync for $ty {}

        impl $ty {
            /// Wraps a standard pipe end; its calls run on the blocking
            /// pool of the runtime polling it.
            pub fn from_std(inner: std::process::$std) -> io::Result<$ty> {
                Ok($ty {
                    raw: inner.as_raw_handle(),
                    inner: Blocking::new(inner),
                })
            }
        }

        impl AsRawHandle for $ty {
            fn as_raw_handle(&self) -> RawHandle {
                self.raw
            }
        }

        impl AsHandle for $ty {
            fn as_handle(&self) -> BorrowedHandle<'_> {
                // SAFETY: the pipe end `raw` names is owned by `inner`
                // (also while a call has it on the blocking pool), so it
                // stays open while `self` is borrowed.
                unsafe { BorrowedHandle::borrow_raw(self.raw) }
            }
        }
    };
}

child_pipe!(
    /// The child's standard input, when it was set to piped; see
    /// [`Child::stdin`](crate::process::Child::stdin).
    ChildStdin,
    ChildStdin
);
child_pipe!(
    /// The child's standard output, when it was set to piped; see
    /// [`Child::stdout`](crate::process::Child::stdout).
    ChildStdout,
    ChildStdout
);
child_pipe!(
    /// The child's standard error, when it was set to piped; see
    /// [`Child::stderr`](crate::process::Child::stderr).
    ChildStderr,
    ChildStderr
);

impl AsyncWrite for ChildStdin {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().inner.poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().inner.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().inner.poll_flush(cx)
    }
}

/// `AsyncRead` for the two output pipes, through the blocking pool.
macro_rules! impl_async_read {
    ($($ty:ty),*) => {$(
        impl AsyncRead for $ty {
            fn poll_read(
                self: Pin<&mut Self>,
                cx: &mut Context<'_>,
                buf: &mut ReadBuf<'_>,
            ) -> Poll<io::Result<()>> {
                self.get_mut().inner.poll_read(cx, buf)
            }
        }
    )*};
}

impl_async_read!(ChildStdout, ChildStderr);
