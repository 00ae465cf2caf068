//! Task dumps: a snapshot of every live task of a runtime, for debugging a
//! stuck program, with where each idle task waits.
//!
//! A dump takes a reference to each task under the owned-task list's shard
//! lock, then, with the lock released, reads what each task cell already
//! keeps (id, spawn location, name, state word, poll count and last-poll
//! time) and trace-polls each idle task once (see `trace.rs`): the poll
//! runs the future down to the rt resource it is parked on, which records
//! the chain of awaits and answers `Pending` without touching anything. A
//! task that is running or queued is not traced. Printed, a dump of the
//! `stuck` example (two transfers deadlocked on each other's `Mutex`, one
//! task waiting on a channel nobody sends to) reads:
//!
//! ```text
//! 3 live tasks
//!   task 1 "transfer a->b" at examples/examples/stuck.rs:88:10: Idle, 2 polls, waiting at:
//!     rt_sync::batch_semaphore::Acquire at rt-sync/src/batch_semaphore.rs:532
//!     rt_sync::mutex::Mutex<T>::acquire::{{closure}} at rt-sync/src/mutex/mod.rs:163
//!     rt_sync::mutex::Mutex<T>::lock::{{closure}} at rt-sync/src/mutex/mod.rs:109
//!     stuck::lock_destination::{{closure}} at examples/examples/stuck.rs:23
//!     stuck::transfer::{{closure}} at examples/examples/stuck.rs:32
//!   task 2 "transfer b->a" at examples/examples/stuck.rs:92:10: Idle, 1 polls, waiting at:
//!     ...
//!   task 3 "orders" at examples/examples/stuck.rs:96:10: Idle, 1 polls, waiting at:
//!     rt_sync::mpsc::chan::Rx<T,S>::poll_take at rt-sync/src/mpsc/chan.rs:328
//!     rt_sync::mpsc::chan::Rx<T,S>::poll_recv at rt-sync/src/mpsc/chan.rs:303
//!     rt_sync::mpsc::bounded::Receiver<T>::recv::{{closure}} at rt-sync/src/mpsc/receiver.rs:20
//!     stuck::next_order::{{closure}} at examples/examples/stuck.rs:39
//!     stuck::serve_orders::{{closure}} at examples/examples/stuck.rs:44
//! ```
//!
//! Without a dump nothing of this runs: the poll path pays only the
//! counter every poll bumps, and each leaf resource one thread-local read.

use super::core::Header;
use super::raw::RawTask;
use super::state::Snapshot;
use super::trace::{Collector, Trace};
use super::Id;
use crate::loom::sync::atomic::Ordering;
use std::fmt;
use std::future::{ready, IntoFuture, Ready};
use std::panic::Location;
use std::ptr::NonNull;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What a task was doing when the dump was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskState {
    /// Waiting to be woken.
    Idle,
    /// Woken and waiting in a run queue.
    Scheduled,
    /// Being polled (or cancelled) on some thread right now.
    Running,
    /// Finished. A finished task leaves the runtime's list at once, so a
    /// dump shows this state only in that short window.
    Complete,
}

/// One task in a [`Dump`].
#[derive(Debug, Clone)]
pub struct TaskInfo {
    id: Id,
    name: Option<String>,
    location: &'static Location<'static>,
    state: TaskState,
    polls: u64,
    since_last_poll: Option<Duration>,
    trace: Option<Trace>,
}

impl TaskInfo {
    /// The task's id.
    pub fn id(&self) -> Id {
        self.id
    }

    /// The name given with [`task::Builder::name`](super::Builder::name).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Where the task was spawned.
    pub fn location(&self) -> &'static Location<'static> {
        self.location
    }

    /// The task's state.
    pub fn state(&self) -> TaskState {
        self.state
    }

    /// How many times the task was polled (counted modulo 2^32).
    pub fn poll_count(&self) -> u64 {
        self.polls
    }

    /// Time since the task's last poll ended, to the millisecond (right for
    /// gaps under about 49 days). Polls are only timed when the
    /// runtime measures them (slow-poll detection or the poll-time
    /// histogram is enabled); otherwise, and before the first poll, `None`.
    pub fn since_last_poll(&self) -> Option<Duration> {
        self.since_last_poll
    }

    /// Where the task waits: for an [`Idle`](TaskState::Idle) task, the
    /// chain of awaits from the rt resource it is parked on up to its
    /// future. `None` for a task that was running, scheduled or complete
    /// when the dump was taken (it waits on nothing).
    pub fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }
}

impl fmt::Display for TaskInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "task {}", self.id)?;
        if let Some(name) = &self.name {
            write!(f, " {name:?}")?;
        }
        write!(
            f,
            " at {}: {:?}, {} polls",
            self.location, self.state, self.polls
        )?;
        if let Some(since) = self.since_last_poll {
            write!(f, ", last poll {since:?} ago")?;
        }
        match &self.trace {
            Some(trace) => {
                f.write_str(", waiting at:")?;
                for line in trace.to_string().lines() {
                    write!(f, "\n    {line}")?;
                }
                Ok(())
            }
            None => f.write_str(" (no trace: not idle)"),
        }
    }
}

