//! `PollEvented`: a mio I/O source together with its registration, the
//! building block of every socket type.

use super::ready::Interest;
use super::registration::Registration;
use super::scheduled_io::Direction;
use crate::net::socket_io::SocketSource;
use std::io::{self, Write};
use std::mem::MaybeUninit;
use std::ops::Deref;
use std::task::{Context, Poll};

/// A mio source registered with the current runtime's reactor. Dropping it
/// deregisters the source before closing it.
#[derive(Debug)]
pub(crate) struct PollEvented<E: mio::event::Source> {
    io: Option<E>,
    registration: Registration,
}

impl<E: mio::event::Source> PollEvented<E> {
    /// Registers `io` for reads and writes.
    #[track_caller]
    pub(crate) fn new(io: E) -> io::Result<Self> {
        PollEvented::new_with_interest(io, Interest::READABLE | Interest::WRITABLE)
    }

    /// Registers `io` for `interest`.
    #[track_caller]
    pub(crate) fn new_with_interest(mut io: E, interest: Interest) -> io::Result<Self> {
        let registration = Registration::new(&mut io, interest)?;
        Ok(PollEvented {
            io: Some(io),
            registration,
        })
    }

    pub(crate) fn registration(&self) -> &Registration {
        &self.registration
    }

    /// Deregisters and returns the source.
    pub(crate) fn into_inner(mut self) -> io::Result<E> {
        let mut io = self.io.take().expect("source present until drop");
        self.registration.deregister(&mut io)?;
        Ok(io)
    }
}

impl<E: mio::event::Source> PollEvented<E>
where
    for<'a> &'a E: Write,
{
    /// Writes from `buf` once writable. A partial write means the send
    /// buffer is full, so the next write waits for writable readiness.
    #[inline]
    pub(crate) fn poll_write(&self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let io = self.io.as_ref().expect("source present until drop");
        self.registration
            .poll_transfer_io(cx, Direction::Write, buf.len(), || (&*io).write(buf))
    }

    /// Vectored write once writable. A partial vectored write does not
    /// prove the buffer full (the kernel takes at most `IOV_MAX` slices per
    /// call), so only `WouldBlock` clears readiness here.
    pub(crate) fn poll_write_vectored(
        &self,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let io = self.io.as_ref().expect("source present until drop");
        self.registration
            .poll_io(cx, Direction::Write, || (&*io).write_vectored(bufs))
    }
}

impl<E: mio::event::Source> Deref for PollEvented<E> {
    type Target = E;

    fn deref(&self) -> &E {
        self.io.as_ref().expect("source present until drop")
    }
}

impl<E: mio::event::Source> Drop for PollEvented<E> {
    fn drop(&mut self) {
        if let Some(mut io) = self.io.take() {
            // The OS forgets the fd when it closes anyway; an error here
            // changes nothing for the caller.
            let _ = self.registration.deregister(&mut io);
            drop(io);
        }
    }
}

impl<E: SocketSource> PollEvented<E> {
    /// Receives into `buf`, initialised or not, once readable; for socket
    /// sources only (it is `recv(2)`). The kernel writes straight into it:
    /// a reader that hands over uninitialised memory (hyper's and
    /// tokio-util's 8 KiB read buffers) does not pay for zeroing it first
    /// on every read.
    #[inline]
    pub(crate) fn poll_recv_uninit(
        &self,
        cx: &mut Context<'_>,
        buf: &mut [MaybeUninit<u8>],
    ) -> Poll<io::Result<usize>> {
        let source = self.io.as_ref().expect("source present until drop");
        let fd = source.as_raw();
        let len = buf.len();
        self.registration
            .poll_transfer_io(cx, Direction::Read, len, || {
                source.sys_call(|| crate::sys::recv_uninit(fd, &mut *buf))
            })
    }
}
