//! The pool's bookkeeping, all of it under the pool's one lock: the queue,
//! and which threads count against the cap, are idle, or have yet to exit.
//!
//! Each method is one step of the protocol and is called with the lock
//! held, so that a step is atomic. In particular a thread whose keep-alive
//! elapsed leaves the idle count and the cap in one step: were there a gap
//! between the two (the thread's stop callback used to run in it), a
//! submit at the cap would see no idle thread and no room for another, and
//! queue its task for a thread that is about to exit.
//!
//! The queue is generic so that the loom model can drive these steps with
//! plain values.

use std::collections::VecDeque;

pub(super) struct Shared<T> {
    pub(super) queue: VecDeque<T>,
    /// Threads that count against the cap: started and not yet committed
    /// to exit.
    num_threads: usize,
    /// Threads that have not finished (including ones running their stop
    /// callback after leaving the cap); shutdown waits for none to be left.
    num_alive: usize,
    num_idle: usize,
    /// Wake-ups handed out and not yet consumed, to tell real notifications
    /// from spurious ones.
    num_notify: usize,
    shutdown: bool,
}

/// What a submit asks of its caller (after unlocking).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Submitted<T> {
    /// Wake one idle thread: it was taken off the idle count for this task.
    NotifyIdle,
    /// Start a thread: it already counts against the cap.
    SpawnThread,
    /// At the cap with every thread busy: a running thread takes the task
    /// when it finishes its current one.
    Queued,
    /// The pool is shut down: cancel the task.
    Rejected(T),
}

/// Why an idle thread's wait ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Woken {
    /// Work was handed to it, or the pool shuts down: back to the queue.
    Work,
    /// The keep-alive elapsed: it left the pool and must exit.
    Retired,
    /// A spurious wake-up: wait again.
    Spurious,
}

impl<T> Shared<T> {
    pub(super) fn new() -> Shared<T> {
        Shared {
            queue: VecDeque::new(),
            num_threads: 0,
            num_alive: 0,
            num_idle: 0,
            num_notify: 0,
            shutdown: false,
        }
    }

    /// Threads counting against the cap.
    pub(super) fn num_threads(&self) -> usize {
        self.num_threads
    }

    pub(super) fn num_idle(&self) -> usize {
        self.num_idle
    }

    /// Threads not yet finished.
    pub(super) fn num_alive(&self) -> usize {
        self.num_alive
    }

    pub(super) fn is_shutdown(&self) -> bool {
        self.shutdown
    }

    /// Queues `task` and says who runs it.
    pub(super) fn submit(&mut self, task: T, max_threads: usize) -> Submitted<T> {
        if self.shutdown {
            return Submitted::Rejected(task);
        }
        self.queue.push_back(task);
        if self.num_idle > 0 {
            self.num_idle -= 1;
            self.num_notify += 1;
            Submitted::NotifyIdle
        } else if self.num_threads < max_threads {
            self.num_threads += 1;
            self.num_alive += 1;
            Submitted::SpawnThread
        } else {
            Submitted::Queued
        }
    }

    /// Undoes a `SpawnThread` whose thread could not start. With no other
    /// thread to run it, the newest task is handed back to be cancelled.
    pub(super) fn spawn_failed(&mut self) -> Option<T> {
        self.num_threads -= 1;
        self.num_alive -= 1;
        if self.num_threads == 0 {
            self.queue.pop_back()
        } else {
            None
        }
    }

    /// Starts shutdown: no more work is accepted. The oldest queued tasks,
    /// one for each thread that is not idle (running a task, starting, or
    /// woken for one), stay queued: those threads reach the queue before
    /// they look at the shutdown flag, so the tasks run. The rest are
    /// returned to be cancelled. `None` if it was already shut down.
    pub(super) fn shut_down(&mut self) -> Option<VecDeque<T>> {
        if self.shutdown {
            return None;
        }
        self.shutdown = true;
        let committed = self.num_threads.saturating_sub(self.num_idle);
        let keep = committed.min(self.queue.len());
        Some(self.queue.split_off(keep))
    }

    /// A thread found the queue empty and the pool running: it waits.
    pub(super) fn go_idle(&mut self) {
        self.num_idle += 1;
    }

    /// An idle thread's wait ended, with its keep-alive `elapsed` or not.
    pub(super) fn wake_idle(&mut self, elapsed: bool) -> Woken {
        if self.num_notify > 0 {
            // A submit took an idle thread off the count for its task; this
            // one is as good as any.
            self.num_notify -= 1;
            Woken::Work
        } else if self.shutdown {
            self.num_idle -= 1;
            Woken::Work
        } else if elapsed {
            // Leave the idle count and the cap together (see the module
            // docs).
            self.num_idle -= 1;
            self.num_threads -= 1;
            Woken::Retired
        } else {
            Woken::Spurious
        }
    }

    /// A running thread saw shutdown with the queue empty: it leaves the
    /// cap and exits.
    pub(super) fn stop(&mut self) {
        self.num_threads -= 1;
    }

    /// A thread that left the cap has finished its stop callback. Returns
    /// whether it was the last one shutdown waits for.
    pub(super) fn exited(&mut self) -> bool {
        self.num_alive -= 1;
        self.shutdown && self.num_alive == 0
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::{Shared, Submitted, Woken};

    const MAX_THREADS: usize = 8;

    /// A pool with `threads` threads, all idle.
    fn idle_pool(threads: usize) -> Shared<u32> {
        let mut shared = Shared::new();
        for task in 0..threads as u32 {
            assert_eq!(shared.submit(task, MAX_THREADS), Submitted::SpawnThread);
        }
        for _ in 0..threads {
            shared.queue.pop_front().unwrap();
            shared.go_idle();
        }
        shared
    }

    #[test]
    fn a_task_submitted_to_an_idle_thread_wakes_it_for_work() {
        let mut shared = idle_pool(1);
        assert_eq!(shared.submit(9, MAX_THREADS), Submitted::NotifyIdle);
        assert_eq!(shared.wake_idle(false), Woken::Work);
        assert_eq!(shared.queue.pop_front(), Some(9));
        assert_eq!(shared.wake_idle(false), Woken::Spurious, "one wake-up per task");
    }

    #[test]
    fn shutdown_wakes_idle_threads() {
        let mut shared = idle_pool(1);
        assert!(shared.shut_down().is_some());
        assert_eq!(shared.wake_idle(false), Woken::Work);
    }
}
