//! Loom models of the timer entry protocol and the driver's `next_wake`
//! promise: fire against cancel, fire against a poll registering its
//! waker, fire against reset, and a registration racing the driver's scan
//! before it parks. Run with `cargo xtask loom rt-time`.

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
        let unparks = Arc::new(CountUnpark(AtomicUsize::new(0)));
        let handle = Arc::new(Handle::new(
            unparks.clone(),
            std::time::Instant::now(),
            false,
            1,
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
    // SAFETY: the entry lives in an `Arc` for the whole model and only the
    // owner thread of the model registers it, always with shard 0.
    unsafe { handle.reregister(0, entry.0, tick) };
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
        s.handle.end_park();
        let entry = s.ptr();
        // SAFETY: as in `register`.
        unsafe { s.handle.deregister(0, entry.0) };
    });
}
