//! The platform seam: everything in rt-io that differs between Unix and
//! Windows, in one place, as mio's `sys` is.
//!
//! The rest of the crate names a socket's OS handle through the three
//! traits below and [`RawSocket`], never through `std::os::fd` or
//! `std::os::windows`, so a socket type is written once for both. Each
//! platform module implements them for every type that has the
//! platform's own handle traits, and supplies the few operations whose
//! system calls differ (a receive into uninitialised memory). What exists
//! on one platform only (Unix domain sockets, `AsyncFd`, Unix signals on
//! Unix; named pipes and console control events on Windows) lives in a
//! module of its own that only that platform compiles.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

#[cfg(not(any(unix, windows)))]
compile_error!("rt-io supports Unix and Windows targets");

#[cfg(feature = "net")]
/// Borrows a socket's OS handle (a descriptor on Unix, a `SOCKET` on
/// Windows).
pub(crate) trait AsRaw {
    fn as_raw(&self) -> RawSocket;
}

#[cfg(feature = "net")]
/// Gives up ownership of a socket's OS handle.
pub(crate) trait IntoRaw {
    fn into_raw(self) -> RawSocket;
}

#[cfg(feature = "net")]
/// Takes ownership of a socket's OS handle.
pub(crate) trait FromRaw {
    /// # Safety
    ///
    /// `raw` must be an open socket of the kind `Self` wraps, owned by
    /// nothing else.
    unsafe fn from_raw(raw: RawSocket) -> Self;
}

/// Implements [`AsRaw`], [`IntoRaw`] and [`FromRaw`] for every type that
/// has the platform's own handle traits, named with their methods.
#[cfg(feature = "net")]
macro_rules! impl_raw_for_std {
    ($as:ident::$as_raw:ident, $into:ident::$into_raw:ident, $from:ident::$from_raw:ident) => {
        impl<T: $as> $crate::sys::AsRaw for T {
            fn as_raw(&self) -> RawSocket {
                self.$as_raw()
            }
        }

        impl<T: $into> $crate::sys::IntoRaw for T {
            fn into_raw(self) -> RawSocket {
                self.$into_raw()
            }
        }

        impl<T: $from> $crate::sys::FromRaw for T {
            unsafe fn from_raw(raw: RawSocket) -> Self {
                // SAFETY: the caller's contract is the platform trait's.
                unsafe { T::$from_raw(raw) }
            }
        }
    };
}

#[cfg(feature = "net")]
use impl_raw_for_std;

/// The raw handle of `$e`: its own `as_raw` method where it has one (the
/// registered socket wrappers), else the [`AsRaw`] trait's.
#[cfg(feature = "net")]
macro_rules! raw_of {
    ($e:expr) => {{
        #[allow(unused_imports)]
        use $crate::sys::AsRaw as _;
        $e.as_raw()
    }};
}

#[cfg(feature = "net")]
pub(crate) use raw_of;
