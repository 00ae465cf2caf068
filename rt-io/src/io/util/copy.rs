//! `copy` and `copy_buf`: move every byte of a reader into a writer.
//!
//! [`CopyBuffer`] holds the bytes between the read and the write and the
//! counters, outside the future's stack, so that a copy interrupted by
//! `Pending` resumes exactly where it stopped; `copy_bidirectional` runs two
//! of them.
//!
//! The buffer of `copy` and `copy_bidirectional` starts at 8 KiB, as
//! tokio's, and is replaced once with one of [`GROWN_BUF_SIZE`] when a read
//! fills it: a connection that carries a stream of bulk data then moves it
//! in half as many system calls, and one that carries small messages keeps
//! the small buffer. The growth stops at 16 KiB: larger buffers lose where
//! the two ends of a copy run on two CPUs at once.

use super::buf_reader::DEFAULT_BUF_SIZE;
use super::mem::poll_spend_budget;
use crate::io::{AsyncBufRead, AsyncRead, AsyncWrite, ReadBuf};
use rt_core::task::coop;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// One direction of a copy in progress.
#[derive(Debug)]
pub(crate) struct CopyBuffer {
    read_done: bool,
    /// Bytes were written since the last flush of the writer.
    need_flush: bool,
    /// `buf[pos..cap]` is read and not yet written.
    pos: usize,
    cap: usize,
    amount: u64,
    buf: Box<[u8]>,
    /// The size `buf` may grow to when a read fills it; `buf.len()` for a
    /// buffer whose size the caller chose.
    grow_limit: usize,
}

/// The size a growing copy buffer ends at (see the module documentation).
const GROWN_BUF_SIZE: usize = 16 * 1024;

pub(crate) fn write_zero_into_writer() -> io::Error {
    io::Error::new(io::ErrorKind::WriteZero, "write zero byte into writer")
}

impl CopyBuffer {
    /// A buffer of `size` bytes that keeps its size; `size` must be
    /// non-zero.
    pub(crate) fn with_size(size: usize) -> CopyBuffer {
        debug_assert!(size > 0, "a copy needs a non-empty buffer");
        CopyBuffer {
            read_done: false,
            need_flush: false,
            pos: 0,
            cap: 0,
            amount: 0,
            buf: vec![0; size].into_boxed_slice(),
            grow_limit: size,
        }
    }

    /// A buffer of [`DEFAULT_BUF_SIZE`] bytes that grows to
    /// [`GROWN_BUF_SIZE`] once a read fills it.
    pub(crate) fn growing() -> CopyBuffer {
        CopyBuffer {
            grow_limit: GROWN_BUF_SIZE,
            ..CopyBuffer::with_size(DEFAULT_BUF_SIZE)
        }
    }

    /// Replaces the buffer, which holds nothing unwritten, with one of
    /// `grow_limit` bytes. Out of line: it runs once per copy at most.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        debug_assert_eq!(self.pos, self.cap, "only an empty buffer is replaced");
        self.buf = vec![0; self.grow_limit].into_boxed_slice();
    }

    /// Copies until the reader ends (then flushes and returns the total) or
    /// until one side is not ready.
    pub(crate) fn poll_copy<R, W>(
        &mut self,
        cx: &mut Context<'_>,
        mut reader: Pin<&mut R>,
        mut writer: Pin<&mut W>,
    ) -> Poll<io::Result<u64>>
    where
        R: AsyncRead + ?Sized,
        W: AsyncWrite + ?Sized,
    {
        // One unit for this call, as tokio's copy spends; each read and
        // write spends its own in the resource that does it.
        let budget = match coop::poll_proceed(cx) {
            Poll::Ready(budget) => budget,
            Poll::Pending => return flush_and_yield(&mut self.need_flush, writer.as_mut(), cx),
        };
        loop {
            let units_before = coop::remaining_budget();
            if self.pos == self.cap && !self.read_done {
                // The last read filled the buffer, and all of it is
                // written: the reader keeps up with a larger one.
                if self.cap == self.buf.len() && self.cap < self.grow_limit {
                    self.grow();
                }
                let mut buf = ReadBuf::new(&mut self.buf);
                match reader.as_mut().poll_read(cx, &mut buf) {
                    Poll::Ready(Ok(())) => {}
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => {
                        return flush_and_yield(&mut self.need_flush, writer.as_mut(), cx)
                    }
                }
                let n = buf.filled().len();
                if n == 0 {
                    self.read_done = true;
                } else {
                    self.pos = 0;
                    self.cap = n;
                }
                budget.made_progress();
            }
            while self.pos < self.cap {
                let n = ready!(writer
                    .as_mut()
                    .poll_write(cx, &self.buf[self.pos..self.cap]))?;
                if n == 0 {
                    return Poll::Ready(Err(write_zero_into_writer()));
                }
                self.pos += n.min(self.cap - self.pos);
                self.amount += n as u64;
                self.need_flush = true;
                budget.made_progress();
            }
            if self.pos == self.cap && self.read_done {
                ready!(writer.as_mut().poll_flush(cx))?;
                self.need_flush = false;
                return Poll::Ready(Ok(self.amount));
            }
            ready!(end_round(
                units_before,
                &mut self.need_flush,
                writer.as_mut(),
                cx
            ))?;
        }
    }
}

