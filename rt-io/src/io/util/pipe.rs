//! `Pipe`: one direction of an in-memory byte stream, shared by
//! `DuplexStream` (two of them behind mutexes) and `SimplexStream` (one,
//! owned).
//!
//! The pipe never wakes anyone itself: an operation that frees room or
//! brings bytes takes the other side's waker out and hands it back as
//! [`Wakeups`]. A duplex end wakes them only after it has released the
//! pipe's lock, so the woken task, which may already be running on another
//! worker, does not find the lock still held and block on it.
//!
//! Nor does the pipe drop a waker it replaces: that waker goes out in the
//! `Wakeups` too and is dropped with them. Dropping a waker runs foreign
//! code, and a waker may own the peer end, whose drop locks this very pipe
//! to close it; dropped under the lock, it would deadlock.

use crate::io::ReadBuf;
use bytes::{Buf, BytesMut};
use std::io;
use std::task::{Context, Poll, Waker};

/// Wakers taken out of a pipe, to be woken (or, for a replaced one,
/// dropped) once the caller no longer holds the pipe (for a duplex end,
/// after dropping the lock guard).
#[must_use = "the taken wakers are lost unless woken"]
#[derive(Debug, Default)]
pub(crate) struct Wakeups {
    reader: Option<Waker>,
    writer: Option<Waker>,
    /// The waker a newly parked one replaced: dropped, not woken.
    replaced: Option<Waker>,
}

impl Wakeups {
    /// Wakes the taken wakers, the reader first, and drops the replaced
    /// one.
    pub(crate) fn wake(self) {
        if let Some(reader) = self.reader {
            reader.wake();
        }
        if let Some(writer) = self.writer {
            writer.wake();
        }
        drop(self.replaced);
    }
}

/// Stores `cx`'s waker in `slot`, keeping the one there if it would wake
/// the same task (a task polling again need not clone its waker again).
/// Returns the waker it replaced, for the caller to drop after unlocking.
fn park(slot: &mut Option<Waker>, cx: &Context<'_>) -> Option<Waker> {
    match slot {
        Some(waker) if waker.will_wake(cx.waker()) => None,
        _ => slot.replace(cx.waker().clone()),
    }
}

/// One direction: bytes in flight and who waits on them.
#[derive(Debug)]
pub(crate) struct Pipe {
    buffer: BytesMut,
    max_buf_size: usize,
    /// The writer shut down, or (in a duplex) one of the ends was dropped.
    closed: bool,
    read_waker: Option<Waker>,
    write_waker: Option<Waker>,
}

impl Pipe {
    pub(crate) fn new(max_buf_size: usize) -> Pipe {
        Pipe {
            buffer: BytesMut::new(),
            max_buf_size,
            closed: false,
            read_waker: None,
            write_waker: None,
        }
    }

    /// Ends the stream: the reader gets end of stream once the buffer is
    /// drained, writers get `BrokenPipe`. Returns both sides' wakers.
    pub(crate) fn close(&mut self) -> Wakeups {
        self.closed = true;
        Wakeups {
            reader: self.read_waker.take(),
            writer: self.write_waker.take(),
            replaced: None,
        }
    }

    /// Reads what is buffered into `buf`, or parks `cx`'s waker when there
    /// is nothing yet. Returns the writer's waker when room was made.
    pub(crate) fn poll_read(
        &mut self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> (Poll<io::Result<()>>, Wakeups) {
        let mut wakeups = Wakeups::default();
        if buf.remaining() == 0 {
            // Nothing asked for: done at once, as std's readers are.
            return (Poll::Ready(Ok(())), wakeups);
        }
        if self.buffer.has_remaining() {
            let n = self.buffer.len().min(buf.remaining());
            buf.put_slice(&self.buffer[..n]);
            self.buffer.advance(n);
            if n > 0 {
                wakeups.writer = self.write_waker.take();
            }
            (Poll::Ready(Ok(())), wakeups)
        } else if self.closed {
            (Poll::Ready(Ok(())), wakeups)
        } else {
            wakeups.replaced = park(&mut self.read_waker, cx);
            (Poll::Pending, wakeups)
        }
    }

    /// Buffers as much of `data` as fits, or parks `cx`'s waker when the
    /// buffer is full. Returns the reader's waker when bytes were added.
    pub(crate) fn poll_write(
        &mut self,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> (Poll<io::Result<usize>>, Wakeups) {
        self.poll_write_vectored(cx, &[io::IoSlice::new(data)])
    }

    /// Buffers as much of `bufs`, in order, as fits; as
    /// [`poll_write`](Self::poll_write) otherwise. Writing nothing
    /// succeeds at once unless the pipe is closed.
    pub(crate) fn poll_write_vectored(
        &mut self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> (Poll<io::Result<usize>>, Wakeups) {
        let mut wakeups = Wakeups::default();
        if self.closed {
            let broken = Err(io::ErrorKind::BrokenPipe.into());
            return (Poll::Ready(broken), wakeups);
        }
        if bufs.iter().all(|b| b.is_empty()) {
            return (Poll::Ready(Ok(0)), wakeups);
        }
        let room = self.max_buf_size - self.buffer.len();
        if room == 0 {
            wakeups.replaced = park(&mut self.write_waker, cx);
            return (Poll::Pending, wakeups);
        }
        let mut n = 0;
        for buf in bufs {
            let take = (room - n).min(buf.len());
            self.buffer.extend_from_slice(&buf[..take]);
            n += take;
            if n == room {
                break;
            }
        }
        if n > 0 {
            wakeups.reader = self.read_waker.take();
        }
        (Poll::Ready(Ok(n)), wakeups)
    }
}
