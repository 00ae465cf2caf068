//! `Builder`: the header layout and limits of a `LengthDelimitedCodec`,
//! and shortcuts to wrap a transport with it.

use super::LengthDelimitedCodec;
use crate::{Framed, FramedRead, FramedWrite};
use rt_io::io::{AsyncRead, AsyncWrite};

/// Configures a [`LengthDelimitedCodec`].
///
/// Defaults: a 4-byte big-endian length field at offset 0, no adjustment,
/// the whole header skipped, frames of at most 8 MiB.
#[derive(Debug, Clone, Copy)]
pub struct Builder {
    pub(crate) max_frame_len: usize,
    pub(crate) length_field_len: usize,
    pub(crate) length_field_offset: usize,
    pub(crate) length_adjustment: isize,
    pub(crate) num_skip: Option<usize>,
    pub(crate) byte_order: ByteOrder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ByteOrder {
    Big,
    Little,
}

mod sealed {
    pub trait Sealed {}
}

/// The integer types whose width [`Builder::length_field_type`] accepts as
/// the length field's size. Implemented for `u8`, `u16`, `u32` and `u64`.
pub trait LengthFieldType: sealed::Sealed {}

macro_rules! length_field_types {
    ($($ty:ty),*) => {$(
        impl sealed::Sealed for $ty {}
        impl LengthFieldType for $ty {}
    )*};
}

length_field_types!(u8, u16, u32, u64);

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder with the default settings.
    pub fn new() -> Builder {
        Builder {
            max_frame_len: 8 * 1024 * 1024,
            length_field_len: 4,
            length_field_offset: 0,
            length_adjustment: 0,
            num_skip: None,
            byte_order: ByteOrder::Big,
        }
    }

    /// The length field is big-endian (the default).
    pub fn big_endian(&mut self) -> &mut Self {
        self.byte_order = ByteOrder::Big;
        self
    }

    /// The length field is little-endian.
    pub fn little_endian(&mut self) -> &mut Self {
        self.byte_order = ByteOrder::Little;
        self
    }

    /// The length field is in this machine's byte order.
    pub fn native_endian(&mut self) -> &mut Self {
        if cfg!(target_endian = "big") {
            self.big_endian()
        } else {
            self.little_endian()
        }
    }

    /// The largest length field value accepted when decoding, and the
    /// largest payload accepted when encoding (8 MiB by default). It is
    /// lowered, if needed, to what the length field can express.
    pub fn max_frame_length(&mut self, val: usize) -> &mut Self {
        self.max_frame_len = val;
        self
    }

    /// The length field is as wide as `T` (`u8`, `u16`, `u32` or `u64`).
    ///
    /// ```
    /// let codec = rt_codec::LengthDelimitedCodec::builder()
    ///     .length_field_type::<u16>()
    ///     .new_codec();
    /// assert_eq!(codec.max_frame_length(), 65_535);
    /// ```
    pub fn length_field_type<T: LengthFieldType>(&mut self) -> &mut Self {
        self.length_field_length(std::mem::size_of::<T>())
    }

    /// The length field is `val` bytes wide (4 by default).
    ///
    /// # Panics
    ///
    /// If `val` is not in `1..=8`.
    #[track_caller]
    pub fn length_field_length(&mut self, val: usize) -> &mut Self {
        assert!(
            (1..=8).contains(&val),
            "length field length must be between 1 and 8 bytes, got {val}"
        );
        self.length_field_len = val;
        self
    }

    /// The number of bytes before the length field (0 by default).
    pub fn length_field_offset(&mut self, val: usize) -> &mut Self {
        self.length_field_offset = val;
        self
    }

    /// A correction added to the length field's value to get the number of
    /// bytes that follow the skipped header (0 by default). Use a negative
    /// value when the field counts header bytes too.
    pub fn length_adjustment(&mut self, val: isize) -> &mut Self {
        self.length_adjustment = val;
        self
    }

    /// How many bytes to drop from the front of each frame (by default,
    /// everything up to the end of the length field).
    pub fn num_skip(&mut self, val: usize) -> &mut Self {
        self.num_skip = Some(val);
        self
    }

    /// A codec with these settings.
    pub fn new_codec(&self) -> LengthDelimitedCodec {
        let mut builder = *self;
        builder.max_frame_len = builder.clamped_max_frame_len();
        LengthDelimitedCodec::from_builder(builder)
    }

    /// A [`FramedRead`] decoding `upstream` with these settings.
    pub fn new_read<T: AsyncRead>(&self, upstream: T) -> FramedRead<T, LengthDelimitedCodec> {
        FramedRead::new(upstream, self.new_codec())
    }

    /// A [`FramedWrite`] encoding into `inner` with these settings.
    pub fn new_write<T: AsyncWrite>(&self, inner: T) -> FramedWrite<T, LengthDelimitedCodec> {
        FramedWrite::new(inner, self.new_codec())
    }

    /// A [`Framed`] over `inner` with these settings.
    pub fn new_framed<T: AsyncRead + AsyncWrite>(
        &self,
        inner: T,
    ) -> Framed<T, LengthDelimitedCodec> {
        Framed::new(inner, self.new_codec())
    }

    /// Header bytes needed before a frame's length is known: through the
    /// length field, and at least what is skipped.
    pub(crate) fn num_head_bytes(&self) -> usize {
        self.length_field_offset
            .saturating_add(self.length_field_len)
            .max(self.num_skip.unwrap_or(0))
    }

    pub(crate) fn skip_len(&self) -> usize {
        self.num_skip.unwrap_or_else(|| {
            self.length_field_offset
                .saturating_add(self.length_field_len)
        })
    }

    /// The largest value the length field can hold.
    pub(crate) fn max_field_value(&self) -> u64 {
        match 1u64.checked_shl(8 * self.length_field_len as u32) {
            Some(bound) => bound - 1,
            None => u64::MAX,
        }
    }

    /// `max_frame_len`, lowered to the largest frame the length field can
    /// describe after adjustment.
    pub(crate) fn clamped_max_frame_len(&self) -> usize {
        let adjustment = self.length_adjustment as i64;
        let expressible = if adjustment >= 0 {
            self.max_field_value().saturating_add(adjustment as u64)
        } else {
            self.max_field_value()
                .saturating_sub(adjustment.unsigned_abs())
        };
        let expressible = usize::try_from(expressible).unwrap_or(usize::MAX);
        self.max_frame_len.min(expressible)
    }
}
