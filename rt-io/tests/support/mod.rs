//! Test support: a minimal executor for single-threaded async tests.
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

/// A current-thread runtime with the reactor installed, for socket tests.
#[cfg(feature = "net")]
pub fn io_runtime() -> rt_core::runtime::Runtime {
    rt_core::runtime::Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .expect("a current-thread runtime with I/O builds")
}

/// A connected loopback TCP pair: (client, server).
#[cfg(feature = "net")]
pub async fn tcp_pair() -> (rt_io::net::TcpStream, rt_io::net::TcpStream) {
    let listener = rt_io::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind on loopback");
    let addr = listener.local_addr().expect("listener address");
    let client = rt_io::net::TcpStream::connect(addr)
        .await
        .expect("connect on loopback");
    let (server, _) = listener.accept().await.expect("accept on loopback");
    (client, server)
}
