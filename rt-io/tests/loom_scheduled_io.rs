//! Loom models of a resource's readiness word and waiter protocol: a stale
//! clear never erases a newer event, and no waiter (slot waker or listed
//! `readiness` future) misses the event or the shutdown that ends its wait.
//! An error event ends read and write waits of both kinds, and a read wait
//! that consumes it leaves `ERROR` to the waits that asked for errors.
//! One event wakes both slot waiters when no `readiness` future is listed.
#![cfg(loom)]

use loom::future::block_on;
use rt_core::loom::sync::Arc;
use rt_core::loom::thread;
use rt_io::reactor::{Direction, ScheduledIo, ERROR_EVENT};
use rt_io::{Interest, Ready};
use std::future::{poll_fn, Future};
use std::task::Poll;

#[test]
fn stale_clear_never_erases_a_newer_event() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        io.set_readiness(1, Ready::READABLE);
        // The operation saw the event of tick 1 and then hit WouldBlock.
        let seen = io.ready_event(Interest::READABLE);
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(2, Ready::READABLE))
        };
        io.clear_readiness(seen);
        driver.join().unwrap();
        assert!(io.ready_event(Interest::READABLE).ready.is_readable());
    });
}

#[test]
fn closed_bits_survive_a_clear() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(1, Ready::READABLE | Ready::READ_CLOSED))
        };
        let event = block_on(poll_fn(|cx| io.poll_readiness(cx, Direction::Read)));
        io.clear_readiness(event);
        driver.join().unwrap();
        assert!(io.ready_event(Interest::READABLE).ready.is_read_closed());
    });
}

#[test]
fn slot_waiter_is_woken_by_a_concurrent_event() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(1, Ready::WRITABLE))
        };
        let event = block_on(poll_fn(|cx| io.poll_readiness(cx, Direction::Write)));
        assert!(event.ready.is_writable());
        driver.join().unwrap();
    });
}

#[test]
fn listed_waiter_is_woken_by_a_concurrent_event() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let driver = {
            let io = io.clone();
            thread::spawn(move || {
                io.set_readiness(1, Ready::WRITABLE);
                io.set_readiness(2, Ready::READABLE);
            })
        };
        let event = block_on(io.readiness(Interest::READABLE));
        assert!(event.ready.is_readable());
        driver.join().unwrap();
    });
}

#[test]
fn dropped_listed_waiter_unlinks_while_the_driver_wakes() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(1, Ready::READABLE))
        };
        {
            let mut fut = Box::pin(io.readiness(Interest::READABLE));
            let _ = block_on(poll_fn(|cx| Poll::Ready(fut.as_mut().poll(cx).is_ready())));
        }
        driver.join().unwrap();
        // A later waiter still sees the event.
        let event = block_on(io.readiness(Interest::READABLE));
        assert!(event.ready.is_readable());
    });
}

#[test]
fn shutdown_wakes_both_kinds_of_waiter() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let listed = {
            let io = io.clone();
            thread::spawn(move || block_on(io.readiness(Interest::WRITABLE)).is_shutdown)
        };
        let slot = {
            let io = io.clone();
            thread::spawn(move || {
                block_on(poll_fn(|cx| io.poll_readiness(cx, Direction::Read))).is_shutdown
            })
        };
        io.shutdown();
        assert!(listed.join().unwrap());
        assert!(slot.join().unwrap());
    });
}

#[test]
fn one_event_wakes_a_slot_reader_and_a_slot_writer() {
    // With no listed waiter the driver takes the short path that wakes the
    // slot wakers without a batch; both must still be woken.
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(1, Ready::READABLE | Ready::WRITABLE))
        };
        let writer = {
            let io = io.clone();
            thread::spawn(move || {
                block_on(poll_fn(|cx| io.poll_readiness(cx, Direction::Write))).ready
            })
        };
        let read = block_on(poll_fn(|cx| io.poll_readiness(cx, Direction::Read)));
        assert!(read.ready.is_readable());
        assert!(writer.join().unwrap().is_writable());
        driver.join().unwrap();
    });
}

#[test]
fn error_event_wakes_a_slot_reader_and_a_listed_writer() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(1, ERROR_EVENT))
        };
        let writer = {
            let io = io.clone();
            thread::spawn(move || block_on(io.readiness(Interest::WRITABLE)).ready)
        };
        let read = block_on(poll_fn(|cx| io.poll_readiness(cx, Direction::Read)));
        assert!(read.ready.is_error() && read.ready.is_readable());
        let write = writer.join().unwrap();
        assert!(write.is_error() && write.is_writable());
        driver.join().unwrap();
    });
}

#[test]
fn read_clear_keeps_error_for_an_error_wait_and_a_newer_error() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        io.set_readiness(1, ERROR_EVENT);
        // A receive was handed the error of tick 1, found the kernel's error
        // already taken, and clears, while a second error arrives.
        let seen = io.ready_event(Interest::READABLE);
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(2, ERROR_EVENT))
        };
        let error_wait = {
            let io = io.clone();
            thread::spawn(move || block_on(io.readiness(Interest::ERROR)).ready)
        };
        io.clear_readiness(seen);
        driver.join().unwrap();
        assert!(error_wait.join().unwrap().is_error());
        // The newer error still ends the next read wait.
        assert!(io.ready_event(Interest::READABLE).ready.is_error());
        assert!(io.ready_event(Interest::ERROR).ready.is_error());
    });
}

#[test]
fn assumed_readiness_keeps_the_drivers_tick() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let driver = {
            let io = io.clone();
            thread::spawn(move || io.set_readiness(1, Ready::READABLE))
        };
        // The owner assumes writability while the driver delivers an event.
        io.add_readiness(Ready::WRITABLE);
        driver.join().unwrap();
        let event = io.ready_event(Interest::READABLE | Interest::WRITABLE);
        assert!(event.ready.is_readable() && event.ready.is_writable());
        // A clear based on the latest event applies to both bits: the
        // assumption did not move the tick back.
        io.clear_readiness(event);
        let after = io.ready_event(Interest::READABLE | Interest::WRITABLE);
        assert!(after.ready.is_empty());
    });
}

#[test]
fn assumed_readiness_wakes_a_waiter() {
    loom::model(|| {
        let io = Arc::new(ScheduledIo::new());
        let owner = {
            let io = io.clone();
            thread::spawn(move || io.add_readiness(Ready::WRITABLE))
        };
        let event = block_on(poll_fn(|cx| io.poll_readiness(cx, Direction::Write)));
        assert!(event.ready.is_writable());
        owner.join().unwrap();
    });
}
