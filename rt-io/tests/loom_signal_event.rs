//! Loom models of a signal's delivery counter, pending flag and listener
//! wakers: a listener waiting while the handler records a delivery and the
//! dispatcher runs is always woken and reports the delivery, and every
//! listener of the signal is woken, even when a stale dispatch races the
//! handler; a delivery made after the last listener went away reaches the
//! next listener, whether it comes before or after that listener.
#![cfg(loom)]

use loom::future::block_on;
use rt_core::loom::sync::Arc;
use rt_core::loom::thread;
use rt_io::signal::event::SignalEvent;
use std::future::poll_fn;

#[test]
fn a_waiting_listener_sees_the_delivery() {
    loom::model(|| {
        let event = Arc::new(SignalEvent::new());
        let mut listener = SignalEvent::listen(&event);
        let handler = {
            let event = event.clone();
            thread::spawn(move || {
                // The handler, then the dispatcher that its pipe byte wakes.
                event.record();
                event.dispatch();
            })
        };
        block_on(poll_fn(|cx| listener.poll_delivery(cx)));
        handler.join().unwrap();
    });
}

#[test]
fn two_listeners_are_both_woken_despite_a_stale_dispatch() {
    loom::model(|| {
        let event = Arc::new(SignalEvent::new());
        let mut first = SignalEvent::listen(&event);
        let mut second = SignalEvent::listen(&event);
        let handler = {
            let event = event.clone();
            thread::spawn(move || {
                event.record();
                event.dispatch();
            })
        };
        let other = thread::spawn(move || {
            block_on(poll_fn(|cx| second.poll_delivery(cx)));
        });
        // A dispatch round left over from an earlier byte.
        event.dispatch();
        block_on(poll_fn(|cx| first.poll_delivery(cx)));
        handler.join().unwrap();
        other.join().unwrap();
    });
}

#[test]
fn a_delivery_between_listeners_reaches_the_next_one() {
    loom::model(|| {
        let event = Arc::new(SignalEvent::new());
        drop(SignalEvent::listen(&event));
        let handler = {
            let event = event.clone();
            thread::spawn(move || {
                event.record();
                event.dispatch();
            })
        };
        let mut next = SignalEvent::listen(&event);
        block_on(poll_fn(|cx| next.poll_delivery(cx)));
        handler.join().unwrap();
    });
}
