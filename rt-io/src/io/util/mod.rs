//! The utilities built on the I/O traits: the extension traits and their
//! futures, in-memory streams, splitting, joining, buffering and copying.

pub(crate) mod buf_read_ext;
pub(crate) mod buf_reader;
pub(crate) mod buf_stream;
pub(crate) mod buf_writer;
pub(crate) mod chain;
pub(crate) mod copy;
pub(crate) mod copy_bidirectional;
pub(crate) mod duplex;
pub(crate) mod interrupted;
pub(crate) mod join;
pub(crate) mod lines;
pub(crate) mod mem;
pub(crate) mod pipe;
pub(crate) mod read;
pub(crate) mod read_ext;
pub(crate) mod read_int;
pub(crate) mod read_until;
pub(crate) mod seek_ext;
pub(crate) mod simplex;
pub(crate) mod split;
pub(crate) mod take;
pub(crate) mod write;
pub(crate) mod write_ext;
pub(crate) mod write_int;
