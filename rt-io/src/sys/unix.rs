//! Unix: sockets are file descriptors.

#[cfg(feature = "net")]
use super::impl_raw_for_std;
#[cfg(feature = "net")]
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, RawFd};

/// A socket's OS handle.
#[cfg(feature = "net")]
pub(crate) type RawSocket = RawFd;

#[cfg(feature = "net")]
impl_raw_for_std!(
    AsRawFd::as_raw_fd,
    IntoRawFd::into_raw_fd,
    FromRawFd::from_raw_fd
);

/// Whether a read or write that moved fewer bytes than asked proves the
/// socket drained (or its send buffer full), so that its readiness may be
/// cleared without a call that would block: true of epoll and kqueue,
/// which report the next change anew.
#[cfg(feature = "net")]
pub(crate) const SHORT_TRANSFER_DRAINS: bool = true;

/// Whether `TcpListener::bind` sets `SO_REUSEADDR`: on Unix it lets a
/// restarted server bind while connections of the last run linger in
/// `TIME_WAIT`, as std and mio do.
#[cfg(feature = "net")]
pub(crate) const LISTENER_REUSES_ADDRESS: bool = true;

/// One `recv(2)` of `socket` into `buf`, which need not be initialised.
/// `recv` rather than `read`: the kernel goes straight to the socket,
/// without the file layer's checks and notifications that `read` passes
/// through, and std's own socket reads make the same call.
#[cfg(feature = "net")]
#[inline]
pub(crate) fn recv_uninit(
    socket: RawSocket,
    buf: &mut [std::mem::MaybeUninit<u8>],
) -> std::io::Result<usize> {
    // SAFETY: `buf` is valid for writes of `buf.len()` bytes, and `recv`
    // writes at most that many; `socket` belongs to a source the caller
    // borrows, so it stays open for the call.
    let n = unsafe { libc::recv(socket, buf.as_mut_ptr().cast(), buf.len(), 0) };
    usize::try_from(n).map_err(|_| std::io::Error::last_os_error())
}

/// Whether a non-blocking `connect` that returned `e` is under way rather
/// than failed: `EINPROGRESS` while the handshake runs.
#[cfg(feature = "net")]
pub(crate) fn connect_in_progress(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::EINPROGRESS) || e.kind() == std::io::ErrorKind::WouldBlock
}

/// Implements the public handle traits (`AsRawFd`, `AsFd`) for socket
/// types whose `$field` owns the handle.
#[cfg(feature = "net")]
macro_rules! impl_as_socket {
    ($field:ident: $($ty:ty),* $(,)?) => {$(
        impl std::os::fd::AsRawFd for $ty {
            fn as_raw_fd(&self) -> std::os::fd::RawFd {
                $crate::sys::raw_of!(self.$field)
            }
        }

        impl std::os::fd::AsFd for $ty {
            fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
                // SAFETY: the descriptor is owned by `self.$field` and stays
                // open while `self` is borrowed.
                unsafe { std::os::fd::BorrowedFd::borrow_raw(std::os::fd::AsRawFd::as_raw_fd(self)) }
            }
        }
    )*};
}

/// [`impl_as_socket`], and the ownership transfers (`FromRawFd`,
/// `IntoRawFd`) for types whose `$field` is a `socket2::Socket`; `$extra`
/// fields start from `$init` in a socket made from a raw descriptor.
#[cfg(feature = "net")]
macro_rules! impl_raw_socket {
    ($field:ident: $ty:ident $(, $extra:ident: $init:expr)*) => {
        $crate::sys::impl_as_socket!($field: $ty);

        impl std::os::fd::FromRawFd for $ty {
            /// # Safety
            ///
            /// `fd` must be an open socket that the caller owns.
            unsafe fn from_raw_fd(fd: std::os::fd::RawFd) -> $ty {
                // SAFETY: the caller hands over ownership of an open socket.
                let $field = unsafe { std::os::fd::FromRawFd::from_raw_fd(fd) };
                $ty { $field $(, $extra: $init)* }
            }
        }

        impl std::os::fd::IntoRawFd for $ty {
            fn into_raw_fd(self) -> std::os::fd::RawFd {
                std::os::fd::IntoRawFd::into_raw_fd(self.$field)
            }
        }
    };
}

/// Implements `AsRawFd` and `AsFd` for an rt standard stream from std's
/// (`$std` names its constructor in `std::io`).
#[cfg(feature = "fs")]
macro_rules! impl_as_stdio {
    ($ty:ident => $std:ident) => {
        impl std::os::fd::AsRawFd for $ty {
            fn as_raw_fd(&self) -> std::os::fd::RawFd {
                std::os::fd::AsRawFd::as_raw_fd(&std::io::$std())
            }
        }

        impl std::os::fd::AsFd for $ty {
            fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
                // SAFETY: the standard streams' descriptors stay open for
                // the life of the process.
                unsafe {
                    std::os::fd::BorrowedFd::borrow_raw(std::os::fd::AsRawFd::as_raw_fd(self))
                }
            }
        }
    };
}

#[cfg(feature = "fs")]
pub(crate) use impl_as_stdio;
#[cfg(feature = "net")]
pub(crate) use {impl_as_socket, impl_raw_socket};
