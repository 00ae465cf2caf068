//! `AsyncReadExt`: the `async` methods every [`AsyncRead`] gets.

use super::chain::Chain;
use super::read::{Read, ReadBufFuture, ReadExact, ReadToEnd, ReadToString};
use super::read_int::{read_int_methods, ReadInt};
use super::take::Take;
use crate::io::AsyncRead;
use bytes::BufMut;

/// Reading helpers for every [`AsyncRead`], as futures.
///
/// ```
/// use rt_io::io::AsyncReadExt;
/// # use std::future::Future;
/// # struct Noop;
/// # impl std::task::Wake for Noop { fn wake(self: std::sync::Arc<Self>) {} }
/// # let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
/// # let mut cx = std::task::Context::from_waker(&waker);
/// let mut source: &[u8] = &[0, 1, 2, 3, 4];
/// let mut head = [0u8; 2];
/// let fut = std::pin::pin!(source.read_exact(&mut head));
/// assert!(fut.poll(&mut cx).is_ready());
/// assert_eq!(head, [0, 1]);
/// ```
pub trait AsyncReadExt: AsyncRead {
    /// Reads some bytes into `buf`, returning how many; `0` means end of
    /// stream (or an empty `buf`).
    fn read<'a>(&'a mut self, buf: &'a mut [u8]) -> Read<'a, Self>
    where
        Self: Unpin,
    {
        Read::new(self, buf)
    }

    /// Reads exactly `buf.len()` bytes; end of stream first is an
    /// `UnexpectedEof` error.
    fn read_exact<'a>(&'a mut self, buf: &'a mut [u8]) -> ReadExact<'a, Self>
    where
        Self: Unpin,
    {
        ReadExact::new(self, buf)
    }

    /// Reads some bytes into the spare capacity of `buf`, advancing it;
    /// returns how many arrived.
    fn read_buf<'a, B>(&'a mut self, buf: &'a mut B) -> ReadBufFuture<'a, Self, B>
    where
        Self: Unpin,
        B: BufMut + ?Sized,
    {
        ReadBufFuture::new(self, buf)
    }

    /// Reads until end of stream, appending to `buf`; returns the number of
    /// bytes appended.
    fn read_to_end<'a>(&'a mut self, buf: &'a mut Vec<u8>) -> ReadToEnd<'a, Self>
    where
        Self: Unpin,
    {
        ReadToEnd::new(self, buf)
    }

    /// Reads until end of stream, appending to `buf` if what was read is
    /// valid UTF-8 (otherwise an `InvalidData` error, `buf` untouched).
    fn read_to_string<'a>(&'a mut self, buf: &'a mut String) -> ReadToString<'a, Self>
    where
        Self: Unpin,
    {
        ReadToString::new(self, buf)
    }

    /// A reader that yields this reader's bytes, then `next`'s.
    fn chain<R>(self, next: R) -> Chain<Self, R>
    where
        Self: Sized,
        R: AsyncRead,
    {
        Chain::new(self, next)
    }

    /// A reader that yields at most `limit` bytes of this one.
    fn take(self, limit: u64) -> Take<Self>
    where
        Self: Sized,
    {
        Take::new(self, limit)
    }

    read_int_methods! {
        /// Reads an unsigned byte.
        read_u8: u8, from_be_bytes;
        /// Reads a signed byte.
        read_i8: i8, from_be_bytes;
        /// Reads a big-endian `u16`.
        read_u16: u16, from_be_bytes;
        /// Reads a big-endian `i16`.
        read_i16: i16, from_be_bytes;
        /// Reads a big-endian `u32`.
        read_u32: u32, from_be_bytes;
        /// Reads a big-endian `i32`.
        read_i32: i32, from_be_bytes;
        /// Reads a big-endian `u64`.
        read_u64: u64, from_be_bytes;
        /// Reads a big-endian `i64`.
        read_i64: i64, from_be_bytes;
        /// Reads a big-endian `u128`.
        read_u128: u128, from_be_bytes;
        /// Reads a big-endian `i128`.
        read_i128: i128, from_be_bytes;
        /// Reads a big-endian `f32`.
        read_f32: f32, from_be_bytes;
        /// Reads a big-endian `f64`.
        read_f64: f64, from_be_bytes;
        /// Reads a little-endian `u16`.
        read_u16_le: u16, from_le_bytes;
        /// Reads a little-endian `i16`.
        read_i16_le: i16, from_le_bytes;
        /// Reads a little-endian `u32`.
        read_u32_le: u32, from_le_bytes;
        /// Reads a little-endian `i32`.
        read_i32_le: i32, from_le_bytes;
        /// Reads a little-endian `u64`.
        read_u64_le: u64, from_le_bytes;
        /// Reads a little-endian `i64`.
        read_i64_le: i64, from_le_bytes;
        /// Reads a little-endian `u128`.
        read_u128_le: u128, from_le_bytes;
        /// Reads a little-endian `i128`.
        read_i128_le: i128, from_le_bytes;
        /// Reads a little-endian `f32`.
        read_f32_le: f32, from_le_bytes;
        /// Reads a little-endian `f64`.
        read_f64_le: f64, from_le_bytes;
    }
}

impl<R: AsyncRead + ?Sized> AsyncReadExt for R {}
