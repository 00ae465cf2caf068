//! The deadline of an `#[rt::test]`: a test that runs too long prints its
//! name and its runtime's task dump (with the chain of awaits each idle
//! task is parked at) to stderr, then aborts the process, so that a hang
//! fails the run at once, saying where, instead of stalling CI
//! until an outer time limit kills it without a word.
//!
//! A deadline is opt-in, since a `#[tokio::test]` has none and a test
//! written for tokio may run as long as it likes: a test's own
//! `#[rt::test(deadline_secs = N)]`, or else `RT_TEST_DEADLINE` seconds
//! from the environment (CI sets it for every test binary; `0` is none).
//! Without either the test is not watched and costs nothing here.
//!
//! One watchdog thread serves the whole process. Arming a test puts its
//! deadline in a shared list; the thread sleeps on a condition variable
//! until the earliest deadline in the list passes. A test that finishes in
//! time costs a lock, an insertion and a removal: no thread of its own, no
//! polling.
//!
//! The watchdog measures wall-clock time with `std::time::Instant`, so a
//! test on a paused rt clock is still bounded. It uses std's `Mutex` and
//! `Condvar` directly rather than a loom shim: it watches real threads in a
//! test process and never runs inside a loom model.

use std::fmt;
use std::future::Future;
use std::io::Write;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::runtime::{Handle, LocalRuntime, Runtime};

/// The environment variable that sets the deadline, in seconds, of every
/// test that does not set its own.
pub const DEADLINE_VAR: &str = "RT_TEST_DEADLINE";

/// How long the watchdog waits for a dump before aborting without it: the
/// hung test might hold what the dump needs.
const DUMP_PATIENCE: Duration = Duration::from_secs(5);

/// The runtime of one `#[rt::test]`, watched until it is dropped: the
/// deadline covers the test's body and the runtime's shutdown.
pub struct TestRuntime {
    runtime: Option<Watched>,
    ticket: Option<u64>,
}

/// The runtime a test runs on: the flavors `current_thread` and
/// `multi_thread` build a [`Runtime`], `local` a [`LocalRuntime`].
pub enum Watched {
    /// A `Send` runtime.
    Runtime(Runtime),
    /// A `!Send` runtime that runs `!Send` tasks.
    Local(LocalRuntime),
}

impl Watched {
    fn handle(&self) -> &Handle {
        match self {
            Watched::Runtime(runtime) => runtime.handle(),
            Watched::Local(runtime) => runtime.handle(),
        }
    }
}

impl From<Runtime> for Watched {
    fn from(runtime: Runtime) -> Watched {
        Watched::Runtime(runtime)
    }
}

impl From<LocalRuntime> for Watched {
    fn from(runtime: LocalRuntime) -> Watched {
        Watched::Local(runtime)
    }
}

impl TestRuntime {
    /// Arms the watchdog for `runtime` when the test has a deadline:
    /// `deadline`, the test's own (`deadline_secs`), or else
    /// [`DEADLINE_VAR`]'s. `path` names the test when the thread it runs on
    /// has no name of its own (libtest names each test's thread after the
    /// test).
    pub fn new(
        runtime: impl Into<Watched>,
        path: &'static str,
        deadline: Option<Duration>,
    ) -> TestRuntime {
        let runtime = runtime.into();
        let ticket = chosen(deadline, environment_deadline).map(|(after, source)| {
            let name = match thread::current().name() {
                Some(name) if name != "main" => name.to_owned(),
                _ => path.to_owned(),
            };
            WATCHDOG.arm(Armed {
                ticket: 0,
                deadline: Instant::now() + after,
                after,
                source,
                name,
                handle: runtime.handle().clone(),
            })
        });
        TestRuntime {
            runtime: Some(runtime),
            ticket,
        }
    }

    /// Runs the test's body on the runtime.
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        match &self.runtime {
            Some(Watched::Runtime(runtime)) => runtime.block_on(future),
            Some(Watched::Local(runtime)) => runtime.block_on(future),
            None => unreachable!("the runtime is only taken by drop"),
        }
    }
}

impl Drop for TestRuntime {
    fn drop(&mut self) {
        // Shut the runtime down while still watched, then disarm.
        drop(self.runtime.take());
        if let Some(ticket) = self.ticket {
            WATCHDOG.disarm(ticket);
        }
    }
}

/// A test's deadline and where it came from: its own, or else the
/// environment's (asked only then), or none.
fn chosen(
    own: Option<Duration>,
    environment: impl FnOnce() -> Option<Duration>,
) -> Option<(Duration, &'static str)> {
    match own {
        Some(after) => Some((after, "deadline_secs")),
        None => environment().map(|after| (after, DEADLINE_VAR)),
    }
}

/// The deadline from the environment, read once; `None` when unset or
/// `0`. A value that is not a whole number of seconds is reported once and
/// ignored, so that a typo neither fails every test nor goes unseen.
fn environment_deadline() -> Option<Duration> {
    static DEADLINE: OnceLock<Option<Duration>> = OnceLock::new();
    *DEADLINE.get_or_init(|| {
        let raw = std::env::var_os(DEADLINE_VAR)?;
        parsed(&raw).unwrap_or_else(|| {
            say(format_args!(
                "rt: {DEADLINE_VAR}={raw:?} is not a whole number of seconds; tests \
                 without `deadline_secs` run without a deadline\n"
            ));
            None
        })
    })
}

