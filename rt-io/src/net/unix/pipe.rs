//! Unix pipes and FIFOs driven by the reactor: [`pipe`] makes an anonymous
//! pair, [`OpenOptions`] opens a named FIFO, and [`Sender`] / [`Receiver`]
//! are the two ends (the child-process pipes of `rt_io::process` are built
//! on them too).
//!
//! Each end is registered for the one direction it is used in. Turning an
//! end back into a descriptor deregisters it; `into_blocking_fd` also
//! clears `O_NONBLOCK`, which is what a program handed that descriptor
//! expects.

use crate::io::{AsyncRead, AsyncWrite, ReadBuf};
use crate::reactor::{Direction, Interest, PollEvented, Ready};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Creates an anonymous pipe: what is written to the [`Sender`] is read
/// from the [`Receiver`]. Both ends are non-blocking and close-on-exec.
///
/// ```
/// use rt_io::io::{AsyncReadExt, AsyncWriteExt};
/// use rt_io::net::unix::pipe;
/// # rt_core::runtime::Builder::new_current_thread()
/// #     .base_driver(rt_io::reactor::base_driver())
/// #     .build().unwrap().block_on(async {
/// let (mut tx, mut rx) = pipe::pipe()?;
/// tx.write_all(b"through").await?;
/// drop(tx);
/// let mut got = String::new();
/// rx.read_to_string(&mut got).await?;
/// assert_eq!(got, "through");
/// # Ok::<_, std::io::Error>(())
/// # }).unwrap();
/// ```
///
/// # Panics
///
/// Outside a runtime with I/O enabled.
#[track_caller]
pub fn pipe() -> io::Result<(Sender, Receiver)> {
    let (tx, rx) = mio::unix::pipe::new()?;
    Ok((Sender::from_mio(tx)?, Receiver::from_mio(rx)?))
}

/// Options for opening a named pipe (FIFO) as a [`Sender`] or a
/// [`Receiver`].
#[derive(Clone, Debug)]
pub struct OpenOptions {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    read_write: bool,
    unchecked: bool,
}

/// Which end a FIFO is opened as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Sender,
    Receiver,
}

impl OpenOptions {
    /// Default options: open one direction only, and check that the file
    /// is a FIFO.
    pub fn new() -> OpenOptions {
        OpenOptions {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            read_write: false,
            unchecked: false,
        }
    }

    /// Opens the FIFO for reading and writing (Linux only). A sender opened
    /// this way does not fail with `ENXIO` when no reader is there yet, and
    /// a receiver never sees end of file, since it holds a writer itself.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub fn read_write(&mut self, value: bool) -> &mut Self {
        self.read_write = value;
        self
    }

    /// Skips the check that the opened file is a FIFO (for character
    /// devices that behave like one, for instance).
    pub fn unchecked(&mut self, value: bool) -> &mut Self {
        self.unchecked = value;
        self
    }

    /// Opens the FIFO at `path` as a [`Receiver`].
    ///
    /// # Errors
    ///
    /// `NotFound` without a file, `InvalidInput` if it is not a FIFO (and
    /// the check is on), or the OS's error.
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn open_receiver<P: AsRef<Path>>(&self, path: P) -> io::Result<Receiver> {
        let file = self.open(path.as_ref(), End::Receiver)?;
        Receiver::from_file_unchecked(file)
    }

    /// Opens the FIFO at `path` as a [`Sender`].
    ///
    /// # Errors
    ///
    /// As for [`open_receiver`](Self::open_receiver), and `ENXIO` when no
    /// process has the FIFO open for reading (unless
    /// [`read_write`](Self::read_write) is set).
    ///
    /// # Panics
    ///
    /// Outside a runtime with I/O enabled.
    #[track_caller]
    pub fn open_sender<P: AsRef<Path>>(&self, path: P) -> io::Result<Sender> {
        let file = self.open(path.as_ref(), End::Sender)?;
        Sender::from_file_unchecked(file)
    }

    fn open(&self, path: &Path, end: End) -> io::Result<File> {
        let mut options = std::fs::OpenOptions::new();
        options
            .read(end == End::Receiver)
            .write(end == End::Sender)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC);
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if self.read_write {
            options.read(true).write(true);
        }
        let file = options.open(path)?;
        if !self.unchecked && !is_fifo(file.as_fd())? {
            return Err(not_a_pipe());
        }
        Ok(file)
    }
}

impl Default for OpenOptions {
    fn default() -> OpenOptions {
        OpenOptions::new()
    }
}

