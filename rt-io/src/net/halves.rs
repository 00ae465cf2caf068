//! The read and write halves of a stream socket, written once for both
//! `TcpStream` and `UnixStream`.
//!
//! Each socket module keeps its own half types (tokio's API has
//! `tcp::ReadHalf` and `unix::ReadHalf` as distinct types), so the types are
//! declared by the macros below; the logic they hold is either a one-line
//! call into the stream or the generic [`reunite`] here.

use std::sync::Arc;

/// Takes the stream back out of the two `Arc`s of an owned split when both
/// point at the same stream; hands them back otherwise.
pub(crate) fn reunite<S>(read: Arc<S>, write: Arc<S>) -> Result<S, (Arc<S>, Arc<S>)> {
    if !Arc::ptr_eq(&read, &write) {
        return Err((read, write));
    }
    drop(read);
    Ok(Arc::into_inner(write).expect("the two halves held the only references"))
}

/// Declares `ReadHalf<'a>`/`WriteHalf<'a>` borrowing `$stream`, and the
/// crate-private `split` that makes them. `$addr` is the type of the
/// stream's addresses.
macro_rules! borrowed_halves {
    ($stream:ident, $addr:ty) => {
        #[doc = concat!("The read half of [`", stringify!($stream), "::split`].")]
        #[derive(Debug)]
        pub struct ReadHalf<'a>(&'a $stream);

        #[doc = concat!(
                            "The write half of [`", stringify!($stream), "::split`]. Shutting it ",
                            "down shuts the stream's write direction down."
                        )]
        #[derive(Debug)]
        pub struct WriteHalf<'a>(&'a $stream);

        pub(crate) fn split(stream: &mut $stream) -> (ReadHalf<'_>, WriteHalf<'_>) {
            (ReadHalf(stream), WriteHalf(stream))
        }

        $crate::net::halves::read_half_api!(ReadHalf<'_>, $stream, $addr, |h| h.0);
        $crate::net::halves::write_half_api!(WriteHalf<'_>, $stream, $addr, |h| h.0);
    };
}

/// Declares `OwnedReadHalf`/`OwnedWriteHalf` sharing `$stream` through an
/// `Arc`, `ReuniteError`, and the crate-private `split_owned`.
macro_rules! owned_halves {
    ($stream:ident, $addr:ty) => {
        #[doc = concat!("The read half of [`", stringify!($stream), "::into_split`].")]
        #[derive(Debug)]
        pub struct OwnedReadHalf {
            inner: std::sync::Arc<$stream>,
        }

        #[doc = concat!(
                    "The write half of [`", stringify!($stream), "::into_split`]. Dropping ",
                    "it shuts the write direction down unless [`forget`](Self::forget) was called."
                )]
        #[derive(Debug)]
        pub struct OwnedWriteHalf {
            inner: std::sync::Arc<$stream>,
            shutdown_on_drop: bool,
        }

        /// The error of [`OwnedReadHalf::reunite`] with halves of two
        /// different streams; it gives both halves back.
        #[derive(Debug)]
        pub struct ReuniteError(pub OwnedReadHalf, pub OwnedWriteHalf);

        impl std::fmt::Display for ReuniteError {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("tried to reunite halves that are not from the same socket")
            }
        }

        impl std::error::Error for ReuniteError {}

        pub(crate) fn split_owned(stream: $stream) -> (OwnedReadHalf, OwnedWriteHalf) {
            let inner = std::sync::Arc::new(stream);
            let read = OwnedReadHalf {
                inner: inner.clone(),
            };
            let write = OwnedWriteHalf {
                inner,
                shutdown_on_drop: true,
            };
            (read, write)
        }

        fn reunite(
            read: OwnedReadHalf,
            mut write: OwnedWriteHalf,
        ) -> Result<$stream, ReuniteError> {
            // Reuniting must not shut the write direction down, whichever way
            // it ends; a failed attempt restores the flag below.
            write.shutdown_on_drop = false;
            let write_inner = write.inner.clone();
            drop(write);
            $crate::net::halves::reunite(read.inner, write_inner).map_err(|(read, write)| {
                ReuniteError(
                    OwnedReadHalf { inner: read },
                    OwnedWriteHalf {
                        inner: write,
                        shutdown_on_drop: true,
                    },
                )
            })
        }

        impl OwnedReadHalf {
            /// Joins the halves back into the stream; fails if they come
            /// from different streams.
            pub fn reunite(self, other: OwnedWriteHalf) -> Result<$stream, ReuniteError> {
                reunite(self, other)
            }
        }

        impl OwnedWriteHalf {
            /// Joins the halves back into the stream; see
            /// [`OwnedReadHalf::reunite`].
            pub fn reunite(self, other: OwnedReadHalf) -> Result<$stream, ReuniteError> {
                reunite(other, self)
            }

            /// Drops the half without shutting the write direction down.
            pub fn forget(mut self) {
                self.shutdown_on_drop = false;
            }
        }

        impl Drop for OwnedWriteHalf {
            fn drop(&mut self) {
                if self.shutdown_on_drop {
                    let _ = self.inner.shutdown_std(std::net::Shutdown::Write);
                }
            }
        }

        $crate::net::halves::read_half_api!(OwnedReadHalf, $stream, $addr, |h| &h.inner);
        $crate::net::halves::write_half_api!(OwnedWriteHalf, $stream, $addr, |h| &h.inner);
    };
}

