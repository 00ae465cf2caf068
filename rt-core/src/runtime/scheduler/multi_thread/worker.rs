//! A worker thread: its `Core`, its loop, and how tasks reach it.
//!
//! The loop, per tick: every `event_interval` ticks poll the driver without
//! blocking; take the next task (the injector first every
//! `global_queue_interval` ticks, tuned to the tasks' poll times unless
//! the builder fixed it, so outside work is not starved; otherwise
//! the LIFO slot, then the local queue, then the injector); failing that,
//! steal; failing that, run the tasks that yielded again; failing that,
//! park.
//!
//! The LIFO slot lives in the worker's shared `Remote`, so that a task put
//! there is not stranded when its worker is stuck in a long poll: the
//! worker watching from the driver takes it (`lifo_watch.rs`).

use super::idle::WakeUp;
use super::lifo_slot::LifoSlot;
use super::lifo_watch::{SlotSightings, Watching};
use super::queue::{self, Overflow};
use super::tuning::QueueInterval;
use super::{Handle, Parker};
use crate::loom::sync::atomic::Ordering;
use crate::loom::sync::mpsc;
use crate::loom::thread;
use crate::loom::time::Instant;
use crate::runtime::metrics::{WorkerClock, WorkerMetrics};
use crate::runtime::scheduler::inject::Inject;
use crate::runtime::{context, scheduler};
use crate::task::{coop, Notified};
use crate::util::rng::FastRand;
use std::cell::RefCell;
use std::io;
use std::sync::Arc;

type Task = Notified<Arc<Handle>>;

/// Polls of LIFO-slot tasks in a row before the worker goes back to its
/// main loop (driver, injector), and tasks woken for the rest of the tick
/// queue behind those already waiting, so two tasks waking each other
/// cannot starve the queue. With nothing waiting, a woken task still takes
/// the slot: queueing it would only announce it to sleeping workers. The
/// cap and its value are tokio's (`MAX_LIFO_POLLS_PER_TICK` in its
/// multi-thread worker).
const MAX_LIFO_POLLS_PER_TICK: usize = 3;

/// Rounds of a loop in which only yielded tasks are left before the worker
/// polls the driver (without blocking) between two rounds. Not every round:
/// that made each yield an `epoll_wait`; not only every `event_interval`
/// ticks either: a task yielding until a socket is ready must see the
/// event within a few yields, as on tokio.
const YIELD_ROUNDS_PER_DRIVER_POLL: u32 = 4;

/// A worker's run state, owned by the thread running it.
pub(crate) struct Core {
    index: usize,
    tick: u32,
    /// Ticks between injector checks, tuned to poll times (`tuning.rs`).
    queue_interval: QueueInterval,
    local: queue::Local<Task>,
    /// Tasks that yielded, run again once the queue ran dry or at the next
    /// maintenance, so yield loops cannot starve the injector.
    deferred: Vec<Task>,
    /// Rounds run with only yielded tasks since the driver was last polled.
    yield_rounds: u32,
    lifo_enabled: bool,
    is_searching: bool,
    is_shutdown: bool,
    /// Set while this worker blocks in (or polls) the driver: tasks the
    /// driver wakes then land here, and this worker runs them itself.
    in_park: bool,
    parker: Parker,
    rand: FastRand,
    /// Feeds the busy-time and wake-up counters.
    clock: WorkerClock,
    /// What this worker saw in the others' LIFO slots while watching.
    sightings: SlotSightings,
}

/// What other threads may reach of a worker.
pub(crate) struct Remote {
    stealer: queue::Steal<Task>,
    lifo: LifoSlot<Task>,
    parker: Parker,
    /// The worker's counters, written only by the thread holding its core.
    pub(super) metrics: WorkerMetrics,
}

/// The driving thread's context.
pub(crate) struct Context {
    handle: Arc<Handle>,
    core: RefCell<Option<Box<Core>>>,
}