/// The reader (or the task's budget) is not ready: flushes what was
/// written since the last flush, so that whoever waits on those bytes (it
/// may be the very peer that feeds the reader) is not kept waiting on the
/// writer's buffer, and then yields.
fn flush_and_yield<W, T>(
    need_flush: &mut bool,
    writer: Pin<&mut W>,
    cx: &mut Context<'_>,
) -> Poll<io::Result<T>>
where
    W: AsyncWrite + ?Sized,
{
    if *need_flush {
        ready!(writer.poll_flush(cx))?;
        *need_flush = false;
    }
    Poll::Pending
}

/// Ends one round (a read and its writes) of a copy loop. A round in which
/// neither the reader nor the writer spent budget (in-memory streams, always
/// ready) spends a unit here, so that an endless copy between them still
/// yields; sockets spend a unit on every read and write, and their rounds
/// pay nothing more, as in tokio, whose copy spends one unit per poll. Once
/// the budget is spent: flushes, then `Pending`.
#[inline]
fn end_round<W>(
    units_before: Option<u32>,
    need_flush: &mut bool,
    writer: Pin<&mut W>,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>>
where
    W: AsyncWrite + ?Sized,
{
    // Without a budget (outside a runtime, or unconstrained) there is
    // nothing to charge.
    if units_before.is_none() || coop::remaining_budget() != units_before {
        return Poll::Ready(Ok(()));
    }
    charge_round(need_flush, writer, cx)
}

/// The unit of a round that spent none, with the flush before yielding,
/// out of line: the socket copies that matter for speed never get here,
/// and keeping both out of the loop leaves room for the reader's
/// `poll_read` to be inlined there.
#[cold]
#[inline(never)]
fn charge_round<W>(
    need_flush: &mut bool,
    writer: Pin<&mut W>,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>>
where
    W: AsyncWrite + ?Sized,
{
    match poll_spend_budget(cx) {
        Poll::Ready(()) => Poll::Ready(Ok(())),
        Poll::Pending => flush_and_yield(need_flush, writer, cx),
    }
}

/// Copies everything `reader` yields into `writer`, then flushes `writer`;
/// returns the number of bytes copied.
///
/// The bytes pass through a buffer of 8 KiB that grows to 16 KiB once a
/// read fills it (a reader that has more to give than the buffer takes).
/// For a buffer of another size, wrap the reader in a
/// [`BufReader`](crate::io::BufReader) of that capacity and call
/// [`copy_buf`].
///
/// Interrupted reads and writes are retried; any other error ends the copy
/// at once, and bytes read but not yet written are lost.
///
/// ```
/// # use std::future::Future;
/// # struct Noop;
/// # impl std::task::Wake for Noop { fn wake(self: std::sync::Arc<Self>) {} }
/// # let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
/// # let mut cx = std::task::Context::from_waker(&waker);
/// let mut source: &[u8] = b"hello";
/// let mut target = Vec::new();
/// {
///     let copy = std::pin::pin!(rt_io::io::copy(&mut source, &mut target));
///     assert!(matches!(copy.poll(&mut cx), std::task::Poll::Ready(Ok(5))));
/// }
/// assert_eq!(target, b"hello");
/// ```
pub async fn copy<'a, R, W>(reader: &'a mut R, writer: &'a mut W) -> io::Result<u64>
where
    R: AsyncRead + Unpin + ?Sized,
    W: AsyncWrite + Unpin + ?Sized,
{
    let mut buffer = CopyBuffer::growing();
    std::future::poll_fn(|cx| {
        retry_interrupted(
            buffer.poll_copy(cx, Pin::new(&mut *reader), Pin::new(&mut *writer)),
            cx,
        )
    })
    .await
}

/// Turns an `Interrupted` error into a retry (after a self wake-up).
pub(crate) fn retry_interrupted<T>(
    poll: Poll<io::Result<T>>,
    cx: &mut Context<'_>,
) -> Poll<io::Result<T>> {
    match poll {
        Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {
            cx.waker().wake_by_ref();
            Poll::Pending
        }
        other => other,
    }
}

/// Copies everything a buffered `reader` yields into `writer`, writing
/// straight from the reader's buffer, then flushes `writer`; returns the
/// number of bytes copied.
///
/// Whenever the reader is not ready, what was written since the last flush
/// is flushed first, so a reader fed by the writer's own peer cannot wait
/// forever on bytes sitting in the writer's buffer.
pub async fn copy_buf<'a, R, W>(reader: &'a mut R, writer: &'a mut W) -> io::Result<u64>
where
    R: AsyncBufRead + Unpin + ?Sized,
    W: AsyncWrite + Unpin + ?Sized,
{
    let mut amount = 0u64;
    let mut need_flush = false;
    std::future::poll_fn(|cx| {
        // One unit for this poll, as in `CopyBuffer::poll_copy`.
        let Poll::Ready(budget) = coop::poll_proceed(cx) else {
            return flush_and_yield(&mut need_flush, Pin::new(&mut *writer), cx);
        };
        loop {
            let mut reader = Pin::new(&mut *reader);
            let mut writer = Pin::new(&mut *writer);
            let units_before = coop::remaining_budget();
            let chunk = match retry_interrupted(reader.as_mut().poll_fill_buf(cx), cx) {
                Poll::Ready(chunk) => chunk?,
                Poll::Pending => return flush_and_yield(&mut need_flush, writer, cx),
            };
            if chunk.is_empty() {
                ready!(writer.poll_flush(cx))?;
                return Poll::Ready(Ok(amount));
            }
            let n = ready!(retry_interrupted(writer.as_mut().poll_write(cx, chunk), cx))?;
            if n == 0 {
                return Poll::Ready(Err(write_zero_into_writer()));
            }
            let n = n.min(chunk.len());
            reader.consume(n);
            amount += n as u64;
            need_flush = true;
            budget.made_progress();
            ready!(end_round(units_before, &mut need_flush, writer, cx))?;
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::task::{Wake, Waker};

    /// A reader of `total` bytes that gives at most `chunk` per read and
    /// notes the room each read was offered.
    struct NotingReader {
        left: usize,
        chunk: usize,
        offered: Vec<usize>,
    }

    impl AsyncRead for NotingReader {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            self.offered.push(buf.remaining());
            let n = buf.remaining().min(self.chunk).min(self.left);
            buf.put_slice(&vec![1; n]);
            self.left -= n;
            Poll::Ready(Ok(()))
        }
    }

    struct NoWake;

    impl Wake for NoWake {
        fn wake(self: Arc<Self>) {}
    }

    /// Runs `buffer` over a reader of `total` bytes in chunks of `chunk`
    /// into a vector; returns the room each read was offered.
    fn offered_room(mut buffer: CopyBuffer, total: usize, chunk: usize) -> Vec<usize> {
        let mut reader = NotingReader {
            left: total,
            chunk,
            offered: Vec::new(),
        };
        let mut sink = Vec::new();
        let waker = Waker::from(Arc::new(NoWake));
        let mut cx = Context::from_waker(&waker);
        let copied = buffer.poll_copy(&mut cx, Pin::new(&mut reader), Pin::new(&mut sink));
        assert!(matches!(copied, Poll::Ready(Ok(n)) if n == total as u64));
        assert_eq!(sink.len(), total);
        reader.offered
    }

    #[test]
    fn a_buffer_that_a_read_fills_grows_once() {
        let offered = offered_room(CopyBuffer::growing(), 100_000, usize::MAX);
        assert_eq!(offered[0], DEFAULT_BUF_SIZE);
        assert!(offered[1..].iter().all(|&room| room == GROWN_BUF_SIZE));
    }

    #[test]
    fn a_buffer_that_reads_never_fill_keeps_its_size() {
        let offered = offered_room(CopyBuffer::growing(), 100_000, 1500);
        assert!(offered.iter().all(|&room| room == DEFAULT_BUF_SIZE));
    }

    #[test]
    fn a_buffer_of_a_chosen_size_never_grows() {
        let offered = offered_room(CopyBuffer::with_size(4096), 100_000, usize::MAX);
        assert!(offered.iter().all(|&room| room == 4096));
    }
}
