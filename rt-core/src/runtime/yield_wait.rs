//! The short yielding wait a thread may take before it blocks, and when it
//! stops taking it.
//!
//! Work often comes back within microseconds (the other end of a channel,
//! a blocking-pool read completing), and an unpark that lands while the
//! parker is still idle costs one atomic swap instead of a futex wake-up
//! and the wakee's trip out of the idle state. So before blocking, a thread
//! yields a few times and looks for its notification after each yield.
//!
//! That pays only while a yield returns at once or runs the thread being
//! waited for. When other processes keep the CPUs busy, a yield hands the
//! CPU to one of them for the rest of its time slice, where blocking would
//! have been woken in microseconds: beside two busy loops on two cores, a
//! third of all yields took 3.8-7.8 ms (nearly all others under 20 µs), and the
//! multi-thread `mpsc_5x1k_capacity_100` case took several times tokio's
//! time with the wait and about tokio's without it. So each wait times its
//! yields, and a yield slower than [`SLOW_YIELD`] ends it and starts a
//! window in which no thread of the process yields before it blocks. The
//! load is the machine's, not one thread's, so the memory is process-wide:
//! a runtime's new workers know it from their first park. Each wait that
//! meets a slow yield doubles the window (from [`FIRST_WINDOW`] up to
//! [`MAX_WINDOW`]); each that does not halves it. Under load a third of the
//! yields are slow, so one quick wait is no sign that the load has gone,
//! while on a quiet machine a rare slow yield costs a few milliseconds
//! without the wait.

use crate::loom::thread;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How many times a thread yields before it blocks. Few: each is a system
/// call, and on a busy machine a trip through the OS scheduler. Measured on
/// two cores (`fs_read_files` and `oneshot_request_reply` on two workers):
/// 4 and 16 catch most quick returns; 48 costs more than it saves. One
/// under loom, so the models explore a notification caught while yielding
/// without multiplying their interleavings.
#[cfg(not(loom))]
const YIELDS_BEFORE_BLOCKING: usize = 4;
#[cfg(loom)]
const YIELDS_BEFORE_BLOCKING: usize = 1;

/// A yield that kept the thread off its CPU this long ran another thread's
/// time slice, not a quick hand-off. A yield with nothing else runnable
/// takes about a microsecond; one that runs the thread being waited for
/// lasts as long as that thread's step (a 4 KiB read: ten-odd
/// microseconds); one that runs a CPU-bound process lasts its slice
/// (milliseconds).
const SLOW_YIELD: Duration = Duration::from_micros(200);

/// The window without yields that the first slow wait starts.
const FIRST_WINDOW: Duration = Duration::from_millis(2);

/// The longest window: while the load lasts, one wait in this long probes
/// it, and pays for a slow yield (about 4 ms) at most that often.
const MAX_WINDOW: Duration = Duration::from_millis(512);

/// The process's memory of how its yields went, in nanoseconds since
/// [`epoch`]. Plain atomics, and not the loom shim's, as for other
/// process-wide statics that are part of no protocol between threads: a
/// stale read only means one wait more or one less. Under loom no yield is
/// ever slow ([`took_long`]), so the memory is never written there and the
/// models take the same branches in every run.
struct LoadMemory {
    /// Until when no wait yields (0: no window yet).
    block_until: AtomicU64,
    /// The current window's length (0: the machine looks quiet).
    window: AtomicU64,
}

impl LoadMemory {
    const fn new() -> LoadMemory {
        LoadMemory {
            block_until: AtomicU64::new(0),
            window: AtomicU64::new(0),
        }
    }

    /// Whether a wait starting at `now` may yield.
    fn may_yield(&self, now: u64) -> bool {
        now >= self.block_until.load(Relaxed)
    }

    /// A wait that started at `now` met a slow yield: a window twice as
    /// long as the last.
    fn slow(&self, now: u64) {
        let window = (self.window.load(Relaxed) * 2).clamp(nanos(FIRST_WINDOW), nanos(MAX_WINDOW));
        self.open(now, window);
    }

    /// A wait that started at `now` found its yields quick: a window half
    /// as long as the last, none once that falls below the first. Writes
    /// nothing on a quiet machine.
    fn quick(&self, now: u64) {
        let window = self.window.load(Relaxed);
        if window != 0 {
            let half = window / 2;
            self.open(now, if half < nanos(FIRST_WINDOW) { 0 } else { half });
        }
    }

    fn open(&self, now: u64, window: u64) {
        self.window.store(window, Relaxed);
        self.block_until.store(now + window, Relaxed);
    }
}

static LOAD: LoadMemory = LoadMemory::new();

