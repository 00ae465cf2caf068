//! `AsyncFd`: readiness for any file descriptor the caller owns, for
//! types the reactor has no dedicated socket type for.
//!
//! The caller does the I/O; `AsyncFd` only says when to try. A guard holds
//! the readiness event the wait returned: clear it after a `WouldBlock`
//! (so the next wait blocks until a new event), retain it otherwise.

use crate::reactor::{Interest, Ready, ReadyEvent, Registration};
use std::error::Error;
use std::fmt;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::task::{ready, Context, Poll};

/// An owned file descriptor registered with the reactor.
///
/// The descriptor must be in non-blocking mode. It is deregistered (not
/// closed) when the `AsyncFd` drops or [`into_inner`](Self::into_inner)
/// is called; closing is the inner value's business.
///
/// ```
/// use rt_io::net::unix::AsyncFd;
/// use std::io::{Read, Write};
/// use std::os::unix::net::UnixStream;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let (a, mut b) = UnixStream::pair()?;
/// a.set_nonblocking(true)?;
/// // SAFETY: `fd` owns `a`, which stays open until it drops.
/// let fd = unsafe { AsyncFd::register(a) }?;
/// b.write_all(b"hi")?;
/// let mut buf = [0; 2];
/// loop {
///     let mut guard = fd.readable().await?;
///     match guard.try_io(|inner| inner.get_ref().read(&mut buf)) {
///         Ok(n) => break assert_eq!(n?, 2),
///         Err(_would_block) => continue,
///     }
/// }
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
pub struct AsyncFd<T: AsRawFd> {
    registration: Registration,
    inner: Option<T>,
}

/// A readiness event of an [`AsyncFd`] borrowed immutably.
#[must_use = "dropping the guard keeps the readiness; call `clear_ready` after `WouldBlock`"]
pub struct AsyncFdReadyGuard<'a, T: AsRawFd> {
    async_fd: &'a AsyncFd<T>,
    event: Option<ReadyEvent>,
}

/// A readiness event of an [`AsyncFd`] borrowed mutably.
#[must_use = "dropping the guard keeps the readiness; call `clear_ready` after `WouldBlock`"]
pub struct AsyncFdReadyMutGuard<'a, T: AsRawFd> {
    async_fd: &'a mut AsyncFd<T>,
    event: Option<ReadyEvent>,
}

/// The error of a guard's `try_io` whose operation would have blocked; the
/// readiness has been cleared.
#[derive(Debug)]
pub struct TryIoError(());

impl fmt::Display for TryIoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the operation would block; readiness was cleared")
    }
}

impl Error for TryIoError {}

/// The error of [`AsyncFd::register`] and
/// [`AsyncFd::register_with_interest`]: the registration error together
/// with the value that could not be registered.
pub struct AsyncFdRegisterError<T> {
    inner: T,
    cause: io::Error,
}

/// The former name of [`AsyncFdRegisterError`].
#[doc(hidden)]
#[deprecated(note = "use `AsyncFdRegisterError` instead")]
pub type AsyncFdTryNewError<T> = AsyncFdRegisterError<T>;

impl<T> AsyncFdRegisterError<T> {
    /// The value and the error.
    pub fn into_parts(self) -> (T, io::Error) {
        (self.inner, self.cause)
    }
}

impl<T> fmt::Display for AsyncFdRegisterError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.cause, f)
    }
}

impl<T> fmt::Debug for AsyncFdRegisterError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.cause, f)
    }
}

impl<T> Error for AsyncFdRegisterError<T> {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.cause)
    }
}

impl<T> From<AsyncFdRegisterError<T>> for io::Error {
    fn from(err: AsyncFdRegisterError<T>) -> io::Error {
        err.cause
    }
}

