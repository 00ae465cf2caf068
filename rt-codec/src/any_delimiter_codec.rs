//! `AnyDelimiterCodec`: chunks ended by any of a set of delimiter bytes,
//! with an optional length limit.

use crate::{Decoder, Encoder};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use std::{cmp, fmt, io};

/// Splits a byte stream into `Bytes` chunks at any of several delimiter
/// bytes (the delimiter removed), and encodes strings as chunks followed by
/// a fixed byte sequence.
///
/// With [`new_with_max_length`](AnyDelimiterCodec::new_with_max_length), a
/// chunk longer than the limit is reported once as
/// [`AnyDelimiterCodecError::MaxChunkLengthExceeded`]; its bytes are then
/// dropped up to and including the next delimiter, and decoding carries on
/// after it.
///
/// ```
/// use bytes::BytesMut;
/// use rt_codec::{AnyDelimiterCodec, Decoder};
///
/// let mut codec = AnyDelimiterCodec::new(b",;".to_vec(), b";".to_vec());
/// let mut buf = BytesMut::from("a,b;c");
/// assert_eq!(&codec.decode(&mut buf).unwrap().unwrap()[..], b"a");
/// assert_eq!(&codec.decode(&mut buf).unwrap().unwrap()[..], b"b");
/// assert_eq!(codec.decode(&mut buf).unwrap(), None);
/// assert_eq!(&codec.decode_eof(&mut buf).unwrap().unwrap()[..], b"c");
/// ```
#[derive(Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct AnyDelimiterCodec {
    /// Where to resume searching; bytes before it were searched.
    next_index: usize,
    max_length: usize,
    /// Dropping the rest of an over-long chunk.
    is_discarding: bool,
    seek_delimiters: Vec<u8>,
    sequence_writer: Vec<u8>,
}

impl AnyDelimiterCodec {
    /// A codec that splits at any byte of `seek_delimiters` and writes
    /// `sequence_writer` after each encoded chunk, without a length limit.
    pub fn new(seek_delimiters: Vec<u8>, sequence_writer: Vec<u8>) -> AnyDelimiterCodec {
        AnyDelimiterCodec {
            next_index: 0,
            max_length: usize::MAX,
            is_discarding: false,
            seek_delimiters,
            sequence_writer,
        }
    }

    /// Like [`new`](AnyDelimiterCodec::new), rejecting chunks longer than
    /// `max_length` bytes.
    pub fn new_with_max_length(
        seek_delimiters: Vec<u8>,
        sequence_writer: Vec<u8>,
        max_length: usize,
    ) -> AnyDelimiterCodec {
        AnyDelimiterCodec {
            max_length,
            ..AnyDelimiterCodec::new(seek_delimiters, sequence_writer)
        }
    }

    /// The chunk length limit (`usize::MAX` when there is none).
    pub fn max_length(&self) -> usize {
        self.max_length
    }
}

impl Default for AnyDelimiterCodec {
    /// Splits at `,`, `;`, `\n` or `\r`, and writes `,` after each chunk.
    fn default() -> Self {
        Self::new(b",;\n\r".to_vec(), b",".to_vec())
    }
}

impl Decoder for AnyDelimiterCodec {
    type Item = Bytes;
    type Error = AnyDelimiterCodecError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Bytes>, AnyDelimiterCodecError> {
        loop {
            let read_to = cmp::min(self.max_length.saturating_add(1), buf.len());
            // Bytes before `next_index` were searched already; the clamp
            // guards against a buffer shrunk by the caller in between.
            let start = self.next_index.min(read_to);
            let delimiter = buf[start..read_to]
                .iter()
                .position(|b| self.seek_delimiters.contains(b))
                .map(|offset| offset + start);
            match (self.is_discarding, delimiter) {
                (true, Some(end)) => {
                    buf.advance(end + 1);
                    self.is_discarding = false;
                    self.next_index = 0;
                }
                (true, None) => {
                    buf.advance(read_to);
                    self.next_index = 0;
                    if buf.is_empty() {
                        return Ok(None);
                    }
                }
                (false, Some(end)) => {
                    self.next_index = 0;
                    let mut chunk = buf.split_to(end + 1);
                    chunk.truncate(end);
                    return Ok(Some(chunk.freeze()));
                }
                (false, None) if buf.len() > self.max_length => {
                    self.is_discarding = true;
                    return Err(AnyDelimiterCodecError::MaxChunkLengthExceeded);
                }
                (false, None) => {
                    self.next_index = read_to;
                    return Ok(None);
                }
            }
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Bytes>, AnyDelimiterCodecError> {
        if let Some(chunk) = self.decode(buf)? {
            return Ok(Some(chunk));
        }
        if buf.is_empty() {
            return Ok(None);
        }
        self.next_index = 0;
        Ok(Some(buf.split().freeze()))
    }
}

impl<T: AsRef<str>> Encoder<T> for AnyDelimiterCodec {
    type Error = AnyDelimiterCodecError;

    fn encode(&mut self, chunk: T, buf: &mut BytesMut) -> Result<(), AnyDelimiterCodecError> {
        let chunk = chunk.as_ref();
        buf.reserve(chunk.len() + self.sequence_writer.len());
        buf.put(chunk.as_bytes());
        buf.put(&self.sequence_writer[..]);
        Ok(())
    }
}

/// The error of an [`AnyDelimiterCodec`].
#[derive(Debug)]
pub enum AnyDelimiterCodecError {
    /// A chunk was longer than the codec's limit.
    MaxChunkLengthExceeded,
    /// The transport failed.
    Io(io::Error),
}

impl fmt::Display for AnyDelimiterCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyDelimiterCodecError::MaxChunkLengthExceeded => {
                f.write_str("max chunk length exceeded")
            }
            AnyDelimiterCodecError::Io(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl From<io::Error> for AnyDelimiterCodecError {
    fn from(e: io::Error) -> AnyDelimiterCodecError {
        AnyDelimiterCodecError::Io(e)
    }
}

impl std::error::Error for AnyDelimiterCodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnyDelimiterCodecError::MaxChunkLengthExceeded => None,
            AnyDelimiterCodecError::Io(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AnyDelimiterCodec;
    use crate::Decoder;
    use bytes::BytesMut;

    /// A chunk arriving in pieces is searched once: each `decode` resumes
    /// where the last one stopped instead of rescanning from the start.
    #[test]
    fn a_chunk_in_pieces_is_searched_once() {
        let mut codec = AnyDelimiterCodec::default();
        let mut buf = BytesMut::new();
        for piece in ["first ", "part of ", "a chunk"] {
            buf.extend_from_slice(piece.as_bytes());
            assert_eq!(codec.decode(&mut buf).unwrap(), None);
            assert_eq!(
                codec.next_index,
                buf.len(),
                "resumes after the searched bytes"
            );
        }
        buf.extend_from_slice(b";next");
        assert_eq!(
            &codec.decode(&mut buf).unwrap().unwrap()[..],
            b"first part of a chunk"
        );
        assert_eq!(
            codec.next_index, 0,
            "the next chunk is searched from its start"
        );
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        assert_eq!(codec.next_index, 4);
    }
}
