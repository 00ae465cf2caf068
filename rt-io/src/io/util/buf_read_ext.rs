//! `AsyncBufReadExt`: the `async` methods every [`AsyncBufRead`] gets.

use super::lines::{Lines, Split};
use super::read_until::{FillBuf, ReadLine, ReadUntil};
use crate::io::AsyncBufRead;
use std::pin::Pin;

/// Helpers for every [`AsyncBufRead`], as futures.
pub trait AsyncBufReadExt: AsyncBufRead {
    /// Reads into `buf` up to and including `byte`, or to end of stream;
    /// returns the number of bytes appended (`0` at end of stream).
    fn read_until<'a>(&'a mut self, byte: u8, buf: &'a mut Vec<u8>) -> ReadUntil<'a, Self>
    where
        Self: Unpin,
    {
        ReadUntil::new(self, byte, buf)
    }

    /// Reads a line, `\n` included, and appends it to `buf`; returns the
    /// number of bytes read (`0` at end of stream). Invalid UTF-8 is an
    /// `InvalidData` error and leaves `buf` as it was.
    fn read_line<'a>(&'a mut self, buf: &'a mut String) -> ReadLine<'a, Self>
    where
        Self: Unpin,
    {
        ReadLine::new(self, buf)
    }

    /// The segments of this reader separated by `byte`.
    fn split(self, byte: u8) -> Split<Self>
    where
        Self: Sized,
    {
        Split::new(self, byte)
    }

    /// The lines of this reader.
    fn lines(self) -> Lines<Self>
    where
        Self: Sized,
    {
        Lines::new(self)
    }

    /// The buffered bytes, filling the buffer first if it is empty.
    fn fill_buf(&mut self) -> FillBuf<'_, Self>
    where
        Self: Unpin,
    {
        FillBuf::new(self)
    }

    /// Marks `amt` buffered bytes as used.
    fn consume(&mut self, amt: usize)
    where
        Self: Unpin,
    {
        Pin::new(self).consume(amt)
    }
}

impl<R: AsyncBufRead + ?Sized> AsyncBufReadExt for R {}
