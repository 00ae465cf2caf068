//! `Sleep`: the future that completes at a deadline, and `sleep` /
//! `sleep_until` that make one.
//!
//! The runtime's time handle is looked up when the `Sleep` is created (so
//! creating one outside a runtime with timers panics at the call site); the
//! entry is linked into the wheel on the first poll, so a `Sleep` that is
//! never polled costs no lock.

use crate::driver::{Handle, SHUTTING_DOWN};
use crate::entry::{TimerEntry, FIRED, SHUTDOWN, UNREGISTERED};
use crate::Instant;
use pin_project_lite::pin_project;
use rt_core::task::coop;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::ptr::NonNull;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

/// Waits until `duration` has elapsed.
///
/// Equivalent to `sleep_until(Instant::now() + duration)`; a duration too
/// large for an `Instant` sleeps practically forever. The sleep never ends
/// early. A runtime with nothing else to do wakes for it at its exact
/// deadline (as precisely as the system's timeout allows); a busy one
/// notices it at the latest at the end of the millisecond it falls in.
///
/// # Panics
///
/// Outside a runtime, or in a runtime built without timers.
///
/// ```
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .driver_layer(rt_time::driver_layer(false)).build().unwrap();
/// # rt.block_on(async {
/// use std::time::Duration;
///
/// let start = rt_time::Instant::now();
/// rt_time::sleep(Duration::from_millis(10)).await;
/// assert!(start.elapsed() >= Duration::from_millis(10));
/// # });
/// ```
#[track_caller]
pub fn sleep(duration: Duration) -> Sleep {
    let deadline = Instant::now()
        .checked_add(duration)
        .unwrap_or_else(Instant::far_future);
    Sleep::new(deadline)
}

/// Waits until `deadline`.
///
/// # Panics
///
/// Outside a runtime, or in a runtime built without timers.
#[track_caller]
pub fn sleep_until(deadline: Instant) -> Sleep {
    Sleep::new(deadline)
}

pin_project! {
    /// The future returned by [`sleep`] and [`sleep_until`].
    ///
    /// It is `!Unpin` (its wheel entry is linked in place): pin it with
    /// `std::pin::pin!` or `Box::pin` to poll it or call
    /// [`reset`](Sleep::reset).
    #[must_use = "futures do nothing unless you `.await` or poll them"]
    pub struct Sleep {
        deadline: Instant,
        handle: Arc<Handle>,
        // The shard the entry registers with, fixed at creation.
        shard: usize,
        // Linked into the wheel by address: never moved once pinned.
        #[pin]
        entry: TimerEntry,
    }

    impl PinnedDrop for Sleep {
        fn drop(this: Pin<&mut Self>) {
            let this = this.into_ref().get_ref();
            // A fired entry the driver has released needs no lock (most
            // sleeps that were awaited to the end).
            if this.entry.needs_deregister() {
                // SAFETY: a registered entry was pinned (only a pinned
                // `Sleep` registers) and we are its only user; after this
                // the wheel no longer points at it.
                unsafe {
                    this.handle
                        .deregister(this.shard, NonNull::from(&this.entry))
                };
            }
        }
    }
}

impl Sleep {
    #[track_caller]
    pub(crate) fn new(deadline: Instant) -> Sleep {
        let handle = Handle::current();
        let shard = handle.shard_for_this_thread();
        Sleep {
            deadline,
            handle,
            shard,
            entry: TimerEntry::new(),
        }
    }

    /// The instant at which this sleep completes.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Whether the deadline has been reached (as seen by the timer: the
    /// sleep has fired).
    pub fn is_elapsed(&self) -> bool {
        self.entry.state() == FIRED
    }

