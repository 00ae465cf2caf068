//! The future behind `AsyncWriteExt::write_u8` .. `write_f64_le`: encode a
//! number, then write all of its bytes.

use super::interrupted::poll_uninterrupted;
use super::write::write_zero;
use crate::io::AsyncWrite;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Future returned by the `write_*` number methods of
/// [`AsyncWriteExt`](crate::io::AsyncWriteExt): writes every byte of the encoded
/// number.
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct WriteInt<'a, W: ?Sized> {
    writer: &'a mut W,
    bytes: [u8; 16],
    written: usize,
    width: usize,
}

impl<'a, W: ?Sized> WriteInt<'a, W> {
    pub(crate) fn new(writer: &'a mut W, encoded: &[u8]) -> Self {
        let mut bytes = [0u8; 16];
        bytes[..encoded.len()].copy_from_slice(encoded);
        WriteInt {
            writer,
            bytes,
            written: 0,
            width: encoded.len(),
        }
    }
}

impl<W: AsyncWrite + Unpin + ?Sized> Future for WriteInt<'_, W> {
    type Output = io::Result<()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let me = &mut *self;
        while me.written < me.width {
            let pending = &me.bytes[me.written..me.width];
            let n = ready!(poll_uninterrupted(
                || Pin::new(&mut *me.writer).poll_write(cx, pending)
            ))?;
            if n == 0 {
                return Poll::Ready(Err(write_zero()));
            }
            me.written += n.min(pending.len());
        }
        Poll::Ready(Ok(()))
    }
}

/// Expands to `fn write_x(&mut self, n) -> WriteInt<..>` trait methods, one
/// per `name: type, byte-order-encoder` entry.
macro_rules! write_int_methods {
    ($($(#[$doc:meta])* $name:ident: $ty:ty, $to:ident;)*) => {$(
        $(#[$doc])*
        fn $name(&mut self, n: $ty) -> WriteInt<'_, Self>
        where
            Self: Unpin,
        {
            WriteInt::new(self, &n.$to())
        }
    )*};
}

pub(crate) use write_int_methods;