/// A snapshot of a runtime's live tasks, from
/// [`Handle::dump`](crate::runtime::Handle::dump).
///
/// Each idle task was polled once more in a trace mode, in which every rt
/// resource records the stack and returns `Pending` untouched; its
/// [`TaskInfo::trace`] is the chain of awaits from that resource up to the
/// task's future. The traced tasks then run as if no dump had been taken.
/// Printed:
///
/// ```text
/// 2 live tasks
///   task 1 "orders" at src/main.rs:96:10: Idle, 1 polls, waiting at:
///     rt_sync::mpsc::chan::Rx<T,S>::poll_take at rt-sync/src/mpsc/chan.rs:328
///     rt_sync::mpsc::bounded::Receiver<T>::recv::{{closure}} at rt-sync/src/mpsc/receiver.rs:20
///     app::next_order::{{closure}} at src/main.rs:39
///     app::serve_orders::{{closure}} at src/main.rs:44
///   task 2 "dumper" at src/main.rs:12:5: Running, 1 polls (no trace: not idle)
/// ```
///
/// Awaiting a `Dump` yields it unchanged, so that code written as
/// `handle.dump().await` compiles too.
#[derive(Debug, Clone, Default)]
pub struct Dump {
    tasks: Vec<TaskInfo>,
}

impl Dump {
    /// Takes the dump of `tasks`: reads each entry and trace-polls each
    /// idle task, then resolves the distinct stacks once.
    pub(crate) fn take(tasks: Vec<Held>, now: Instant) -> Dump {
        let mut collector = Collector::default();
        let mut entries = Vec::with_capacity(tasks.len());
        for held in &tasks {
            let mut info = task_info(&held.0, now);
            let traced = held.0.trace(&mut collector);
            match traced {
                Ok(traced) => {
                    info.state = TaskState::Idle;
                    entries.push((info, Some(traced)));
                }
                Err(snapshot) => {
                    info.state = state_of(snapshot);
                    entries.push((info, None));
                }
            }
        }
        // Let go of the tasks before resolving symbols, the slow part.
        drop(tasks);
        let chains = collector.finish();
        let mut tasks: Vec<TaskInfo> = entries
            .into_iter()
            .map(|(mut info, traced)| {
                info.trace = traced.map(|(stacks, root)| {
                    Trace::new(stacks.iter().map(|&i| chains[i].clone()).collect(), root)
                });
                info
            })
            .collect();
        tasks.sort_by_key(|t| t.id);
        Dump { tasks }
    }

    /// The tasks, in id order.
    pub fn tasks(&self) -> &[TaskInfo] {
        &self.tasks
    }
}

impl fmt::Display for Dump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} live tasks", self.tasks.len())?;
        for task in &self.tasks {
            writeln!(f, "  {task}")?;
        }
        Ok(())
    }
}

impl IntoFuture for Dump {
    type Output = Dump;
    type IntoFuture = Ready<Dump>;

    fn into_future(self) -> Ready<Dump> {
        ready(self)
    }
}

/// Milliseconds since a process-wide epoch, modulo 2^32 (about 49 days),
/// for timestamps kept in an `AtomicU32`; differences are taken with
/// wrapping arithmetic, so they stay right for gaps shorter than that.
pub(crate) fn clock_millis(at: Instant) -> u32 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    at.saturating_duration_since(epoch).as_millis() as u32
}

/// A task a dump holds a reference to, taken under the owned-list shard
/// lock, so that the dump can trace-poll it after letting go of the lock
/// (a poll may spawn, or complete the task, which takes that lock).
pub(crate) struct Held(RawTask);

impl Held {
    /// Takes a reference to a task of an owned list.
    ///
    /// # Safety
    ///
    /// `task` is the pointer the owned list holds for a task it keeps
    /// linked, so alive, until this returns (the caller holds the shard
    /// lock). It must be that pointer and not one made from a `&Header`:
    /// the `Held` reads the trailer and polls the future through it, so
    /// it must carry provenance over the whole cell.
    pub(super) unsafe fn new(task: NonNull<Header>) -> Held {
        // SAFETY: the task is alive and `task` spans its cell (see above).
        let raw = unsafe { RawTask::from_raw(task) };
        raw.ref_inc();
        Held(raw)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.0.drop_reference();
    }
}

fn state_of(snapshot: Snapshot) -> TaskState {
    if snapshot.is_complete() {
        TaskState::Complete
    } else if snapshot.is_running() {
        TaskState::Running
    } else if snapshot.is_notified() {
        TaskState::Scheduled
    } else {
        TaskState::Idle
    }
}

/// Reads a dump entry off a live task, which the caller keeps alive.
fn task_info(task: &RawTask, now: Instant) -> TaskInfo {
    let header = task.header();
    let state = state_of(header.state.load());
    let trailer = task.trailer();
    let last = header.last_poll.load(Ordering::Relaxed);
    let since_last_poll =
        (last != 0).then(|| Duration::from_millis(u64::from(clock_millis(now).wrapping_sub(last))));
    TaskInfo {
        id: header.id,
        name: trailer.origin.name().map(str::to_string),
        location: trailer.origin.location(),
        state,
        polls: u64::from(header.polls.load(Ordering::Relaxed)),
        since_last_poll,
        trace: None,
    }
}
