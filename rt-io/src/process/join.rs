//! Running three futures to completion together, for
//! `Child::wait_with_output`, which must drain stdout and stderr while it
//! waits: a child blocked on a full pipe would otherwise never exit.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::task::{Context, Poll};

/// Polls `fut` unless it already produced its output into `out`.
fn poll_into<F: Future>(fut: Pin<&mut F>, out: &mut Option<F::Output>, cx: &mut Context<'_>) {
    if out.is_none() {
        if let Poll::Ready(value) = fut.poll(cx) {
            *out = Some(value);
        }
    }
}

/// Polls `a`, `b` and `c` until all three have finished.
pub(super) async fn join3<A: Future, B: Future, C: Future>(
    a: A,
    b: B,
    c: C,
) -> (A::Output, B::Output, C::Output) {
    let mut a = pin!(a);
    let mut b = pin!(b);
    let mut c = pin!(c);
    let (mut out_a, mut out_b, mut out_c) = (None, None, None);
    poll_fn(|cx| {
        // Every unfinished future is polled each time, so each one has its
        // waker registered when this returns `Pending`.
        poll_into(a.as_mut(), &mut out_a, cx);
        poll_into(b.as_mut(), &mut out_b, cx);
        poll_into(c.as_mut(), &mut out_c, cx);
        match (out_a.take(), out_b.take(), out_c.take()) {
            (Some(a), Some(b), Some(c)) => Poll::Ready((a, b, c)),
            (a, b, c) => {
                (out_a, out_b, out_c) = (a, b, c);
                Poll::Pending
            }
        }
    })
    .await
}
