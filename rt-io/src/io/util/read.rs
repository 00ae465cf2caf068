//! The futures behind `AsyncReadExt`'s byte-buffer methods: `read`,
//! `read_exact`, `read_buf`, `read_to_end` and `read_to_string`.

use super::interrupted::poll_uninterrupted;
use crate::io::{AsyncRead, ReadBuf};
use bytes::BufMut;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Future returned by [`AsyncReadExt::read`](crate::io::AsyncReadExt::read).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Read<'a, R: ?Sized> {
    reader: &'a mut R,
    buf: &'a mut [u8],
}

impl<'a, R: ?Sized> Read<'a, R> {
    pub(crate) fn new(reader: &'a mut R, buf: &'a mut [u8]) -> Self {
        Read { reader, buf }
    }
}

impl<R: AsyncRead + Unpin + ?Sized> Future for Read<'_, R> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        let mut buf = ReadBuf::new(me.buf);
        ready!(Pin::new(&mut *me.reader).poll_read(cx, &mut buf))?;
        Poll::Ready(Ok(buf.filled().len()))
    }
}

/// Future returned by
/// [`AsyncReadExt::read_exact`](crate::io::AsyncReadExt::read_exact).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct ReadExact<'a, R: ?Sized> {
    reader: &'a mut R,
    buf: &'a mut [u8],
    filled: usize,
}

impl<'a, R: ?Sized> ReadExact<'a, R> {
    pub(crate) fn new(reader: &'a mut R, buf: &'a mut [u8]) -> Self {
        ReadExact {
            reader,
            buf,
            filled: 0,
        }
    }
}

pub(crate) fn early_eof() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "early eof")
}

impl<R: AsyncRead + Unpin + ?Sized> Future for ReadExact<'_, R> {
    type Output = io::Result<usize>;

    #[inline]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        while me.filled < me.buf.len() {
            let mut buf = ReadBuf::new(&mut me.buf[me.filled..]);
            ready!(poll_uninterrupted(
                || Pin::new(&mut *me.reader).poll_read(cx, &mut buf)
            ))?;
            let n = buf.filled().len();
            if n == 0 {
                return Poll::Ready(Err(early_eof()));
            }
            me.filled += n;
        }
        Poll::Ready(Ok(me.buf.len()))
    }
}

/// Future returned by [`AsyncReadExt::read_buf`](crate::io::AsyncReadExt::read_buf).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct ReadBufFuture<'a, R: ?Sized, B: ?Sized> {
    reader: &'a mut R,
    buf: &'a mut B,
}

impl<'a, R: ?Sized, B: ?Sized> ReadBufFuture<'a, R, B> {
    pub(crate) fn new(reader: &'a mut R, buf: &'a mut B) -> Self {
        ReadBufFuture { reader, buf }
    }
}

/// Reads once from `reader` into the spare capacity of `buf`, returning how
/// many bytes arrived.
pub(crate) fn poll_read_into_buf_mut<R, B>(
    reader: Pin<&mut R>,
    cx: &mut Context<'_>,
    buf: &mut B,
) -> Poll<io::Result<usize>>
where
    R: AsyncRead + ?Sized,
    B: BufMut + ?Sized,
{
    if !buf.has_remaining_mut() {
        return Poll::Ready(Ok(0));
    }
    let n = {
        let chunk = buf.chunk_mut();
        // SAFETY: the slice is only handed to `ReadBuf::uninit`, which never
        // de-initialises memory and only exposes bytes it initialised.
        let uninit = unsafe { chunk.as_uninit_slice_mut() };
        let mut read_buf = ReadBuf::uninit(uninit);
        let start = read_buf.filled().as_ptr();
        ready!(reader.poll_read(cx, &mut read_buf))?;
        // The reader must fill our memory, not swap in a buffer of its own.
        assert_eq!(start, read_buf.filled().as_ptr(), "reader replaced ReadBuf");
        read_buf.filled().len()
    };
    // SAFETY: the reader initialised and filled `n` bytes of the chunk.
    unsafe { buf.advance_mut(n) };
    Poll::Ready(Ok(n))
}

impl<R, B> Future for ReadBufFuture<'_, R, B>
where
    R: AsyncRead + Unpin + ?Sized,
    B: BufMut + ?Sized,
{
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        poll_read_into_buf_mut(Pin::new(&mut *me.reader), cx, me.buf)
    }
}

/// The most of a `Vec`'s spare capacity offered to one read.
const READ_TO_END_CHUNK: usize = 64 * 1024;

/// How much room a read into the `Vec` is given at least; also the size of
/// the probe read made when a `Vec` that never grew is (nearly) full.
const PROBE: usize = 32;

/// What a read-to-end keeps between polls.
#[derive(Debug, Default)]
pub(crate) struct ToEnd {
    /// Bytes appended so far.
    read: usize,
    /// Bytes of the spare capacity, from its start, that earlier reads
    /// initialised (readers need not initialise them again).
    initialized: usize,
    /// The `Vec`'s capacity when the read began.
    start_capacity: Option<usize>,
}

/// Reserves room for `additional` more bytes; a reallocation forgets what
/// of the spare capacity was initialised.
fn reserve(buf: &mut Vec<u8>, additional: usize, state: &mut ToEnd) {
    let before = buf.capacity();
    buf.reserve(additional);
    if buf.capacity() != before {
        state.initialized = 0;
    }
}

