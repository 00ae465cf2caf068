//! Loom models of the task protocol: every interleaving of a poll against
//! wakes, aborts, `JoinHandle` drops and joins, within loom's bounds.
//!
//! Each model runs a real task cell under a test scheduler whose run queue
//! is a loom mutex. Loom checks that no two threads touch the stage or the
//! join waker slot at once (they are loom `UnsafeCell`s), and reports leaked
//! `loom::sync::Arc`s, which the futures and outputs here carry, so a task
//! that is never freed, or freed twice, fails the model.

use super::list::OwnedTasks;
use super::{Id, JoinHandle, Notified, Origin, Schedule, Task};
use crate::loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use crate::loom::sync::{Arc, Mutex};
use crate::loom::thread;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

struct TestSched {
    owned: OwnedTasks<std::sync::Arc<TestSched>>,
    queue: Mutex<VecDeque<Notified<std::sync::Arc<TestSched>>>>,
}

type Sched = std::sync::Arc<TestSched>;

impl Schedule for Sched {
    fn release(&self, task: &Task<Self>) -> Option<Task<Self>> {
        self.owned.remove(task)
    }

    fn schedule(&self, task: Notified<Self>) {
        self.queue.lock().unwrap().push_back(task);
    }
}

impl TestSched {
    fn new() -> Sched {
        std::sync::Arc::new(TestSched {
            owned: OwnedTasks::new(1),
            queue: Mutex::new(VecDeque::new()),
        })
    }

    fn spawn<F>(self: &Sched, future: F) -> JoinHandle<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let (join, notified) = self.owned.bind(
            future,
            self.clone(),
            Id::next(),
            Origin::new(std::panic::Location::caller(), None),
        );
        self.schedule(notified.expect("list open"));
        join
    }

    /// Runs queued tasks until the queue is empty.
    fn run(self: &Sched) -> usize {
        let mut n = 0;
        loop {
            let task = self.queue.lock().unwrap().pop_front();
            match task {
                Some(task) => {
                    self.owned.assert_owner(task).run();
                    n += 1;
                }
                None => return n,
            }
        }
    }

    /// Cancels what is left and drains the queue, as runtime shutdown does.
    fn shutdown(self: &Sched) {
        self.owned.close_and_shutdown_all();
        let drained: Vec<_> = self.queue.lock().unwrap().drain(..).collect();
        drop(drained);
        assert!(self.owned.is_empty());
    }
}

/// Pending until polled `ready_after` times; hands its waker out each poll.
/// An rt leaf: a trace poll stops at its hook, touching nothing.
struct Counted {
    polls: usize,
    ready_after: usize,
    waker_slot: Arc<Mutex<Option<Waker>>>,
    /// Leak detector: loom reports it if the future is never dropped.
    _alive: Arc<()>,
}

impl Future for Counted {
    type Output = Arc<AtomicUsize>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        std::task::ready!(super::trace::trace_leaf());
        self.polls += 1;
        if self.polls >= self.ready_after {
            return Poll::Ready(Arc::new(AtomicUsize::new(self.polls)));
        }
        *self.waker_slot.lock().unwrap() = Some(cx.waker().clone());
        Poll::Pending
    }
}

fn counted(ready_after: usize) -> (Counted, Arc<Mutex<Option<Waker>>>) {
    let slot = Arc::new(Mutex::new(None));
    (
        Counted {
            polls: 0,
            ready_after,
            waker_slot: slot.clone(),
            _alive: Arc::new(()),
        },
        slot,
    )
}

#[test]
fn wake_races_poll_and_completion() {
    loom::model(|| {
        let sched = TestSched::new();
        let (future, slot) = counted(2);
        let join = sched.spawn(future);
        sched.run(); // first poll: Pending, waker handed out

        let waker = slot
            .lock()
            .unwrap()
            .take()
            .expect("first poll stored a waker");
        let waker2 = waker.clone();
        let t = thread::spawn(move || waker.wake());
        // Meanwhile wake by reference from here, then run whatever is queued.
        waker2.wake_by_ref();
        sched.run();
        t.join().unwrap();
        sched.run();
        drop(waker2);

        assert!(
            join.is_finished(),
            "two wakes after one pending poll complete the task"
        );
        drop(join);
        sched.shutdown();
    });
}

