//! The multi-thread work-stealing scheduler.
//!
//! Each worker thread owns a `Core`: a local run queue (`queue.rs`, a
//! bounded ring of our own that the owner pushes to and pops from and other
//! workers steal half of), a LIFO slot that other workers take from only
//! when it is stranded (`lifo_watch.rs`), and its tick. Tasks woken on a
//! worker go to its LIFO slot (the woken task often shares the waker's
//! data, still in cache); older work goes to the back of the local queue.
//! Work from outside the pool, and a full local queue's overflow, enters
//! through the injector (`super::inject`, the intrusive queue the
//! current-thread scheduler uses too). A worker with nothing to run steals
//! half of a random victim's queue, and parks when there is nothing
//! anywhere; `idle.rs` decides who to wake.

mod idle;
mod lifo_slot;
mod lifo_watch;
#[cfg(all(test, loom))]
mod loom_models;
mod park;
mod queue;
mod tuning;
#[cfg(all(test, not(loom)))]
mod tests;
mod worker;

pub(crate) use worker::{block_in_place, Context};

use super::Common;
use super::inject::Inject;
use crate::loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use crate::loom::sync::{Condvar, Mutex};
use crate::loom::thread;
use crate::loom::time::Instant;
use crate::runtime::driver::Driver;
use crate::runtime::metrics::WorkerMetrics;
use crate::runtime::SlowPoll;
use crate::task::list::OwnedTasks;
use crate::task::dump::Held;
use crate::task::{Id, JoinHandle, Notified, Origin, Schedule, Task};
use idle::Idle;
use lifo_watch::LifoWatch;
use park::{Parker, SharedDriver};
use std::any::Any;
use std::future::Future;
use std::io;
// `std`'s `Arc`: the handle is shared with code that names it so (see
// `crate::loom`).
use std::sync::Arc;
use worker::{Core, Remote};

/// The pool's shared half; `Arc<Handle>` is what tasks hold.
pub(crate) struct Handle {
    pub(crate) common: Common,
    shared: Shared,
}

struct Shared {
    remotes: Box<[Remote]>,
    injector: Inject<Arc<Handle>>,
    /// Set once shutdown began (the injector is closed then too, so that
    /// later pushes drop their task).
    closed: AtomicBool,
    owned: OwnedTasks<Arc<Handle>>,
    idle: Idle,
    /// Whether the driver's holder watches for stranded LIFO tasks.
    lifo_watch: LifoWatch,
    driver: Arc<SharedDriver>,
    /// Cores handed back by exiting workers; the last one in cleans up.
    shutdown_cores: Mutex<Vec<Core>>,
    /// Signalled when every core came back and cleanup is done.
    finished: (Mutex<bool>, Condvar),
    /// Worker threads to spawn per thread name (names come from the builder).
    thread_config: ThreadConfig,
    live_threads: AtomicUsize,
    /// Every worker thread started, joined when the runtime drops.
    threads: Mutex<Vec<thread::JoinHandle<()>>>,
}

pub(crate) struct ThreadConfig {
    pub(crate) name: Arc<dyn Fn() -> String + Send + Sync>,
    pub(crate) stack_size: Option<usize>,
    pub(crate) after_start: Option<crate::runtime::Callback>,
    pub(crate) before_stop: Option<crate::runtime::Callback>,
}

impl Handle {
    /// Builds the pool and starts its worker threads.
    pub(crate) fn new(
        common: Common,
        driver: Box<dyn Driver>,
        num_workers: usize,
        thread_config: ThreadConfig,
    ) -> io::Result<Arc<Handle>> {
        let driver = Arc::new(SharedDriver::new(driver));
        let mut cores = Vec::with_capacity(num_workers);
        let mut remotes = Vec::with_capacity(num_workers);
        for index in 0..num_workers {
            let parker = Parker::new(driver.clone());
            let (core, remote) = Core::new(index, num_workers, parker, &common);
            cores.push(core);
            remotes.push(remote);
        }
        let handle = Arc::new(Handle {
            shared: Shared {
                remotes: remotes.into_boxed_slice(),
                injector: Inject::new(),
                closed: AtomicBool::new(false),
                owned: OwnedTasks::new(num_workers * 4),
                idle: Idle::new(num_workers),
                lifo_watch: LifoWatch::new(),
                driver,
                shutdown_cores: Mutex::new(Vec::with_capacity(num_workers)),
                finished: (Mutex::new(false), Condvar::new()),
                thread_config,
                live_threads: AtomicUsize::new(0),
                threads: Mutex::new(Vec::with_capacity(num_workers)),
            },
            common,
        });
        let mut cores = cores.into_iter();
        while let Some(core) = cores.next() {
            if let Err((error, core)) = worker::launch(&handle, core) {
                // Stop the workers that did start, and hand in the cores
                // that never ran, so that the last worker out still drains
                // the queues and shuts the driver down.
                handle.shutdown();
                for core in std::iter::once(core).chain(cores) {
                    worker::shutdown_core(&handle, *core);
                }
                return Err(error);
            }
        }
        Ok(handle)
    }

