//! `SinkExt`: the everyday ways to drive a `Sink` from async code (send an
//! item, feed one without flushing, flush, close, forward a stream), and
//! the named futures they return. The futures stay in this module (they
//! are not re-exported at the crate root, where `Send` would shadow the
//! marker trait for `use rt_codec::*`).
//!
//! A `Sink` only has poll methods; these futures call them in the order the
//! `Sink` contract asks for (`poll_ready` before every `start_send`), so a
//! `Framed`, `FramedWrite` or `UdpFramed` can be used with `.await`.

mod close;
mod feed;
mod flush;
mod send;
mod send_all;

pub use close::Close;
pub use feed::Feed;
pub use flush::Flush;
pub use send::Send;
pub use send_all::SendAll;

use futures_core::TryStream;
use futures_sink::Sink;

/// Async helpers for every [`Sink`], in the shape of the `futures` crate's
/// trait of the same name.
///
/// ```
/// use rt_codec::{FramedRead, FramedWrite, LinesCodec, SinkExt};
/// use futures_core::Stream;
/// use std::future::poll_fn;
/// use std::pin::Pin;
/// # rt_core::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
///
/// let (a, b) = rt_io::io::duplex(64);
/// let mut lines_out = FramedWrite::new(a, LinesCodec::new());
/// let mut lines_in = FramedRead::new(b, LinesCodec::new());
///
/// lines_out.feed("one").await?; // buffered, not written yet
/// lines_out.send("two").await?; // buffered, then everything is flushed
/// // `LinesCodec` encodes several item types; name the one being closed.
/// SinkExt::<&str>::close(&mut lines_out).await?;
///
/// let mut received = Vec::new();
/// while let Some(line) = poll_fn(|cx| Pin::new(&mut lines_in).poll_next(cx)).await {
///     received.push(line?);
/// }
/// assert_eq!(received, ["one", "two"]);
/// # Ok::<_, rt_codec::LinesCodecError>(())
/// # }).unwrap();
/// ```
pub trait SinkExt<Item>: Sink<Item> {
    /// Sends `item` and flushes the sink.
    ///
    /// Not cancel-safe: dropping the future after the item was handed to
    /// the sink but before the flush finished leaves the item buffered
    /// (a later flush sends it); dropping it before the sink had room
    /// loses the item.
    fn send(&mut self, item: Item) -> Send<'_, Self, Item>
    where
        Self: Unpin,
    {
        Send::new(self, item)
    }

    /// Hands `item` to the sink once it has room, without flushing: a way
    /// to batch several items into one flush.
    fn feed(&mut self, item: Item) -> Feed<'_, Self, Item>
    where
        Self: Unpin,
    {
        Feed::new(self, item)
    }

    /// Flushes everything the sink buffered.
    fn flush(&mut self) -> Flush<'_, Self, Item>
    where
        Self: Unpin,
    {
        Flush::new(self)
    }

    /// Flushes and closes the sink.
    fn close(&mut self) -> Close<'_, Self, Item>
    where
        Self: Unpin,
    {
        Close::new(self)
    }

    /// Forwards every item of `stream` into the sink, flushing whenever
    /// the stream has nothing ready and once it has ended; the first error
    /// of either side ends the future with that error. The sink is not
    /// closed.
    fn send_all<'a, St>(&'a mut self, stream: &'a mut St) -> SendAll<'a, Self, St>
    where
        St: TryStream<Ok = Item, Error = Self::Error> + Unpin + ?Sized,
        Self: Unpin,
    {
        SendAll::new(self, stream)
    }
}

impl<Item, S: Sink<Item> + ?Sized> SinkExt<Item> for S {}
