//! `BytesCodec`: raw bytes in, raw bytes out, no framing.

use crate::{Decoder, Encoder};
use bytes::{BufMut, Bytes, BytesMut};
use std::io;

/// Passes bytes through unchanged: each decode yields everything buffered
/// so far, each encode appends the bytes given.
///
/// ```
/// use bytes::BytesMut;
/// use rt_codec::{BytesCodec, Decoder};
///
/// let mut buf = BytesMut::from("raw");
/// let chunk = BytesCodec::new().decode(&mut buf).unwrap().unwrap();
/// assert_eq!(&chunk[..], b"raw");
/// assert!(buf.is_empty());
/// ```
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash, Default)]
pub struct BytesCodec(());

impl BytesCodec {
    /// A new codec.
    pub fn new() -> BytesCodec {
        BytesCodec(())
    }
}

impl Decoder for BytesCodec {
    type Item = BytesMut;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<BytesMut>> {
        if buf.is_empty() {
            Ok(None)
        } else {
            Ok(Some(buf.split()))
        }
    }
}

impl Encoder<Bytes> for BytesCodec {
    type Error = io::Error;

    fn encode(&mut self, data: Bytes, buf: &mut BytesMut) -> io::Result<()> {
        buf.reserve(data.len());
        buf.put(data);
        Ok(())
    }
}

impl Encoder<BytesMut> for BytesCodec {
    type Error = io::Error;

    fn encode(&mut self, data: BytesMut, buf: &mut BytesMut) -> io::Result<()> {
        buf.reserve(data.len());
        buf.put(data);
        Ok(())
    }
}
