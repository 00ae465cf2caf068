//! The current-thread scheduler: every task runs on the thread that calls
//! `block_on`.
//!
//! The run state (`Core`: local queue, driver, tick) is a token that one
//! thread holds at a time. `block_on` takes it, runs tasks and the driver
//! until its future completes, and puts it back; a second thread calling
//! `block_on` meanwhile polls its own future and waits for the token.
//! Wakes from the driving thread go straight to the local queue; wakes from
//! elsewhere go through the injection queue and unpark the driver.

use super::inject::Inject;
use super::Common;
use crate::loom::sync::atomic::{AtomicBool, Ordering};
use crate::loom::sync::{Condvar, Mutex};
use crate::runtime::context;
use crate::runtime::driver::Driver;
use crate::runtime::metrics::{WorkerClock, WorkerMetrics};
use crate::runtime::{SlowPoll, UnhandledPanic};
use crate::task::list::OwnedTasks;
use crate::task::dump::Held;
use crate::task::{coop, Id, JoinHandle, Notified, Origin, Schedule, Task};
use std::any::Any;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
// `std`'s `Arc`: `Handle` and `Waiter` are wakers (see `crate::loom`).
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll, Wake, Waker};
use std::time::Duration;

/// The scheduler's shared half; `Arc<Handle>` is what tasks hold.
pub(crate) struct Handle {
    pub(crate) common: Common,
    owned: OwnedTasks<Arc<Handle>>,
    inject: Inject<Arc<Handle>>,
    /// Set when the `block_on` future was woken.
    woken: AtomicBool,
    /// The `Core` token, when no thread is driving.
    core: Mutex<Option<Box<Core>>>,
    /// Signalled when the token comes back or a waiting `block_on` future is
    /// woken.
    core_returned: Condvar,
    /// Counters of the one worker, written by whoever holds the core.
    metrics: WorkerMetrics,
}

/// The run state, held by the driving thread.
pub(crate) struct Core {
    tasks: VecDeque<Notified<Arc<Handle>>>,
    /// Tasks that yielded: they run again only after the queue and the
    /// injector had their turn and the driver was polled, so a task that
    /// yields in a loop cannot starve work arriving from outside.
    deferred: Vec<Notified<Arc<Handle>>>,
    tick: u32,
    driver: Option<Box<dyn Driver>>,
    /// A task panicked under `UnhandledPanic::ShutdownRuntime`.
    unhandled_panic: bool,
    /// Feeds the busy-time and wake-up counters.
    clock: WorkerClock,
    /// Set while the driver parks (or polls) with this core in the
    /// context: the first task scheduled meanwhile reports it to the driver
    /// (`Unpark::note_work`) and clears it, since once is enough.
    report_work: bool,
}

/// The driving thread's context.
pub(crate) struct Context {
    handle: Arc<Handle>,
    core: RefCell<Option<Box<Core>>>,
}

const INITIAL_QUEUE_CAPACITY: usize = 64;

impl Handle {
    pub(crate) fn new(common: Common, driver: Box<dyn Driver>) -> Arc<Handle> {
        let core = Box::new(Core {
            tasks: VecDeque::with_capacity(INITIAL_QUEUE_CAPACITY),
            deferred: Vec::new(),
            tick: 0,
            driver: Some(driver),
            unhandled_panic: false,
            clock: WorkerClock::start(),
            report_work: false,
        });
        let metrics = WorkerMetrics::new(common.config.poll_histogram);
        Arc::new(Handle {
            common,
            owned: OwnedTasks::new(1),
            inject: Inject::new(),
            woken: AtomicBool::new(false),
            core: Mutex::new(Some(core)),
            core_returned: Condvar::new(),
            metrics,
        })
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
        let (join, notified) = me.owned.bind(future, me.clone(), id, origin);
        if let Some(notified) = notified {
            me.schedule(notified);
        }
        join
    }

    /// Number of live tasks.
    pub(crate) fn num_alive_tasks(&self) -> usize {
        self.owned.len()
    }

    pub(crate) fn global_queue_depth(&self) -> usize {
        self.inject.len()
    }

