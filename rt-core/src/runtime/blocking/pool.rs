//! The pool's threads and queue.
//!
//! One mutex guards the queue and the thread counts (`shared.rs` holds the
//! steps taken under it); idle threads wait on a condvar. A thread wakes up
//! for one of three reasons, which the counters tell apart (condvars wake
//! spuriously): a task was queued, the pool shuts down, or the keep-alive
//! elapsed (then the thread exits).
//!
//! A hop to the pool and back costs two wake-ups, and a wake-up costs most
//! when the thread it wakes had left its CPU idle (tens of microseconds on
//! a virtual machine, where an idle CPU is halted). So both ends of a hop
//! yield for up to [`HOP_WAIT`] before they sleep, while the machine has a
//! CPU for each: the runtime's thread (the current-thread runtime's, or a
//! worker) that submitted closures since it last parked, waiting for a
//! result (`Spawner::yield_for_result`), and one pool thread at a time
//! after running its task, waiting for the next. A task woken by a result
//! goes to the worker that parked last, which is the one waiting, and a
//! hop that ends within that time wakes nobody. Both ends are needed: a
//! pool thread that yielded while the worker slept took the CPU that the
//! worker, once woken, would have run on (see ARCHITECTURE.md, "The
//! blocking pool"). The waits are `runtime::yield_wait`'s, which give way
//! to blocking while other processes keep the CPUs busy, and each end
//! skips waits for a while after one that went unanswered
//! (`hop_waits.rs`).

use super::hop_waits::{HopWaits, WaitBackoff};
use super::schedule::BlockingSchedule;
use super::shared::{Shared, Submitted, Woken};
use super::task::BlockingTask;
use super::BlockingActivity;
use crate::loom::sync::{Condvar, Mutex, MutexGuard};
use crate::loom::thread;
use crate::loom::time::Instant;
use crate::runtime::yield_wait::notified_while_yielding_for;
use crate::runtime::{context, scheduler, Callback};
use crate::task::{self, JoinHandle, UnownedTask};
use std::fmt;
use std::io;
// `std`'s `Arc`: the configuration holds `Arc<dyn Fn>` (see `crate::loom`).
use std::sync::Arc;
use std::time::Duration;

/// How long a yielding wait for the other end of a hop lasts (see the
/// module documentation): a few times what a small file takes to read,
/// open to close. Measured on two cores, `fs_read_files` on the
/// current-thread runtime (1,000 files of 4 KiB read one after the other;
/// medians of 20 samples, 78-99 ms in ten runs without the waits): 20 µs
/// gave 20 ms in one run and 75 ms in the next, 50 µs 27-30 ms in six runs
/// of seven and 83 ms in the seventh, 100 µs 26-34 ms in six of six.
const HOP_WAIT: Duration = Duration::from_micros(100);

/// The pool, owned by the runtime; dropping it shuts it down.
pub(crate) struct BlockingPool {
    spawner: Spawner,
}

/// Submits work to the pool; shared by every handle of the runtime.
#[derive(Clone)]
pub(crate) struct Spawner {
    inner: Arc<Inner>,
}

pub(crate) struct PoolConfig {
    pub(crate) thread_name: Arc<dyn Fn() -> String + Send + Sync>,
    pub(crate) stack_size: Option<usize>,
    pub(crate) after_start: Option<Callback>,
    pub(crate) before_stop: Option<Callback>,
    pub(crate) max_threads: usize,
    pub(crate) keep_alive: Duration,
    pub(crate) activity: Arc<BlockingActivity>,
}

struct Inner {
    shared: Mutex<Shared<Task>>,
    /// Idle threads wait here for work.
    condvar: Condvar,
    /// Shutdown waits here for the threads to exit.
    exited: Condvar,
    config: PoolConfig,
    /// The machine's CPUs, for the yielding waits.
    cpus: usize,
}

type Task = UnownedTask<BlockingSchedule>;

