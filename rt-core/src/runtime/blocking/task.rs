//! The future that runs a blocking closure, once, outside the coop budget.

use super::BlockingActivity;
use crate::task::coop;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

pub(crate) struct BlockingTask<F> {
    func: Option<F>,
    /// Counted from creation until this future is dropped (after it ran, or
    /// when shutdown cancels it unrun).
    activity: Arc<BlockingActivity>,
}

impl<F> BlockingTask<F> {
    pub(crate) fn new(func: F, activity: Arc<BlockingActivity>) -> BlockingTask<F> {
        activity.started();
        BlockingTask {
            func: Some(func),
            activity,
        }
    }
}

impl<F> Drop for BlockingTask<F> {
    fn drop(&mut self) {
        self.activity.finished();
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