/// The read-side methods and trait impls of a half `$half` that reaches its
/// stream through `$get`.
macro_rules! read_half_api {
    ($half:ty, $stream:ident, $addr:ty, |$h:ident| $get:expr) => {
        impl $half {
            #[doc = concat!("Waits until readable; see [`", stringify!($stream), "::readable`].")]
            pub async fn readable(&self) -> std::io::Result<()> {
                let $h = self;
                $get.readable().await
            }

            #[doc = concat!("See [`", stringify!($stream), "::try_read`].")]
            pub fn try_read(&self, buf: &mut [u8]) -> std::io::Result<usize> {
                let $h = self;
                $get.try_read(buf)
            }

            #[doc = concat!("See [`", stringify!($stream), "::try_read_buf`].")]
            pub fn try_read_buf<B: bytes::BufMut>(&self, buf: &mut B) -> std::io::Result<usize> {
                let $h = self;
                $get.try_read_buf(buf)
            }

            #[doc = concat!("See [`", stringify!($stream), "::try_read_vectored`].")]
            pub fn try_read_vectored(
                &self,
                bufs: &mut [std::io::IoSliceMut<'_>],
            ) -> std::io::Result<usize> {
                let $h = self;
                $get.try_read_vectored(bufs)
            }
        }

        $crate::net::halves::half_common!($half, $stream, $addr, |$h| $get);

        impl $crate::net::stream_io::PollRead for $half {
            fn poll_read_uninit(
                &self,
                cx: &mut std::task::Context<'_>,
                buf: &mut [std::mem::MaybeUninit<u8>],
            ) -> std::task::Poll<std::io::Result<usize>> {
                let $h = self;
                $get.poll_read(cx, buf)
            }
        }
    };
}

/// The write-side methods and trait impls of a half `$half` that reaches
/// its stream through `$get`.
macro_rules! write_half_api {
    ($half:ty, $stream:ident, $addr:ty, |$h:ident| $get:expr) => {
        impl $half {
            #[doc = concat!("Waits until writable; see [`", stringify!($stream), "::writable`].")]
            pub async fn writable(&self) -> std::io::Result<()> {
                let $h = self;
                $get.writable().await
            }

            #[doc = concat!("See [`", stringify!($stream), "::try_write`].")]
            pub fn try_write(&self, buf: &[u8]) -> std::io::Result<usize> {
                let $h = self;
                $get.try_write(buf)
            }

            #[doc = concat!("See [`", stringify!($stream), "::try_write_vectored`].")]
            pub fn try_write_vectored(
                &self,
                bufs: &[std::io::IoSlice<'_>],
            ) -> std::io::Result<usize> {
                let $h = self;
                $get.try_write_vectored(bufs)
            }
        }

        $crate::net::halves::half_common!($half, $stream, $addr, |$h| $get);

        impl $crate::net::stream_io::PollWrite for $half {
            fn poll_write_bytes(
                &self,
                cx: &mut std::task::Context<'_>,
                buf: &[u8],
            ) -> std::task::Poll<std::io::Result<usize>> {
                let $h = self;
                $get.poll_write(cx, buf)
            }

            fn poll_shutdown_write(
                &self,
                cx: &mut std::task::Context<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                let $h = self;
                $get.poll_shutdown(cx)
            }
        }
    };
}

/// The readiness wait, address getters and `AsRef` every half has.
macro_rules! half_common {
    ($half:ty, $stream:ident, $addr:ty, |$h:ident| $get:expr) => {
        impl $half {
            #[doc = concat!("Waits for `interest`; see [`", stringify!($stream), "::ready`].")]
            pub async fn ready(
                &self,
                interest: $crate::reactor::Interest,
            ) -> std::io::Result<$crate::reactor::Ready> {
                let $h = self;
                $get.ready(interest).await
            }

            /// The remote address.
            pub fn peer_addr(&self) -> std::io::Result<$addr> {
                let $h = self;
                $get.peer_addr()
            }

            /// The local address.
            pub fn local_addr(&self) -> std::io::Result<$addr> {
                let $h = self;
                $get.local_addr()
            }
        }

        impl AsRef<$stream> for $half {
            fn as_ref(&self) -> &$stream {
                let $h = self;
                $get
            }
        }
    };
}

pub(crate) use {borrowed_halves, half_common, owned_halves, read_half_api, write_half_api};
