//! The pool's threads and queue.
//!
//! One mutex guards the queue and the thread counts (`shared.rs` holds the
//! steps taken under it); idle threads wait on a condvar. A thread wakes up
//! for one of three reasons, which the counters tell apart (condvars wake
//! spuriously): a task was queued, the pool shuts down, or the keep-alive
//! elapsed (then the thread exits).
//!
//! Neither end of a hop waits for the other by spinning or yielding: a
//! submit wakes an idle thread (or starts one), and a finished closure
//! wakes the task awaiting its `JoinHandle` through the task's waker, like
//! any other wake-up. A thread with nothing to do blocks; the thread with
//! work wakes it.

use super::schedule::BlockingSchedule;
use super::shared::{Shared, Submitted, Woken};
use super::task::BlockingTask;
use super::BlockingActivity;
use crate::loom::sync::{Condvar, Mutex, MutexGuard};
use crate::loom::thread;
use crate::loom::time::Instant;
use crate::runtime::{context, scheduler, Callback};
use crate::task::{self, JoinHandle, UnownedTask};
use std::fmt;
use std::io;
// `std`'s `Arc`: the configuration holds `Arc<dyn Fn>` (see `crate::loom`).
use std::sync::Arc;
use std::time::Duration;

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
        let mut shared = self.lock();
        loop {
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