impl Core {
    pub(super) fn new(
        index: usize,
        num_workers: usize,
        parker: Parker,
        common: &scheduler::Common,
    ) -> (Box<Core>, Remote) {
        let (stealer, local) = queue::local();
        let remote = Remote {
            stealer,
            lifo: LifoSlot::new(),
            parker: parker.clone(),
            metrics: WorkerMetrics::new(common.config.poll_histogram),
        };
        let core = Box::new(Core {
            index,
            tick: 0,
            queue_interval: QueueInterval::new(
                common.config.global_queue_interval,
                common.config.tune_global_queue_interval,
            ),
            local,
            deferred: Vec::new(),
            yield_rounds: 0,
            lifo_enabled: true,
            is_searching: false,
            is_shutdown: false,
            in_park: false,
            parker,
            rand: FastRand::from_seed(common.seed_generator.next_seed()),
            clock: WorkerClock::start(),
            sightings: SlotSightings::new(num_workers),
        });
        (core, remote)
    }

    fn has_local_work(&self, handle: &Handle) -> bool {
        !self.local.is_empty()
            || !self.deferred.is_empty()
            || !handle.shared.remotes[self.index].lifo.is_empty()
    }

    /// Appends to the local queue; a full queue spills half to the
    /// injector, which the metrics count.
    fn push_local(&mut self, task: Task, handle: &Handle) {
        if self.local.push_back(task, &handle.shared.injector) {
            handle.shared.remotes[self.index].metrics.count_overflow();
        }
    }

    /// Moves yielded tasks back into the run queue (where others can steal
    /// them), and wakes a sleeper if the queue then holds more than the one
    /// task this worker runs next. Returns whether there were any.
    ///
    /// A lone yielder is not offered: a woken worker would steal it and
    /// leave this one idle, moving a yield loop between threads on every
    /// round.
    fn requeue_deferred(&mut self, handle: &Handle) -> bool {
        if self.deferred.is_empty() {
            return false;
        }
        // Drained in place, not taken: a yield loop refills the list every
        // round, and a fresh `Vec` would cost an allocation per yield.
        let mut deferred = std::mem::take(&mut self.deferred);
        for task in deferred.drain(..) {
            self.push_local(task, handle);
        }
        self.deferred = deferred;
        if self.local.len() > 1 {
            handle.notify_parked();
        }
        true
    }

    fn next_task(&mut self, handle: &Handle) -> Option<Task> {
        if self.tick % self.queue_interval.ticks() == 0 {
            if let Some(task) = handle.shared.injector.pop() {
                return Some(task);
            }
        }
        if let Some(task) = handle.shared.remotes[self.index].lifo.take() {
            return Some(task);
        }
        if let Some(task) = self.local.pop() {
            return Some(task);
        }
        self.take_from_injector(handle)
    }

    /// Takes one task from the injector to run, and a batch more into the
    /// local queue (a fair share, so one worker does not hoard it).
    fn take_from_injector(&mut self, handle: &Handle) -> Option<Task> {
        let injector = &handle.shared.injector;
        if injector.is_empty() {
            return None;
        }
        let share = injector.len() / handle.shared.remotes.len() + 1;
        let room = queue::CAPACITY / 2 - self.local.len().min(queue::CAPACITY / 2);
        // Up to half the local queue: a worker whose queue the driver
        // keeps refilling (hundreds of sockets) must still drain what
        // overflowed into the injector, or those tasks wait far longer
        // than the rest. The batch is cut off under the injector's lock
        // and queued here after it is released.
        let local = &mut self.local;
        injector.pop_batch(share.min(room) + 1, |task| {
            local.push_back(task, injector);
        })
    }

    /// Looks for work elsewhere: other workers' queues (half of each, from a
    /// random victim on), then the injector.
    fn steal_work(&mut self, handle: &Handle) -> Option<Task> {
        let remotes = &handle.shared.remotes;
        let n = remotes.len();
        if n == 1 {
            // The only worker: no queue to steal from and nobody to pass a
            // find on to, so it does not count itself as searching either.
            // (Before it sleeps, it looks at the injector once more, as a
            // last searcher does: see `Idle::transition_to_parked`.)
            return self.take_from_injector(handle);
        }
        if !self.is_searching {
            if !handle.shared.idle.transition_to_searching() {
                return None;
            }
            self.is_searching = true;
        }
        let start = self.rand.fastrand_n(n as u32) as usize;
        for _attempt in 0..3 {
            let mut retry = false;
            for i in 0..n {
                let victim = (start + i) % n;
                if victim == self.index {
                    continue;
                }
                if let Some(task) = remotes[victim].stealer.steal_into(&mut self.local) {
                    let stolen = self.local.len() as u64 + 1;
                    remotes[self.index].metrics.count_steal(stolen);
                    return Some(task);
                }
                // A queue that is not empty but yielded nothing had a
                // concurrent thief; look again.
                retry |= !remotes[victim].stealer.is_empty();
            }
            if let Some(task) = self.take_from_injector(handle) {
                return Some(task);
            }
            if !retry {
                break;
            }
        }
        // Other workers' LIFO slots are left alone: their owners run them
        // next, and a stranded one is rescued by the driver's watcher.
        None
    }