impl<T: AsRawFd> AsyncFd<T> {
    /// Registers `inner` for readable and writable events; on failure the
    /// error gives `inner` back.
    ///
    /// # Safety
    ///
    /// `inner.as_raw_fd()` must be an open descriptor and keep naming the
    /// same open file description until the `AsyncFd` is dropped, forgotten
    /// or [`into_inner`](Self::into_inner) is called: the reactor keys its
    /// registration on the number, and a number closed and reused behind
    /// its back would route another file's events here.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub unsafe fn register(inner: T) -> Result<AsyncFd<T>, AsyncFdRegisterError<T>> {
        // SAFETY: the caller upholds `register_with_interest`'s contract,
        // which is this function's.
        unsafe { AsyncFd::register_with_interest(inner, Interest::READABLE | Interest::WRITABLE) }
    }

    /// Registers `inner` for `interest`; on failure the error gives `inner`
    /// back.
    ///
    /// # Safety
    ///
    /// As for [`register`](Self::register).
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub unsafe fn register_with_interest(
        inner: T,
        interest: Interest,
    ) -> Result<AsyncFd<T>, AsyncFdRegisterError<T>> {
        let fd = inner.as_raw_fd();
        match Registration::new(&mut mio::unix::SourceFd(&fd), interest) {
            Ok(registration) => Ok(AsyncFd {
                registration,
                inner: Some(inner),
            }),
            Err(cause) => Err(AsyncFdRegisterError { inner, cause }),
        }
    }

    /// Registers `inner` for readable and writable events. Prefer
    /// [`register`](Self::register), whose contract states what this one
    /// silently assumes.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    #[deprecated(note = "lacks I/O safety; use the unsafe `AsyncFd::register` instead")]
    pub fn new(inner: T) -> io::Result<AsyncFd<T>> {
        // SAFETY: not checked; the function is deprecated for this reason,
        // as it is in tokio.
        Ok(unsafe { AsyncFd::register(inner) }?)
    }

    /// Registers `inner` for `interest`. Prefer
    /// [`register_with_interest`](Self::register_with_interest).
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    #[deprecated(
        note = "lacks I/O safety; use the unsafe `AsyncFd::register_with_interest` instead"
    )]
    pub fn with_interest(inner: T, interest: Interest) -> io::Result<AsyncFd<T>> {
        // SAFETY: not checked; deprecated for this reason.
        Ok(unsafe { AsyncFd::register_with_interest(inner, interest) }?)
    }

    /// Like [`new`](Self::new), but gives `inner` back on failure. Prefer
    /// [`register`](Self::register).
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    #[deprecated(note = "lacks I/O safety; use the unsafe `AsyncFd::register` instead")]
    pub fn try_new(inner: T) -> Result<AsyncFd<T>, AsyncFdRegisterError<T>> {
        // SAFETY: not checked; deprecated for this reason.
        unsafe { AsyncFd::register(inner) }
    }

    /// Like [`with_interest`](Self::with_interest), but gives `inner` back
    /// on failure. Prefer
    /// [`register_with_interest`](Self::register_with_interest).
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    #[deprecated(
        note = "lacks I/O safety; use the unsafe `AsyncFd::register_with_interest` instead"
    )]
    pub fn try_with_interest(
        inner: T,
        interest: Interest,
    ) -> Result<AsyncFd<T>, AsyncFdRegisterError<T>> {
        // SAFETY: not checked; deprecated for this reason.
        unsafe { AsyncFd::register_with_interest(inner, interest) }
    }

    /// The inner value.
    pub fn get_ref(&self) -> &T {
        self.inner.as_ref().expect("inner present until drop")
    }

    /// The inner value, mutably.
    pub fn get_mut(&mut self) -> &mut T {
        self.inner.as_mut().expect("inner present until drop")
    }

    /// Deregisters and returns the inner value.
    pub fn into_inner(mut self) -> T {
        self.take_inner().expect("inner present until drop")
    }

    fn take_inner(&mut self) -> Option<T> {
        let inner = self.inner.take()?;
        let fd = inner.as_raw_fd();
        // A descriptor closed behind our back is already out of epoll.
        let _ = self.registration.deregister(&mut mio::unix::SourceFd(&fd));
        Some(inner)
    }

    /// Polls for read readiness.
    pub fn poll_read_ready<'a>(
        &'a self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<AsyncFdReadyGuard<'a, T>>> {
        let event = ready!(self.registration.poll_read_ready(cx))?;
        Poll::Ready(Ok(AsyncFdReadyGuard {
            async_fd: self,
            event: Some(event),
        }))
    }

    /// Polls for write readiness.
    pub fn poll_write_ready<'a>(
        &'a self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<AsyncFdReadyGuard<'a, T>>> {
        let event = ready!(self.registration.poll_write_ready(cx))?;
        Poll::Ready(Ok(AsyncFdReadyGuard {
            async_fd: self,
            event: Some(event),
        }))
    }

    /// Polls for read readiness, with mutable access to the inner value.
    pub fn poll_read_ready_mut<'a>(
        &'a mut self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<AsyncFdReadyMutGuard<'a, T>>> {
        let event = ready!(self.registration.poll_read_ready(cx))?;
        Poll::Ready(Ok(AsyncFdReadyMutGuard {
            async_fd: self,
            event: Some(event),
        }))
    }

    /// Polls for write readiness, with mutable access to the inner value.
    pub fn poll_write_ready_mut<'a>(
        &'a mut self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<AsyncFdReadyMutGuard<'a, T>>> {
        let event = ready!(self.registration.poll_write_ready(cx))?;
        Poll::Ready(Ok(AsyncFdReadyMutGuard {
            async_fd: self,
            event: Some(event),
        }))
    }

    /// Waits for `interest`.
    pub async fn ready(&self, interest: Interest) -> io::Result<AsyncFdReadyGuard<'_, T>> {
        let event = self.registration.readiness(interest).await?;
        Ok(AsyncFdReadyGuard {
            async_fd: self,
            event: Some(event),
        })
    }

    /// Waits for `interest`, with mutable access to the inner value.
    pub async fn ready_mut(
        &mut self,
        interest: Interest,
    ) -> io::Result<AsyncFdReadyMutGuard<'_, T>> {
        let event = self.registration.readiness(interest).await?;
        Ok(AsyncFdReadyMutGuard {
            async_fd: self,
            event: Some(event),
        })
    }

    /// Waits until readable.
    pub async fn readable(&self) -> io::Result<AsyncFdReadyGuard<'_, T>> {
        self.ready(Interest::READABLE).await
    }

    /// Waits until readable, with mutable access to the inner value.
    pub async fn readable_mut(&mut self) -> io::Result<AsyncFdReadyMutGuard<'_, T>> {
        self.ready_mut(Interest::READABLE).await
    }

    /// Waits until writable.
    pub async fn writable(&self) -> io::Result<AsyncFdReadyGuard<'_, T>> {
        self.ready(Interest::WRITABLE).await
    }

    /// Waits until writable, with mutable access to the inner value.
    pub async fn writable_mut(&mut self) -> io::Result<AsyncFdReadyMutGuard<'_, T>> {
        self.ready_mut(Interest::WRITABLE).await
    }

    /// Waits for `interest` and runs `f`, again after each `WouldBlock`.
    pub async fn async_io<R>(
        &self,
        interest: Interest,
        mut f: impl FnMut(&T) -> io::Result<R>,
    ) -> io::Result<R> {
        let inner = self.get_ref();
        self.registration.async_io(interest, || f(inner)).await
    }

    /// Runs `f` once if the descriptor looks ready for `interest`, clearing
    /// the readiness if it returns `WouldBlock`.
    pub fn try_io<R>(
        &self,
        interest: Interest,
        f: impl FnOnce(&T) -> io::Result<R>,
    ) -> io::Result<R> {
        self.registration.try_io(interest, || f(self.get_ref()))
    }

    /// [`async_io`](Self::async_io) with mutable access to the inner value.
    pub async fn async_io_mut<R>(
        &mut self,
        interest: Interest,
        mut f: impl FnMut(&mut T) -> io::Result<R>,
    ) -> io::Result<R> {
        let inner = self.inner.as_mut().expect("inner present until drop");
        self.registration.async_io(interest, || f(inner)).await
    }

    /// [`try_io`](Self::try_io) with mutable access to the inner value.
    pub fn try_io_mut<R>(
        &mut self,
        interest: Interest,
        f: impl FnOnce(&mut T) -> io::Result<R>,
    ) -> io::Result<R> {
        let inner = self.inner.as_mut().expect("inner present until drop");
        self.registration.try_io(interest, || f(inner))
    }
}

