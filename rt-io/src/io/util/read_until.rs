//! The futures behind `AsyncBufReadExt::read_until`, `read_line` and
//! `fill_buf`, and the shared step that copies buffered bytes up to a
//! delimiter.

use super::interrupted::is_interrupted;
use super::read::invalid_utf8;
use crate::io::AsyncBufRead;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Moves buffered bytes into `out` until `delimiter` (included) or end of
/// stream; `read` counts the bytes moved by earlier polls of the same call.
pub(crate) fn poll_read_until<R: AsyncBufRead + ?Sized>(
    mut reader: Pin<&mut R>,
    cx: &mut Context<'_>,
    delimiter: u8,
    out: &mut Vec<u8>,
    read: &mut usize,
) -> Poll<io::Result<usize>> {
    loop {
        let (found, used) = {
            let available = match ready!(reader.as_mut().poll_fill_buf(cx)) {
                Ok(available) => available,
                Err(e) if is_interrupted(&e) => continue,
                Err(e) => return Poll::Ready(Err(e)),
            };
            match available.iter().position(|b| *b == delimiter) {
                Some(i) => {
                    out.extend_from_slice(&available[..=i]);
                    (true, i + 1)
                }
                None => {
                    out.extend_from_slice(available);
                    (available.is_empty(), available.len())
                }
            }
        };
        reader.as_mut().consume(used);
        *read += used;
        if found {
            return Poll::Ready(Ok(std::mem::take(read)));
        }
    }
}

/// Future returned by
/// [`AsyncBufReadExt::read_until`](crate::io::AsyncBufReadExt::read_until).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct ReadUntil<'a, R: ?Sized> {
    reader: &'a mut R,
    delimiter: u8,
    buf: &'a mut Vec<u8>,
    read: usize,
}

impl<'a, R: ?Sized> ReadUntil<'a, R> {
    pub(crate) fn new(reader: &'a mut R, delimiter: u8, buf: &'a mut Vec<u8>) -> Self {
        ReadUntil {
            reader,
            delimiter,
            buf,
            read: 0,
        }
    }
}

impl<R: AsyncBufRead + Unpin + ?Sized> Future for ReadUntil<'_, R> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        poll_read_until(
            Pin::new(&mut *me.reader),
            cx,
            me.delimiter,
            me.buf,
            &mut me.read,
        )
    }
}

/// Future returned by
/// [`AsyncBufReadExt::read_line`](crate::io::AsyncBufReadExt::read_line).
///
/// The line is gathered apart and appended to the caller's string only once
/// it is complete and valid UTF-8, so the string is never left invalid; if
/// the future is dropped early, the bytes it had consumed are lost.
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct ReadLine<'a, R: ?Sized> {
    reader: &'a mut R,
    output: &'a mut String,
    bytes: Vec<u8>,
    read: usize,
}

impl<'a, R: ?Sized> ReadLine<'a, R> {
    pub(crate) fn new(reader: &'a mut R, output: &'a mut String) -> Self {
        ReadLine {
            reader,
            output,
            bytes: Vec::new(),
            read: 0,
        }
    }
}

/// Validates `bytes` as UTF-8 and appends them to `output`. On failure
/// `output` is unchanged and the error (`InvalidData`) carries a
/// `std::str::Utf8Error` whose `valid_up_to` counts from the start of
/// `output`, as std's and tokio's do.
pub(crate) fn append_utf8(output: &mut String, bytes: Vec<u8>) -> io::Result<()> {
    match String::from_utf8(bytes) {
        Ok(text) => {
            output.push_str(&text);
            Ok(())
        }
        Err(e) => Err(invalid_utf8(output, e.as_bytes())),
    }
}

impl<R: AsyncBufRead + Unpin + ?Sized> Future for ReadLine<'_, R> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        let read = ready!(poll_read_until(
            Pin::new(&mut *me.reader),
            cx,
            b'\n',
            &mut me.bytes,
            &mut me.read
        ));
        let bytes = std::mem::take(&mut me.bytes);
        match read {
            Ok(n) => Poll::Ready(append_utf8(me.output, bytes).map(|()| n)),
            Err(e) => {
                // What was read before the error is kept when it is valid
                // text, as tokio does; otherwise the string is unchanged.
                let _ = append_utf8(me.output, bytes);
                Poll::Ready(Err(e))
            }
        }
    }
}

/// Future returned by
/// [`AsyncBufReadExt::fill_buf`](crate::io::AsyncBufReadExt::fill_buf).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct FillBuf<'a, R: ?Sized> {
    reader: Option<&'a mut R>,
}

impl<'a, R: ?Sized> FillBuf<'a, R> {
    pub(crate) fn new(reader: &'a mut R) -> Self {
        FillBuf {
            reader: Some(reader),
        }
    }
}

impl<'a, R: AsyncBufRead + Unpin + ?Sized> Future for FillBuf<'a, R> {
    type Output = io::Result<&'a [u8]>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&'a [u8]>> {
        let reader: &'a mut R = self.reader.take().expect("FillBuf polled after completion");
        let raw: *mut R = reader;
        // SAFETY: `raw` comes from a unique `&'a mut R` that we own. Only one
        // reference made from it is alive at a time: on `Ready`, the slice
        // keeps the first one for `'a` and `raw` is never used again; on
        // `Pending`, nothing borrows from the first one any more, so the
        // second can be stored for the next poll.
        match Pin::new(unsafe { &mut *raw }).poll_fill_buf(cx) {
            Poll::Ready(result) => Poll::Ready(result),
            Poll::Pending => {
                // SAFETY: see above; the first reference is dead here.
                self.reader = Some(unsafe { &mut *raw });
                Poll::Pending
            }
        }
    }
}
