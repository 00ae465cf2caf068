//! Windows: sockets are `SOCKET` handles, which std calls `RawSocket`.

#[cfg(feature = "net")]
use super::impl_raw_for_std;
#[cfg(feature = "net")]
use std::os::windows::io::{AsRawSocket, FromRawSocket, IntoRawSocket};

/// A socket's OS handle.
#[cfg(feature = "net")]
pub(crate) type RawSocket = std::os::windows::io::RawSocket;

#[cfg(feature = "net")]
impl_raw_for_std!(
    AsRawSocket::as_raw_socket,
    IntoRawSocket::into_raw_socket,
    FromRawSocket::from_raw_socket
);

/// Whether a read or write that moved fewer bytes than asked proves the
/// socket drained: not on Windows, where mio re-arms a socket's readiness
/// poll only when a call would block, so readiness must be cleared by a
/// `WouldBlock` and nothing else.
#[cfg(feature = "net")]
pub(crate) const SHORT_TRANSFER_DRAINS: bool = false;

/// Whether `TcpListener::bind` sets `SO_REUSEADDR`: not on Windows, where
/// it lets a socket bind a port another socket is listening on and take
/// its connections (`TIME_WAIT` never blocks a bind there), as std and mio
/// leave it.
#[cfg(feature = "net")]
pub(crate) const LISTENER_REUSES_ADDRESS: bool = false;

/// One `recv` of `socket` into `buf`, which need not be initialised
/// (socket2 makes the Winsock call, whose buffer argument it accepts
/// uninitialised).
#[cfg(feature = "net")]
#[inline]
pub(crate) fn recv_uninit(
    socket: RawSocket,
    buf: &mut [std::mem::MaybeUninit<u8>],
) -> std::io::Result<usize> {
    // SAFETY: `socket` belongs to a source the caller borrows, so it stays
    // open while the borrowed handle lives.
    let socket = unsafe { std::os::windows::io::BorrowedSocket::borrow_raw(socket) };
    socket2::SockRef::from(&socket).recv(buf)
}

/// Whether a non-blocking `connect` that returned `e` is under way rather
/// than failed: Winsock reports `WSAEWOULDBLOCK` while the handshake runs.
#[cfg(feature = "net")]
pub(crate) fn connect_in_progress(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::WouldBlock
}

/// Implements the public handle traits (`AsRawSocket`, `AsSocket`) for socket
/// types whose `$field` owns the handle.
#[cfg(feature = "net")]
macro_rules! impl_as_socket {
    ($field:ident: $($ty:ty),* $(,)?) => {$(
        impl std::os::windows::io::AsRawSocket for $ty {
            fn as_raw_socket(&self) -> std::os::windows::io::RawSocket {
                $crate::sys::raw_of!(self.$field)
            }
        }

        impl std::os::windows::io::AsSocket for $ty {
            fn as_socket(&self) -> std::os::windows::io::BorrowedSocket<'_> {
                // SAFETY: the descriptor is owned by `self.$field` and stays
                // open while `self` is borrowed.
                unsafe { std::os::windows::io::BorrowedSocket::borrow_raw(std::os::windows::io::AsRawSocket::as_raw_socket(self)) }
            }
        }
    )*};
}

/// [`impl_as_socket`], and the ownership transfers (`FromRawSocket`,
/// `IntoRawSocket`) for types whose `$field` is a `socket2::Socket`.
#[cfg(feature = "net")]
macro_rules! impl_raw_socket {
    ($field:ident: $ty:ident $(, $extra:ident: $init:expr)*) => {
        $crate::sys::impl_as_socket!($field: $ty);

        impl std::os::windows::io::FromRawSocket for $ty {
            /// # Safety
            ///
            /// `fd` must be an open socket that the caller owns.
            unsafe fn from_raw_socket(fd: std::os::windows::io::RawSocket) -> $ty {
                // SAFETY: the caller hands over ownership of an open socket.
                let $field = unsafe { std::os::windows::io::FromRawSocket::from_raw_socket(fd) };
                $ty { $field $(, $extra: $init)* }
            }
        }

        impl std::os::windows::io::IntoRawSocket for $ty {
            fn into_raw_socket(self) -> std::os::windows::io::RawSocket {
                std::os::windows::io::IntoRawSocket::into_raw_socket(self.$field)
            }
        }
    };
}

/// Implements `AsRawHandle` and `AsHandle` for an rt standard stream from
/// std's (`$std` names its constructor in `std::io`).
#[cfg(feature = "fs")]
macro_rules! impl_as_stdio {
    ($ty:ident => $std:ident) => {
        impl std::os::windows::io::AsRawHandle for $ty {
            fn as_raw_handle(&self) -> std::os::windows::io::RawHandle {
                std::os::windows::io::AsRawHandle::as_raw_handle(&std::io::$std())
            }
        }

        impl std::os::windows::io::AsHandle for $ty {
            fn as_handle(&self) -> std::os::windows::io::BorrowedHandle<'_> {
                // SAFETY: the standard streams' handles stay open for the
                // life of the process.
                unsafe {
                    std::os::windows::io::BorrowedHandle::borrow_raw(
                        std::os::windows::io::AsRawHandle::as_raw_handle(self),
                    )
                }
            }
        }
    };
}

#[cfg(feature = "fs")]
pub(crate) use impl_as_stdio;
#[cfg(feature = "net")]
pub(crate) use {impl_as_socket, impl_raw_socket};
