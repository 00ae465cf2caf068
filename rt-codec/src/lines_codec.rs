//! `LinesCodec`: UTF-8 lines ended by `\n` (a `\r` before it is dropped
//! too), with an optional length limit.

use crate::find_byte::find_byte;
use crate::{Decoder, Encoder};
use bytes::{Buf, BufMut, BytesMut};
use std::{cmp, fmt, io, str};

/// Splits a byte stream into `String` lines, without their `\n` or `\r\n`,
/// and encodes strings as lines.
///
/// With [`new_with_max_length`](LinesCodec::new_with_max_length), a line
/// longer than the limit is reported once as
/// [`LinesCodecError::MaxLineLengthExceeded`]; its bytes are then dropped
/// up to and including the next `\n`, and decoding carries on after it.
/// The buffer never holds more than the limit plus one read.
///
/// ```
/// use bytes::BytesMut;
/// use rt_codec::{Decoder, LinesCodec};
///
/// let mut codec = LinesCodec::new();
/// let mut buf = BytesMut::from("one\r\ntwo\nthr");
/// assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("one"));
/// assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("two"));
/// assert_eq!(codec.decode(&mut buf).unwrap(), None);
/// assert_eq!(codec.decode_eof(&mut buf).unwrap().as_deref(), Some("thr"));
/// ```
#[derive(Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct LinesCodec {
    /// Where to resume searching for `\n`; bytes before it were searched.
    next_index: usize,
    max_length: usize,
    /// Dropping the rest of an over-long line.
    is_discarding: bool,
}

impl LinesCodec {
    /// A codec without a line length limit.
    ///
    /// A peer that never sends `\n` then makes the buffer grow without
    /// bound; prefer [`new_with_max_length`](LinesCodec::new_with_max_length)
    /// for untrusted input.
    pub fn new() -> LinesCodec {
        LinesCodec {
            next_index: 0,
            max_length: usize::MAX,
            is_discarding: false,
        }
    }

    /// A codec that rejects lines longer than `max_length` bytes (not
    /// counting the line ending).
    pub fn new_with_max_length(max_length: usize) -> LinesCodec {
        LinesCodec {
            max_length,
            ..LinesCodec::new()
        }
    }

    /// The line length limit (`usize::MAX` when there is none).
    pub fn max_length(&self) -> usize {
        self.max_length
    }
}

impl Default for LinesCodec {
    fn default() -> Self {
        Self::new()
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, io::Error> {
    str::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "Unable to decode input as UTF8"))
}

