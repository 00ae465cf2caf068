//! Frames prefixed by their length: [`LengthDelimitedCodec`] and the
//! [`Builder`] that configures its header layout.
//!
//! A frame on the wire is a header followed by the payload. By default the
//! header is just the payload length as a 4-byte big-endian integer:
//!
//! ```text
//! +------ 4 bytes ------+---- n bytes ----+
//! |   n (big endian)    |     payload     |
//! +---------------------+-----------------+
//! ```
//!
//! The builder describes other layouts: the length field's size (1 to 8
//! bytes) and byte order, bytes before it (`length_field_offset`), a signed
//! correction when the field counts more or less than what follows the
//! skipped header (`length_adjustment`), and how many leading bytes to drop
//! from each frame (`num_skip`, by default the whole header up to the end of
//! the length field).
//!
//! Decoding reads the length field, rejects it if it exceeds
//! `max_frame_length` (8 MiB by default) before reserving any memory for
//! the frame, applies the adjustment with checked arithmetic, skips
//! `num_skip` bytes and yields the next `length + adjustment` bytes.
//! Encoding writes the length field (payload length minus the adjustment)
//! followed by the payload; it writes no offset bytes.
//!
//! ```
//! use bytes::{Bytes, BytesMut};
//! use rt_codec::{Decoder, Encoder, LengthDelimitedCodec};
//!
//! let mut codec = LengthDelimitedCodec::builder()
//!     .length_field_type::<u16>()
//!     .little_endian()
//!     .new_codec();
//! let mut wire = BytesMut::new();
//! codec.encode(Bytes::from_static(b"hello"), &mut wire).unwrap();
//! assert_eq!(&wire[..], b"\x05\x00hello");
//! let frame = codec.decode(&mut wire).unwrap().unwrap();
//! assert_eq!(&frame[..], b"hello");
//! ```

mod builder;
mod codec;

pub use builder::{Builder, LengthFieldType};
pub use codec::{LengthDelimitedCodec, LengthDelimitedCodecError};
