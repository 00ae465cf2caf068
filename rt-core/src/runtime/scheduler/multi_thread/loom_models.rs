//! Loom models of the multi-thread scheduler's sleep/wake protocols: the
//! per-worker parker (condvar and driver paths) and the idle bookkeeping
//! that decides whom to wake, checked for lost wake-ups.

use super::idle::Idle;
use super::park::{Parker, SharedDriver};
use crate::loom::sync::atomic::{
    AtomicBool, AtomicUsize,
    Ordering::{Acquire, Relaxed, Release, SeqCst},
};
use crate::loom::sync::{Arc, Mutex};
use crate::loom::thread;
use crate::runtime::ParkThread;
use std::collections::VecDeque;

#[test]
fn unpark_reaches_workers_parked_on_driver_and_condvar() {
    loom::model(|| {
        let driver = std::sync::Arc::new(SharedDriver::new(Box::new(ParkThread::new())));
        let p1 = Parker::new(driver.clone());
        let p2 = Parker::new(driver);
        let done = Arc::new(AtomicBool::new(false));
        let spawn_worker = |parker: Parker, done: Arc<AtomicBool>| {
            thread::spawn(move || {
                while !done.load(SeqCst) {
                    parker.park(None);
                }
            })
        };
        let t1 = spawn_worker(p1.clone(), done.clone());
        let t2 = spawn_worker(p2.clone(), done.clone());
        done.store(true, SeqCst);
        p1.unpark();
        p2.unpark();
        t1.join().unwrap();
        t2.join().unwrap();
    });
}

#[test]
fn unpark_before_park_is_remembered() {
    loom::model(|| {
        let driver = std::sync::Arc::new(SharedDriver::new(Box::new(ParkThread::new())));
        let parker = Parker::new(driver);
        let p2 = parker.clone();
        let t = thread::spawn(move || p2.unpark());
        parker.park(None);
        t.join().unwrap();
    });
}

/// The injector's observable behaviour for this protocol, with its
/// orderings (`scheduler/inject.rs`): the length changes under the lock
/// with a release store, and the emptiness check is an acquire load that
/// takes no lock. What keeps a push from going unseen is the idle word's
/// read-modify-write on both sides, not the queue.
struct Queue {
    items: Mutex<VecDeque<u32>>,
    len: AtomicUsize,
}

impl Queue {
    fn push(&self, v: u32) {
        let mut items = self.items.lock().unwrap();
        items.push_back(v);
        self.len.store(self.len.load(Relaxed) + 1, Release);
    }

    fn pop(&self) -> Option<u32> {
        if self.is_empty() {
            return None;
        }
        let mut items = self.items.lock().unwrap();
        let v = items.pop_front()?;
        self.len.store(self.len.load(Relaxed) - 1, Release);
        Some(v)
    }

    fn is_empty(&self) -> bool {
        self.len.load(Acquire) == 0
    }
}

/// One pass of a worker that finds nothing locally: search, then park,
/// exactly as `worker.rs` orders the steps. A `lone` worker (the only one
/// of its runtime) does not search.
fn worker_pass(
    index: usize,
    lone: bool,
    idle: &Idle,
    queue: &Queue,
    log: &std::sync::Mutex<Vec<String>>,
) {
    if queue.pop().is_some() {
        log.lock().unwrap().push(format!("w{index} popped"));
        return;
    }
    let searching = !lone && idle.transition_to_searching();
    log.lock()
        .unwrap()
        .push(format!("w{index} searching={searching}"));
    if searching && queue.pop().is_some() {
        log.lock()
            .unwrap()
            .push(format!("w{index} popped while searching"));
        idle.transition_from_searching();
        return;
    }
    let last = idle.transition_to_parked(index, searching);
    let empty = queue.is_empty();
    log.lock()
        .unwrap()
        .push(format!("w{index} parked last={last} empty={empty}"));
    if last && !empty {
        // The last to look (last searcher or lone worker) re-checks before
        // sleeping.
        let n = idle.worker_to_notify();
        log.lock()
            .unwrap()
            .push(format!("w{index} notify -> {n:?}"));
    }
}

