//! Loom models of the timer entry protocol, the driver's `next_wake`
//! promise and the shards' published ticks: fire against cancel, fire
//! against a poll registering its waker, fire against reset, fire against a
//! drop that skips the lock once the entry is released, a registration
//! racing the driver's lock-free scan before it parks, a reset to an
//! earlier deadline racing a turn that skips shards with nothing due, and a
//! fire racing an owner that forgets its waker. Run with
//! `cargo xtask loom rt-time`.

use crate::driver::Handle;
use crate::entry::{TimerEntry, FIRED, REGISTERED, UNREGISTERED};
use loom::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use loom::thread;
use rt_core::runtime::Unpark;
use std::ptr::NonNull;
use std::sync::Arc;
use std::task::{Wake, Waker};

/// Counts unparks of the layer below the time driver.
struct CountUnpark(AtomicUsize);

impl Unpark for CountUnpark {
    fn unpark(&self) {
        self.0.fetch_add(1, SeqCst);
    }
}

/// Counts wakes.
struct CountWake(AtomicUsize);

impl Wake for CountWake {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, SeqCst);
    }
}

/// A pointer to an entry that outlives every thread of the model.
#[derive(Clone, Copy)]
struct EntryPtr(NonNull<TimerEntry>);

// SAFETY: the entry is shared with the same discipline as a `Sleep`'s: the
// owner thread and the driver thread each follow the shard-lock rules.
unsafe impl Send for EntryPtr {}

struct Setup {
    handle: Arc<Handle>,
    unparks: Arc<CountUnpark>,
    entry: Arc<TimerEntry>,
}

impl Setup {
    fn new() -> Setup {
        Setup::with_shards(1)
    }

    fn with_shards(shards: usize) -> Setup {
        let unparks = Arc::new(CountUnpark(AtomicUsize::new(0)));
        let handle = Arc::new(Handle::new(
            unparks.clone(),
            std::time::Instant::now(),
            false,
            shards,
        ));
        Setup {
            handle,
            unparks,
            entry: Arc::new(TimerEntry::new()),
        }
    }

    fn ptr(&self) -> EntryPtr {
        EntryPtr(NonNull::from(&*self.entry))
    }
}

/// Registers `entry` at `tick` as its owner would.
fn register(handle: &Handle, entry: EntryPtr, tick: u64) {
    register_in(handle, 0, entry, tick);
}

/// Registers `entry` at `tick` in `shard`.
fn register_in(handle: &Handle, shard: usize, entry: EntryPtr, tick: u64) {
    // SAFETY: the entry lives in an `Arc` for the whole model, only one
    // thread at a time registers it, and always with the same shard.
    unsafe { handle.reregister(shard, entry.0, tick) };
}

#[test]
fn loom_models_fire_races_cancel() {
    loom::model(|| {
        let s = Setup::new();
        register(&s.handle, s.ptr(), 5);
        let driver = {
            let handle = s.handle.clone();
            thread::spawn(move || handle.process_at(10))
        };
        let entry = s.ptr();
        // SAFETY: as in `register`.
        unsafe { s.handle.deregister(0, entry.0) };
        driver.join().unwrap();
        let state = s.entry.state();
        assert!(state == FIRED || state == UNREGISTERED, "state {state}");
        assert!(
            s.handle.is_empty(),
            "a cancelled or fired entry stays linked"
        );
    });
}

#[test]
fn loom_models_fire_races_poll() {
    loom::model(|| {
        let s = Setup::new();
        register(&s.handle, s.ptr(), 5);
        let driver = {
            let handle = s.handle.clone();
            thread::spawn(move || handle.process_at(10))
        };
        let wakes = Arc::new(CountWake(AtomicUsize::new(0)));
        let waker = Waker::from(wakes.clone());
        // What `Sleep::poll` does: register the waker, then read the state.
        s.entry.register_waker(&waker);
        let saw_fired = s.entry.state() == FIRED;
        driver.join().unwrap();
        assert_eq!(s.entry.state(), FIRED);
        assert!(
            saw_fired || wakes.0.load(SeqCst) > 0,
            "the poll saw no fire and nobody woke it"
        );
    });
}

#[test]
fn loom_models_fire_races_lock_free_drop() {
    loom::model(|| {
        let s = Setup::new();
        // An earlier poll registered the timer and its waker; the drop
        // itself reads only the state.
        register(&s.handle, s.ptr(), 5);
        let wakes = Arc::new(CountWake(AtomicUsize::new(0)));
        s.entry.register_waker(&Waker::from(wakes.clone()));
        let driver = {
            let handle = s.handle.clone();
            thread::spawn(move || handle.process_at(10))
        };
        // What `Sleep::drop` does.
        if s.entry.needs_deregister() {
            let entry = s.ptr();
            // SAFETY: as in `register`.
            unsafe { s.handle.deregister(0, entry.0) };
        } else {
            // Stands for freeing the entry without the lock: loom reports
            // this write unless every access the driver made to the entry
            // happens before it. Nothing else may synchronise first.
            // SAFETY: the driver released the entry, which is what this
            // model checks.
            unsafe { s.entry.set_when(0) };
            assert_eq!(s.entry.state(), FIRED);
        }
        driver.join().unwrap();
        assert!(s.handle.is_empty(), "a dropped entry stays linked");
    });
}