    pub(crate) fn metrics(&self) -> &WorkerMetrics {
        &self.metrics
    }

    pub(crate) fn hold_tasks(&self) -> Vec<Held> {
        self.owned.hold_all()
    }

    /// Runs `future` to completion on this thread, driving the scheduler
    /// whenever this thread holds the core.
    pub(crate) fn block_on<F: Future>(me: &Arc<Handle>, future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let waiter = Arc::new(Waiter {
            woken: AtomicBool::new(true),
            handle: me.clone(),
        });
        let waiter_waker = Waker::from(waiter.clone());
        loop {
            let mut slot = me.core.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(core) = slot.take() {
                drop(slot);
                return CoreGuard::new(me.clone(), core).block_on(future.as_mut());
            }
            if !waiter.woken.swap(false, Ordering::AcqRel) {
                // Nothing to do until the core comes back or our future is
                // woken; the waker takes this lock before notifying.
                drop(
                    me.core_returned
                        .wait(slot)
                        .unwrap_or_else(|e| e.into_inner()),
                );
                continue;
            }
            drop(slot);
            let mut cx = TaskContext::from_waker(&waiter_waker);
            if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return out;
            }
        }
    }

    /// Cancels every task, drains the queues and shuts the driver down.
    /// Waits for the core if another thread is driving.
    pub(crate) fn shutdown(me: &Arc<Handle>) {
        let core = {
            let mut slot = me.core.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(core) = slot.take() {
                    break core;
                }
                slot = me
                    .core_returned
                    .wait(slot)
                    .unwrap_or_else(|e| e.into_inner());
            }
        };
        let guard = CoreGuard::new(me.clone(), core);
        guard.enter(|mut core| {
            // Cancel every task first: their destructors may wake or spawn,
            // which the closed list and queues then refuse.
            me.owned.close_and_shutdown_all();
            core.tasks.clear();
            core.deferred.clear();
            me.inject.close();
            while let Some(task) = me.inject.pop() {
                drop(task);
            }
            debug_assert!(me.owned.is_empty());
            if let Some(driver) = core.driver.as_mut() {
                driver.shutdown();
            }
            (core, ())
        });
    }

    fn unpark(&self) {
        self.common.unpark.unpark();
    }
}

impl Schedule for Arc<Handle> {
    fn release(&self, task: &Task<Self>) -> Option<Task<Self>> {
        self.owned.remove(task)
    }

    fn schedule(&self, task: Notified<Self>) {
        context::with_scheduler(|cx| match cx {
            Some(super::Context::CurrentThread(cx)) if Arc::ptr_eq(&cx.handle, self) => {
                let mut core = cx.core.borrow_mut();
                match core.as_mut() {
                    Some(core) => {
                        core.tasks.push_back(task);
                        if core.report_work {
                            core.report_work = false;
                            self.common.unpark.note_work();
                        }
                    }
                    // The core was taken for shutdown: the task has been or
                    // will be cancelled through the owned list.
                    None => drop(task),
                }
            }
            _ => {
                self.inject.push(task);
                self.unpark();
            }
        });
    }

    fn yield_now(&self, task: Notified<Self>) {
        context::with_scheduler(|cx| match cx {
            Some(super::Context::CurrentThread(cx)) if Arc::ptr_eq(&cx.handle, self) => {
                match cx.core.borrow_mut().as_mut() {
                    Some(core) => core.deferred.push(task),
                    None => drop(task),
                }
            }
            _ => self.schedule(task),
        });
    }

    fn measures_polls(&self) -> bool {
        self.common.config.measure_polls
    }

    fn after_poll(&self, poll: &SlowPoll<'_>) {
        // Tasks of this scheduler are only polled by the core's holder.
        self.metrics.record_poll_time(poll.duration());
        self.common.check_slow_poll(poll);
    }

