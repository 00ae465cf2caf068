//! Asynchronous byte streams: the traits, the buffer readers fill, and the
//! utilities on top (the path users know as `rt::io`).
//!
//! * Traits: [`AsyncRead`], [`AsyncWrite`], [`AsyncBufRead`], [`AsyncSeek`],
//!   with their `async` helpers in [`AsyncReadExt`], [`AsyncWriteExt`],
//!   [`AsyncBufReadExt`] and [`AsyncSeekExt`].
//! * Buffering: [`BufReader`], [`BufWriter`], [`BufStream`].
//! * Copying: [`copy`], [`copy_buf`], [`copy_bidirectional`].
//! * In-memory streams: [`duplex`], [`simplex`], [`empty`], [`sink`],
//!   [`repeat`].
//! * Combinators: [`split`], [`join`], [`AsyncReadExt::take`],
//!   [`AsyncReadExt::chain`],
//!   [`AsyncBufReadExt::lines`].
//! * Standard streams (with the `fs` feature, which brings the blocking
//!   pool): [`stdin`], [`stdout`], [`stderr`].
//! * With the `compat` feature: `compat`, adapters to and from the
//!   `futures-io` traits.
//!
//! `std::io`'s `Error`, `ErrorKind`, `Result`, `SeekFrom` and `IoSlice` are
//! re-exported so that one `use rt::io` covers a whole program.

mod async_buf_read;
mod async_read;
mod async_seek;
mod async_write;
#[cfg(feature = "compat")]
pub mod compat;
mod read_buf;
// The standard streams, and on Windows a child's pipes, are blocking
// handles driven through the blocking pool.
#[cfg(any(feature = "fs", all(windows, feature = "process")))]
pub(crate) mod blocking;
#[cfg(feature = "fs")]
mod stdio;
mod util;

pub use async_buf_read::AsyncBufRead;
pub use async_read::AsyncRead;
pub use async_seek::AsyncSeek;
pub use async_write::AsyncWrite;
pub use read_buf::ReadBuf;
pub use std::io::{Error, ErrorKind, IoSlice, IoSliceMut, Result, SeekFrom};
#[cfg(feature = "fs")]
pub use stdio::{stderr, stdin, stdout, Stderr, Stdin, Stdout};

#[cfg(feature = "net")]
pub use crate::reactor::{Interest, Ready};

/// Readiness of arbitrary file descriptors (`AsyncFd`), as in `tokio::io::unix`.
#[cfg(all(unix, feature = "net"))]
pub mod unix {
    #[allow(deprecated)]
    pub use crate::net::unix::AsyncFdTryNewError;
    pub use crate::net::unix::{
        AsyncFd, AsyncFdReadyGuard, AsyncFdReadyMutGuard, AsyncFdRegisterError, TryIoError,
    };
}
pub use util::buf_read_ext::AsyncBufReadExt;
pub use util::buf_reader::BufReader;
pub use util::buf_stream::BufStream;
pub use util::buf_writer::BufWriter;
pub use util::chain::Chain;
pub use util::copy::{copy, copy_buf};
pub use util::copy_bidirectional::{copy_bidirectional, copy_bidirectional_with_sizes};
pub use util::duplex::{duplex, DuplexStream};
pub use util::join::{join, Join};
pub use util::lines::{Lines, Split};
pub use util::mem::{empty, repeat, sink, Empty, Repeat, Sink};
pub use util::read_ext::AsyncReadExt;
pub use util::seek_ext::AsyncSeekExt;
pub use util::simplex::{simplex, SimplexStream};
pub use util::split::{split, ReadHalf, WriteHalf};
pub use util::take::Take;
pub use util::write_ext::AsyncWriteExt;

/// The named futures returned by the extension traits' methods.
pub mod futures {
    pub use super::util::read::{Read, ReadBufFuture, ReadExact, ReadToEnd, ReadToString};
    pub use super::util::read_int::ReadInt;
    pub use super::util::read_until::{FillBuf, ReadLine, ReadUntil};
    pub use super::util::seek_ext::Seek;
    pub use super::util::write::{
        Flush, Shutdown, Write, WriteAll, WriteAllBuf, WriteBuf, WriteVectored,
    };
    pub use super::util::write_int::WriteInt;
}