    #[track_caller]
    pub(crate) fn spawn<F>(
        me: &Arc<Handle>,
        future: F,
        id: Id,
        origin: Origin,
    ) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let (join, notified) = me.shared.owned.bind(future, me.clone(), id, origin);
        if let Some(notified) = notified {
            worker::schedule_task(me, notified, false);
        }
        join
    }

    /// Number of worker threads.
    pub(crate) fn num_workers(&self) -> usize {
        self.shared.remotes.len()
    }

    /// Number of live tasks.
    pub(crate) fn num_alive_tasks(&self) -> usize {
        self.shared.owned.len()
    }

    pub(crate) fn global_queue_depth(&self) -> usize {
        self.shared.injector.len()
    }

    /// # Panics
    ///
    /// If `worker` is out of range.
    pub(crate) fn worker_metrics(&self, worker: usize) -> &WorkerMetrics {
        &self.shared.remotes[worker].metrics
    }

    /// # Panics
    ///
    /// If `worker` is out of range.
    pub(crate) fn worker_local_queue_depth(&self, worker: usize) -> usize {
        self.shared.remotes[worker].queue_depth()
    }

    pub(crate) fn hold_tasks(&self) -> Vec<Held> {
        self.shared.owned.hold_all()
    }

    /// Starts shutdown: cancels tasks and wakes every worker so that they
    /// exit. Safe to call more than once.
    pub(crate) fn shutdown(&self) {
        if self.shared.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        self.shared.injector.close();
        self.shared.owned.close_and_shutdown_all();
        for index in 0..self.shared.remotes.len() {
            self.shared.idle.unpark_worker_by_id(index);
            self.shared.remotes[index].unpark();
        }
    }

    /// Waits until every worker has exited and cleanup is done, or until
    /// `timeout` elapses. Returns whether it finished.
    pub(crate) fn wait_for_workers(&self, timeout: Option<std::time::Duration>) -> bool {
        let (lock, condvar) = &self.shared.finished;
        let mut done = lock.lock().unwrap_or_else(|e| e.into_inner());
        // A timeout past what an `Instant` can hold (`Duration::MAX`) is no
        // deadline at all.
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        while !*done {
            done = match deadline {
                None => condvar.wait(done).unwrap_or_else(|e| e.into_inner()),
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return false;
                    }
                    condvar
                        .wait_timeout(done, deadline - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
        true
    }

    /// Joins the worker threads that have exited (all of them when
    /// `wait` is set: threads still running a `block_in_place` closure are
    /// then waited for, as blocking work is on drop).
    pub(crate) fn join_threads(&self, wait: bool) {
        let threads = std::mem::take(
            &mut *self
                .shared
                .threads
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
        );
        let mut unfinished = Vec::new();
        for thread in threads {
            if wait || thread.is_finished() {
                let _ = thread.join();
            } else {
                unfinished.push(thread);
            }
        }
        // Detached: they finish on their own.
        drop(unfinished);
    }

    fn push_remote(&self, task: Notified<Arc<Handle>>) {
        // Once shutdown closed the injector, the push drops the task: every
        // task was cancelled, so no reference is stranded.
        self.shared.injector.push(task);
        self.notify_parked();
    }

    fn drain_injector(&self) {
        while let Some(task) = self.shared.injector.pop() {
            drop(task);
        }
    }

    /// Wakes a parked worker if nobody is searching.
    fn notify_parked(&self) {
        if let Some(index) = self.shared.idle.worker_to_notify() {
            self.shared.remotes[index].unpark();
        }
    }
}

impl Schedule for Arc<Handle> {
    fn release(&self, task: &Task<Self>) -> Option<Task<Self>> {
        self.shared.owned.remove(task)
    }

    fn schedule(&self, task: Notified<Self>) {
        worker::schedule_task(self, task, false);
    }

    fn yield_now(&self, task: Notified<Self>) {
        worker::schedule_task(self, task, true);
    }

    fn pads_tasks(&self) -> bool {
        // Fixed when the runtime is built, as the trait requires.
        self.shared.remotes.len() > 1
    }

    fn measures_polls(&self) -> bool {
        self.common.config.measure_polls
    }

    fn after_poll(&self, poll: &SlowPoll<'_>) {
        worker::record_poll_time(self, poll.duration());
        self.common.check_slow_poll(poll);
    }

    fn unhandled_panic(&self, id: Id, payload: &(dyn Any + Send)) {
        self.common.report_panic(id, payload);
        if let crate::runtime::UnhandledPanic::ShutdownRuntime = self.common.config.unhandled_panic
        {
            self.shutdown();
        }
    }
}
