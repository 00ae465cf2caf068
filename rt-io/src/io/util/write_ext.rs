//! `AsyncWriteExt`: the `async` methods every [`AsyncWrite`] gets.

use super::write::{Flush, Shutdown, Write, WriteAll, WriteAllBuf, WriteBuf, WriteVectored};
use super::write_int::{write_int_methods, WriteInt};
use crate::io::AsyncWrite;
use bytes::Buf;
use std::io::IoSlice;

/// Writing helpers for every [`AsyncWrite`], as futures.
///
/// ```
/// use rt_io::io::AsyncWriteExt;
/// # use std::future::Future;
/// # struct Noop;
/// # impl std::task::Wake for Noop { fn wake(self: std::sync::Arc<Self>) {} }
/// # let waker = std::task::Waker::from(std::sync::Arc::new(Noop));
/// # let mut cx = std::task::Context::from_waker(&waker);
/// let mut out = Vec::new();
/// assert!(std::pin::pin!(out.write_u16(0x0102)).poll(&mut cx).is_ready());
/// assert!(std::pin::pin!(out.write_all(b"!")).poll(&mut cx).is_ready());
/// assert_eq!(out, [1, 2, b'!']);
/// ```
pub trait AsyncWriteExt: AsyncWrite {
    /// Writes some of `buf`, returning how many bytes were taken.
    fn write<'a>(&'a mut self, buf: &'a [u8]) -> Write<'a, Self>
    where
        Self: Unpin,
    {
        Write::new(self, buf)
    }

    /// Writes some of `bufs`, in order, returning how many bytes were taken.
    fn write_vectored<'a, 'b>(&'a mut self, bufs: &'a [IoSlice<'b>]) -> WriteVectored<'a, 'b, Self>
    where
        Self: Unpin,
    {
        WriteVectored::new(self, bufs)
    }

    /// Writes all of `buf`; a writer that takes zero bytes gives a
    /// `WriteZero` error.
    fn write_all<'a>(&'a mut self, buf: &'a [u8]) -> WriteAll<'a, Self>
    where
        Self: Unpin,
    {
        WriteAll::new(self, buf)
    }

    /// Writes some of `buf`'s remaining bytes, advancing it; returns how
    /// many were written.
    fn write_buf<'a, B>(&'a mut self, buf: &'a mut B) -> WriteBuf<'a, Self, B>
    where
        Self: Unpin,
        B: Buf + ?Sized,
    {
        WriteBuf::new(self, buf)
    }

    /// Writes all of `buf`'s remaining bytes, advancing it as it goes.
    fn write_all_buf<'a, B>(&'a mut self, buf: &'a mut B) -> WriteAllBuf<'a, Self, B>
    where
        Self: Unpin,
        B: Buf + ?Sized,
    {
        WriteAllBuf::new(self, buf)
    }

    /// Flushes buffered bytes to their destination.
    fn flush(&mut self) -> Flush<'_, Self>
    where
        Self: Unpin,
    {
        Flush::new(self)
    }

    /// Flushes, then shuts the write side down.
    fn shutdown(&mut self) -> Shutdown<'_, Self>
    where
        Self: Unpin,
    {
        Shutdown::new(self)
    }

    write_int_methods! {
        /// Writes an unsigned byte.
        write_u8: u8, to_be_bytes;
        /// Writes a signed byte.
        write_i8: i8, to_be_bytes;
        /// Writes a big-endian `u16`.
        write_u16: u16, to_be_bytes;
        /// Writes a big-endian `i16`.
        write_i16: i16, to_be_bytes;
        /// Writes a big-endian `u32`.
        write_u32: u32, to_be_bytes;
        /// Writes a big-endian `i32`.
        write_i32: i32, to_be_bytes;
        /// Writes a big-endian `u64`.
        write_u64: u64, to_be_bytes;
        /// Writes a big-endian `i64`.
        write_i64: i64, to_be_bytes;
        /// Writes a big-endian `u128`.
        write_u128: u128, to_be_bytes;
        /// Writes a big-endian `i128`.
        write_i128: i128, to_be_bytes;
        /// Writes a big-endian `f32`.
        write_f32: f32, to_be_bytes;
        /// Writes a big-endian `f64`.
        write_f64: f64, to_be_bytes;
        /// Writes a little-endian `u16`.
        write_u16_le: u16, to_le_bytes;
        /// Writes a little-endian `i16`.
        write_i16_le: i16, to_le_bytes;
        /// Writes a little-endian `u32`.
        write_u32_le: u32, to_le_bytes;
        /// Writes a little-endian `i32`.
        write_i32_le: i32, to_le_bytes;
        /// Writes a little-endian `u64`.
        write_u64_le: u64, to_le_bytes;
        /// Writes a little-endian `i64`.
        write_i64_le: i64, to_le_bytes;
        /// Writes a little-endian `u128`.
        write_u128_le: u128, to_le_bytes;
        /// Writes a little-endian `i128`.
        write_i128_le: i128, to_le_bytes;
        /// Writes a little-endian `f32`.
        write_f32_le: f32, to_le_bytes;
        /// Writes a little-endian `f64`.
        write_f64_le: f64, to_le_bytes;
    }
}

impl<W: AsyncWrite + ?Sized> AsyncWriteExt for W {}