/// Runs one pass of each of `workers` workers (a lone one when there is
/// one) against a remote spawn: push, then wake a parked worker if useful.
/// Returns the idle state afterwards, whether the task is still queued,
/// and the steps taken.
fn remote_spawn_against_idle_workers(workers: usize) -> (std::sync::Arc<Idle>, bool, Vec<String>) {
    let idle = std::sync::Arc::new(Idle::new(workers));
    let queue = std::sync::Arc::new(Queue {
        items: Mutex::new(VecDeque::new()),
        len: AtomicUsize::new(0),
    });
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let lone = workers == 1;
    let passes: Vec<_> = (0..workers)
        .map(|i| {
            let (idle, queue, log) = (idle.clone(), queue.clone(), log.clone());
            thread::spawn(move || worker_pass(i, lone, &idle, &queue, &log))
        })
        .collect();
    queue.push(1);
    let n = idle.worker_to_notify();
    log.lock().unwrap().push(format!("remote notify -> {n:?}"));
    for pass in passes {
        pass.join().unwrap();
    }
    let steps = log.lock().unwrap().clone();
    (idle, !queue.is_empty(), steps)
}

#[test]
fn no_task_left_queued_while_every_worker_sleeps() {
    loom::model(|| {
        let (idle, queued, steps) = remote_spawn_against_idle_workers(2);
        assert!(
            !queued || idle.num_sleepers() < 2,
            "a task is queued while both workers sleep un-notified (searching {}) {steps:?}",
            idle.num_searching(),
        );
    });
}

/// The same with a runtime of one worker, which never searches: a remote
/// push that finds it still counted as unparked wakes nobody, so the worker
/// itself must see that task before it sleeps.
#[test]
fn no_task_left_queued_while_a_lone_worker_sleeps() {
    loom::model(|| {
        let (idle, queued, steps) = remote_spawn_against_idle_workers(1);
        assert!(
            !queued || idle.num_sleepers() == 0,
            "a task is queued while the lone worker sleeps un-notified {steps:?}",
        );
    });
}

/// A worker woken by the driver with tasks of its own races a notifier
/// that picks the same worker from the sleeper list. Whichever wins, the
/// counts must balance afterwards: a searching count left behind would
/// make every later notify think somebody is already searching.
#[test]
fn self_wake_racing_a_notifier_keeps_the_counts() {
    use super::idle::WakeUp;
    loom::model(|| {
        let idle = std::sync::Arc::new(Idle::new(2));
        // Worker 0 sleeps; worker 1 runs.
        assert!(!idle.transition_to_parked(0, false));
        let notifier = {
            let idle = idle.clone();
            thread::spawn(move || idle.worker_to_notify())
        };
        // Worker 0 returns from the driver with a task in its LIFO slot.
        let searching = match idle.wake_up(0, true) {
            WakeUp::Notified => true,
            WakeUp::OwnWork => false,
            WakeUp::Spurious => unreachable!("it had work"),
        };
        // It runs the task; a searcher that found work stops searching.
        if searching {
            idle.transition_from_searching();
        }
        let notified = notifier.join().unwrap();
        assert_eq!(notified.is_some(), searching);
        assert_eq!(idle.num_searching(), 0);
        assert_eq!(idle.num_sleepers(), 0);
    });
}