impl<T: AsRawFd> AsRawFd for AsyncFd<T> {
    fn as_raw_fd(&self) -> RawFd {
        self.get_ref().as_raw_fd()
    }
}

impl<T: AsRawFd + fmt::Debug> fmt::Debug for AsyncFd<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncFd")
            .field("inner", &self.inner)
            .finish()
    }
}

impl<T: AsRawFd> Drop for AsyncFd<T> {
    fn drop(&mut self) {
        drop(self.take_inner());
    }
}

/// Clears `event`'s readiness, restricted to `ready`. Naming read or write
/// readiness also clears an error that ended the wait: the read or write
/// that would block has seen no pending error, and leaving the bit would
/// make the next wait return at once.
fn clear_matching(
    registration: &Registration,
    event: ReadyEvent,
    ready: Ready,
) -> Option<ReadyEvent> {
    let matching = event.ready - (event.ready - ready.clear_mask());
    registration.clear_readiness(ReadyEvent {
        ready: matching,
        ..event
    });
    // The guard keeps (and reports) only what was not cleared.
    let left = event.ready - matching;
    (!left.is_empty()).then_some(ReadyEvent {
        ready: left,
        ..event
    })
}

impl<'a, T: AsRawFd> AsyncFdReadyGuard<'a, T> {
    /// Clears the readiness this guard holds: the next wait blocks until a
    /// new event. Call it after the descriptor returned `WouldBlock`.
    pub fn clear_ready(&mut self) {
        if let Some(event) = self.event.take() {
            self.async_fd.registration.clear_readiness(event);
        }
    }

