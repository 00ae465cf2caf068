//! Streams written as async code: [`stream_fn`] and [`try_stream_fn`].
//!
//! The body is an ordinary future that receives a [`Sender`] and calls
//! `sender.send(item).await` for each item. A one-item slot shared by the
//! sender and the stream carries the item across: `send` puts the item in
//! the slot and suspends the body once, the stream's `poll_next` sees the
//! filled slot when the body returns `Pending`, and hands the item out.
//! No macro, no unsafe code and no extra dependency is involved; the cost
//! is one small allocation for the slot when the stream is built.

mod sender;
mod stream;

pub use sender::{SendItem, Sender};
pub use stream::{stream_fn, try_stream_fn, AsyncStream, TryAsyncStream};
