//! `LengthDelimitedCodec`: the decode state machine and the encoder for
//! length-prefixed frames.

use super::builder::{Builder, ByteOrder};
use crate::decoder::bytes_remaining_on_stream;
use crate::{Decoder, Encoder};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use std::error::Error as StdError;
use std::{fmt, io};

/// A codec for frames prefixed by their length; see the
/// [module documentation](super) for the layout and [`Builder`] for the
/// options.
///
/// Decoding yields `BytesMut` payloads; encoding takes `Bytes`. A length
/// field above the maximum frame length is an `InvalidData` error (when
/// decoding) or `InvalidInput` error (when encoding) wrapping
/// [`LengthDelimitedCodecError`], raised before any memory is reserved for
/// the frame.
#[derive(Debug, Clone)]
pub struct LengthDelimitedCodec {
    builder: Builder,
    state: DecodeState,
}

/// Where the decoder is within the current frame; kept across calls so a
/// frame that arrives in pieces is parsed once.
#[derive(Debug, Clone, Copy)]
enum DecodeState {
    /// Waiting for the header of the next frame.
    Head,
    /// The header is consumed; the payload is this many bytes.
    Data(usize),
}

/// The error inside the `io::Error` of a frame longer than the configured
/// maximum.
pub struct LengthDelimitedCodecError {
    _priv: (),
}

impl fmt::Debug for LengthDelimitedCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LengthDelimitedCodecError").finish()
    }
}

impl fmt::Display for LengthDelimitedCodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("frame size too big")
    }
}

impl StdError for LengthDelimitedCodecError {}

fn frame_too_big(kind: io::ErrorKind) -> io::Error {
    io::Error::new(kind, LengthDelimitedCodecError { _priv: () })
}

fn adjustment_overflow() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "provided length would overflow after adjustment",
    )
}

impl LengthDelimitedCodec {
    /// A codec with the default settings (see [`Builder`]).
    pub fn new() -> LengthDelimitedCodec {
        Builder::new().new_codec()
    }

    /// A builder to configure a codec.
    pub fn builder() -> Builder {
        Builder::new()
    }

    pub(crate) fn from_builder(builder: Builder) -> LengthDelimitedCodec {
        LengthDelimitedCodec {
            builder,
            state: DecodeState::Head,
        }
    }

    /// The largest frame accepted.
    pub fn max_frame_length(&self) -> usize {
        self.builder.max_frame_len
    }

    /// Changes the largest frame accepted (lowered, if needed, to what the
    /// length field can express). A frame being decoded keeps the length
    /// already accepted.
    pub fn set_max_frame_length(&mut self, val: usize) {
        self.builder.max_frame_len = val;
        self.builder.max_frame_len = self.builder.clamped_max_frame_len();
    }

    /// Parses the header at the front of `src`, if it is all there, and
    /// returns the payload length; the skipped bytes are consumed.
    fn decode_head(&self, src: &mut BytesMut) -> io::Result<Option<usize>> {
        let b = &self.builder;
        if src.len() < b.num_head_bytes() {
            return Ok(None);
        }
        let field = &src[b.length_field_offset..b.length_field_offset + b.length_field_len];
        let raw = read_field(field, b.byte_order);
        // The limit applies to the raw field, before anything is reserved.
        if raw > b.max_frame_len as u64 {
            return Err(frame_too_big(io::ErrorKind::InvalidData));
        }
        let raw = raw as usize;
        let adjustment = b.length_adjustment;
        let len = if adjustment < 0 {
            raw.checked_sub(adjustment.unsigned_abs())
        } else {
            raw.checked_add(adjustment as usize)
        }
        .ok_or_else(adjustment_overflow)?;
        if len == 0 && b.skip_len() == 0 {
            // Such a frame would leave its own header in place to be parsed
            // again: an endless run of empty frames from one header.
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "length-delimited frame would consume no bytes",
            ));
        }
        src.advance(b.skip_len());
        src.reserve(len.saturating_sub(src.len()));
        Ok(Some(len))
    }
}

/// The unsigned number in `field` (one to eight bytes) in `order`. The
/// usual widths are read with one load; the others byte by byte.
#[inline]
fn read_field(field: &[u8], order: ByteOrder) -> u64 {
    macro_rules! load {
        ($int:ty) => {{
            let bytes = field.try_into().expect("the width matched");
            match order {
                ByteOrder::Big => <$int>::from_be_bytes(bytes) as u64,
                ByteOrder::Little => <$int>::from_le_bytes(bytes) as u64,
            }
        }};
    }
    match field.len() {
        1 => u64::from(field[0]),
        2 => load!(u16),
        4 => load!(u32),
        8 => load!(u64),
        _ => {
            let push = |n: u64, byte: &u8| (n << 8) | u64::from(*byte);
            match order {
                ByteOrder::Big => field.iter().fold(0, push),
                ByteOrder::Little => field.iter().rev().fold(0, push),
            }
        }
    }
}

impl Default for LengthDelimitedCodec {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder for LengthDelimitedCodec {
    type Item = BytesMut;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
        let len = match self.state {
            DecodeState::Head => match self.decode_head(src)? {
                Some(len) => {
                    self.state = DecodeState::Data(len);
                    len
                }
                None => return Ok(None),
            },
            DecodeState::Data(len) => len,
        };
        if src.len() < len {
            return Ok(None);
        }
        let frame = src.split_to(len);
        self.state = DecodeState::Head;
        Ok(Some(frame))
    }

    /// Like the default, but a frame whose header was consumed and whose
    /// payload never arrived is an error too, even if no payload byte is
    /// buffered. The codec then forgets that header, so that used again (on
    /// the next datagram of a `UdpFramed`, say) it starts with a header.
    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
        match self.decode(src)? {
            Some(frame) => Ok(Some(frame)),
            None if src.is_empty() && matches!(self.state, DecodeState::Head) => Ok(None),
            None => {
                self.state = DecodeState::Head;
                Err(bytes_remaining_on_stream())
            }
        }
    }
}

impl Encoder<Bytes> for LengthDelimitedCodec {
    type Error = io::Error;

    fn encode(&mut self, data: Bytes, dst: &mut BytesMut) -> io::Result<()> {
        let b = &self.builder;
        let len = data.len();
        if len > b.max_frame_len {
            return Err(frame_too_big(io::ErrorKind::InvalidInput));
        }
        // The field holds the payload length minus the adjustment the
        // decoder will add back.
        let adjustment = b.length_adjustment;
        let field = if adjustment < 0 {
            len.checked_add(adjustment.unsigned_abs())
        } else {
            len.checked_sub(adjustment as usize)
        }
        .ok_or_else(adjustment_overflow)?;
        if field as u64 > b.max_field_value() {
            return Err(frame_too_big(io::ErrorKind::InvalidInput));
        }
        dst.reserve(b.length_field_len + len);
        match b.byte_order {
            ByteOrder::Big => dst.put_uint(field as u64, b.length_field_len),
            ByteOrder::Little => dst.put_uint_le(field as u64, b.length_field_len),
        }
        dst.extend_from_slice(&data);
        Ok(())
    }
}
