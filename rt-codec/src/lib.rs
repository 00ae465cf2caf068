//! `rt-codec`: from byte streams to frames (the path users know as
//! `rt::codec`).
//!
//! A [`Decoder`] finds frames in buffered bytes and an [`Encoder`] turns
//! frames into bytes. [`FramedRead`] turns any `AsyncRead` into a `Stream`
//! of frames, [`FramedWrite`] turns any `AsyncWrite` into a `Sink` of
//! frames, and [`Framed`] does both over one transport; [`FramedParts`]
//! takes a `Framed` apart without losing buffered bytes.
//!
//! Ready-made codecs: [`LengthDelimitedCodec`] (length-prefixed frames,
//! configured through [`length_delimited::Builder`]), [`LinesCodec`],
//! [`AnyDelimiterCodec`] and [`BytesCodec`].
//!
//! [`SinkExt`] drives any `Sink` from async code (`send`, `feed`, `flush`,
//! `close`, `send_all`); its futures live in [`sink`].
//!
//! With the `net` feature (off by default), [`UdpFramed`] frames the
//! datagrams of rt-io's `UdpSocket`: a `Stream` of frames with their
//! senders and a `Sink` of frames with their destinations.
//!
//! Without `net` (the default), the crate depends on rt-io's traits only
//! (no reactor, no scheduler), plus `bytes`, `futures-core` and `futures-sink`, so a protocol
//! library can use it without choosing an executor.

mod any_delimiter_codec;
mod bytes_codec;
mod decoder;
mod encoder;
mod find_byte;
mod framed;
mod framed_impl;
mod framed_read;
mod framed_write;
pub mod length_delimited;
mod lines_codec;
pub mod sink;
#[cfg(feature = "net")]
mod udp_framed;

pub use any_delimiter_codec::{AnyDelimiterCodec, AnyDelimiterCodecError};
pub use bytes_codec::BytesCodec;
pub use decoder::Decoder;
pub use encoder::Encoder;
pub use framed::{Framed, FramedParts};
pub use framed_read::FramedRead;
pub use framed_write::FramedWrite;
pub use length_delimited::{LengthDelimitedCodec, LengthDelimitedCodecError};
pub use lines_codec::{LinesCodec, LinesCodecError};
pub use sink::SinkExt;
#[cfg(feature = "net")]
pub use udp_framed::UdpFramed;