    /// Clears only the `ready` part of the readiness this guard holds.
    /// Clearing read or write readiness (`Ready::READABLE`,
    /// `Ready::WRITABLE`) also clears a pending error that ended the wait;
    /// `Ready::ERROR` from a wait for [`Interest::ERROR`] is cleared only by
    /// naming it.
    pub fn clear_ready_matching(&mut self, ready: Ready) {
        if let Some(event) = self.event {
            self.event = clear_matching(&self.async_fd.registration, event, ready);
        }
    }

    /// Keeps the readiness: the next wait returns at once.
    pub fn retain_ready(&mut self) {
        self.event = None;
    }

    /// The readiness this guard holds. A pending error ends waits for
    /// reading and writing: the readiness is then `is_error`, `is_readable`
    /// and `is_writable` (the I/O returns the error).
    pub fn ready(&self) -> Ready {
        self.event.map_or(Ready::EMPTY, |e| e.ready)
    }

    /// Runs `f`; on `WouldBlock`, clears the readiness and returns
    /// `Err(TryIoError)` so the caller waits again.
    pub fn try_io<R>(
        &mut self,
        f: impl FnOnce(&'a AsyncFd<T>) -> io::Result<R>,
    ) -> Result<io::Result<R>, TryIoError> {
        match f(self.async_fd) {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                self.clear_ready();
                Err(TryIoError(()))
            }
            other => Ok(other),
        }
    }

    /// The `AsyncFd` this guard belongs to.
    pub fn get_ref(&self) -> &'a AsyncFd<T> {
        self.async_fd
    }

    /// The inner value.
    pub fn get_inner(&self) -> &'a T {
        self.async_fd.get_ref()
    }
}

impl<T: AsRawFd> AsyncFdReadyMutGuard<'_, T> {
    /// Clears the readiness this guard holds; see
    /// [`AsyncFdReadyGuard::clear_ready`].
    pub fn clear_ready(&mut self) {
        if let Some(event) = self.event.take() {
            self.async_fd.registration.clear_readiness(event);
        }
    }

    /// Clears only the `ready` part of the readiness this guard holds.
    pub fn clear_ready_matching(&mut self, ready: Ready) {
        if let Some(event) = self.event {
            self.event = clear_matching(&self.async_fd.registration, event, ready);
        }
    }

    /// Keeps the readiness: the next wait returns at once.
    pub fn retain_ready(&mut self) {
        self.event = None;
    }

    /// The readiness this guard holds.
    pub fn ready(&self) -> Ready {
        self.event.map_or(Ready::EMPTY, |e| e.ready)
    }

    /// Runs `f` with mutable access; on `WouldBlock`, clears the readiness
    /// and returns `Err(TryIoError)`.
    pub fn try_io<R>(
        &mut self,
        f: impl FnOnce(&mut AsyncFd<T>) -> io::Result<R>,
    ) -> Result<io::Result<R>, TryIoError> {
        match f(self.async_fd) {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                self.clear_ready();
                Err(TryIoError(()))
            }
            other => Ok(other),
        }
    }

    /// The `AsyncFd` this guard belongs to.
    pub fn get_ref(&self) -> &AsyncFd<T> {
        self.async_fd
    }

    /// The `AsyncFd`, mutably.
    pub fn get_mut(&mut self) -> &mut AsyncFd<T> {
        self.async_fd
    }

    /// The inner value.
    pub fn get_inner(&self) -> &T {
        self.async_fd.get_ref()
    }

    /// The inner value, mutably.
    pub fn get_inner_mut(&mut self) -> &mut T {
        self.async_fd.get_mut()
    }
}

impl<T: AsRawFd + fmt::Debug> fmt::Debug for AsyncFdReadyGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncFdReadyGuard")
            .field("async_fd", self.async_fd)
            .field("ready", &self.ready())
            .finish()
    }
}

impl<T: AsRawFd + fmt::Debug> fmt::Debug for AsyncFdReadyMutGuard<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncFdReadyMutGuard")
            .field("async_fd", &self.async_fd)
            .field("ready", &self.ready())
            .finish()
    }
}
