//! Slow-poll detection: report a task whose single poll held its thread
//! longer than a threshold.

use crate::task::Id;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe, Location};
use std::sync::Arc;
use std::time::Duration;

/// One timed poll of a task, as handed to the slow-poll hook.
///
/// A poll that runs long (blocking I/O, a heavy computation, a lock held
/// across a busy section) stalls every other task queued on that thread.
/// With [`Builder::on_slow_poll`](super::Builder::on_slow_poll), the
/// scheduler times each poll and calls the hook, on the thread that polled,
/// right after a poll that took at least the threshold.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
/// use std::time::{Duration, Instant};
///
/// let reports = Arc::new(AtomicUsize::new(0));
/// let seen = reports.clone();
/// let rt = rt_core::runtime::Builder::new_current_thread()
///     .on_slow_poll(Duration::from_millis(5), move |poll| {
///         assert!(poll.duration() >= Duration::from_millis(5));
///         seen.fetch_add(1, Ordering::Relaxed);
///     })
///     .build()
///     .unwrap();
/// rt.block_on(async {
///     rt_core::spawn(async {
///         // Busy for 10 ms without yielding: a slow poll.
///         let start = Instant::now();
///         while start.elapsed() < Duration::from_millis(10) {
///             std::hint::spin_loop();
///         }
///     })
///     .await
///     .unwrap();
/// });
/// assert_eq!(reports.load(Ordering::Relaxed), 1);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SlowPoll<'a> {
    pub(crate) id: Id,
    pub(crate) name: Option<&'a str>,
    pub(crate) location: &'static Location<'static>,
    pub(crate) duration: Duration,
}

impl SlowPoll<'_> {
    /// The task's id.
    pub fn id(&self) -> Id {
        self.id
    }

    /// The task's name, if it was spawned with one.
    pub fn name(&self) -> Option<&str> {
        self.name
    }

    /// Where the task was spawned.
    pub fn location(&self) -> &'static Location<'static> {
        self.location
    }

    /// How long the poll took.
    pub fn duration(&self) -> Duration {
        self.duration
    }
}

impl fmt::Display for SlowPoll<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "task {}", self.id)?;
        if let Some(name) = self.name {
            write!(f, " {name:?}")?;
        }
        write!(
            f,
            " spawned at {} was polled for {:?}",
            self.location, self.duration
        )
    }
}

/// The threshold and the hook, as configured.
#[derive(Clone)]
pub(crate) struct SlowPollHook {
    pub(crate) threshold: Duration,
    pub(crate) callback: Arc<dyn Fn(&SlowPoll<'_>) + Send + Sync>,
}

impl SlowPollHook {
    /// Calls the hook if `poll` was slow. A panic in the hook is contained:
    /// it must not unwind into the scheduler.
    pub(crate) fn check(&self, poll: &SlowPoll<'_>) {
        if poll.duration >= self.threshold {
            let _ = catch_unwind(AssertUnwindSafe(|| (self.callback)(poll)));
        }
    }
}
