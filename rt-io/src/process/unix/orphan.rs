//! The orphan queue: children whose [`Child`](crate::process::Child) was dropped
//! before their exit was collected, kept until they exit so that none stays
//! a zombie.
//!
//! The queue is a plain `Mutex<Vec<_>>`; collecting is one non-blocking
//! `waitpid` per entry. Two kinds of callers drain it:
//!
//! * every process operation (spawn, wait, `try_wait`), cheaply and without
//!   waiting for the lock;
//! * a reaper thread, started when the first orphan arrives, that drains the
//!   queue each time `SIGCHLD` is delivered. It is a thread rather than a
//!   task because an orphan outlives the runtime it was spawned in, and a
//!   program may stop spawning processes altogether.
//!
//! The reaper subscribes to `SIGCHLD` before its first drain, and the queue
//! is also drained right after each orphan is queued, so a child that exits
//! at any moment is collected either by that drain or after its signal.

use crate::signal::unix::{signal, Signal, SignalKind};
use std::process::Child as StdChild;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};
use std::task::{Context, Wake, Waker};
use std::thread::{self, Thread};

static ORPHANS: Mutex<Vec<StdChild>> = Mutex::new(Vec::new());

/// Whether the reaper thread was started (its outcome is not needed later).
static REAPER: OnceLock<()> = OnceLock::new();

fn orphans() -> MutexGuard<'static, Vec<StdChild>> {
    // A panic while holding the lock cannot leave the vector inconsistent.
    ORPHANS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Keeps `child` until it exits. Called from a `Drop`, so it never fails:
/// if the reaper thread cannot start, later process operations still
/// drain the queue.
pub(super) fn adopt(child: StdChild) {
    let mut queue = orphans();
    queue.push(child);
    collect_exited(&mut queue);
    let pending = !queue.is_empty();
    drop(queue);
    if pending {
        REAPER.get_or_init(start_reaper);
    }
}

/// Collects every orphan that has exited and returns how many are still
/// running. Waits for the queue's lock.
///
/// Public (hidden) so that tests can check that a dropped child was reaped.
#[doc(hidden)]
pub fn reap_orphans() -> usize {
    let mut queue = orphans();
    collect_exited(&mut queue);
    queue.len()
}

/// Collects exited orphans unless another thread is already at it, so a
/// busy queue never delays a process operation.
pub(super) fn reap_orphans_if_idle() {
    let mut queue = match ORPHANS.try_lock() {
        Ok(queue) => queue,
        Err(TryLockError::Poisoned(e)) => e.into_inner(),
        Err(TryLockError::WouldBlock) => return,
    };
    collect_exited(&mut queue);
}

fn collect_exited(queue: &mut Vec<StdChild>) {
    // `Ok(None)`: still running. `Ok(Some(_))`: collected now. An error
    // means the pid is no longer our child (someone else collected it):
    // nothing left to do for it either.
    queue.retain_mut(|child| matches!(child.try_wait(), Ok(None)));
}

fn start_reaper() {
    // Subscribe on this thread, before the reaper's first drain, so that a
    // `SIGCHLD` sent in between cannot be missed.
    let Ok(sigchld) = signal(SignalKind::child()) else {
        return;
    };
    // Without the thread, orphans are still collected by later process
    // operations; a `Drop` has no way to report the failure.
    let _ = thread::Builder::new()
        .name("rt-process-reaper".into())
        .spawn(move || reaper_loop(sigchld));
}

/// Wakes the reaper thread from the signal dispatcher.
struct Unparker(Thread);

impl Wake for Unparker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

fn reaper_loop(mut sigchld: Signal) {
    let waker = Waker::from(Arc::new(Unparker(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        reap_orphans();
        // This thread runs no task, so polling spends no coop budget; a
        // spurious unpark only leads to another poll.
        while sigchld.poll_recv(&mut cx).is_pending() {
            thread::park();
        }
    }
}
