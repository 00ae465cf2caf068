//! The `Encoder` trait: turning frames into bytes.

use bytes::BytesMut;
use std::io;

/// Turns frames of type `Item` into bytes.
///
/// A [`FramedWrite`](crate::FramedWrite) or [`Framed`](crate::Framed)
/// encodes each item sent into its write buffer and writes the buffer out
/// when it is flushed or grows past the backpressure boundary.
pub trait Encoder<Item> {
    /// The error this encoder reports; I/O errors of the transport are
    /// converted into it.
    type Error: From<io::Error>;

    /// Appends the encoding of `item` to `dst`.
    fn encode(&mut self, item: Item, dst: &mut BytesMut) -> Result<(), Self::Error>;
}
