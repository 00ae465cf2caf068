//! The `Decoder` trait: turning buffered bytes into frames.

use crate::Framed;
use bytes::BytesMut;
use rt_io::io::{AsyncRead, AsyncWrite};
use std::io;

/// Turns the bytes of a stream into frames.
///
/// A [`FramedRead`](crate::FramedRead) or [`Framed`] keeps a buffer of the
/// bytes read so far and calls [`decode`](Decoder::decode) on it: before
/// reading more (one read may hold many frames) and after every read (one
/// frame may span many reads).
pub trait Decoder {
    /// The frames this decoder yields.
    type Item;

    /// The error this decoder reports; I/O errors of the transport are
    /// converted into it.
    type Error: From<io::Error>;

    /// Takes one frame from the front of `src`, if a whole one is there.
    ///
    /// Return `Ok(None)` when more bytes are needed; the bytes stay in
    /// `src` (consumed or not, as the decoder likes) and `decode` is called
    /// again once more have arrived. A decoder may `reserve` room in `src`
    /// for the frame it expects.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error>;

    /// Like [`decode`](Decoder::decode), called once the stream has ended.
    ///
    /// The default calls `decode` and, if that finds no frame while bytes
    /// remain, returns an error: the stream ended in the middle of a frame.
    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Self::Item>, Self::Error> {
        match self.decode(buf)? {
            Some(frame) => Ok(Some(frame)),
            None if buf.is_empty() => Ok(None),
            None => Err(bytes_remaining_on_stream().into()),
        }
    }

    /// Wraps `io` in a [`Framed`] using this codec in both directions.
    fn framed<T: AsyncRead + AsyncWrite + Sized>(self, io: T) -> Framed<T, Self>
    where
        Self: Sized,
    {
        Framed::new(io, self)
    }
}

/// The error of a stream that ended inside a frame.
pub(crate) fn bytes_remaining_on_stream() -> io::Error {
    io::Error::other("bytes remaining on stream")
}