/// [`DEADLINE_VAR`]'s value read: `Some(None)` for `0`, `None` when it is
/// not a whole number of seconds.
fn parsed(raw: &std::ffi::OsStr) -> Option<Option<Duration>> {
    let seconds = raw.to_str()?.trim().parse::<u64>().ok()?;
    Some((seconds > 0).then(|| Duration::from_secs(seconds)))
}

/// One watched test.
struct Armed {
    ticket: u64,
    deadline: Instant,
    after: Duration,
    /// Where the deadline came from, for the report.
    source: &'static str,
    name: String,
    handle: Handle,
}

struct State {
    armed: Vec<Armed>,
    next_ticket: u64,
    thread_started: bool,
}

/// The process's watchdog: the armed tests and the condition variable its
/// thread sleeps on.
struct Watchdog {
    state: Mutex<State>,
    changed: Condvar,
}

static WATCHDOG: Watchdog = Watchdog {
    state: Mutex::new(State {
        armed: Vec::new(),
        next_ticket: 0,
        thread_started: false,
    }),
    changed: Condvar::new(),
};

impl Watchdog {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic never happens while the lock is held; even so, the list
        // stays consistent, so a poisoned lock is used as it is.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `armed` to the list and returns its ticket.
    fn arm(&'static self, mut armed: Armed) -> u64 {
        let mut state = self.lock();
        state.next_ticket += 1;
        armed.ticket = state.next_ticket;
        let ticket = armed.ticket;
        let earliest = state.armed.iter().all(|a| a.deadline > armed.deadline);
        state.armed.push(armed);
        if !state.thread_started {
            state.thread_started = true;
            let spawned = thread::Builder::new()
                .name("rt-test-watchdog".into())
                .spawn(move || self.watch());
            if let Err(error) = spawned {
                say(format_args!(
                    "rt: could not start the test watchdog ({error}); tests run unbounded\n"
                ));
            }
        } else if earliest {
            self.changed.notify_one();
        }
        ticket
    }

    /// Removes the test with `ticket`. Its handle is dropped after the lock
    /// is released.
    fn disarm(&self, ticket: u64) {
        let removed = {
            let mut state = self.lock();
            let index = state.armed.iter().position(|a| a.ticket == ticket);
            index.map(|i| state.armed.swap_remove(i))
        };
        drop(removed);
    }

    /// The watchdog thread: sleeps until the earliest deadline, and fires
    /// when a test is still armed past it.
    fn watch(&self) {
        let mut state = self.lock();
        loop {
            let now = Instant::now();
            let earliest = state
                .armed
                .iter()
                .enumerate()
                .min_by_key(|(_, a)| a.deadline)
                .map(|(i, a)| (i, a.deadline));
            state = match earliest {
                None => self
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
                Some((index, deadline)) if deadline <= now => {
                    let late = state.armed.swap_remove(index);
                    drop(state);
                    fire(late)
                }
                Some((_, deadline)) => {
                    self.changed
                        .wait_timeout(state, deadline - now)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }
}

/// Reports a test past its deadline and ends the process.
fn fire(late: Armed) -> ! {
    say(format_args!(
        "rt: test `{}` ran past its deadline of {} s ({}); its runtime's task dump:\n",
        late.name,
        late.after.as_secs(),
        late.source
    ));
    match dump_within(late.handle, DUMP_PATIENCE) {
        Some(dump) => say(format_args!("{dump}")),
        None => say(format_args!(
            "(no dump: taking one did not finish within {} s)\n",
            DUMP_PATIENCE.as_secs()
        )),
    }
    say(format_args!(
        "rt: aborting the test process: `{}` hung\n",
        late.name
    ));
    std::process::abort()
}

/// Writes to the process's stderr itself. `eprintln!` would not do: libtest
/// captures what a test's threads print (this thread was spawned by one)
/// and the capture is lost when the process aborts.
fn say(text: fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(text);
}

/// The runtime's task dump as text, taken on a thread of its own so that a
/// dump that cannot finish does not keep the process alive.
fn dump_within(handle: Handle, patience: Duration) -> Option<String> {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("rt-test-dump".into())
        .spawn(move || {
            let _ = sender.send(handle.dump().to_string());
        })
        .ok()?;
    receiver.recv_timeout(patience).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_test_without_a_deadline_is_not_watched() {
        assert_eq!(chosen(None, || None), None);
    }

    #[test]
    fn a_test_s_own_deadline_wins_and_the_environment_is_not_read() {
        let environment = || -> Option<Duration> { panic!("read the environment") };
        assert_eq!(
            chosen(Some(SECOND), environment),
            Some((SECOND, "deadline_secs"))
        );
        assert_eq!(
            chosen(None, || Some(2 * SECOND)),
            Some((2 * SECOND, DEADLINE_VAR))
        );
    }

    #[test]
    fn the_environment_gives_whole_seconds_and_zero_is_none() {
        assert_eq!(parsed(OsStr::new(" 30 ")), Some(Some(30 * SECOND)));
        assert_eq!(parsed(OsStr::new("0")), Some(None));
        assert_eq!(parsed(OsStr::new("30s")), None);
        assert_eq!(parsed(OsStr::new("")), None);
    }
}
