//! `split`: one stream shared as a read half and a write half that can be
//! used from different tasks.
//!
//! Both halves hold the stream in one `Arc<Mutex<_>>`; each poll locks it
//! only for the duration of a single non-blocking `poll_*` call, so the
//! halves never wait on each other for long.

use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use rt_core::loom::sync::{Arc, Mutex, MutexGuard};
use std::fmt;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{Context, Poll};

/// Splits `stream` into a read half and a write half.
///
/// [`ReadHalf::unsplit`] puts them back together.
pub fn split<T>(stream: T) -> (ReadHalf<T>, WriteHalf<T>)
where
    T: AsyncRead + AsyncWrite,
{
    let shared = Arc::new(Mutex::new(stream));
    (
        ReadHalf {
            shared: shared.clone(),
        },
        WriteHalf { shared },
    )
}

/// The readable half of a stream split by [`split`].
pub struct ReadHalf<T> {
    shared: Arc<Mutex<T>>,
}

/// The writable half of a stream split by [`split`].
pub struct WriteHalf<T> {
    shared: Arc<Mutex<T>>,
}

fn with_pinned<T, R>(shared: &Mutex<T>, f: impl FnOnce(Pin<&mut T>) -> R) -> R {
    let mut guard: MutexGuard<'_, T> = shared.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: the stream lives in the `Arc`'s allocation, which never moves
    // while either half exists; the only way out is `unsplit`, which needs
    // `T: Unpin`. So the stream stays pinned in place as `Pin` requires.
    let pinned = unsafe { Pin::new_unchecked(&mut *guard) };
    f(pinned)
}

impl<T> ReadHalf<T> {
    /// Whether `other` is the write half split from the same stream.
    pub fn is_pair_of(&self, other: &WriteHalf<T>) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    /// Puts the halves back together into the original stream.
    ///
    /// # Panics
    ///
    /// If `write` was not split from the same stream as `self`.
    #[track_caller]
    pub fn unsplit(self, write: WriteHalf<T>) -> T
    where
        T: Unpin,
    {
        assert!(
            self.is_pair_of(&write),
            "ReadHalf::unsplit: the write half belongs to another stream"
        );
        drop(write);
        let mutex = Arc::try_unwrap(self.shared)
            .unwrap_or_else(|_| unreachable!("both halves were consumed"));
        mutex.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl<T> WriteHalf<T> {
    /// Whether `other` is the read half split from the same stream.
    pub fn is_pair_of(&self, other: &ReadHalf<T>) -> bool {
        other.is_pair_of(self)
    }
}

impl<T: AsyncRead> AsyncRead for ReadHalf<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        with_pinned(&self.shared, |stream| stream.poll_read(cx, buf))
    }
}

impl<T: AsyncWrite> AsyncWrite for WriteHalf<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        with_pinned(&self.shared, |stream| stream.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        with_pinned(&self.shared, |stream| stream.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        with_pinned(&self.shared, |stream| stream.is_write_vectored())
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        with_pinned(&self.shared, |stream| stream.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        with_pinned(&self.shared, |stream| stream.poll_shutdown(cx))
    }
}

impl<T> fmt::Debug for ReadHalf<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadHalf").finish_non_exhaustive()
    }
}

impl<T> fmt::Debug for WriteHalf<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WriteHalf").finish_non_exhaustive()
    }
}
