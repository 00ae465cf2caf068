//! The runtime's clock: real time, or a paused clock that only moves when
//! told to (`advance`) or when the runtime has nothing else to do
//! (auto-advance to the next timer).
//!
//! The clock is `base + (time since unfrozen)` while running and just
//! `base` while paused, so pausing, advancing and resuming never make it go
//! backwards. [`pause`], [`resume`] and [`advance`] act on the clock of the
//! runtime the caller is in.

use crate::driver::Handle;
use rt_core::loom::sync::atomic::{AtomicBool, Ordering};
use rt_core::loom::sync::Mutex;
#[cfg(feature = "test-util")]
use std::task::Poll;
#[cfg(feature = "test-util")]
use std::time::Duration;

/// Set once any clock in the process has been paused. Until then every
/// clock reads real time and `Instant::now()` skips the runtime lookup.
///
/// A `std` atomic, not the shim's: loom's atomics cannot be statics. It is
/// only a hint that skips a lookup, and it takes part in no protocol
/// between threads (the clock's own `was_paused` does, through the shim).
static EVER_PAUSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub(crate) struct Clock {
    state: Mutex<ClockState>,
    /// Set before this clock is first paused. Until then it reads real
    /// time, so the driver's turn reads it without taking the lock.
    was_paused: AtomicBool,
    /// Whether `pause` may pause it: not on a multi-thread runtime.
    pausable: bool,
}

struct ClockState {
    /// The clock's reading when it was last paused or resumed, plus every
    /// advance since.
    base: std::time::Instant,
    /// When the clock was last resumed; `None` while paused.
    unfrozen: Option<std::time::Instant>,
}

impl Clock {
    /// A clock that reads `start` now, running or paused.
    pub(crate) fn new(start: std::time::Instant, start_paused: bool) -> Clock {
        if start_paused {
            EVER_PAUSED.store(true, Ordering::SeqCst);
        }
        Clock {
            state: Mutex::new(ClockState {
                base: start,
                unfrozen: if start_paused { None } else { Some(start) },
            }),
            was_paused: AtomicBool::new(start_paused),
            pausable: true,
        }
    }

    /// Makes [`pause`] refuse to pause this clock.
    pub(crate) fn forbid_pause(&mut self) {
        self.pausable = false;
    }

    fn lock(&self) -> rt_core::loom::sync::MutexGuard<'_, ClockState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The clock's reading.
    pub(crate) fn now(&self) -> std::time::Instant {
        if !self.was_paused.load(Ordering::Acquire) {
            // `start + (now - start)`: what the locked path computes.
            return std::time::Instant::now();
        }
        let state = self.lock();
        match state.unfrozen {
            Some(unfrozen) => state.base + unfrozen.elapsed(),
            None => state.base,
        }
    }

    /// Whether the clock is paused.
    pub(crate) fn is_paused(&self) -> bool {
        self.was_paused.load(Ordering::Acquire) && self.lock().unfrozen.is_none()
    }

    #[cfg(feature = "test-util")]
    fn pause(&self) -> Result<(), &'static str> {
        if !self.pausable {
            return Err("`time::pause()` needs the current-thread runtime \
                 (the default of `#[rt::test]`); this one runs tasks on several threads");
        }
        let mut state = self.lock();
        let Some(unfrozen) = state.unfrozen else {
            return Err("time is already frozen");
        };
        EVER_PAUSED.store(true, Ordering::SeqCst);
        self.was_paused.store(true, Ordering::Release);
        state.base += unfrozen.elapsed();
        state.unfrozen = None;
        Ok(())
    }

    #[cfg(feature = "test-util")]
    fn resume(&self) -> Result<(), &'static str> {
        let mut state = self.lock();
        if state.unfrozen.is_some() {
            return Err("time is not frozen");
        }
        state.unfrozen = Some(std::time::Instant::now());
        Ok(())
    }

    #[cfg(feature = "test-util")]
    fn advance(&self, duration: Duration) -> Result<(), &'static str> {
        let mut state = self.lock();
        if state.unfrozen.is_some() {
            return Err("time is not frozen");
        }
        state.base = state
            .base
            .checked_add(duration)
            .ok_or("advancing the paused clock overflowed `Instant`")?;
        Ok(())
    }

    /// Moves a paused clock forward to `target` (auto-advance); never back.
    pub(crate) fn advance_to(&self, target: std::time::Instant) {
        let mut state = self.lock();
        if state.unfrozen.is_none() && target > state.base {
            state.base = target;
        }
    }
}

/// The current runtime's clock reading, or real time outside a runtime with
/// timers (or while no clock was ever paused).
pub(crate) fn now() -> std::time::Instant {
    if !EVER_PAUSED.load(Ordering::Relaxed) {
        return std::time::Instant::now();
    }
    match Handle::try_current() {
        Some(handle) => handle.clock().now(),
        None => std::time::Instant::now(),
    }
}

#[cfg(feature = "test-util")]
#[track_caller]
fn current_clock_handle(what: &str) -> std::sync::Arc<Handle> {
    match Handle::try_current() {
        Some(handle) => handle,
        None => panic!("`{what}` requires an rt runtime with timers enabled (`enable_time`)"),
    }
}

#[cfg(feature = "test-util")]
/// Pauses the current runtime's clock.
///
/// While paused, time moves only through [`advance`], or by itself when the
/// runtime has no task to run: it then jumps straight to the next timer, so
/// that a test of a one-hour timeout finishes at once.
///
/// # Panics
///
/// Outside a runtime with timers enabled, on a multi-thread runtime, or if
/// the clock is already paused.
///
/// ```
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .driver_layer(rt_time::driver_layer(false)).build().unwrap();
/// # rt.block_on(async {
/// use std::time::Duration;
///
/// rt_time::pause();
/// let start = rt_time::Instant::now();
/// rt_time::sleep(Duration::from_secs(3600)).await;
/// assert!(start.elapsed() >= Duration::from_secs(3600));
/// # });
/// ```
#[track_caller]
pub fn pause() {
    let handle = current_clock_handle("time::pause()");
    if let Err(message) = handle.clock().pause() {
        panic!("{message}");
    }
}

#[cfg(feature = "test-util")]
/// Resumes a paused clock: from now on it runs at real speed again, from
/// the reading it had.
///
/// # Panics
///
/// Outside a runtime with timers enabled, or if the clock is not paused.
#[track_caller]
pub fn resume() {
    let handle = current_clock_handle("time::resume()");
    if let Err(message) = handle.clock().resume() {
        panic!("{message}");
    }
}

#[cfg(feature = "test-util")]
/// Moves a paused clock forward by `duration`, fires the timers that are
/// then due, and yields once so that the tasks they woke can run.
///
/// # Panics
///
/// Outside a runtime with timers enabled, if the clock is not paused, or if
/// the new reading does not fit in an `Instant`.
///
/// ```
/// # let rt = rt_core::runtime::Builder::new_current_thread()
/// #     .driver_layer(rt_time::driver_layer(true)).build().unwrap();
/// # rt.block_on(async {
/// use std::time::Duration;
///
/// let start = rt_time::Instant::now();
/// rt_time::advance(Duration::from_secs(5)).await;
/// assert_eq!(start.elapsed(), Duration::from_secs(5));
/// # });
/// ```
pub async fn advance(duration: Duration) {
    let handle = current_clock_handle("time::advance()");
    if let Err(message) = handle.clock().advance(duration) {
        panic!("{message}");
    }
    handle.process();
    let mut yielded = false;
    std::future::poll_fn(move |cx| {
        if yielded {
            return Poll::Ready(());
        }
        yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    })
    .await
}
