//! `Blocking<T>`: a blocking std reader or writer driven from async code by
//! moving it, with one buffer, to the runtime's blocking pool for each call.
//!
//! One call runs at a time. A read fills the buffer on the pool and then
//! serves the caller from it; a write copies the caller's bytes into the
//! buffer, reports them accepted at once, and writes them on the pool, so
//! its failure is reported by the next write or flush.

use crate::io::ReadBuf;
use rt_core::task::JoinHandle;
use std::future::Future;
use std::io::{self, Read, Write};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// The most bytes one call moves, so that one large write cannot make the
/// buffer grow without bound.
const MAX_BUF: usize = 2 * 1024 * 1024;

/// The value and its buffer; `pos` is how far a read has served `bytes`.
#[derive(Debug)]
struct Parts<T> {
    inner: T,
    bytes: Vec<u8>,
    pos: usize,
}

/// What a call on the pool gives back.
type Done<T> = (Parts<T>, io::Result<usize>);

#[derive(Debug)]
enum State<T> {
    /// `None` only between taking the parts and handing them to the pool.
    Idle(Option<Parts<T>>),
    Busy(JoinHandle<Done<T>>),
}

/// A blocking reader or writer used through the blocking pool.
#[derive(Debug)]
pub(crate) struct Blocking<T> {
    state: State<T>,
    /// A write reached the value since its last flush.
    dirty: bool,
}

impl<T: Send + 'static> Blocking<T> {
    pub(crate) fn new(inner: T) -> Blocking<T> {
        Blocking {
            state: State::Idle(Some(Parts {
                inner,
                bytes: Vec::new(),
                pos: 0,
            })),
            dirty: false,
        }
    }

    /// Waits for the call in flight; its result is returned and the parts
    /// are back in `Idle`.
    fn poll_settle(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        match &mut self.state {
            State::Idle(_) => Poll::Ready(Ok(0)),
            State::Busy(handle) => {
                let done = ready!(Pin::new(handle).poll(cx));
                match done {
                    Ok((parts, result)) => {
                        self.state = State::Idle(Some(parts));
                        Poll::Ready(result)
                    }
                    Err(e) => {
                        // The value went down with the task; every later
                        // call fails the same way.
                        self.state = State::Idle(None);
                        Poll::Ready(Err(if e.is_cancelled() {
                            rt_core::runtime::shutdown_error()
                        } else {
                            lost()
                        }))
                    }
                }
            }
        }
    }

    /// Takes the idle parts, or fails if a failed pool task lost them.
    fn take_parts(&mut self) -> io::Result<Parts<T>> {
        match &mut self.state {
            State::Idle(parts) => parts.take().ok_or_else(lost),
            State::Busy(_) => unreachable!("settled before taking the parts"),
        }
    }

    fn start(
        &mut self,
        parts: Parts<T>,
        call: impl FnOnce(&mut Parts<T>) -> io::Result<usize> + Send + 'static,
    ) {
        self.state = State::Busy(rt_core::task::spawn_blocking(move || {
            let mut parts = parts;
            let result = call(&mut parts);
            (parts, result)
        }));
    }
}

impl<T: Read + Send + 'static> Blocking<T> {
    pub(crate) fn poll_read(
        &mut self,
        cx: &mut Context<'_>,
        dst: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        ready!(self.poll_settle(cx))?;
        let mut parts = self.take_parts()?;
        if parts.pos < parts.bytes.len() || dst.remaining() == 0 {
            let n = (parts.bytes.len() - parts.pos).min(dst.remaining());
            dst.put_slice(&parts.bytes[parts.pos..parts.pos + n]);
            parts.pos += n;
            self.state = State::Idle(Some(parts));
            return Poll::Ready(Ok(()));
        }
        let len = dst.remaining().min(MAX_BUF);
        self.start(parts, move |parts| {
            parts.bytes.resize(len, 0);
            parts.pos = 0;
            let result = loop {
                match parts.inner.read(&mut parts.bytes) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => break other,
                }
            };
            parts.bytes.truncate(*result.as_ref().unwrap_or(&0));
            result
        });
        // Serve the bytes read (or end of file) once the call is back.
        ready!(self.poll_settle(cx))?;
        let mut parts = self.take_parts()?;
        let n = parts.bytes.len().min(dst.remaining());
        dst.put_slice(&parts.bytes[..n]);
        parts.pos = n;
        self.state = State::Idle(Some(parts));
        Poll::Ready(Ok(()))
    }
}

impl<T: Write + Send + 'static> Blocking<T> {
    pub(crate) fn poll_write(
        &mut self,
        cx: &mut Context<'_>,
        src: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_settle(cx))?;
        let mut parts = self.take_parts()?;
        let n = src.len().min(MAX_BUF);
        parts.bytes.clear();
        parts.bytes.extend_from_slice(&src[..n]);
        self.dirty = true;
        self.start(parts, move |parts| {
            let result = parts.inner.write_all(&parts.bytes).map(|()| n);
            parts.bytes.clear();
            result
        });
        // A runtime that shut down cancels the call before it starts: say
        // so now rather than accept bytes that will never be written.
        // (Pending here, for lack of coop budget, leaves the call in flight:
        // the bytes are accepted either way and must not be written twice.)
        if matches!(&self.state, State::Busy(handle) if handle.is_finished()) {
            if let Poll::Ready(Err(e)) = self.poll_settle(cx) {
                return Poll::Ready(Err(e));
            }
        }
        Poll::Ready(Ok(n))
    }

    pub(crate) fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_settle(cx))?;
        if !self.dirty {
            return Poll::Ready(Ok(()));
        }
        let parts = self.take_parts()?;
        self.dirty = false;
        self.start(parts, |parts| parts.inner.flush().map(|()| 0));
        ready!(self.poll_settle(cx))?;
        Poll::Ready(Ok(()))
    }
}

fn lost() -> io::Error {
    io::Error::other(
        "the blocking standard stream call did not complete: the runtime shut down or the call panicked",
    )
}
