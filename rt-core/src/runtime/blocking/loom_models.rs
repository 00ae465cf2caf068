//! Loom models of the blocking pool: a driver that decides to wait for the
//! pool must be woken when the last closure finishes, a task submitted
//! while the pool's last thread retires is never left without a thread,
//! and one submitted while an idle thread goes to sleep is taken by it.

use super::shared::{Shared, Submitted, Woken};
use super::BlockingActivity;
use crate::loom::sync::atomic::{AtomicBool, Ordering::SeqCst};
use crate::loom::sync::{Condvar, Mutex};
use crate::loom::thread;
use crate::runtime::Unpark;
use std::sync::Arc;

struct RecordUnpark(AtomicBool);

impl Unpark for RecordUnpark {
    fn unpark(&self) {
        self.0.store(true, SeqCst);
    }
}

#[test]
fn a_driver_waiting_for_the_pool_is_woken_by_the_last_finish() {
    loom::model(|| {
        let activity = Arc::new(BlockingActivity::new());
        let record = Arc::new(RecordUnpark(AtomicBool::new(false)));
        activity.set_unpark(record.clone());
        activity.started();
        let pool = {
            let activity = activity.clone();
            thread::spawn(move || activity.finished())
        };
        // The time driver with a paused clock, deciding whether to wait.
        let waits = activity.busy_waking_driver_when_idle();
        pool.join().unwrap();
        assert!(
            !waits || record.0.load(SeqCst),
            "the driver waits for a closure whose end did not wake it"
        );
    });
}

/// The pool at its cap of one thread, which is idle; its keep-alive elapses
/// while another thread submits a task. The retiring thread runs its stop
/// callback between the two steps it takes under the lock. Whatever the
/// order, the task must end with a thread that will run it: a notified idle
/// thread (the retiring one, which then stays) or a newly started one.
#[test]
fn a_task_submitted_while_the_last_thread_retires_gets_a_thread() {
    loom::model(|| {
        const MAX_THREADS: usize = 1;
        let shared = Arc::new(Mutex::new(Shared::new()));
        {
            let mut s = shared.lock().unwrap();
            assert_eq!(s.submit(0, MAX_THREADS), Submitted::SpawnThread);
            assert_eq!(s.queue.pop_front(), Some(0));
            s.go_idle();
        }
        let retiring = {
            let shared = shared.clone();
            thread::spawn(move || {
                let woken = shared.lock().unwrap().wake_idle(true);
                if woken == Woken::Retired {
                    // The stop callback runs here, outside the lock.
                    thread::yield_now();
                    shared.lock().unwrap().exited();
                }
                woken
            })
        };
        let submitted = shared.lock().unwrap().submit(1, MAX_THREADS);
        let woken = retiring.join().unwrap();
        match submitted {
            Submitted::NotifyIdle => assert_eq!(woken, Woken::Work),
            Submitted::SpawnThread => assert_eq!(woken, Woken::Retired),
            Submitted::Queued => panic!("the task was queued for a thread that is exiting"),
            Submitted::Rejected(_) => unreachable!("the pool is not shut down"),
        }
    });
}

/// The pool's one thread finishes a task and, finding the queue empty,
/// goes idle and waits on the condvar, as `pool.rs` has it, while another
/// thread submits a task and signals the condvar. Whether the task is
/// queued before the thread looks or handed to it once idle, the thread
/// takes it, and never waits for ever.
#[test]
fn a_task_submitted_while_the_thread_goes_idle_is_taken() {
    loom::model(|| {
        const MAX_THREADS: usize = 1;
        let pool = Arc::new((Mutex::new(Shared::new()), Condvar::new()));
        {
            let mut s = pool.0.lock().unwrap();
            assert_eq!(s.submit(0, MAX_THREADS), Submitted::SpawnThread);
            assert_eq!(s.queue.pop_front(), Some(0));
        }
        let worker = {
            let pool = pool.clone();
            thread::spawn(move || {
                let (shared, condvar) = &*pool;
                let mut s = shared.lock().unwrap();
                if let Some(task) = s.queue.pop_front() {
                    return Some(task);
                }
                s.go_idle();
                while s.wake_idle(false) != Woken::Work {
                    s = condvar.wait(s).unwrap();
                }
                s.queue.pop_front()
            })
        };
        let submitted = pool.0.lock().unwrap().submit(1, MAX_THREADS);
        if submitted == Submitted::NotifyIdle {
            pool.1.notify_one();
        }
        assert_ne!(submitted, Submitted::SpawnThread, "the cap is one thread");
        assert_eq!(worker.join().unwrap(), Some(1), "the thread took the task");
    });
}