    /// Moves the deadline, whether or not the sleep already completed; the
    /// next poll waits for the new one.
    ///
    /// ```
    /// # let rt = rt_core::runtime::Builder::new_current_thread()
    /// #     .driver_layer(rt_time::driver_layer(false)).build().unwrap();
    /// # rt.block_on(async {
    /// use std::time::Duration;
    /// use rt_time::{sleep, Instant};
    ///
    /// let mut sleep = std::pin::pin!(sleep(Duration::from_secs(60)));
    /// sleep.as_mut().reset(Instant::now() + Duration::from_millis(5));
    /// sleep.await;
    /// # });
    /// ```
    pub fn reset(mut self: Pin<&mut Self>, deadline: Instant) {
        *self.as_mut().project().deadline = deadline;
        let this = self.into_ref().get_ref();
        match this.entry.state() {
            UNREGISTERED => {}
            // Fired (or shut down): the driver unlinked it, and only we
            // link it again, so it is in no list and needs no check for a
            // deadline moved later. An interval's every tick comes here.
            // SAFETY: as below; the entry is in no list.
            FIRED | SHUTDOWN => unsafe { this.register_first() },
            // SAFETY: the entry is pinned inside `self` and deregistered in
            // `Drop`; `&mut self` makes us its only user; it only ever
            // registers with `this.shard`.
            _ => unsafe { this.register() },
        }
    }

    /// As [`reset`](Self::reset), but the task that polled last is not
    /// woken at the new deadline unless it polls again: what an
    /// [`Interval`](crate::Interval) does after handing out a tick, as
    /// tokio's does.
    ///
    /// The waker is forgotten before the reset: a deadline already passed
    /// fires during the reset itself, which would otherwise wake the task
    /// that is still running with the tick in hand.
    pub(crate) fn reset_without_waker(mut self: Pin<&mut Self>, deadline: Instant) {
        self.entry.forget_waker();
        self.as_mut().reset(deadline);
    }

    /// (Re)links the entry at `self.deadline`.
    ///
    /// # Safety
    ///
    /// `self` is pinned and the caller has exclusive access to it.
    unsafe fn register(&self) {
        let (tick, exact) = self.deadline_tick_and_exact();
        // SAFETY: the entry is pinned inside `self` (caller) and deregistered
        // in `Drop`; the caller's exclusive access makes us its only user;
        // it only ever registers with `self.shard`.
        unsafe {
            self.handle
                .reregister_exact(self.shard, NonNull::from(&self.entry), tick, exact)
        };
    }

    /// Links the entry, which is in no list, at `self.deadline`.
    ///
    /// # Safety
    ///
    /// As for `register`, and the entry is in no list: `UNREGISTERED`, or
    /// `FIRED` or `SHUTDOWN` (the driver unlinks an entry before it marks
    /// it so, and only its `Sleep` links it again).
    unsafe fn register_first(&self) {
        let (tick, exact) = self.deadline_tick_and_exact();
        // SAFETY: as in `register`; the entry is in no list (caller).
        unsafe {
            self.handle
                .register_exact(self.shard, NonNull::from(&self.entry), tick, exact)
        };
    }

    fn deadline_tick_and_exact(&self) -> (u64, u64) {
        self.handle
            .deadline_to_tick_and_exact(self.deadline.into_std())
    }

    /// Polls for the deadline; what `Future::poll` does.
    fn poll_elapsed(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let coop = ready!(coop::poll_proceed(cx));
        let this = self.into_ref().get_ref();
        if this.entry.state() == UNREGISTERED {
            // SAFETY: as in `reset`; the `Pin<&mut Self>` we came from is
            // the exclusive access. An unregistered entry is in no list: the
            // driver has no pointer to it.
            unsafe { this.register_first() };
        }
        // Register first, then read the state: a fire in between either
        // sees this waker or is seen by the read.
        this.entry.register_waker(cx.waker());
        match this.entry.state() {
            FIRED => {
                coop.made_progress();
                Poll::Ready(())
            }
            SHUTDOWN => panic!("{SHUTTING_DOWN}"),
            _ => Poll::Pending,
        }
    }
}

impl Future for Sleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        std::task::ready!(rt_core::task::trace::trace_leaf());
        self.poll_elapsed(cx)
    }
}

impl fmt::Debug for Sleep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sleep")
            .field("deadline", &self.deadline)
            .field("is_elapsed", &self.is_elapsed())
            .finish()
    }
}
