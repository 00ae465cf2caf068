//! The short yielding wait a thread may take before it blocks, and when it
//! stops taking it.
//!
//! Work often comes back within microseconds (the other end of a channel,
//! a blocking-pool read completing), and an unpark that lands while the
//! parker is still idle costs one atomic swap instead of a futex wake-up
//! and the wakee's trip out of the idle state. So before blocking, a thread
//! yields a few times and looks for its notification after each yield.
//!
//! That pays only while a yield returns at once or runs the thread being waited
//! for. When other processes keep the CPUs busy, a yield hands the CPU to one
//! of them for the rest of its time slice, where blocking would have been woken
//! in microseconds: beside two busy loops on two cores, a third of all yields
//! took 3.8-7.8 ms (nearly all others under 20 µs), and the multi-thread
//! `mpsc_5x1k_capacity_100` case took several times tokio's time with the wait
//! and about tokio's without it. So each wait times its yields, and a yield
//! slower than [`SLOW_YIELD`] ends it and starts a window in which no thread of
//! the process yields before it blocks. The load is the machine's, not one
//! thread's, so the memory is process-wide: a runtime's new workers know it
//! from their first park. Each wait that meets a slow yield opens a window
//! twice as long as the last (from [`FIRST_WINDOW`] up to [`MAX_WINDOW`]); each
//! that does not opens none and shortens the next by a sixteenth. Under load a
//! third of the yields are slow, so quick waits come between slow ones and the
//! windows still grow, until one wait in half a second pays for a slow yield;
//! on a quiet machine a rare slow yield costs one 2 ms window. A first form
//! that halved the length with each quick wait let it collapse under load
//! (`mpsc_5x1k_capacity_100` at 1.2-2.3 times tokio's time on four workers,
//! each probe a chance of a 4 ms yield).
//!
//! A longer form bounded by time ([`notified_while_yielding_for`]) serves
//! the two ends of a hop to the blocking pool (`blocking/pool.rs`), and
//! gives way under load the same way, through the same windows: without
//! them its 100 µs of yields beside two busy loops made `fs_read_files`
//! take 1.5-3.6 s where it took 60-130 ms without the wait.

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

    /// A wait that ended at `now` met a slow yield: a window twice as long
    /// as the last.
    fn slow(&self, now: u64) {
        let window = (self.window.load(Relaxed) * 2).clamp(nanos(FIRST_WINDOW), nanos(MAX_WINDOW));
        self.open(now, window);
    }

    /// A wait found its yields quick: no window, and the next one shorter
    /// by a sixteenth, none once that falls below the first. Under load
    /// most waits are quick between two slow ones, so the length still
    /// grows; on a quiet machine the first quick wait clears it. Writes
    /// nothing while the machine looks quiet.
    fn quick(&self) {
        let window = self.window.load(Relaxed);
        if window != 0 {
            let shorter = window - window / 16;
            let shorter = if shorter < nanos(FIRST_WINDOW) {
                0
            } else {
                shorter
            };
            self.window.store(shorter, Relaxed);
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
    wait(&LOAD, Bound::SHORT, take_notification, || {
        nanos(epoch.elapsed())
    })
}

/// Past its first [`YIELDS_BEFORE_BLOCKING`] yields, a wait reads the
/// clock after one yield in this many, unless notified: a reading costs
/// more than a yield's check (about a hundred instructions), and a slow
/// yield among them still shows in their sum. The first few yields each
/// read it, so that under load a wait mostly ends at its first slow yield.
const YIELDS_PER_READING: usize = 4;

/// Most yields of [`notified_while_yielding_for`], whatever its limit: one
/// under loom, as for [`YIELDS_BEFORE_BLOCKING`].
#[cfg(all(feature = "rt", not(loom)))]
const MAX_YIELDS_WITHIN_LIMIT: usize = usize::MAX;
#[cfg(all(feature = "rt", loom))]
const MAX_YIELDS_WITHIN_LIMIT: usize = 1;

/// Like [`notified_while_yielding`], but yields for up to `limit` of time
/// rather than a few times: for a wait whose end is expected within about
/// that long (the two ends of a hop to the blocking pool,
/// `runtime::blocking`). Under load it gives way as the short wait does,
/// and shares its windows.
#[cfg(feature = "rt")]
pub(crate) fn notified_while_yielding_for(
    limit: Duration,
    take_notification: impl FnMut() -> bool,
) -> bool {
    let epoch = epoch();
    wait(&LOAD, Bound::within(limit), take_notification, || {
        nanos(epoch.elapsed())
    })
}

/// Where a wait stops yielding if no notification comes first: after this
/// many yields, or once this many nanoseconds have passed since it began.
#[derive(Clone, Copy)]
struct Bound {
    yields: usize,
    time: u64,
}

impl Bound {
    /// The short wait's: a few yields, however long they take.
    const SHORT: Bound = Bound {
        yields: YIELDS_BEFORE_BLOCKING,
        time: u64::MAX,
    };

    /// A wait bounded by time.
    #[cfg(feature = "rt")]
    fn within(limit: Duration) -> Bound {
        Bound {
            yields: MAX_YIELDS_WITHIN_LIMIT,
            time: nanos(limit),
        }
    }
}

/// The wait itself, on a given memory and clock (nanoseconds).
fn wait(
    memory: &LoadMemory,
    bound: Bound,
    mut take_notification: impl FnMut() -> bool,
    mut now: impl FnMut() -> u64,
) -> bool {
    let start = now();
    if !memory.may_yield(start) {
        return false;
    }
    let (mut notified, mut slow) = (false, false);
    let mut before = start;
    for i in 0..bound.yields {
        thread::yield_now();
        notified = take_notification();
        if !notified && i >= YIELDS_BEFORE_BLOCKING && (i + 1) % YIELDS_PER_READING != 0 {
            continue;
        }
        let after = now();
        slow = took_long(after.saturating_sub(before));
        before = after;
        if notified || slow || after.saturating_sub(start) >= bound.time {
            break;
        }
    }
    // A window starts where the wait ended: a slow yield can outlast the
    // first window, which counted from the wait's start would have closed
    // before the thread ran again.
    if slow {
        memory.slow(before);
    } else {
        memory.quick();
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

    use std::cell::Cell;

    const MS: u64 = 1_000_000;

    /// A wait bounded by 100 µs, as the blocking pool's are.
    const WITHIN_100_US: Bound = Bound {
        yields: usize::MAX,
        time: 100_000,
    };

    /// A notification check that counts its calls in `calls` and finds the
    /// notification at the `at`-th (never, for 0).
    fn notified_at(calls: &Cell<usize>, at: usize) -> impl FnMut() -> bool + '_ {
        move || {
            calls.set(calls.get() + 1);
            calls.get() == at
        }
    }

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
        let calls = Cell::new(0);
        let third = notified_at(&calls, 3);
        assert!(wait(&memory, Bound::SHORT, third, clock(MS, 1_000)));
        assert_eq!(calls.get(), 3);
        let calls = Cell::new(0);
        let never = notified_at(&calls, 0);
        assert!(!wait(&memory, Bound::SHORT, never, clock(MS, 1_000)));
        assert_eq!(calls.get(), YIELDS_BEFORE_BLOCKING, "every yield looked");
        assert_eq!(memory.window.load(Relaxed), 0);
        assert_eq!(memory.block_until.load(Relaxed), 0);
    }

    #[test]
    fn a_slow_yield_ends_the_wait_and_opens_a_window_without_yields() {
        let memory = LoadMemory::new();
        let calls = Cell::new(0);
        let never = notified_at(&calls, 0);
        assert!(!wait(&memory, Bound::SHORT, never, clock(10 * MS, 4 * MS)));
        assert_eq!(calls.get(), 1, "no second yield after a slow one");
        assert_eq!(
            memory.block_until.load(Relaxed),
            16 * MS,
            "2 ms from the end of the 4 ms yield"
        );
        let looked = || panic!("a wait in the window neither yields nor looks");
        assert!(!wait(&memory, Bound::SHORT, looked, clock(15 * MS, 1_000)));
        // After the window a quick wait yields, and shortens the length
        // below the first: on a quiet machine one slow yield is forgotten.
        assert!(wait(&memory, Bound::SHORT, || true, clock(16 * MS, 1_000)));
        assert_eq!(memory.window.load(Relaxed), 0);
        assert!(memory.may_yield(16 * MS + 1_000));
    }

    #[test]
    fn slow_waits_double_the_window_up_to_the_most() {
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
    }

    #[test]
    fn quick_waits_open_no_window_and_shorten_the_next_by_a_sixteenth() {
        let memory = LoadMemory::new();
        memory.slow(0);
        memory.slow(0);
        memory.slow(0);
        assert_eq!(memory.window.load(Relaxed), 8 * MS);
        let until = memory.block_until.load(Relaxed);
        memory.quick();
        assert_eq!(memory.window.load(Relaxed), 7_500_000);
        assert_eq!(memory.block_until.load(Relaxed), until, "no window opened");
        // Under load a slow wait among quick ones still doubles the length.
        memory.quick();
        memory.slow(until);
        assert!(memory.window.load(Relaxed) > 8 * MS);
        // A run of quick waits, as on a quiet machine, clears it.
        for _ in 0..64 {
            memory.quick();
        }
        assert_eq!(memory.window.load(Relaxed), 0);
    }

    #[test]
    fn a_notification_caught_by_a_slow_yield_still_counts() {
        let memory = LoadMemory::new();
        assert!(wait(&memory, Bound::SHORT, || true, clock(0, 4 * MS)));
        assert_eq!(memory.window.load(Relaxed), 2 * MS);
    }

    #[test]
    fn a_timed_wait_yields_until_its_limit() {
        let memory = LoadMemory::new();
        let calls = Cell::new(0);
        let never = notified_at(&calls, 0);
        let bound = WITHIN_100_US;
        // 10 µs per reading of the clock: one after each of the first
        // four yields, then after one in four, so the tenth reading, which
        // ends the wait at the limit, comes after the 28th yield.
        assert!(!wait(&memory, bound, never, clock(MS, 10_000)));
        assert_eq!(calls.get(), 28);
        assert_eq!(
            memory.window.load(Relaxed),
            0,
            "quick yields open no window"
        );
        let calls = Cell::new(0);
        let fourth = notified_at(&calls, 4);
        assert!(wait(&memory, bound, fourth, clock(MS, 10_000)));
    }

    #[test]
    fn a_slow_yield_between_readings_ends_the_wait_at_the_next() {
        let memory = LoadMemory::new();
        let bound = WITHIN_100_US;
        let calls = Cell::new(0);
        let never = notified_at(&calls, 0);
        // The start and the first four yields' readings 1 µs apart; one of
        // the next four yields took 4 ms.
        let mut readings = [0, 1, 2, 3, 4, 4_004].map(|us| MS + us * 1_000).into_iter();
        let now = || readings.next().expect("no reading after the slow one");
        assert!(!wait(&memory, bound, never, now));
        assert_eq!(calls.get(), 8, "read after the eighth yield");
        assert_eq!(memory.block_until.load(Relaxed), MS + 4_004_000 + 2 * MS);
    }

    #[test]
    fn a_timed_wait_gives_way_under_load_as_the_short_one_does() {
        let memory = LoadMemory::new();
        let bound = WITHIN_100_US;
        let calls = Cell::new(0);
        let never = notified_at(&calls, 0);
        assert!(!wait(&memory, bound, never, clock(10 * MS, 4 * MS)));
        assert_eq!(calls.get(), 1, "no second yield after a slow one");
        assert_eq!(memory.block_until.load(Relaxed), 16 * MS);
        let looked = || panic!("a timed wait in the window neither yields nor looks");
        assert!(!wait(&memory, bound, looked, clock(15 * MS, 1_000)));
        let looked = || panic!("nor does a short one");
        assert!(!wait(&memory, Bound::SHORT, looked, clock(15 * MS, 1_000)));
    }

    #[test]
    fn yields_are_slow_only_past_the_bar() {
        assert!(!took_long(5_000));
        assert!(took_long(nanos(SLOW_YIELD)));
        assert!(took_long(3 * MS));
    }
}
