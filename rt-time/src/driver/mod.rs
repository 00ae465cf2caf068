//! The time driver: a layer over the runtime's driver stack (the I/O
//! reactor or a plain thread parker) that parks exactly until the next
//! timer and fires what is due when it wakes.
//!
//! The wheel counts whole milliseconds, and a deadline inside a millisecond
//! belongs to the tick that ends it. A park that may block therefore aims
//! at the earliest exact deadline of the next tick, not at the tick's
//! start, and after it fires the entries of the next tick whose exact
//! deadline has passed. Waking at a tick boundary would add up to a
//! millisecond to every timer, and the epoll timeout below, rounded up to
//! whole milliseconds from an arbitrary moment, would add up to another.
//!
//! On a paused clock, a park without a timeout means the scheduler has
//! nothing to run; the driver then moves the clock straight to the next
//! timer (auto-advance) instead of blocking, unless the poll of the layer
//! below it woke something or a `spawn_blocking` closure is still running.

mod handle;

pub(crate) use handle::Handle;
pub(crate) use handle::SHUTTING_DOWN;

use rt_core::loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use rt_core::runtime::{BlockingActivity, Driver, DriverHandles, Unpark};
use std::io;
use std::sync::Arc;
use std::time::Duration;

/// The fewest wheel shards a multi-thread runtime gets. Runtimes often
/// have more worker threads than cores; with one shard per core, workers
/// then share shards, and a worker preempted while holding a shard lock
/// stalls every other worker registering in that shard. Eight keeps the
/// usual worker counts on distinct shards at the cost of a few more
/// atomics per driver turn.
const MIN_SHARDS: usize = 8;

/// Ticks spanned by the wheel's finest level: only a timer this close can
/// be in a slot whose entries share one tick.
const LEVEL0_SPAN: u64 = 64;

/// The driver layer returned by [`driver_layer`].
struct TimeDriver {
    inner: Box<dyn Driver>,
    handle: Arc<Handle>,
    /// Blocking-pool work in flight holds a paused clock still.
    blocking: Option<Arc<BlockingActivity>>,
}

/// Interrupts the time driver's park, and records that it did (or that
/// the parked thread woke a task of its own, `note_work`), so that
/// auto-advance does not skip past work that just arrived.
struct TimeUnpark {
    inner: Arc<dyn Unpark>,
    did_wake: Arc<AtomicBool>,
}