/// Shutdown (raise `closed`, then take the sleepers off the list, as
/// `Handle::shutdown` does) racing a sleeper that has just found `closed`
/// low and settles its wake-up, as `park` does. Shutdown does not count the
/// worker as searching, so a worker told `Notified` must search only when
/// `closed` is still low: the sleeper lock that `wake_up` takes makes the
/// flag visible whenever shutdown was the one that took it off the list.
#[test]
fn a_sleeper_unparked_by_shutdown_does_not_search() {
    use super::idle::WakeUp;
    use crate::loom::sync::atomic::Ordering::{AcqRel, Acquire};
    loom::model(|| {
        let idle = std::sync::Arc::new(Idle::new(2));
        let closed = std::sync::Arc::new(AtomicBool::new(false));
        assert!(!idle.transition_to_parked(0, false));
        let shutdown = {
            let (idle, closed) = (idle.clone(), closed.clone());
            thread::spawn(move || {
                closed.swap(true, AcqRel);
                idle.unpark_worker_by_id(0);
            })
        };
        let searches = match idle.wake_up(0, false) {
            WakeUp::Notified => !closed.load(Acquire),
            WakeUp::OwnWork | WakeUp::Spurious => false,
        };
        shutdown.join().unwrap();
        assert!(
            !searches || idle.num_searching() > 0,
            "a worker searches without being counted as searching"
        );
    });
}

/// A driver that only records whether it was unparked.
struct RecordingDriver(std::sync::Arc<RecordUnpark>);

struct RecordUnpark(AtomicBool);

impl crate::runtime::driver::Unpark for RecordUnpark {
    fn unpark(&self) {
        self.0.store(true, SeqCst);
    }
}

impl crate::runtime::driver::Driver for RecordingDriver {
    fn park(&mut self, _timeout: Option<std::time::Duration>) {}

    fn unparker(&self) -> std::sync::Arc<dyn crate::runtime::driver::Unpark> {
        self.0.clone()
    }

    fn shutdown(&mut self) {}
}

/// The LIFO watch handshake: worker 0 holds the driver and is about to
/// block while worker 1, running, puts a task into its empty LIFO slot and
/// announces it (as `schedule_local` does; a task the driver put there
/// while worker 1 parked is announced the same way once it is back).
/// Either the holder sees the task and blocks with a deadline (so it will
/// look at the slot again), or the running worker sees an unwatched driver
/// and wakes its holder, whose next park then watches.
#[test]
fn driver_holder_watches_or_is_woken_when_a_lifo_task_is_placed() {
    use super::lifo_slot::LifoSlot;
    use super::lifo_watch::{LifoWatch, Watching};
    use super::park::DriverWatch;
    loom::model(|| {
        let record = std::sync::Arc::new(RecordUnpark(AtomicBool::new(false)));
        let driver =
            std::sync::Arc::new(SharedDriver::new(Box::new(RecordingDriver(record.clone()))));
        let watch = std::sync::Arc::new(LifoWatch::new());
        let slot = std::sync::Arc::new(LifoSlot::<Item>::new());
        let running = {
            let (watch, driver, slot) = (watch.clone(), driver.clone(), slot.clone());
            thread::spawn(move || {
                assert!(slot.put(Item(Box::new(1)), true).is_none());
                watch.task_placed(&driver);
            })
        };
        let watching = Watching {
            watch: &*watch,
            others_hold_a_task: || slot.holds_item_now(),
        };
        let timeout = watching.before_driver_park(None);
        // The holder blocks here until woken (or, with a deadline, until
        // it elapses).
        running.join().unwrap();
        watching.after_driver_park();
        if timeout.is_none() {
            assert!(
                record.0.load(SeqCst),
                "the driver's holder blocks without a deadline and nobody woke it"
            );
            assert!(
                watching.before_driver_park(None).is_some(),
                "a holder woken by an announcement watches next"
            );
        }
    });
}

/// A boxed number, as the loom model's LIFO slot item.
struct Item(Box<u32>);

impl super::lifo_slot::SlotItem for Item {
    fn into_ptr(self) -> std::ptr::NonNull<()> {
        std::ptr::NonNull::from(Box::leak(self.0)).cast()
    }

