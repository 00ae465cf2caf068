//! Running two futures concurrently inside one task, for tests whose two
//! sides (a writer and a reader, a client and a server) must progress
//! together on one thread.

use std::future::{poll_fn, Future};
use std::pin::pin;
use std::task::Poll;

/// Polls `a` and `b` together until both are done; returns both outputs.
///
/// ```
/// let (a, b) = rt_test::block_on(rt_test::join2(async { 1 }, async { "two" }));
/// assert_eq!((a, b), (1, "two"));
/// ```
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
        if out_a.is_some() && out_b.is_some() {
            Poll::Ready((out_a.take().unwrap(), out_b.take().unwrap()))
        } else {
            Poll::Pending
        }
    })
    .await
}