/// The process's zero for [`LoadMemory`]'s times.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// Yields the thread up to [`YIELDS_BEFORE_BLOCKING`] times, calling
/// `take_notification` after each yield; true as soon as it returns true.
/// The caller's parker stays in its idle state throughout, so an unpark in
/// this window only leaves its token. Returns false at once while the
/// machine's load makes yields slow (see the module documentation).
pub(crate) fn notified_while_yielding(take_notification: impl FnMut() -> bool) -> bool {
    let epoch = epoch();
    wait(&LOAD, take_notification, || nanos(epoch.elapsed()))
}

/// The wait itself, on a given memory and clock (nanoseconds).
fn wait(
    memory: &LoadMemory,
    mut take_notification: impl FnMut() -> bool,
    mut now: impl FnMut() -> u64,
) -> bool {
    let start = now();
    if !memory.may_yield(start) {
        return false;
    }
    let (mut notified, mut slow) = (false, false);
    let mut before = start;
    for _ in 0..YIELDS_BEFORE_BLOCKING {
        thread::yield_now();
        notified = take_notification();
        let after = now();
        slow = took_long(after.saturating_sub(before));
        if notified || slow {
            break;
        }
        before = after;
    }
    if slow {
        memory.slow(start);
    } else {
        memory.quick(start);
    }
    notified
}

/// Whether a yield of this many nanoseconds ran another thread's time
/// slice. Never under loom, whose models must take the same branches in
/// every run.
fn took_long(elapsed: u64) -> bool {
    !cfg!(loom) && elapsed >= nanos(SLOW_YIELD)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// A clock that starts at `start` and moves `step` per reading.
    fn clock(start: u64, step: u64) -> impl FnMut() -> u64 {
        let mut t = start;
        move || {
            let now = t;
            t += step;
            now
        }
    }

    #[test]
    fn quick_yields_wait_for_the_notification_and_write_nothing() {
        let memory = LoadMemory::new();
        let mut calls = 0;
        let third = || {
            calls += 1;
            calls == 3
        };
        assert!(wait(&memory, third, clock(MS, 1_000)));
        assert_eq!(calls, 3);
        let mut calls = 0;
        let never = || {
            calls += 1;
            false
        };
        assert!(!wait(&memory, never, clock(MS, 1_000)));
        assert_eq!(calls, YIELDS_BEFORE_BLOCKING, "every yield looked");
        assert_eq!(memory.window.load(Relaxed), 0);
        assert_eq!(memory.block_until.load(Relaxed), 0);
    }

    #[test]
    fn a_slow_yield_ends_the_wait_and_opens_a_window_without_yields() {
        let memory = LoadMemory::new();
        let mut calls = 0;
        let never = || {
            calls += 1;
            false
        };
        assert!(!wait(&memory, never, clock(10 * MS, 4 * MS)));
        assert_eq!(calls, 1, "no second yield after a slow one");
        assert_eq!(
            memory.block_until.load(Relaxed),
            12 * MS,
            "2 ms from the start"
        );
        let looked = || panic!("a wait in the window neither yields nor looks");
        assert!(!wait(&memory, looked, clock(11 * MS, 1_000)));
        // After the window, quick yields halve it to below the first: gone.
        assert!(wait(&memory, || true, clock(12 * MS, 1_000)));
        assert_eq!(memory.window.load(Relaxed), 0);
        assert!(memory.may_yield(12 * MS + 1));
    }

    #[test]
    fn slow_waits_double_the_window_up_to_the_most_and_quick_ones_halve_it() {
        let memory = LoadMemory::new();
        let mut now = 0;
        let mut windows = Vec::new();
        for _ in 0..10 {
            memory.slow(now);
            let window = memory.window.load(Relaxed);
            windows.push(window / MS);
            now += window;
            assert!(!memory.may_yield(now - 1) && memory.may_yield(now));
        }
        assert_eq!(windows, [2, 4, 8, 16, 32, 64, 128, 256, 512, 512]);
        let mut halves = Vec::new();
        while memory.window.load(Relaxed) != 0 {
            memory.quick(now);
            halves.push(memory.window.load(Relaxed) / MS);
            now = memory.block_until.load(Relaxed);
        }
        assert_eq!(halves, [256, 128, 64, 32, 16, 8, 4, 2, 0]);
    }

    #[test]
    fn a_notification_caught_by_a_slow_yield_still_counts() {
        let memory = LoadMemory::new();
        assert!(wait(&memory, || true, clock(0, 4 * MS)));
        assert_eq!(memory.window.load(Relaxed), 2 * MS);
    }

    #[test]
    fn yields_are_slow_only_past_the_bar() {
        assert!(!took_long(5_000));
        assert!(took_long(nanos(SLOW_YIELD)));
        assert!(took_long(3 * MS));
    }
}
