//! Loom models of the reactor's token table: a driver dispatching an event
//! whose token was released (and whose slot another thread reuses at the
//! same time) never reaches the new registration, and a dispatch that
//! resolved a token just before its release still finds a live state; the
//! same with the token already in the driver's memo.
#![cfg(loom)]

use rt_core::loom::sync::Arc;
use rt_core::loom::thread;
use rt_io::reactor::{Direction, RegistrationSet, Resolved, ScheduledIo};
use rt_io::{Interest, Ready};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Wake, Waker};

/// A waker that counts its wakes.
struct Count(AtomicUsize);

impl Wake for Count {
    fn wake(self: std::sync::Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// Releases `old` and drops its state, registers a new resource in the
/// same slot and polls it for `direction` with a counting waker: the new
/// state, the waker's count and whether the poll was pending.
fn reuse_and_watch(
    set: &RegistrationSet,
    old: mio::Token,
    old_io: std::sync::Arc<ScheduledIo>,
    direction: Direction,
) -> (std::sync::Arc<ScheduledIo>, std::sync::Arc<Count>, bool) {
    assert!(set.release(old));
    drop(old_io);
    let (new, new_io) = set.allocate().unwrap();
    assert_ne!(new, old);
    let count = std::sync::Arc::new(Count(AtomicUsize::new(0)));
    let waker = Waker::from(count.clone());
    let pending = new_io
        .poll_readiness(&mut Context::from_waker(&waker), direction)
        .is_pending();
    (new_io, count, pending)
}

#[test]
fn stale_dispatch_racing_release_and_reuse_misses_the_new_registration() {
    loom::model(|| {
        let set = Arc::new(RegistrationSet::new());
        let (old, old_io) = set.allocate().unwrap();
        let driver = {
            let set = set.clone();
            thread::spawn(move || set.dispatch(1, [(old, Ready::READABLE)], &mut Resolved::new()))
        };
        // The resource drops and a new one takes over its slot while the
        // driver holds an event for the old token.
        let (new_io, count, pending) = reuse_and_watch(&set, old, old_io, Direction::Read);

        let dispatched = driver.join().unwrap();
        assert!(dispatched <= 1);
        assert!(pending, "the new registration saw the old one's event");
        assert_eq!(count.0.load(Ordering::SeqCst), 0);
        assert!(new_io.ready_event(Interest::READABLE).ready.is_empty());
    });
}

#[test]
fn dispatch_racing_release_sets_readiness_on_a_live_state() {
    loom::model(|| {
        let set = Arc::new(RegistrationSet::new());
        let (token, io) = set.allocate().unwrap();
        let driver = {
            let set = set.clone();
            thread::spawn(move || set.dispatch(1, [(token, Ready::WRITABLE)], &mut Resolved::new()))
        };
        // Either the driver resolved the token first (and set readiness on
        // the state it holds), or the release made the token stale.
        let released = set.release(token);
        let dispatched = driver.join().unwrap();
        assert!(released);
        let ready = io.ready_event(Interest::WRITABLE).ready;
        assert_eq!(dispatched == 1, ready.is_writable());
    });
}

#[test]
fn memoised_stale_token_racing_release_and_reuse_misses_the_new_registration() {
    loom::model(|| {
        let set = Arc::new(RegistrationSet::new());
        let (old, old_io) = set.allocate().unwrap();
        let mut memo = Resolved::new();
        assert_eq!(set.dispatch(1, [(old, Ready::READABLE)], &mut memo), 1);
        let driver = {
            let set = set.clone();
            thread::spawn(move || {
                let dispatched = set.dispatch(2, [(old, Ready::WRITABLE)], &mut memo);
                (dispatched, memo)
            })
        };
        let (new_io, count, pending) = reuse_and_watch(&set, old, old_io, Direction::Write);

        let (dispatched, mut memo) = driver.join().unwrap();
        assert!(dispatched <= 1);
        assert!(pending, "the new registration saw the old one's event");
        assert_eq!(count.0.load(Ordering::SeqCst), 0);
        // The next turn has forgotten the released state: the old token
        // resolves as stale and the new registration still saw nothing.
        assert_eq!(set.dispatch(3, [(old, Ready::WRITABLE)], &mut memo), 0);
        assert!(new_io.ready_event(Interest::WRITABLE).ready.is_empty());
    });
}