/// The factory for rt-core's `Builder::driver_layer`: wraps the driver stack
/// built so far in the time driver and publishes its handle, so that
/// [`sleep`](crate::sleep), [`timeout`](crate::timeout) and
/// [`interval`](crate::interval) work in the runtime. With `start_paused`
/// the clock starts paused (see [`pause`](crate::pause)); that needs the
/// `test-util` feature (off by default) and otherwise fails the build with
/// an error.
///
/// ```
/// use std::time::Duration;
///
/// let rt = rt_core::runtime::Builder::new_current_thread()
///     .driver_layer(rt_time::driver_layer(false))
///     .build()
///     .unwrap();
/// rt.block_on(async {
///     rt_time::sleep(Duration::from_millis(5)).await;
/// });
/// ```
pub fn driver_layer(
    start_paused: bool,
) -> impl FnOnce(Box<dyn Driver>, &mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + 'static
{
    layer(start_paused, true)
}

/// As [`driver_layer`], for a runtime whose tasks run on several threads
/// at once: there the clock cannot be paused, and
/// [`pause`](crate::pause) panics, as on tokio. A paused clock advances
/// when the runtime has nothing to run, which only a runtime with one
/// thread can tell.
///
/// ```
/// let rt = rt_core::runtime::Builder::new_multi_thread()
///     .worker_threads(1)
///     .driver_layer(rt_time::multi_thread_driver_layer())
///     .build()
///     .unwrap();
/// rt.block_on(async {
///     rt_time::sleep(std::time::Duration::from_millis(1)).await;
/// });
/// ```
pub fn multi_thread_driver_layer(
) -> impl FnOnce(Box<dyn Driver>, &mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + 'static
{
    layer(false, false)
}

/// The layer of [`driver_layer`]; `one_thread` says that one thread runs
/// the runtime's tasks: then [`pause`](crate::pause) may pause its clock,
/// and the wheel is one shard (the runtime's thread registers nearly every
/// timer, and every park scans the shards).
fn layer(
    start_paused: bool,
    one_thread: bool,
) -> impl FnOnce(Box<dyn Driver>, &mut DriverHandles) -> io::Result<Box<dyn Driver>> + Send + 'static
{
    move |inner: Box<dyn Driver>, handles: &mut DriverHandles| {
        if start_paused && !cfg!(feature = "test-util") {
            return Err(io::Error::other(
                "starting the clock paused needs the `test-util` feature of rt-time",
            ));
        }
        let shards = if one_thread {
            1
        } else {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .clamp(MIN_SHARDS, 64)
        };
        let mut handle = Handle::new(
            inner.unparker(),
            std::time::Instant::now(),
            start_paused,
            shards,
        );
        if !one_thread {
            handle.forbid_pause();
        }
        let handle = Arc::new(handle);
        handles.insert(handle.clone());
        let blocking = handles.get::<BlockingActivity>();
        Ok(Box::new(TimeDriver {
            inner,
            handle,
            blocking,
        }) as Box<dyn Driver>)
    }
}

impl Driver for TimeDriver {
    fn park(&mut self, timeout: Option<Duration>) {
        let next = self.handle.begin_park();
        if self.handle.clock().is_paused() {
            self.park_paused(next, timeout);
        } else {
            let handle = &self.handle;
            let may_block = timeout != Some(Duration::ZERO);
            let until_next = next.map(|tick| {
                // One clock read serves both questions below.
                let now = handle.clock().now();
                // A park that may block wakes at the earliest exact deadline
                // rather than at its tick's start; a poll needs no target,
                // and a tick beyond level 0's span has no exact deadline
                // to offer (its entries wait in a coarser slot).
                let near = tick.saturating_sub(handle.tick_at(now)) <= LEVEL0_SPAN;
                let at = if may_block && near {
                    handle.wake_instant(tick)
                } else {
                    handle.tick_to_instant(tick)
                };
                match at {
                    Some(at) => at.saturating_duration_since(now),
                    // Beyond what an `Instant` holds: as good as never.
                    None => Duration::MAX,
                }
            });
            let wait = match (until_next, timeout) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            self.inner.park(wait);
            handle.end_park();
            // A timer registered during the park found the promise made
            // above (no timer, or a later tick) and unparked, which sets
            // `earlier_timer`; without one, only the ticks published when
            // the park began can be due.
            let registered = handle.earlier_timer.swap(false, SeqCst);
            // `did_wake` only matters to a paused clock's park, which does
            // not start from a wake that came while the clock ran.
            if handle.did_wake.load(SeqCst) {
                handle.did_wake.store(false, SeqCst);
            }
            // After a park that may block (it may have ended at an exact
            // deadline inside a tick), also fire what is due now rather
            // than at the tick's end. Polls skip that, so that busy turns
            // do not scan slots.
            handle.process_after_park(may_block, next, registered);
            return;
        }
        self.handle.end_park();
        self.handle.process();
    }

    fn unparker(&self) -> Arc<dyn Unpark> {
        Arc::new(TimeUnpark {
            inner: self.inner.unparker(),
            did_wake: self.handle.did_wake.clone(),
        })
    }

    fn shutdown(&mut self) {
        self.handle.shutdown();
        self.inner.shutdown();
    }
}

impl TimeDriver {
    /// Parks with a paused clock: time stands still, so only an idle park
    /// (`timeout == None`) with a timer pending moves it.
    fn park_paused(&mut self, next: Option<u64>, timeout: Option<Duration>) {
        let handle = self.handle.clone();
        let due = next.is_some_and(|tick| tick <= handle.now_tick());
        // A closure on the blocking pool is work the scheduler cannot see:
        // time stands still until it finishes (its end wakes this park).
        let blocking_busy = self
            .blocking
            .as_ref()
            .is_some_and(|b| b.busy_waking_driver_when_idle());
        match next {
            Some(tick) if !due && timeout.is_none() && !blocking_busy => {
                // A wake that came before this park (and left a token the
                // poll below consumes) counts as well as one during it.
                let woke_before = handle.did_wake.swap(false, SeqCst);
                self.inner.park(Some(Duration::ZERO));
                let woke_during = handle.did_wake.swap(false, SeqCst);
                if !woke_before && !woke_during {
                    if let Some(at) = handle.tick_to_instant(tick) {
                        handle.clock().advance_to(at);
                    }
                }
            }
            _ if due => self.inner.park(Some(Duration::ZERO)),
            _ => self.inner.park(timeout),
        }
    }
}

impl Unpark for TimeUnpark {
    fn unpark(&self) {
        self.did_wake.store(true, SeqCst);
        self.inner.unpark();
    }

    fn note_work(&self) {
        self.did_wake.store(true, SeqCst);
        self.inner.note_work();
    }
}