    /// Takes another worker's LIFO task that has sat in its slot for a
    /// watch interval (its worker is stuck in a long poll).
    fn rescue_stranded(&mut self, handle: &Handle) -> Option<Task> {
        // One clock reading for all the slots, taken at the first one that
        // holds a task (usually none does).
        let mut now = None;
        for (i, remote) in handle.shared.remotes.iter().enumerate() {
            if i == self.index {
                continue;
            }
            let stamp = remote.lifo.stamp();
            if self
                .sightings
                .is_stranded(i, stamp, || *now.get_or_insert_with(Instant::now))
            {
                self.sightings.forget(i);
                if let Some(task) = remote.lifo.take() {
                    handle.shared.remotes[self.index].metrics.count_steal(1);
                    return Some(task);
                }
            }
        }
        None
    }

    /// Stops searching without having found work, to run yielded tasks
    /// rather than park. No sleeper is woken for nothing; but a push that
    /// saw this worker searching woke nobody, so the last searcher looks
    /// once more, as it does before parking.
    fn stop_searching_empty_handed(&mut self, handle: &Handle) {
        if !self.is_searching {
            return;
        }
        self.is_searching = false;
        if handle.shared.idle.transition_from_searching() {
            notify_if_work_pending(handle, self.index);
        }
    }

    fn transition_from_searching(&mut self, handle: &Handle) {
        if !self.is_searching {
            return;
        }
        self.is_searching = false;
        if handle.shared.idle.transition_from_searching() {
            // The last searcher found work: there may be more, so wake
            // another worker to keep looking.
            handle.notify_parked();
        }
    }
}

impl Overflow<Task> for Inject<Arc<Handle>> {
    fn push_batch(&self, tasks: impl Iterator<Item = Task>) {
        Inject::push_batch(self, tasks);
    }
}

impl Remote {
    pub(super) fn unpark(&self) {
        self.parker.unpark();
    }

    /// Tasks in the worker's queue and LIFO slot.
    pub(super) fn queue_depth(&self) -> usize {
        self.stealer.len() + usize::from(!self.lifo.is_empty())
    }
}

/// Counts a timed poll in the histogram of the worker polling it, if this
/// thread holds a worker's core (a `block_in_place` may have handed it on).
pub(super) fn record_poll_time(handle: &Arc<Handle>, duration: std::time::Duration) {
    context::with_scheduler(|cx| {
        if let Some(scheduler::Context::MultiThread(cx)) = cx {
            if Arc::ptr_eq(&cx.handle, handle) {
                if let Some(core) = cx.core.borrow().as_ref() {
                    handle.shared.remotes[core.index]
                        .metrics
                        .record_poll_time(duration);
                }
            }
        }
    });
}

/// Starts a thread that runs `core` as a worker. If the OS cannot start
/// one, the core comes back with the error, tasks and all: dropping it
/// would lose them, and shutdown would wait forever for its return.
pub(super) fn launch(handle: &Arc<Handle>, core: Box<Core>) -> Result<(), (io::Error, Box<Core>)> {
    let config = &handle.shared.thread_config;
    let mut builder = thread::Builder::new().name((config.name)());
    if let Some(size) = config.stack_size {
        builder = builder.stack_size(size);
    }
    // The core travels to the thread only once the thread exists.
    let (hand_over, handed) = mpsc::channel::<Box<Core>>();
    handle.shared.live_threads.fetch_add(1, Ordering::Relaxed);
    let spawned = spawn_thread(builder, {
        let handle = handle.clone();
        move || {
            let Ok(core) = handed.recv() else {
                unreachable!("a started worker thread is always handed its core")
            };
            if let Some(f) = &handle.shared.thread_config.after_start {
                f();
            }
            run(handle.clone(), core);
            if let Some(f) = &handle.shared.thread_config.before_stop {
                f();
            }
            handle.shared.live_threads.fetch_sub(1, Ordering::Relaxed);
        }
    });
    match spawned {
        Ok(thread) => {
            hand_over
                .send(core)
                .unwrap_or_else(|_| unreachable!("the worker thread waits for its core"));
            handle
                .shared
                .threads
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(thread);
            Ok(())
        }
        Err(error) => {
            handle.shared.live_threads.fetch_sub(1, Ordering::Relaxed);
            Err((error, core))
        }
    }
}

