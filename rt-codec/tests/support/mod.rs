//! Test support: a minimal executor for single-threaded async tests, and
//! `Stream`/`Sink` helpers in place of a combinator library.
//!
//! Every test here runs on one thread over in-memory streams, so a future
//! that returns `Pending` without having been woken can never make progress:
//! `block_on` reports that as a failure at once instead of hanging.

#![allow(dead_code)]

use std::future::{poll_fn, Future};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Polls `fut` to completion on this thread.
///
/// # Panics
///
/// If the future is pending and nothing woke it (it would never finish).
pub fn block_on<F: Future>(fut: F) -> F::Output {
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    let mut fut = pin!(fut);
    loop {
        if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
            return out;
        }
        assert!(
            flag.0.swap(false, Ordering::SeqCst),
            "future is pending and nothing will wake it"
        );
    }
}

/// Runs two futures concurrently and returns both outputs.
pub async fn join2<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let mut a = pin!(a);
    let mut b = pin!(b);
    let mut out_a = None;
    let mut out_b = None;
    poll_fn(|cx| {
        if out_a.is_none() {
            if let Poll::Ready(v) = a.as_mut().poll(cx) {
                out_a = Some(v);
            }
        }
        if out_b.is_none() {
            if let Poll::Ready(v) = b.as_mut().poll(cx) {
                out_b = Some(v);
            }
        }
        match (out_a.take(), out_b.take()) {
            (Some(a), Some(b)) => Poll::Ready((a, b)),
            (a, b) => {
                out_a = a;
                out_b = b;
                Poll::Pending
            }
        }
    })
    .await
}

/// Polls `fut` once with a waker that nobody watches.
pub fn poll_once<F: Future + Unpin>(fut: &mut F) -> Poll<F::Output> {
    let waker = Waker::from(Arc::new(Flag(AtomicBool::new(false))));
    let mut cx = Context::from_waker(&waker);
    std::pin::Pin::new(fut).poll(&mut cx)
}

/// The next item of a stream (`None` at its end).
pub async fn next<S: futures_core::Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    poll_fn(|cx| std::pin::Pin::new(&mut *stream).poll_next(cx)).await
}

/// Waits for room, then hands `item` to the sink, without flushing.
pub async fn feed<S, I>(sink: &mut S, item: I) -> Result<(), S::Error>
where
    S: futures_sink::Sink<I> + Unpin,
{
    poll_fn(|cx| std::pin::Pin::new(&mut *sink).poll_ready(cx)).await?;
    std::pin::Pin::new(&mut *sink).start_send(item)
}

/// Flushes the sink.
pub async fn flush<S, I>(sink: &mut S) -> Result<(), S::Error>
where
    S: futures_sink::Sink<I> + Unpin,
{
    poll_fn(|cx| std::pin::Pin::new(&mut *sink).poll_flush(cx)).await
}

/// Feeds `item`, then flushes.
pub async fn send<S, I>(sink: &mut S, item: I) -> Result<(), S::Error>
where
    S: futures_sink::Sink<I> + Unpin,
{
    feed(sink, item).await?;
    flush(sink).await
}

/// Closes the sink: flush, then shut the transport down.
pub async fn close<S, I>(sink: &mut S) -> Result<(), S::Error>
where
    S: futures_sink::Sink<I> + Unpin,
{
    poll_fn(|cx| std::pin::Pin::new(&mut *sink).poll_close(cx)).await
}