/// Reads until EOF, appending to `buf`; returns the number of bytes added.
///
/// A `Vec` with room for everything is never grown: while it still has its
/// starting capacity and less than 32 bytes spare, a 32-byte probe read
/// on the stack checks for end of file first. Otherwise at least 32 bytes
/// of room are reserved (with `Vec`'s doubling), as tokio does.
pub(crate) fn poll_read_to_end<R: AsyncRead + ?Sized>(
    mut reader: Pin<&mut R>,
    cx: &mut Context<'_>,
    buf: &mut Vec<u8>,
    state: &mut ToEnd,
) -> Poll<io::Result<usize>> {
    let start_capacity = *state.start_capacity.get_or_insert(buf.capacity());
    loop {
        let spare = buf.capacity() - buf.len();
        let n = if spare < PROBE && buf.capacity() == start_capacity && start_capacity >= PROBE {
            let mut probe = [std::mem::MaybeUninit::<u8>::uninit(); PROBE];
            let mut probe = ReadBuf::uninit(&mut probe);
            ready!(poll_uninterrupted(|| reader
                .as_mut()
                .poll_read(cx, &mut probe)))?;
            let got = probe.filled();
            if got.len() > spare {
                reserve(buf, PROBE, state);
            }
            buf.extend_from_slice(got);
            state.initialized = state.initialized.saturating_sub(got.len());
            got.len()
        } else {
            if spare < PROBE {
                reserve(buf, PROBE, state);
            }
            // At most one chunk per read: readers usually initialise what
            // they are offered, and offering a growing Vec's whole spare
            // capacity on every call would make that cost quadratic.
            let spare = buf.spare_capacity_mut();
            let chunk = spare.len().min(READ_TO_END_CHUNK);
            let mut read_buf = ReadBuf::uninit(&mut spare[..chunk]);
            // SAFETY: earlier reads initialised the first `initialized`
            // bytes of the spare capacity, and the `Vec` has not
            // reallocated since (`reserve` resets the count when it does).
            unsafe { read_buf.assume_init(state.initialized.min(chunk)) };
            let start = read_buf.filled().as_ptr();
            ready!(poll_uninterrupted(|| reader
                .as_mut()
                .poll_read(cx, &mut read_buf)))?;
            // Only bytes written into our own spare capacity may be
            // counted: a reader that swapped the buffer would make us
            // expose uninitialised memory.
            assert_eq!(start, read_buf.filled().as_ptr(), "reader replaced ReadBuf");
            let n = read_buf.filled().len();
            let initialized = read_buf.initialized().len();
            // SAFETY: the reader initialised and filled `n` bytes of the
            // spare capacity, directly after the current length.
            unsafe { buf.set_len(buf.len() + n) };
            state.initialized = initialized - n;
            n
        };
        if n == 0 {
            return Poll::Ready(Ok(std::mem::take(&mut state.read)));
        }
        state.read += n;
    }
}

/// Future returned by
/// [`AsyncReadExt::read_to_end`](crate::io::AsyncReadExt::read_to_end).
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct ReadToEnd<'a, R: ?Sized> {
    reader: &'a mut R,
    buf: &'a mut Vec<u8>,
    state: ToEnd,
}

impl<'a, R: ?Sized> ReadToEnd<'a, R> {
    pub(crate) fn new(reader: &'a mut R, buf: &'a mut Vec<u8>) -> Self {
        ReadToEnd {
            reader,
            buf,
            state: ToEnd::default(),
        }
    }
}

impl<R: AsyncRead + Unpin + ?Sized> Future for ReadToEnd<'_, R> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        poll_read_to_end(Pin::new(&mut *me.reader), cx, me.buf, &mut me.state)
    }
}

/// The `InvalidData` error for `bytes` that failed to extend the valid
/// text `prefix`: it carries the `Utf8Error` of the two together, so that
/// `valid_up_to` counts from the start of the caller's string.
pub(crate) fn invalid_utf8(prefix: &str, bytes: &[u8]) -> io::Error {
    let mut all = Vec::with_capacity(prefix.len() + bytes.len());
    all.extend_from_slice(prefix.as_bytes());
    all.extend_from_slice(bytes);
    match std::str::from_utf8(&all) {
        Err(e) => io::Error::new(io::ErrorKind::InvalidData, e),
        Ok(_) => io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ),
    }
}

/// Future returned by
/// [`AsyncReadExt::read_to_string`](crate::io::AsyncReadExt::read_to_string).
///
/// Bytes are collected apart from the string and appended only once they are
/// known to be valid UTF-8, so the string is never left invalid.
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct ReadToString<'a, R: ?Sized> {
    reader: &'a mut R,
    output: &'a mut String,
    bytes: Vec<u8>,
    state: ToEnd,
}

impl<'a, R: ?Sized> ReadToString<'a, R> {
    pub(crate) fn new(reader: &'a mut R, output: &'a mut String) -> Self {
        ReadToString {
            reader,
            output,
            bytes: Vec::new(),
            state: ToEnd::default(),
        }
    }
}

impl<R: AsyncRead + Unpin + ?Sized> Future for ReadToString<'_, R> {
    type Output = io::Result<usize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        let n = ready!(poll_read_to_end(
            Pin::new(&mut *me.reader),
            cx,
            &mut me.bytes,
            &mut me.state
        ))?;
        let bytes = std::mem::take(&mut me.bytes);
        Poll::Ready(super::read_until::append_utf8(me.output, bytes).map(|()| n))
    }
}
