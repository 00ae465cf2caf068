//! `Lines` and `Split`: readers turned into sequences of lines or of
//! delimited segments.

use super::read_until::poll_read_until;
use crate::io::AsyncBufRead;
use pin_project_lite::pin_project;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

pin_project! {
    /// The lines of a buffered reader, without their `\n` or `\r\n`, made by
    /// [`AsyncBufReadExt::lines`](crate::io::AsyncBufReadExt::lines).
    ///
    /// [`next_line`](Lines::next_line) is cancel-safe: a line consumed by a
    /// dropped call is kept for the next one.
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = LinesProj]
    pub struct Lines<R> {
        #[pin]
        reader: R,
        bytes: Vec<u8>,
        read: usize,
    }
}

impl<R> Lines<R> {
    pub(crate) fn new(reader: R) -> Self {
        Lines {
            reader,
            bytes: Vec::new(),
            read: 0,
        }
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The underlying reader, mutably.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// Gives back the underlying reader; a partly read line is lost.
    pub fn into_inner(self) -> R {
        self.reader
    }
}

impl<R: AsyncBufRead> Lines<R> {
    /// The next line, or `None` at end of stream.
    pub async fn next_line(&mut self) -> io::Result<Option<String>>
    where
        R: Unpin,
    {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next_line(cx)).await
    }

    /// Polls for the next line, or `None` at end of stream.
    pub fn poll_next_line(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<Option<String>>> {
        let LinesProj {
            reader,
            bytes,
            read,
        } = self.project();
        let n = ready!(poll_read_until(reader, cx, b'\n', bytes, read))?;
        if n == 0 && bytes.is_empty() {
            return Poll::Ready(Ok(None));
        }
        let mut line = std::mem::take(bytes);
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        // A bad line is reported once, with its bytes (`FromUtf8Error`),
        // and the next call goes on with the following line.
        match String::from_utf8(line) {
            Ok(text) => Poll::Ready(Ok(Some(text))),
            Err(e) => Poll::Ready(Err(io::Error::new(io::ErrorKind::InvalidData, e))),
        }
    }
}

pin_project! {
    /// The segments of a buffered reader between occurrences of a delimiter
    /// byte (the delimiter removed), made by
    /// [`AsyncBufReadExt::split`](crate::io::AsyncBufReadExt::split).
    #[derive(Debug)]
    #[must_use = "streams do nothing unless polled"]
    #[project = SplitProj]
    pub struct Split<R> {
        #[pin]
        reader: R,
        delimiter: u8,
        bytes: Vec<u8>,
        read: usize,
    }
}

impl<R> Split<R> {
    pub(crate) fn new(reader: R, delimiter: u8) -> Self {
        Split {
            reader,
            delimiter,
            bytes: Vec::new(),
            read: 0,
        }
    }
}

impl<R: AsyncBufRead> Split<R> {
    /// The next segment, or `None` at end of stream.
    pub async fn next_segment(&mut self) -> io::Result<Option<Vec<u8>>>
    where
        R: Unpin,
    {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next_segment(cx)).await
    }

    /// Polls for the next segment, or `None` at end of stream.
    pub fn poll_next_segment(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<Option<Vec<u8>>>> {
        let SplitProj {
            reader,
            delimiter,
            bytes,
            read,
        } = self.project();
        let delimiter = *delimiter;
        let n = ready!(poll_read_until(reader, cx, delimiter, bytes, read))?;
        if n == 0 && bytes.is_empty() {
            return Poll::Ready(Ok(None));
        }
        let mut segment = std::mem::take(bytes);
        if segment.last() == Some(&delimiter) {
            segment.pop();
        }
        Poll::Ready(Ok(Some(segment)))
    }
}