impl BlockingPool {
    pub(crate) fn new(config: PoolConfig) -> BlockingPool {
        BlockingPool {
            spawner: Spawner {
                inner: Arc::new(Inner {
                    shared: Mutex::new(Shared::new()),
                    condvar: Condvar::new(),
                    exited: Condvar::new(),
                    config,
                    cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
                }),
            },
        }
    }

    pub(crate) fn spawner(&self) -> &Spawner {
        &self.spawner
    }

    /// Stops accepting work, cancels queued tasks, and waits up to `timeout`
    /// (forever for `None`) for running ones. Returns whether every thread
    /// exited in time.
    pub(crate) fn shutdown(&mut self, timeout: Option<Duration>) -> bool {
        let inner = &self.spawner.inner;
        let mut shared = inner.lock();
        let Some(queued) = shared.shut_down() else {
            return shared.num_alive() == 0;
        };
        inner.condvar.notify_all();
        drop(shared);
        for task in queued {
            task.shutdown();
        }

        // A timeout past what an `Instant` can hold (`Duration::MAX`) is no
        // deadline at all.
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let mut shared = inner.lock();
        while shared.num_alive() > 0 {
            shared = match deadline {
                None => inner.exited.wait(shared).unwrap_or_else(|e| e.into_inner()),
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return false;
                    }
                    inner
                        .exited
                        .wait_timeout(shared, deadline - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
        true
    }
}

impl Drop for BlockingPool {
    fn drop(&mut self) {
        self.shutdown(None);
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, Shared<Task>> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The pool's size and backlog, for runtime metrics.
pub(crate) struct PoolCounts {
    pub(crate) threads: usize,
    pub(crate) idle: usize,
    pub(crate) queued: usize,
}

impl Spawner {
    /// Current thread counts and queue depth.
    pub(crate) fn counts(&self) -> PoolCounts {
        let shared = self.inner.lock();
        PoolCounts {
            threads: shared.num_threads(),
            idle: shared.num_idle(),
            queued: shared.queue.len(),
        }
    }

    /// For a runtime's thread about to block with nothing to run: if tasks
    /// were submitted since it last looked (`waits` is brought up to date),
    /// some are still in flight, `may_yield` agrees and the thread's recent
    /// waits were not futile (`hop_waits.rs`), yields for up to
    /// [`HOP_WAIT`] (see the module documentation) or until `arrived`
    /// returns true. Returns whether `arrived` did. With no task in flight
    /// it costs one atomic load; it takes the pool's lock only with some.
    #[inline]
    pub(crate) fn yield_for_result(
        &self,
        waits: &mut HopWaits,
        may_yield: impl FnOnce() -> bool,
        arrived: impl FnMut() -> bool,
    ) -> bool {
        // Every park of every runtime thread asks; nearly all find nothing
        // in flight, so that answer is inlined at the caller.
        self.inner.config.activity.in_flight() != 0
            && self.yield_for_result_in_flight(waits, may_yield, arrived)
    }

    /// The rest of [`yield_for_result`](Self::yield_for_result), with
    /// closures in flight.
    #[inline(never)]
    fn yield_for_result_in_flight(
        &self,
        waits: &mut HopWaits,
        may_yield: impl FnOnce() -> bool,
        arrived: impl FnMut() -> bool,
    ) -> bool {
        if !may_yield()
            || !self
                .inner
                .lock()
                .submitted_since(&mut waits.submits_seen, self.inner.cpus)
            || waits.backoff.skip()
        {
            return false;
        }
        let answered = notified_while_yielding_for(HOP_WAIT, arrived);
        waits.backoff.ended(answered);
        answered
    }

    /// Runs `func` on a pool thread.
    #[track_caller]
    pub(crate) fn spawn_blocking<F, R>(&self, rt: &scheduler::Handle, func: F) -> JoinHandle<R>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        let id = task::Id::next();
        let (task, join) = task::unowned(
            BlockingTask::new(func, self.inner.config.activity.clone()),
            BlockingSchedule,
            id,
        );
        if let Err(error) = self.submit(task, rt) {
            panic!("OS can't spawn a blocking worker thread: {error}");
        }
        join
    }

    /// Queues a task, starting a thread if none is idle and the cap allows.
    fn submit(&self, task: Task, rt: &scheduler::Handle) -> io::Result<()> {
        let submitted = self
            .inner
            .lock()
            .submit(task, self.inner.config.max_threads);
        match submitted {
            // The pool is gone: the task is cancelled, not lost silently.
            Submitted::Rejected(task) => task.shutdown(),
            // Notify after unlocking, so the woken thread does not wake
            // straight into a held mutex.
            Submitted::NotifyIdle => self.inner.condvar.notify_one(),
            Submitted::SpawnThread => {
                if let Err(error) = self.spawn_thread(rt) {
                    // With no thread to run it, the task would hang; if
                    // other threads exist they will take it, otherwise
                    // report.
                    let orphan = self.inner.lock().spawn_failed();
                    if let Some(task) = orphan {
                        task.shutdown();
                        return Err(error);
                    }
                }
            }
            // At the cap: the task waits for a thread to free up.
            Submitted::Queued => {}
        }
        Ok(())
    }

    fn spawn_thread(&self, rt: &scheduler::Handle) -> io::Result<()> {
        let mut builder = thread::Builder::new().name((self.inner.config.thread_name)());
        if let Some(size) = self.inner.config.stack_size {
            builder = builder.stack_size(size);
        }
        let inner = self.inner.clone();
        let rt = rt.clone();
        builder.spawn(move || {
            // Blocking code may use `Handle::current()` and spawn.
            let _enter = context::set_current(&rt);
            if let Some(f) = &inner.config.after_start {
                f();
            }
            // On return the thread no longer counts against the cap, so a
            // submit from here on starts another thread if it needs one.
            inner.run();
            if let Some(f) = &inner.config.before_stop {
                f();
            }
            drop(_enter);
            if inner.lock().exited() {
                inner.exited.notify_all();
            }
        })?;
        Ok(())
    }
}

impl Inner {
    /// A pool thread's loop: run queued tasks, idle up to the keep-alive,
    /// leave on shutdown or after idling that long.
    fn run(&self) {
        let mut backoff = WaitBackoff::new();
        let mut shared = self.lock();
        'work: loop {
            while let Some(task) = shared.queue.pop_front() {
                drop(shared);
                task.run();
                shared = self.lock();
            }
            if shared.is_shutdown() {
                shared.stop();
                return;
            }
            shared.go_idle();
            // The backoff is asked only when the thread could yield, so
            // that its skips are spent on waits it would have made.
            if shared.may_start_yielding(self.cpus) && !backoff.skip() {
                shared.start_yielding();
                drop(shared);
                let answered =
                    notified_while_yielding_for(HOP_WAIT, || self.lock().idle_thread_wanted());
                backoff.ended(answered);
                shared = self.lock();
                shared.stop_yielding();
                // A submit made meanwhile counted this thread as notified,
                // but its condvar signal found nobody waiting.
                if shared.wake_idle(false) == Woken::Work {
                    continue 'work;
                }
            }
            let idle_since = Instant::now();
            loop {
                let left = self.config.keep_alive.saturating_sub(idle_since.elapsed());
                if !left.is_zero() {
                    shared = self
                        .condvar
                        .wait_timeout(shared, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
                let elapsed = idle_since.elapsed() >= self.config.keep_alive;
                match shared.wake_idle(elapsed) {
                    Woken::Work => break,
                    Woken::Retired => return,
                    Woken::Spurious => {}
                }
            }
        }
    }
}

impl fmt::Debug for Spawner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spawner").finish_non_exhaustive()
    }
}
