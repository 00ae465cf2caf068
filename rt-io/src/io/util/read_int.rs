//! The future behind `AsyncReadExt::read_u8` .. `read_f64_le`: read exactly
//! the width of a number, then decode it.

use super::interrupted::poll_uninterrupted;
use super::read::early_eof;
use crate::io::{AsyncRead, ReadBuf};
use std::fmt;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Future returned by the `read_*` number methods of
/// [`AsyncReadExt`](crate::io::AsyncReadExt): reads the number's bytes (waiting
/// for all of them) and decodes them in the method's byte order.
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct ReadInt<'a, R: ?Sized, T> {
    reader: &'a mut R,
    bytes: [u8; 16],
    filled: usize,
    width: usize,
    decode: fn(&[u8; 16]) -> T,
}

impl<'a, R: ?Sized, T> ReadInt<'a, R, T> {
    pub(crate) fn new(reader: &'a mut R, width: usize, decode: fn(&[u8; 16]) -> T) -> Self {
        ReadInt {
            reader,
            bytes: [0; 16],
            filled: 0,
            width,
            decode,
        }
    }
}

impl<R: ?Sized, T> fmt::Debug for ReadInt<'_, R, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadInt")
            .field("filled", &self.filled)
            .field("width", &self.width)
            .finish()
    }
}

impl<R: AsyncRead + Unpin + ?Sized, T> Future for ReadInt<'_, R, T> {
    type Output = io::Result<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let me = &mut *self;
        while me.filled < me.width {
            let mut buf = ReadBuf::new(&mut me.bytes[me.filled..me.width]);
            ready!(poll_uninterrupted(
                || Pin::new(&mut *me.reader).poll_read(cx, &mut buf)
            ))?;
            let n = buf.filled().len();
            if n == 0 {
                return Poll::Ready(Err(early_eof()));
            }
            me.filled += n;
        }
        Poll::Ready(Ok((me.decode)(&me.bytes)))
    }
}

/// Expands to `fn read_x(&mut self) -> ReadInt<..>` trait methods, one per
/// `name: type, byte-order-constructor` entry.
macro_rules! read_int_methods {
    ($($(#[$doc:meta])* $name:ident: $ty:ty, $from:ident;)*) => {$(
        $(#[$doc])*
        fn $name(&mut self) -> ReadInt<'_, Self, $ty>
        where
            Self: Unpin,
        {
            ReadInt::new(self, std::mem::size_of::<$ty>(), |bytes| {
                let mut raw = [0u8; std::mem::size_of::<$ty>()];
                raw.copy_from_slice(&bytes[..std::mem::size_of::<$ty>()]);
                <$ty>::$from(raw)
            })
        }
    )*};
}

pub(crate) use read_int_methods;
