//! Driving one future to completion on the calling thread, parking it on a
//! [`ParkThread`] between wake-ups.
//!
//! This is the one thread-parking `block_on` of rt: the multi-thread
//! runtime's `block_on` waits with it while workers run the tasks, rt-sync's
//! `blocking_*` methods use it from synchronous code, and tests use it to
//! drive futures that need no runtime. It needs no scheduler.

use crate::runtime::{ParkThread, Unpark, UnparkThread};
#[cfg(not(loom))]
use std::cell::Cell;
use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
#[cfg(not(loom))]
use std::time::Duration;

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
    block_on_parking(future, None)
}

/// [`block_on`] without the check, each poll run with `budget` coop units
/// (`None`: unconstrained); for the multi-thread runtime's own `block_on`,
/// which has entered the runtime itself.
#[cfg(feature = "rt-multi-thread")]
pub(crate) fn block_on_with_budget<F: Future>(future: F, budget: Option<u32>) -> F::Output {
    block_on_parking(future, budget)
}

fn block_on_parking<F: Future>(future: F, budget: Option<u32>) -> F::Output {
    // Reborrowed by the cached path, which loom builds leave out.
    #[cfg_attr(loom, allow(unused_mut))]
    let mut future = pin!(future);
    #[cfg(not(loom))]
    {
        let cached = CACHED.try_with(|cached| {
            let _claim = cached.claim()?;
            // A token left by an earlier call cannot be for this future,
            // which no one has seen yet: drop it rather than poll twice.
            cached.park.park_timeout(Some(Duration::ZERO));
            Some(poll_until_ready(
                future.as_mut(),
                &cached.park,
                &cached.waker,
                budget,
            ))
        });
        if let Ok(Some(output)) = cached {
            return output;
        }
    }
    let park = ParkThread::new();
    let waker = Waker::from(Arc::new(ThreadWaker(park.unpark_handle())));
    poll_until_ready(future, &park, &waker, budget)
}

/// The loop of [`block_on`]: poll, and park on `park` (which `waker`
/// unparks) until the next wake-up.
fn poll_until_ready<F: Future>(
    mut future: Pin<&mut F>,
    park: &ParkThread,
    waker: &Waker,
    budget: Option<u32>,
) -> F::Output {
    let mut cx = Context::from_waker(waker);
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

/// This thread's parker and the waker that unparks it, kept from one
/// [`block_on`] to the next: making them costs two allocations, which was
/// most of a short blocking call (a `blocking_send` that finds room).
///
/// One `block_on` at a time holds them; a nested one (a future that blocks
/// inside its own poll) makes a pair of its own, so that the two never
/// consume each other's wake-ups. A token left by an earlier call is
/// dropped when the next one starts; a wake-up through a waker an earlier
/// future left behind costs at most a spurious poll.
#[cfg(not(loom))]
struct CachedParker {
    park: ParkThread,
    waker: Waker,
    in_use: Cell<bool>,
}

#[cfg(not(loom))]
std::thread_local! {
    static CACHED: CachedParker = {
        let park = ParkThread::new();
        let waker = Waker::from(Arc::new(ThreadWaker(park.unpark_handle())));
        CachedParker {
            park,
            waker,
            in_use: Cell::new(false),
        }
    };
}

#[cfg(not(loom))]
impl CachedParker {
    /// Takes the parker for one `block_on`; `None` if another holds it.
    fn claim(&self) -> Option<Claim<'_>> {
        if self.in_use.replace(true) {
            return None;
        }
        Some(Claim(&self.in_use))
    }
}

/// Gives the cached parker back when the `block_on` ends, by unwinding too.
#[cfg(not(loom))]
struct Claim<'a>(&'a Cell<bool>);

#[cfg(not(loom))]
impl Drop for Claim<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}