#[test]
fn loom_models_fire_races_reset() {
    loom::model(|| {
        let s = Setup::new();
        register(&s.handle, s.ptr(), 5);
        let driver = {
            let handle = s.handle.clone();
            thread::spawn(move || handle.process_at(10))
        };
        // Reset to a deadline after the driver's "now": whichever came
        // first, the entry ends up waiting for tick 20.
        register(&s.handle, s.ptr(), 20);
        driver.join().unwrap();
        assert_eq!(s.entry.state(), REGISTERED);
        s.handle.process_at(19);
        assert_eq!(s.entry.state(), REGISTERED, "fired early");
        s.handle.process_at(20);
        assert_eq!(s.entry.state(), FIRED);
        assert!(s.handle.is_empty());
    });
}

#[test]
fn loom_models_registration_races_park_scan() {
    loom::model(|| {
        let s = Setup::new();
        let inserter = {
            let handle = s.handle.clone();
            let entry = s.ptr();
            thread::spawn(move || register(&handle, entry, 5))
        };
        // The driver's side of a park: scan, publish, (sleep), end.
        let next = s.handle.begin_park();
        let unparked_early = s.unparks.0.load(SeqCst) > 0;
        inserter.join().unwrap();
        let unparked = s.unparks.0.load(SeqCst) > 0;
        assert!(
            next == Some(5) || unparked,
            "the driver would sleep past a timer it never saw (early unpark: {unparked_early})"
        );
        // The turn after the park scans the shards only when told that a
        // registration woke it: every such unpark must say so.
        assert!(
            next == Some(5) || s.handle.earlier_timer.load(SeqCst),
            "the turn after the park would skip the shards and miss tick 5"
        );
        s.handle.end_park();
        let entry = s.ptr();
        // SAFETY: as in `register`.
        unsafe { s.handle.deregister(0, entry.0) };
    });
}

#[test]
fn loom_models_registration_races_scan_across_shards() {
    loom::model(|| {
        let s = Setup::with_shards(2);
        // A later timer in the other shard: the scan must take the minimum
        // of both published ticks, read without locks.
        let later = Arc::new(TimerEntry::new());
        register_in(&s.handle, 1, EntryPtr(NonNull::from(&*later)), 50);
        let inserter = {
            let handle = s.handle.clone();
            let entry = s.ptr();
            thread::spawn(move || register(&handle, entry, 5))
        };
        let next = s.handle.begin_park();
        inserter.join().unwrap();
        let unparked = s.unparks.0.load(SeqCst) > 0;
        assert!(
            next == Some(5) || (next == Some(50) && unparked),
            "the driver would sleep until {next:?} past tick 5 and nobody woke it"
        );
        s.handle.end_park();
        s.handle.shutdown();
    });
}

#[test]
fn loom_models_reset_earlier_races_turn() {
    loom::model(|| {
        let s = Setup::with_shards(2);
        register(&s.handle, s.ptr(), 50);
        let owner = {
            let handle = s.handle.clone();
            let entry = s.ptr();
            thread::spawn(move || register(&handle, entry, 8))
        };
        // A turn at tick 10 may skip shard 0 on its stale tick 50; then the
        // entry must still be linked and visible to the next scan.
        s.handle.process_at(10);
        owner.join().unwrap();
        let state = s.entry.state();
        if state != FIRED {
            assert_eq!(state, REGISTERED);
            assert_eq!(s.handle.begin_park(), Some(8), "a due timer is hidden");
            s.handle.end_park();
            s.handle.process_at(10);
            assert_eq!(s.entry.state(), FIRED);
        }
        assert!(s.handle.is_empty());
    });
}

#[test]
fn loom_models_fire_races_forgetting_the_waker() {
    loom::model(|| {
        let s = Setup::new();
        let wakes = Arc::new(CountWake(AtomicUsize::new(0)));
        let waker = Waker::from(wakes.clone());
        s.entry.register_waker(&waker);
        register(&s.handle, s.ptr(), 5);
        let driver = {
            let handle = s.handle.clone();
            thread::spawn(move || handle.process_at(10))
        };
        // What an `Interval` does after handing out a tick.
        s.entry.forget_waker();
        driver.join().unwrap();
        assert!(wakes.0.load(SeqCst) <= 1);
        // The next poll registers again and reads the state: the fire is
        // never lost, whoever took the waker.
        s.entry.register_waker(&waker);
        assert_eq!(s.entry.state(), FIRED);
    });
}
