//! Driving one future to completion on the calling thread, parking it on a
//! [`ParkThread`] between wake-ups.
//!
//! This is the one thread-parking `block_on` of rt: the multi-thread
//! runtime's `block_on` waits with it while workers run the tasks, rt-sync's
//! `blocking_*` methods use it from synchronous code, and tests use it to
//! drive futures that need no runtime. It needs no scheduler.

use crate::runtime::{ParkThread, Unpark, UnparkThread};
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// Wakes the thread parked on the [`ParkThread`] this came from.
struct ThreadWaker(UnparkThread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` on this thread, parking between polls, until it is ready.
///
/// The future runs outside any runtime: it may use rt's runtime-agnostic
/// types (rt-sync's primitives, in-memory I/O), not resources that need a
/// driver (sockets, timers).
///
/// ```
/// let value = rt_core::util::block_on(async { 40 + 2 });
/// assert_eq!(value, 42);
/// ```
///
/// # Panics
///
/// On a thread that drives an rt runtime (inside an asynchronous task),
/// where blocking would stall every task of that thread.
#[track_caller]
pub fn block_on<F: Future>(future: F) -> F::Output {
    crate::runtime::assert_can_block();
    block_on_with_budget(future, None)
}

/// [`block_on`] without the check, each poll run with `budget` coop units
/// (`None`: unconstrained); for the runtime's own `block_on`, which has
/// entered the runtime itself.
pub(crate) fn block_on_with_budget<F: Future>(future: F, budget: Option<u32>) -> F::Output {
    let park = ParkThread::new();
    let waker = Waker::from(Arc::new(ThreadWaker(park.unpark_handle())));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        let polled = crate::task::coop::with_budget_value(budget, || future.as_mut().poll(&mut cx));
        if let Poll::Ready(output) = polled {
            return output;
        }
        // A wake that arrived before the park left a token, so this cannot
        // miss it; a spurious return only polls once more.
        park.park_timeout(None);
    }
}