/// The writing end of a pipe or FIFO.
#[derive(Debug)]
pub struct Sender {
    io: PollEvented<mio::unix::pipe::Sender>,
}

/// The reading end of a pipe or FIFO.
#[derive(Debug)]
pub struct Receiver {
    io: PollEvented<mio::unix::pipe::Receiver>,
}

impl Sender {
    /// Waits until the pipe may accept a write.
    pub async fn writable(&self) -> io::Result<()> {
        self.ready(Interest::WRITABLE).await.map(drop)
    }

    /// Polls for write readiness.
    pub fn poll_write_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_write_ready(cx).map_ok(drop)
    }

    /// Writes without waiting: `WouldBlock` if the pipe is full.
    pub fn try_write(&self, buf: &[u8]) -> io::Result<usize> {
        self.try_io(|| (&*self.io).write(buf))
    }

    /// Writes from several buffers without waiting.
    pub fn try_write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.try_io(|| (&*self.io).write_vectored(bufs))
    }
}

impl Receiver {
    /// Waits until the pipe may have bytes (or end of file) to read.
    pub async fn readable(&self) -> io::Result<()> {
        self.ready(Interest::READABLE).await.map(drop)
    }

    /// Polls for read readiness.
    pub fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io.registration().poll_read_ready(cx).map_ok(drop)
    }

    /// Reads without waiting: `WouldBlock` if the pipe is empty, `Ok(0)` at
    /// end of file.
    pub fn try_read(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.try_io(|| (&*self.io).read(buf))
    }

    /// Reads into several buffers without waiting.
    pub fn try_read_vectored(&self, bufs: &mut [io::IoSliceMut<'_>]) -> io::Result<usize> {
        self.try_io(|| (&*self.io).read_vectored(bufs))
    }

    /// Reads into the spare room of `buf` without waiting; `buf` advances
    /// by the bytes read.
    pub fn try_read_buf<B: bytes::BufMut>(&self, buf: &mut B) -> io::Result<usize> {
        self.try_io(|| crate::net::fill::fill_buf_mut(buf, |b| (&*self.io).read(b).map(|n| (n, n))))
    }
}

/// What both ends have alike: construction from a file or descriptor
/// (checked or not), readiness, `try_io` and the conversions back to a
/// descriptor. `$access` names the access mode the checked constructors
/// require, `$interest` the readiness the end is registered for.
macro_rules! pipe_end {
    ($ty:ident, $end:expr, $interest:expr, $access:literal) => {
        impl $ty {
            #[track_caller]
            fn from_mio(end: mio::unix::pipe::$ty) -> io::Result<$ty> {
                Ok($ty {
                    io: PollEvented::new_with_interest(end, $interest)?,
                })
            }

            /// Wraps the file of an open FIFO or pipe end, switching it to
            /// non-blocking mode.
            ///
            /// # Errors
            ///
            #[doc = concat!("`InvalidInput` if the file is not a pipe or not open ", $access, ".")]
            ///
            /// # Panics
            ///
            /// Outside a runtime with I/O enabled.
            #[track_caller]
            pub fn from_file(file: File) -> io::Result<$ty> {
                $ty::from_owned_fd(file.into())
            }

            /// [`from_file`](Self::from_file) for an owned descriptor.
            ///
            /// # Panics
            ///
            /// Outside a runtime with I/O enabled.
            #[track_caller]
            pub fn from_owned_fd(owned_fd: OwnedFd) -> io::Result<$ty> {
                check_end(owned_fd.as_fd(), $end)?;
                $ty::from_owned_fd_unchecked(owned_fd)
            }

            /// Wraps `file` without checking that it is a pipe open in the
            /// right direction. The descriptor must already be in
            /// non-blocking mode.
            ///
            /// # Panics
            ///
            /// Outside a runtime with I/O enabled.
            #[track_caller]
            pub fn from_file_unchecked(file: File) -> io::Result<$ty> {
                $ty::from_owned_fd_unchecked(file.into())
            }

            /// [`from_file_unchecked`](Self::from_file_unchecked) for an
            /// owned descriptor.
            ///
            /// # Panics
            ///
            /// Outside a runtime with I/O enabled.
            #[track_caller]
            pub fn from_owned_fd_unchecked(owned_fd: OwnedFd) -> io::Result<$ty> {
                // SAFETY: `owned_fd` is open and its ownership moves to the
                // mio end.
                let end = unsafe { mio::unix::pipe::$ty::from_raw_fd(owned_fd.into_raw_fd()) };
                $ty::from_mio(end)
            }

            /// Waits until the pipe is ready for `interest` and returns the
            /// readiness seen.
            pub async fn ready(&self, interest: Interest) -> io::Result<Ready> {
                Ok(self.io.registration().readiness(interest).await?.ready)
            }

            /// Runs a custom non-blocking operation `f` if the pipe looks
            /// ready, clearing the readiness if it returns `WouldBlock`.
            pub fn try_io<R>(&self, f: impl FnOnce() -> io::Result<R>) -> io::Result<R> {
                self.io.registration().try_io($interest, f)
            }

            /// Deregisters the end and returns its descriptor in blocking
            /// mode.
            pub fn into_blocking_fd(self) -> io::Result<OwnedFd> {
                let fd = self.into_nonblocking_fd()?;
                set_blocking(fd.as_fd())?;
                Ok(fd)
            }

            /// Deregisters the end and returns its descriptor, still
            /// non-blocking.
            pub fn into_nonblocking_fd(self) -> io::Result<OwnedFd> {
                Ok(self.io.into_inner()?.into())
            }
        }

        impl AsRawFd for $ty {
            fn as_raw_fd(&self) -> RawFd {
                self.io.as_raw_fd()
            }
        }

        impl AsFd for $ty {
            fn as_fd(&self) -> BorrowedFd<'_> {
                // SAFETY: the descriptor is owned by `self.io` and stays open
                // while `self` is borrowed.
                unsafe { BorrowedFd::borrow_raw(self.as_raw_fd()) }
            }
        }
    };
}