#[cfg(test)]
crate::loom::thread_local! {
    /// Makes the next worker-thread spawn from this thread fail, so that
    /// tests reach the paths that handle it.
    pub(super) static FAIL_NEXT_SPAWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The one place worker threads are started.
fn spawn_thread(
    builder: thread::Builder,
    body: impl FnOnce() + Send + 'static,
) -> io::Result<thread::JoinHandle<()>> {
    #[cfg(test)]
    if FAIL_NEXT_SPAWN.with(|fail| fail.replace(false)) {
        return Err(io::Error::other("thread spawn failure injected by a test"));
    }
    builder.spawn(body)
}

fn run(handle: Arc<Handle>, core: Box<Core>) {
    let rt = scheduler::Handle::MultiThread(handle.clone());
    let _enter = context::enter_runtime(&rt, true);
    let cx = scheduler::Context::MultiThread(Context {
        handle: handle.clone(),
        core: RefCell::new(None),
    });
    context::set_scheduler(&cx, || {
        let scheduler::Context::MultiThread(cx) = &cx else {
            unreachable!()
        };
        // `Err` means `block_in_place` handed the core to another thread,
        // which now runs this worker; this thread is done.
        if let Ok(core) = cx.run(core) {
            shutdown_core(&handle, *core);
        }
    });
}

impl Context {
    /// The index of the worker this thread runs, while it holds the
    /// worker's core (not after `block_in_place` handed it away).
    pub(crate) fn worker_index(&self) -> Option<usize> {
        self.core.borrow().as_ref().map(|core| core.index)
    }

    fn run(&self, mut core: Box<Core>) -> Result<Box<Core>, ()> {
        let handle = &self.handle;
        let config = &handle.common.config;
        // The core may come from another thread (`block_in_place`).
        core.clock = WorkerClock::start();
        while !core.is_shutdown {
            core.tick = core.tick.wrapping_add(1);
            if core.tick % config.event_interval == 0 {
                core = self.maintenance(core);
                if core.is_shutdown {
                    break;
                }
            }
            if let Some(task) = core.next_task(handle) {
                core = self.run_task(task, core)?;
                continue;
            }
            if !core.deferred.is_empty() {
                // Only yielded tasks were left. They wait behind other
                // workers' queues too: a worker stuck in a long poll, or
                // one the OS has descheduled, may hold tasks that nobody
                // else would take while this one loops over its yields.
                if let Some(task) = core.steal_work(handle) {
                    core = self.run_task(task, core)?;
                    continue;
                }
                core.stop_searching_empty_handed(handle);
                // Run them again, polling the driver first every few
                // rounds (see `YIELD_ROUNDS_PER_DRIVER_POLL`).
                core.yield_rounds += 1;
                if core.yield_rounds >= YIELD_ROUNDS_PER_DRIVER_POLL {
                    core = self.maintenance(core);
                } else {
                    core.requeue_deferred(handle);
                }
                continue;
            }
            if let Some(task) = core.steal_work(handle) {
                core = self.run_task(task, core)?;
                continue;
            }
            core = self.park(core);
        }
        Ok(core)
    }

    fn run_task(&self, task: Task, mut core: Box<Core>) -> Result<Box<Core>, ()> {
        let handle = &self.handle;
        let task = handle.shared.owned.assert_owner(task);
        core.transition_from_searching(handle);
        core.lifo_enabled = true;
        let metrics = &handle.shared.remotes[core.index].metrics;
        metrics.count_poll(&mut core.clock);
        core.queue_interval.count_poll();
        *self.core.borrow_mut() = Some(core);
        coop::with_budget_value(handle.common.config.budget, || {
            task.run();
            let mut lifo_polls = 0;
            loop {
                // The core stays in the context while the slot is looked
                // at; it leaves only when the loop ends.
                let mut slot = self.core.borrow_mut();
                // `None`: a `block_in_place` inside the poll took the core.
                let core = slot.as_mut().ok_or(())?;
                if !core.lifo_enabled {
                    // Capped: a task the last poll put in the slot runs
                    // after the main loop's checks (driver, injector).
                    return slot.take().ok_or(());
                }
                let Some(task) = handle.shared.remotes[core.index].lifo.take() else {
                    return slot.take().ok_or(());
                };
                if !coop::has_budget_remaining() {
                    // Out of budget: the LIFO task waits its turn in the
                    // queue, where others can steal it.
                    core.push_local(task, handle);
                    handle.notify_parked();
                    return slot.take().ok_or(());
                }
                lifo_polls += 1;
                if lifo_polls >= MAX_LIFO_POLLS_PER_TICK {
                    core.lifo_enabled = false;
                }
                let task = handle.shared.owned.assert_owner(task);
                metrics.count_poll(&mut core.clock);
                core.queue_interval.count_poll();
                // Released before the poll: the task's wakes borrow it.
                drop(slot);
                task.run();
            }
        })
    }

    /// Polls the driver without blocking, watches the other workers' LIFO
    /// slots and notices shutdown.
    fn maintenance(&self, core: Box<Core>) -> Box<Core> {
        let mut core = self.park_with(core, Some(std::time::Duration::ZERO));
        // A parked worker watches from the driver; a running one looks at
        // its maintenance ticks, so that a task stranded behind a stuck
        // poll is taken even when no worker is idle (all the others busy,
        // or looping over their yields).
        if let Some(task) = core.rescue_stranded(&self.handle) {
            core.push_local(task, &self.handle);
        }
        core.yield_rounds = 0;
        core.queue_interval.end_batch();
        core.requeue_deferred(&self.handle);
        let metrics = &self.handle.shared.remotes[core.index].metrics;
        metrics.sample_forced_yields(&mut core.clock);
        if self.handle.shared.closed.load(Ordering::Acquire) {
            core.is_shutdown = true;
        }
        core
    }

    fn park(&self, mut core: Box<Core>) -> Box<Core> {
        let handle = &self.handle;
        if core.has_local_work(handle) {
            return core;
        }
        if handle
            .shared
            .idle
            .transition_to_parked(core.index, core.is_searching)
        {
            // The last to look (the last searcher, or a lone worker): make
            // sure nothing was left behind.
            notify_if_work_pending(handle, core.index);
        }
        core.is_searching = false;
        // Counted (and the hooks run) once per park, however many watch
        // intervals or spurious wake-ups it takes: those are not the
        // worker coming back to work. A worker that finds the runtime
        // closed has joined the sleepers all the same: its park counts, so
        // that every worker of a runtime reports at least one, however
        // late its thread started.
        let config = &handle.common.config;
        let metrics = &handle.shared.remotes[core.index].metrics;
        metrics.before_park(&mut core.clock);
        if let Some(f) = &config.before_park {
            f();
        }
        let mut core = if handle.shared.closed.load(Ordering::Acquire) {
            core.is_shutdown = true;
            handle.shared.idle.unpark_worker_by_id(core.index);
            core
        } else {
            self.park_until_woken(core)
        };
        core.queue_interval.start_batch();
        metrics.after_unpark(&mut core.clock);
        if let Some(f) = &config.after_unpark {
            f();
        }
        core
    }

    /// The blocking part of `park`: blocks until woken for work or for
    /// shutdown, going back to sleep after spurious wake-ups.
    fn park_until_woken(&self, mut core: Box<Core>) -> Box<Core> {
        let handle = &self.handle;
        loop {
            // A zero-timeout park (driver poll, yielded-task requeue) may
            // have consumed the wake-up that shutdown sent: shutdown sets
            // `closed` before it unparks, so checking here, before
            // blocking, cannot miss it.
            if handle.shared.closed.load(Ordering::Acquire) {
                core.is_shutdown = true;
                handle.shared.idle.unpark_worker_by_id(core.index);
                return core;
            }
            core = self.park_watching(core);
            if handle.shared.closed.load(Ordering::Acquire) {
                core.is_shutdown = true;
                handle.shared.idle.unpark_worker_by_id(core.index);
                return core;
            }
            if let Some(task) = core.rescue_stranded(handle) {
                core.push_local(task, handle);
            }
            let has_local_work = core.has_local_work(handle);
            let woken = handle.shared.idle.wake_up(core.index, has_local_work);
            if woken != WakeUp::Spurious {
                // Counted unparked again: the running side of the LIFO
                // watch handshake, for a task the driver put into this
                // worker's slot while it parked. The slot is not always
                // run next (an injector tick may come first, and block),
                // and a worker that took the driver after this one left it
                // may have seen no running worker and blocked unwatched.
                if !handle.shared.remotes[core.index].lifo.is_empty() {
                    handle.shared.lifo_watch.task_placed(&handle.shared.driver);
                }
            }
            match woken {
                // Shutdown took this worker off the sleeper list without
                // counting it as searching (`unpark_worker_by_id`); it set
                // `closed` first, and the sleeper lock taken in `wake_up`
                // orders that store before this load. Searching now would
                // take the worker out of a count it is not in.
                WakeUp::Notified if handle.shared.closed.load(Ordering::Acquire) => {
                    core.is_shutdown = true;
                    return core;
                }
                // Woken to look for work, and counted as searching.
                WakeUp::Notified => {
                    core.is_searching = true;
                    return core;
                }
                // The driver woke tasks onto this worker, or it rescued one.
                WakeUp::OwnWork => return core,
                // Spurious wake-up: still on the sleeper list.
                WakeUp::Spurious => {}
            }
        }
    }

    /// Blocks until woken, with the core back in the context (as in
    /// `park_with`); if this worker gets the driver while another worker's
    /// LIFO slot holds a task, it blocks there for at most a watch interval
    /// (`lifo_watch.rs`).
    fn park_watching(&self, mut core: Box<Core>) -> Box<Core> {
        let parker = core.parker.clone();
        let me = core.index;
        core.in_park = true;
        *self.core.borrow_mut() = Some(core);
        let shared = &self.handle.shared;
        parker.park_watching(
            None,
            &Watching {
                watch: &shared.lifo_watch,
                others_hold_a_task: || {
                    shared
                        .remotes
                        .iter()
                        .enumerate()
                        .any(|(i, remote)| i != me && remote.lifo.holds_item_now())
                },
            },
        );
        self.back_from_park()
    }

    /// Parks with the core back in the context, so that wakers fired by the
    /// driver schedule onto this worker.
    ///
    /// Tasks woken meanwhile are not announced one by one (a ping-pong
    /// would wake a sleeping worker per message, only for it to steal the
    /// task this worker is about to run); once back, one other worker is
    /// woken if there is more than the LIFO slot's task to share.
    fn park_with(&self, mut core: Box<Core>, timeout: Option<std::time::Duration>) -> Box<Core> {
        let parker = core.parker.clone();
        core.in_park = true;
        *self.core.borrow_mut() = Some(core);
        parker.park(timeout);
        self.back_from_park()
    }

    /// Takes the core back after a park; shares tasks the driver woke onto
    /// it beyond the one in the LIFO slot.
    fn back_from_park(&self) -> Box<Core> {
        let mut core = self
            .core
            .borrow_mut()
            .take()
            .expect("core missing from its context after park");
        core.in_park = false;
        if !core.local.is_empty() {
            self.handle.notify_parked();
        }
        core
    }
}

fn notify_if_work_pending(handle: &Handle, me: usize) {
    let remotes = &handle.shared.remotes;
    // LIFO slots do not count: their owners run them (or the watcher
    // rescues them), so waking a searcher for them would be in vain.
    let pending = remotes
        .iter()
        .enumerate()
        .any(|(i, r)| i != me && !r.stealer.is_empty())
        || !handle.shared.injector.is_empty();
    if pending {
        handle.notify_parked();
    }
}

/// Routes a woken or spawned task: onto the current worker when called from
/// one of this pool's workers, otherwise through the injector.
pub(super) fn schedule_task(handle: &Arc<Handle>, task: Task, is_yield: bool) {
    let task = context::with_scheduler(|cx| {
        if let Some(scheduler::Context::MultiThread(cx)) = cx {
            if Arc::ptr_eq(&cx.handle, handle) {
                if let Some(core) = cx.core.borrow_mut().as_mut() {
                    schedule_local(handle, core, task, is_yield);
                    return None;
                }
            }
        }
        Some(task)
    });
    if let Some(task) = task {
        handle.push_remote(task);
    }
}

/// Queues a task woken (or spawned) on this worker.
///
/// Shutdown is not checked here: a task woken after shutdown cancelled it
/// holds a stale reference, which the worker drops when it picks the task
/// up (the task is no longer idle) or the last worker out drops with its
/// queue. The worker itself notices shutdown at its next maintenance or
/// park.
///
/// The common case, an empty LIFO slot, is inlined into every wake; the
/// rest (`queue_local`) is a call away, so that the wake path saves and
/// restores few registers.
#[inline]
fn schedule_local(handle: &Handle, core: &mut Core, task: Task, is_yield: bool) {
    if is_yield || (!core.lifo_enabled && !core.local.is_empty()) {
        // A yield waits behind other work; and when the LIFO run is capped
        // and other tasks wait, this one queues behind them. With nothing
        // queued there is nobody to be fair to, so it takes the slot as
        // usual and runs after the main loop's checks. Queueing it would
        // wake a sleeper to steal the one task this worker runs next, and
        // with a ping-pong pair that wake-up repeats every few messages: the
        // woken worker takes the task while its partner is still finishing
        // its poll, the pair ends up split, and each searcher that finds
        // work wakes the next one.
        return queue_local(handle, core, task, is_yield);
    }
    // With one worker there is nobody to watch the slot (`lifo_watch.rs`).
    let watched = handle.shared.remotes.len() > 1;
    match handle.shared.remotes[core.index].lifo.put(task, watched) {
        // The slot held another task: that one goes to the queue.
        Some(prev) => queue_local(handle, core, prev, false),
        None => {
            // Only the LIFO slot holds it: this worker runs it once the
            // current poll returns, and should that poll hang, the driver's
            // watcher takes it (`lifo_watch.rs`). Waking a sleeper for it
            // would only move the task to another thread. (A task the
            // driver wakes onto its own holder is announced once the holder
            // counts as unparked again: see `park`.)
            if !core.in_park {
                handle.shared.lifo_watch.task_placed(&handle.shared.driver);
            }
        }
    }
}

/// Puts `task` in this worker's queue (or, for a yield, behind the other
/// work) and offers the queue to a sleeper.
#[inline(never)]
fn queue_local(handle: &Handle, core: &mut Core, task: Task, is_yield: bool) {
    if is_yield {
        core.deferred.push(task);
        return;
    }
    core.push_local(task, handle);
    if core.in_park {
        // Woken by the driver this worker is parked on: `park_with` shares
        // the work once it is back.
        return;
    }
    // Others may take from our queue or slot; wake one if nobody searches.
    handle.notify_parked();
}

/// A worker hands its core back at shutdown; the last one in drains every
/// queue and shuts the driver down.
pub(super) fn shutdown_core(handle: &Handle, mut core: Core) {
    // The last busy period (since the last park) counts too: a worker that
    // started late, or never parked, has run nonetheless.
    handle.shared.remotes[core.index]
        .metrics
        .flush(&mut core.clock);
    // Tasks bound while shutdown began are cancelled here.
    handle.shared.owned.close_and_shutdown_all();
    let mut cores = handle
        .shared
        .shutdown_cores
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    cores.push(core);
    if cores.len() != handle.shared.remotes.len() {
        return;
    }
    for mut core in cores.drain(..) {
        core.deferred.clear();
        while let Some(task) = core.local.pop() {
            drop(task);
        }
    }
    drop(cores);
    for remote in handle.shared.remotes.iter() {
        drop(remote.lifo.take());
    }
    handle.drain_injector();
    handle.shared.driver.shutdown();
    let (lock, condvar) = &handle.shared.finished;
    *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
    condvar.notify_all();
}

/// Runs blocking code on a worker thread after handing the worker's core
/// to a fresh thread, so the other tasks of this worker keep running.
#[track_caller]
pub(crate) fn block_in_place<F: FnOnce() -> R, R>(f: F) -> R {
    use context::EnterRuntime;
    match context::runtime_entered() {
        EnterRuntime::NotEntered => return f(),
        EnterRuntime::Entered {
            allow_block_in_place: false,
        } => panic!("can call blocking only when running on the multi-threaded runtime"),
        EnterRuntime::Entered { .. } => {}
    }
    context::with_scheduler(|cx| {
        if let Some(scheduler::Context::MultiThread(cx)) = cx {
            let core = cx.core.borrow_mut().take();
            if let Some(core) = core {
                if let Err((error, core)) = launch(&cx.handle, core) {
                    // This thread keeps running the worker, so that none of
                    // its tasks is lost; only the caller's task fails.
                    *cx.core.borrow_mut() = Some(core);
                    panic!("OS can't spawn worker thread: {error}");
                }
            }
        }
    });
    let _exit = context::exit_runtime();
    coop::with_unconstrained(f)
}
