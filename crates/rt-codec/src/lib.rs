//! `rt-codec` will own Decoder/Encoder, FramedRead/FramedWrite/Framed and the common codecs.
//!
//! The crate is reserved in the workspace and has no public items yet.
