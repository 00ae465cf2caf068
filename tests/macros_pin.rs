//! `rt::pin!`: both forms, and resuming a pinned future by `&mut`.

mod macros_common;

use std::future::Future;
use std::pin::Pin;

use macros_common::{block_on, poll_once, Probe};

fn assert_pinned<F: Future>(_: &Pin<&mut F>) {}

#[test]
fn pins_existing_variables() {
    let probe = Probe::default();
    let first = probe.ready_after(1, 1);
    let second = async { 2 };
    rt::pin!(first, second);
    assert_pinned(&first);
    assert_pinned(&second);
    assert!(poll_once(first.as_mut()).0.is_pending());
    assert_eq!(block_on(first), 1);
    assert_eq!(block_on(second), 2);
}

#[test]
fn pins_new_variables() {
    rt::pin! {
        let a = async { 'a' };
        let b = async { 'b' };
    }
    assert_pinned(&a);
    assert_eq!(block_on(async { (a.await, b.await) }), ('a', 'b'));
}

#[test]
fn a_pinned_future_is_resumed_by_reference() {
    let probe = Probe::default();
    let future = probe.ready_after(2, "done");
    rt::pin!(future);
    assert!(poll_once(future.as_mut()).0.is_pending());
    assert!(poll_once(future.as_mut()).0.is_pending());
    assert_eq!(block_on(&mut future), "done");
    assert_eq!(probe.polls(), 3);
}