#[test]
fn join_handle_drop_races_completion() {
    loom::model(|| {
        let sched = TestSched::new();
        let (future, _slot) = counted(1);
        let join = sched.spawn(future);
        let t = thread::spawn(move || drop(join));
        sched.run();
        t.join().unwrap();
        sched.shutdown();
    });
}

#[test]
fn abort_races_poll() {
    loom::model(|| {
        let sched = TestSched::new();
        let (future, slot) = counted(2);
        let join = sched.spawn(future);
        let abort = join.abort_handle();
        let t = thread::spawn(move || abort.abort());
        sched.run();
        // Wake once more in case the first poll returned Pending un-aborted.
        if let Some(w) = slot.lock().unwrap().take() {
            w.wake();
        }
        t.join().unwrap();
        sched.run();
        let out = loom::future::block_on(join);
        match out {
            Ok(n) => assert_eq!(n.load(SeqCst), 2),
            Err(e) => assert!(e.is_cancelled()),
        }
        sched.shutdown();
    });
}

#[test]
fn join_waker_races_completion_on_another_thread() {
    loom::model(|| {
        let sched = TestSched::new();
        let (future, _slot) = counted(1);
        let join = sched.spawn(future);
        let s2 = sched.clone();
        let t = thread::spawn(move || {
            s2.run();
        });
        let out = loom::future::block_on(join).expect("task completes");
        assert_eq!(out.load(SeqCst), 1);
        t.join().unwrap();
        sched.shutdown();
    });
}

#[test]
fn waker_clone_and_drop_race_completion() {
    loom::model(|| {
        let sched = TestSched::new();
        let (future, slot) = counted(2);
        let join = sched.spawn(future);
        sched.run();
        let waker = slot.lock().unwrap().take().unwrap();
        let clone = waker.clone();
        let t = thread::spawn(move || {
            let again = clone.clone();
            drop(clone);
            again.wake_by_ref();
            drop(again);
        });
        waker.wake();
        sched.run();
        t.join().unwrap();
        sched.run();
        assert!(join.is_finished());
        drop(join);
        sched.shutdown();
    });
}

#[test]
fn shutdown_races_remote_wake() {
    loom::model(|| {
        let sched = TestSched::new();
        let (future, slot) = counted(3);
        let join = sched.spawn(future);
        sched.run();
        let waker = slot.lock().unwrap().take().unwrap();
        let t = thread::spawn(move || waker.wake());
        sched.shutdown();
        t.join().unwrap();
        // A wake that lost the race left a stale Notified: drop it.
        let drained: Vec<_> = sched.queue.lock().unwrap().drain(..).collect();
        drop(drained);
        let err = loom::future::block_on(join).unwrap_err();
        assert!(err.is_cancelled());
    });
}

#[test]
fn trace_poll_races_wake() {
    loom::model(|| {
        let sched = TestSched::new();
        let (future, slot) = counted(2);
        let join = sched.spawn(future);
        sched.run(); // first poll: Pending, waker handed out
        let waker = slot.lock().unwrap().take().unwrap();
        let t = thread::spawn(move || waker.wake());

        // A dump on this thread: claims the task unless the wake queued it
        // first, trace-polls it, and hands back a wake that came meanwhile.
        let held = sched.owned.hold_all();
        let dump = super::Dump::take(held, std::time::Instant::now());
        let info = &dump.tasks()[0];
        assert_eq!(
            info.trace().is_some(),
            info.state() == super::TaskState::Idle
        );
        t.join().unwrap();

        // Whenever the wake came, it queued the task exactly once, and the
        // trace poll did not count as a poll of the future.
        assert_eq!(sched.queue.lock().unwrap().len(), 1);
        assert_eq!(sched.run(), 1);
        let out = loom::future::block_on(join).expect("task completes");
        assert_eq!(out.load(SeqCst), 2);
        sched.shutdown();
    });
}