pipe_end!(Sender, End::Sender, Interest::WRITABLE, "for writing");
pipe_end!(Receiver, End::Receiver, Interest::READABLE, "for reading");

impl AsyncWrite for Sender {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        // A partial write means the pipe is full: the next one waits.
        self.io
            .registration()
            .poll_transfer_io(cx, Direction::Write, buf.len(), || (&*self.io).write(buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.io
            .registration()
            .poll_io(cx, Direction::Write, || (&*self.io).write_vectored(bufs))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // Writes go straight to the kernel: nothing is buffered here.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // The pipe closes when the end drops; there is no half-close.
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Receiver {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        let unfilled = buf.initialize_unfilled();
        let len = unfilled.len();
        let n = ready!(self
            .io
            .registration()
            .poll_transfer_io(cx, Direction::Read, len, || (&*self.io).read(unfilled)))?;
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}

fn not_a_pipe() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a pipe")
}

/// Whether `fd` is a pipe or FIFO.
fn is_fifo(fd: BorrowedFd<'_>) -> io::Result<bool> {
    use std::os::unix::fs::FileTypeExt;
    // `File::metadata` is `fstat`; the borrowed descriptor is not closed.
    let file = std::mem::ManuallyDrop::new({
        // SAFETY: the `File` only lends the open descriptor to `fstat` and
        // is never dropped, so the descriptor is neither closed nor reused.
        unsafe { File::from_raw_fd(fd.as_raw_fd()) }
    });
    Ok(file.metadata()?.file_type().is_fifo())
}

/// Checks that `fd` is a pipe open for `end`'s direction and switches it to
/// non-blocking mode.
fn check_end(fd: BorrowedFd<'_>, end: End) -> io::Result<()> {
    if !is_fifo(fd)? {
        return Err(not_a_pipe());
    }
    let flags = get_flags(fd)?;
    let mode = flags & libc::O_ACCMODE;
    let (ok, message) = match end {
        End::Sender => (
            mode == libc::O_WRONLY || mode == libc::O_RDWR,
            "not in O_WRONLY or O_RDWR access mode",
        ),
        End::Receiver => (
            mode == libc::O_RDONLY || mode == libc::O_RDWR,
            "not in O_RDONLY or O_RDWR access mode",
        ),
    };
    if !ok {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
    }
    set_flags(fd, flags | libc::O_NONBLOCK, flags)
}

fn get_flags(fd: BorrowedFd<'_>) -> io::Result<libc::c_int> {
    // SAFETY: `F_GETFL` only reads the flags of the open descriptor.
    let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(flags)
}

fn set_flags(fd: BorrowedFd<'_>, flags: libc::c_int, old: libc::c_int) -> io::Result<()> {
    if flags == old {
        return Ok(());
    }
    // SAFETY: `F_SETFL` changes only the status flags of the open descriptor.
    if unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn set_blocking(fd: BorrowedFd<'_>) -> io::Result<()> {
    let flags = get_flags(fd)?;
    set_flags(fd, flags & !libc::O_NONBLOCK, flags)
}