    fn unhandled_panic(&self, id: Id, payload: &(dyn Any + Send)) {
        self.common.report_panic(id, payload);
        if let UnhandledPanic::ShutdownRuntime = self.common.config.unhandled_panic {
            // Stop at once: cancel every other task and refuse new ones;
            // `block_on` then panics at its next scheduling point.
            self.owned.close_and_shutdown_all();
            context::with_scheduler(|cx| {
                if let Some(super::Context::CurrentThread(cx)) = cx {
                    if let Some(core) = cx.core.borrow_mut().as_mut() {
                        core.unhandled_panic = true;
                    }
                }
            });
        }
    }
}

/// Wakes a `block_on` future whose thread is driving the scheduler.
impl Wake for Handle {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        // Woken from the thread that holds the core (a task it runs, or a
        // waker the driver fires as its park returns): that thread checks
        // `woken` before it blocks again, so the syscall of an unpark is
        // wasted there (it was one per request/reply round trip).
        let on_driving_thread = context::with_scheduler(|cx| match cx {
            Some(super::Context::CurrentThread(cx)) if Arc::ptr_eq(&cx.handle, self) => {
                match cx.core.borrow_mut().as_mut() {
                    Some(core) => {
                        if core.report_work {
                            core.report_work = false;
                            self.common.unpark.note_work();
                        }
                        true
                    }
                    None => false,
                }
            }
            _ => false,
        });
        if !on_driving_thread {
            self.unpark();
        }
    }
}

/// Wakes a `block_on` future whose thread waits for the core.
struct Waiter {
    woken: AtomicBool,
    handle: Arc<Handle>,
}

impl Wake for Waiter {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::Release);
        // Take the lock so the notification cannot slip between the
        // waiter's check and its wait.
        drop(self.handle.core.lock().unwrap_or_else(|e| e.into_inner()));
        self.handle.core_returned.notify_all();
    }
}

/// Holds the core for the driving thread and returns it on drop, even if a
/// task panic unwinds through `block_on`.
struct CoreGuard {
    context: super::Context,
}

impl CoreGuard {
    fn new(handle: Arc<Handle>, core: Box<Core>) -> CoreGuard {
        CoreGuard {
            context: super::Context::CurrentThread(Context {
                handle,
                core: RefCell::new(Some(core)),
            }),
        }
    }

    #[inline]
    fn cx(&self) -> &Context {
        match &self.context {
            super::Context::CurrentThread(cx) => cx,
            #[cfg(feature = "rt-multi-thread")]
            super::Context::MultiThread(_) => unreachable!("a current-thread guard"),
        }
    }

    /// Runs `f` with the core taken out of the context and this scheduler
    /// set as the thread's scheduler.
    fn enter<R>(&self, f: impl FnOnce(Box<Core>) -> (Box<Core>, R)) -> R {
        let core = self
            .cx()
            .core
            .borrow_mut()
            .take()
            .expect("core missing from its context");
        let (core, out) = context::set_scheduler(&self.context, || f(core));
        *self.cx().core.borrow_mut() = Some(core);
        out
    }

