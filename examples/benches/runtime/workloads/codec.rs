//! Codecs: frames encoded by a `Framed` on one end of an in-memory duplex
//! stream and decoded by a `Framed` on the other, with the length-delimited
//! codec and the lines codec.
//!
//! The codec crates differ in path (`rt::codec`, `tokio_util::codec`), so
//! the types come from `tk_codec`, an alias each side defines. Neither side
//! has a `SinkExt` here, so frames go into the sink through `feed_all`,
//! written below on the `Sink` trait itself, and come out through
//! `decode_all` on the `Stream` trait: both runtimes run the same driving
//! code.

use std::fmt::Debug;
use std::future::poll_fn;
use std::pin::Pin;

use super::build::runtime;
use super::tk;
use super::tk_codec::{Framed, LengthDelimitedCodec, LinesCodec};
use bench_harness::{Size, Stopwatch};
use bytes::Bytes;
use futures_core::Stream;
use futures_sink::Sink;

/// Bytes of payload in each length-delimited frame.
const FRAME: usize = 100;

/// Capacity of the duplex stream between the two ends.
const DUPLEX_CAPACITY: usize = 64 * 1024;

/// One line of the lines workload: 99 characters, 100 bytes with the
/// newline.
const LINE: &str = "the quick brown fox jumps over the lazy dog, \
                    then over the lazy cat, then over the lazy hen; at end";
const _: () = assert!(LINE.len() + 1 == 100);

/// 100k frames of 100 bytes through `LengthDelimitedCodec`: one task
/// encodes and writes them, another reads and decodes them.
pub fn codec_length_delimited(size: &Size) -> f64 {
    let frames = size.count(100_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let (near, far) = tk::io::duplex(DUPLEX_CAPACITY);
            let mut sender = Framed::new(near, LengthDelimitedCodec::new());
            let mut receiver = Framed::new(far, LengthDelimitedCodec::new());
            let frame = Bytes::from(vec![0x5au8; FRAME]);
            let started = Stopwatch::start();
            let writer = tk::spawn(async move {
                feed_all(&mut sender, (0..frames).map(|_| frame.clone())).await;
            });
            let received = decode_all(&mut receiver, |frame| assert_eq!(frame.len(), FRAME)).await;
            writer.await.expect("writer completes");
            let elapsed = started.elapsed().as_nanos() as f64;
            assert_eq!(received, frames);
            elapsed
        });
        driver.await.expect("driver completes")
    })
}

/// 100k lines of 100 bytes through `LinesCodec`, one task writing and
/// another reading.
pub fn codec_lines(size: &Size) -> f64 {
    let lines = size.count(100_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let (near, far) = tk::io::duplex(DUPLEX_CAPACITY);
            let mut sender = Framed::new(near, LinesCodec::new());
            let mut receiver = Framed::new(far, LinesCodec::new());
            let started = Stopwatch::start();
            let writer = tk::spawn(async move {
                feed_all(&mut sender, (0..lines).map(|_| LINE)).await;
            });
            let received =
                decode_all(&mut receiver, |line| assert_eq!(line.len(), LINE.len())).await;
            writer.await.expect("writer completes");
            let elapsed = started.elapsed().as_nanos() as f64;
            assert_eq!(received, lines);
            elapsed
        });
        driver.await.expect("driver completes")
    })
}

/// Puts every item into `sink`, waiting whenever it applies backpressure,
/// then closes it (which flushes and shuts the transport's write side
/// down, so the reader sees end of stream). Flushing only when the sink
/// asks, not after every item, is how a batch is usually sent.
async fn feed_all<S, I>(sink: &mut S, items: impl Iterator<Item = I>)
where
    S: Sink<I> + Unpin,
    S::Error: Debug,
{
    for item in items {
        poll_fn(|cx| Pin::new(&mut *sink).poll_ready(cx))
            .await
            .expect("sink accepts frames");
        Pin::new(&mut *sink)
            .start_send(item)
            .expect("frame encodes");
    }
    poll_fn(|cx| Pin::new(&mut *sink).poll_close(cx))
        .await
        .expect("sink closes");
}

/// Reads frames from `stream` until it ends, hands each to `check`, and
/// returns how many there were.
async fn decode_all<S, T, E>(stream: &mut S, mut check: impl FnMut(T)) -> usize
where
    S: Stream<Item = Result<T, E>> + Unpin,
    E: Debug,
{
    let mut count = 0;
    while let Some(frame) = poll_fn(|cx| Pin::new(&mut *stream).poll_next(cx)).await {
        check(frame.expect("frame decodes"));
        count += 1;
    }
    count
}