    unsafe fn from_ptr(ptr: std::ptr::NonNull<()>) -> Item {
        // SAFETY: the pointer came from `Box::leak` in `into_ptr`, once.
        Item(unsafe { Box::from_raw(ptr.cast::<u32>().as_ptr()) })
    }
}

/// The owner puts (the empty-slot store and the displacing swap) and takes
/// while a watcher takes: every item comes out exactly once, and a watcher
/// that sees an item also sees the put count written before it.
#[test]
fn lifo_slot_put_and_take_race_a_rescuer() {
    use super::lifo_slot::LifoSlot;
    loom::model(|| {
        let slot = std::sync::Arc::new(LifoSlot::<Item>::new());
        let rescuer = {
            let slot = slot.clone();
            thread::spawn(move || {
                let stamp = slot.stamp();
                let taken = slot.take().map(|item| *item.0);
                if let (Some(stamp), Some(value)) = (stamp, taken) {
                    // Item n was the n-th put, counted before publication.
                    assert!(stamp >= 1 && value >= 1);
                }
                taken
            })
        };
        let mut got = Vec::new();
        got.extend(slot.put(Item(Box::new(1)), false).map(|i| *i.0));
        got.extend(slot.put(Item(Box::new(2)), true).map(|i| *i.0));
        got.extend(slot.take().map(|i| *i.0));
        got.extend(rescuer.join().unwrap());
        got.sort_unstable();
        assert_eq!(got, [1, 2]);
    });
}

struct OverflowSink(Mutex<Vec<u32>>);

impl super::queue::Overflow<u32> for OverflowSink {
    fn push_batch(&self, tasks: impl Iterator<Item = u32>) {
        self.0.lock().unwrap().extend(tasks);
    }
}

fn drain(local: &mut super::queue::Local<u32>, out: &mut Vec<u32>) {
    while let Some(v) = local.pop() {
        out.push(v);
    }
}

/// Every task pushed comes out exactly once, whether popped, stolen, or
/// sent to the overflow, with a thief racing the owner.
#[test]
fn local_queue_push_pop_steal_overflow() {
    loom::model(|| {
        let (steal, mut local) = super::queue::local::<u32>();
        let sink = std::sync::Arc::new(OverflowSink(Mutex::new(Vec::new())));
        let thief = thread::spawn(move || {
            let (_s, mut mine) = super::queue::local::<u32>();
            let mut got = Vec::new();
            if let Some(v) = steal.steal_into(&mut mine) {
                got.push(v);
            }
            drain(&mut mine, &mut got);
            got
        });
        let mut got = Vec::new();
        // Capacity is 4 under loom: the fifth push overflows unless the
        // thief made room first.
        for v in 0..5 {
            local.push_back(v, &*sink);
        }
        if let Some(v) = local.pop() {
            got.push(v);
        }
        got.extend(thief.join().unwrap());
        drain(&mut local, &mut got);
        got.extend(sink.0.lock().unwrap().iter().copied());
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2, 3, 4]);
    });
}

#[test]
fn local_queue_two_thieves() {
    loom::model(|| {
        let (steal, mut local) = super::queue::local::<u32>();
        let sink = OverflowSink(Mutex::new(Vec::new()));
        for v in 0..4 {
            local.push_back(v, &sink);
        }
        let thieves: Vec<_> = (0..2)
            .map(|_| {
                let steal = steal.clone();
                thread::spawn(move || {
                    let (_s, mut mine) = super::queue::local::<u32>();
                    let mut got = Vec::new();
                    if let Some(v) = steal.steal_into(&mut mine) {
                        got.push(v);
                    }
                    drain(&mut mine, &mut got);
                    got
                })
            })
            .collect();
        let mut got = Vec::new();
        drain(&mut local, &mut got);
        for t in thieves {
            got.extend(t.join().unwrap());
        }
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2, 3]);
        assert!(sink.0.lock().unwrap().is_empty());
    });
}