    fn block_on<F: Future>(self, mut future: std::pin::Pin<&mut F>) -> F::Output {
        let handle = self.cx().handle.clone();
        let waker = Waker::from(handle.clone());
        let mut cx = TaskContext::from_waker(&waker);
        let config = &handle.common.config;
        // Poll the future once before anything else.
        handle.woken.store(true, Ordering::Release);
        self.enter(|mut core| {
            // The core may have moved threads since it last ran.
            core.clock = WorkerClock::start();
            'outer: loop {
                if handle.woken.swap(false, Ordering::AcqRel) {
                    let (c, polled) = self.with_core(core, || {
                        coop::with_budget_value(config.budget, || future.as_mut().poll(&mut cx))
                    });
                    core = c;
                    if let Poll::Ready(out) = polled {
                        handle.metrics.flush(&mut core.clock);
                        return (core, out);
                    }
                }
                for _ in 0..config.event_interval {
                    if core.unhandled_panic {
                        // Leave through a panic, as documented for
                        // `UnhandledPanic::ShutdownRuntime`; the guard puts
                        // the core back first.
                        core.unhandled_panic = false;
                        *self.cx().core.borrow_mut() = Some(core);
                        panic!(
                            "a spawned task panicked and the runtime is configured to shut \
                             down on unhandled panic"
                        );
                    }
                    core.tick = core.tick.wrapping_add(1);
                    let Some(task) = core.next_task(&handle) else {
                        if core.deferred.is_empty() {
                            core = self.park(core, &handle, None);
                        } else {
                            // Only yielded tasks are left: poll the driver,
                            // then run them again.
                            core = self.park(core, &handle, Some(Duration::ZERO));
                            let deferred = std::mem::take(&mut core.deferred);
                            core.tasks.extend(deferred);
                        }
                        continue 'outer;
                    };
                    let task = handle.owned.assert_owner(task);
                    handle.metrics.count_poll(&mut core.clock);
                    let (c, ()) = self.with_core(core, || {
                        coop::with_budget_value(config.budget, || task.run());
                    });
                    core = c;
                }
                // Busy for a while: poll the driver without blocking so
                // that I/O and timers are not starved, and requeue the
                // tasks that yielded, which would otherwise wait until the
                // queue runs dry: under a saturated queue, forever.
                core = self.park(core, &handle, Some(Duration::ZERO));
                let deferred = std::mem::take(&mut core.deferred);
                core.tasks.extend(deferred);
            }
        })
    }

    /// Runs `f` with the core back in the context, where tasks scheduled by
    /// `f` find it.
    fn with_core<R>(&self, core: Box<Core>, f: impl FnOnce() -> R) -> (Box<Core>, R) {
        *self.cx().core.borrow_mut() = Some(core);
        let out = f();
        let core = self
            .cx()
            .core
            .borrow_mut()
            .take()
            .expect("core missing from its context");
        (core, out)
    }

    /// Blocks on the driver, unless work arrived or the `block_on` future
    /// was woken (then only polls it).
    fn park(
        &self,
        mut core: Box<Core>,
        handle: &Arc<Handle>,
        timeout: Option<Duration>,
    ) -> Box<Core> {
        let mut driver = core.driver.take().expect("driver missing");
        let idle = timeout.is_none();
        let has_work = |core: &Core| handle.woken.load(Ordering::Acquire) || !core.tasks.is_empty();
        let mut timeout = if idle && has_work(&core) {
            Some(Duration::ZERO)
        } else {
            timeout
        };
        let hooks = timeout != Some(Duration::ZERO);
        let metrics = &handle.metrics;
        metrics
            .local_queue_depth
            .store(core.tasks.len(), Ordering::Relaxed);
        if hooks {
            metrics.before_park(&mut core.clock);
            if let Some(f) = &handle.common.config.before_park {
                // With the core in the context: the hook may spawn or wake
                // tasks, which then land in this runtime's queue...
                core = self.with_core(core, || f()).0;
                // ...and must run before the thread blocks.
                if idle && has_work(&core) {
                    timeout = Some(Duration::ZERO);
                }
            }
        } else {
            metrics.sample_forced_yields(&mut core.clock);
        }
        // The driver may fire wakers that schedule tasks: keep the core in
        // the context meanwhile.
        core.report_work = true;
        let (mut core, ()) = self.with_core(core, || driver.park(timeout));
        core.report_work = false;
        core.driver = Some(driver);
        if hooks {
            metrics.after_unpark(&mut core.clock);
            if let Some(f) = &handle.common.config.after_unpark {
                core = self.with_core(core, || f()).0;
            }
        }
        core
    }
}

impl Drop for CoreGuard {
    fn drop(&mut self) {
        let cx = self.cx();
        if let Some(core) = cx.core.borrow_mut().take() {
            let mut slot = cx.handle.core.lock().unwrap_or_else(|e| e.into_inner());
            *slot = Some(core);
            drop(slot);
            cx.handle.core_returned.notify_all();
        }
    }
}

impl Core {
    #[inline]
    fn next_task(&mut self, handle: &Handle) -> Option<Notified<Arc<Handle>>> {
        if self.tick % handle.common.config.global_queue_interval == 0 {
            handle.inject.pop().or_else(|| self.tasks.pop_front())
        } else {
            self.tasks.pop_front().or_else(|| handle.inject.pop())
        }
    }
}
