//! The future that runs a blocking closure, once, outside the coop budget.

use crate::task::coop;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub(crate) struct BlockingTask<F> {
    func: Option<F>,
}

impl<F> BlockingTask<F> {
    pub(crate) fn new(func: F) -> BlockingTask<F> {
        BlockingTask { func: Some(func) }
    }
}

// The closure is moved out before it runs, never pinned.
impl<F> Unpin for BlockingTask<F> {}

impl<F: FnOnce() -> R, R> Future for BlockingTask<F> {
    type Output = R;

    fn poll(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<R> {
        let func = self
            .func
            .take()
            .expect("blocking task polled after completion");
        // Blocking code is not cooperative: no budget applies.
        Poll::Ready(coop::with_unconstrained(func))
    }
}