fn without_carriage_return(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

impl Decoder for LinesCodec {
    type Item = String;
    type Error = LinesCodecError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<String>, LinesCodecError> {
        loop {
            // Look no further than one byte past the limit: a line ending
            // there still fits (the `\n` itself is not counted).
            let read_to = cmp::min(self.max_length.saturating_add(1), buf.len());
            // Bytes before `next_index` were searched already; the clamp
            // guards against a buffer shrunk by the caller in between.
            let start = self.next_index.min(read_to);
            let search = find_byte(b'\n', &buf[start..read_to]);
            // Only a search from the line's start covered all of it: the
            // caller may have changed the bytes before `next_index`.
            let ascii = start == 0 && search.ascii;
            match (self.is_discarding, search.at.map(|offset| offset + start)) {
                (true, Some(end)) => {
                    // The over-long line ends here; resume after it.
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
                    // Copied straight out of the buffer: splitting the line
                    // off first would make the buffer shared and cost a
                    // second handle per line. The line is consumed even
                    // when it is not UTF-8, so decoding goes on after it.
                    let bytes = without_carriage_return(&buf[..end]);
                    let line = if ascii {
                        debug_assert!(bytes.is_ascii());
                        // SAFETY: this call's search read every byte of
                        // `buf[..end]` and found each below 0x80; ASCII is
                        // valid UTF-8.
                        Ok(unsafe { str::from_utf8_unchecked(bytes) }.to_owned())
                    } else {
                        utf8(bytes).map(str::to_owned)
                    };
                    buf.advance(end + 1);
                    return Ok(Some(line?));
                }
                (false, None) if buf.len() > self.max_length => {
                    self.is_discarding = true;
                    return Err(LinesCodecError::MaxLineLengthExceeded);
                }
                (false, None) => {
                    self.next_index = read_to;
                    return Ok(None);
                }
            }
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<String>, LinesCodecError> {
        if let Some(line) = self.decode(buf)? {
            return Ok(Some(line));
        }
        // A last line without its `\n` (a lone `\r` is just a line ending
        // cut short).
        if buf.is_empty() || &buf[..] == b"\r" {
            buf.clear();
            return Ok(None);
        }
        let line = buf.split();
        self.next_index = 0;
        Ok(Some(utf8(without_carriage_return(&line))?.to_string()))
    }
}

impl<T: AsRef<str>> Encoder<T> for LinesCodec {
    type Error = LinesCodecError;

    fn encode(&mut self, line: T, buf: &mut BytesMut) -> Result<(), LinesCodecError> {
        let line = line.as_ref();
        buf.reserve(line.len() + 1);
        buf.put(line.as_bytes());
        buf.put_u8(b'\n');
        Ok(())
    }
}

/// The error of a [`LinesCodec`].
#[derive(Debug)]
pub enum LinesCodecError {
    /// A line was longer than the codec's limit.
    MaxLineLengthExceeded,
    /// The transport failed, or a line was not valid UTF-8.
    Io(io::Error),
}

impl fmt::Display for LinesCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinesCodecError::MaxLineLengthExceeded => f.write_str("max line length exceeded"),
            LinesCodecError::Io(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl From<io::Error> for LinesCodecError {
    fn from(e: io::Error) -> LinesCodecError {
        LinesCodecError::Io(e)
    }
}

impl std::error::Error for LinesCodecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LinesCodecError::MaxLineLengthExceeded => None,
            LinesCodecError::Io(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LinesCodec;
    use crate::Decoder;
    use bytes::BytesMut;

    /// A line arriving in pieces is searched once: each `decode` resumes
    /// where the last one stopped instead of rescanning from the start.
    #[test]
    fn a_line_in_pieces_is_searched_once() {
        let mut codec = LinesCodec::new();
        let mut buf = BytesMut::new();
        for piece in ["first ", "part of ", "a long line"] {
            buf.extend_from_slice(piece.as_bytes());
            assert_eq!(codec.decode(&mut buf).unwrap(), None);
            assert_eq!(
                codec.next_index,
                buf.len(),
                "resumes after the searched bytes"
            );
        }
        buf.extend_from_slice(b"\nnext");
        assert_eq!(
            codec.decode(&mut buf).unwrap().as_deref(),
            Some("first part of a long line")
        );
        assert_eq!(
            codec.next_index, 0,
            "the next line is searched from its start"
        );
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        assert_eq!(codec.next_index, 4);
    }

    /// With a limit, the search resumes where it stopped, and a `\n` one
    /// byte past the limit still ends a line that fits.
    #[test]
    fn the_search_stops_at_the_limit() {
        let mut codec = LinesCodec::new_with_max_length(8);
        let mut buf = BytesMut::from("12345");
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        assert_eq!(codec.next_index, 5);
        buf.extend_from_slice(b"678");
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        assert_eq!(codec.next_index, 8);
        // Byte 9 could still be the `\n` of a line of eight.
        buf.extend_from_slice(b"\n");
        assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("12345678"));
    }

    /// Decodes `line` followed by `\n` and `next\n`, handed over whole or
    /// in two pieces split at `split`, and checks the first line against
    /// `String::from_utf8` and that decoding goes on after it.
    fn check_line(line: &[u8], split: Option<usize>) {
        let mut codec = LinesCodec::new();
        let mut stream = line.to_vec();
        stream.extend_from_slice(b"\nnext\n");
        let mut buf = BytesMut::new();
        if let Some(split) = split {
            buf.extend_from_slice(&stream[..split]);
            assert_eq!(codec.decode(&mut buf).unwrap(), None);
            buf.extend_from_slice(&stream[split..]);
        } else {
            buf.extend_from_slice(&stream);
        }
        let decoded = codec.decode(&mut buf);
        match String::from_utf8(line.to_vec()) {
            Ok(want) => assert_eq!(decoded.unwrap().as_deref(), Some(&*want), "{line:?}"),
            Err(_) => assert!(decoded.is_err(), "{line:?} decoded as {decoded:?}"),
        }
        assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("next"));
    }

    /// Lines of every length up to 100 with a multi-byte character, or a
    /// byte that is not UTF-8, at each position: the search's ASCII fast
    /// path must leave both to the full check, whether the line comes in
    /// one piece or in two.
    #[test]
    fn non_ascii_lines_are_checked_whole() {
        for len in 1..=100 {
            for at in 0..len {
                for odd in [&b"\xc3\xa9"[..], b"\xe2\x82\xac", b"\xff", b"\xc3", b"\x80"] {
                    let mut line = vec![b'a'; len];
                    line.splice(at..at + 1, odd.iter().copied());
                    check_line(&line, None);
                    check_line(&line, Some(at + 1));
                    check_line(&line, Some(line.len()));
                }
            }
            check_line(&vec![b'a'; len], None);
        }
    }
}
