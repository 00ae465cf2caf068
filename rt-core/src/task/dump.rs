//! Task dumps: a snapshot of every live task of a runtime, for debugging a
//! stuck program.
//!
//! A dump reads what each task cell already keeps (id, spawn location,
//! name, state word, poll count and last-poll time) while the owned-task
//! list's shard lock keeps the task alive; taking one costs nothing on the
//! poll path beyond the counter every poll bumps.

use super::core::Header;
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
        Ok(())
    }
}

/// A snapshot of a runtime's live tasks, from
/// [`Handle::dump`](crate::runtime::Handle::dump).
///
/// Awaiting a `Dump` yields it unchanged, so that code written as
/// `handle.dump().await` compiles too.
#[derive(Debug, Clone, Default)]
pub struct Dump {
    tasks: Vec<TaskInfo>,
}

impl Dump {
    pub(crate) fn new(mut tasks: Vec<TaskInfo>) -> Dump {
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

/// Reads a dump entry off a live task.
///
/// The caller keeps the task alive (it holds the owned-list shard lock).
pub(crate) fn task_info(header: &Header, now: Instant) -> TaskInfo {
    let snapshot = header.state.load();
    let state = if snapshot.is_complete() {
        TaskState::Complete
    } else if snapshot.is_running() {
        TaskState::Running
    } else if snapshot.is_notified() {
        TaskState::Scheduled
    } else {
        TaskState::Idle
    };
    // SAFETY: the caller keeps the task alive; the trailer lives as long.
    let trailer = unsafe { Header::trailer(NonNull::from(header)).as_ref() };
    let last = trailer.last_poll.load(Ordering::Relaxed);
    let since_last_poll =
        (last != 0).then(|| Duration::from_millis(u64::from(clock_millis(now).wrapping_sub(last))));
    TaskInfo {
        id: header.id,
        name: trailer.origin.name().map(str::to_string),
        location: trailer.origin.location(),
        state,
        polls: u64::from(trailer.polls.load(Ordering::Relaxed)),
        since_last_poll,
    }
}
