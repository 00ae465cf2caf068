//! Behaviour of `rt::join!` and `rt::try_join!`: outputs, which futures
//! are polled when, drops, `biased;`, and the coop budget.

#![cfg(feature = "macros")]

mod macros_common;

use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;
use std::task::Poll;

use macros_common::{block_on, poll_once, Probe};
use rt_core::task::coop;

#[test]
fn join_returns_every_output_in_order() {
    let probe = Probe::default();
    let out = block_on(async {
        rt::join!(
            probe.ready_after(3, 'a'),
            probe.ready_after(0, 1u8),
            async { "text" },
        )
    });
    assert_eq!(out, ('a', 1u8, "text"));
}

#[test]
fn join_of_nothing_is_unit() {
    block_on(async {
        let () = rt::join!();
        let () = rt::join!(biased;);
    });
}

#[test]
fn only_unfinished_futures_are_polled() {
    let quick = Probe::default();
    let slow = Probe::default();
    block_on(async { rt::join!(quick.ready_after(0, ()), slow.ready_after(4, ())) });
    assert_eq!(quick.polls(), 1);
    assert_eq!(slow.polls(), 5);
}

#[test]
fn a_finished_future_is_dropped_at_once() {
    let quick = Probe::default();
    let slow = Probe::default();
    let mut join = pin!(async { rt::join!(quick.ready_after(0, ()), slow.ready_after(2, ())) });
    let (poll, _) = poll_once(join.as_mut());
    assert!(poll.is_pending());
    assert_eq!(quick.drops(), 1, "dropped while the other still runs");
    assert_eq!(slow.drops(), 0);
}

fn poll_order(biased: bool) -> Vec<usize> {
    let order = RefCell::new(Vec::new());
    let tracked = |id: usize| {
        let order = &order;
        async move {
            for _ in 0..3 {
                order.borrow_mut().push(id);
                macros_common::yield_now().await;
            }
        }
    };
    block_on(async {
        if biased {
            rt::join!(biased; tracked(0), tracked(1), tracked(2));
        } else {
            rt::join!(tracked(0), tracked(1), tracked(2));
        }
    });
    order.into_inner()
}

#[test]
fn the_first_future_polled_rotates_unless_biased() {
    assert_eq!(poll_order(true), [0, 1, 2, 0, 1, 2, 0, 1, 2]);
    assert_eq!(poll_order(false), [0, 1, 2, 1, 2, 0, 2, 0, 1]);
}

#[test]
fn join_waits_when_the_coop_budget_is_spent() {
    let probe = Probe::default();
    let mut join = pin!(async { rt::join!(probe.ready_after(0, 1), async { 2 }) });
    coop::with_budget(0, || {
        let (poll, woken) = poll_once(join.as_mut());
        assert!(poll.is_pending());
        assert!(woken);
    });
    assert_eq!(probe.polls(), 0);
    assert_eq!(poll_once(join.as_mut()).0, Poll::Ready((1, 2)));
}

async fn length(text: &str) -> usize {
    text.len()
}

#[test]
fn temporaries_in_future_expressions_live_long_enough() {
    let out =
        block_on(async { rt::join!(length(&String::from("ab")), length(&String::from("abc"))) });
    assert_eq!(out, (2, 3));
}

#[test]
fn try_join_returns_every_value_on_success() {
    let probe = Probe::default();
    let out = block_on(async {
        rt::try_join!(probe.ready_after(2, Ok::<_, String>(1)), async {
            Ok::<_, String>("two")
        },)
    });
    assert_eq!(out, Ok((1, "two")));
}

#[test]
fn try_join_stops_at_the_first_error_and_drops_the_rest() {
    let probe = Probe::default();
    let out = block_on(async {
        rt::try_join!(
            probe.never::<Result<u32, &str>>(),
            probe.ready_after(1, Err::<u32, _>("failed")),
            probe.ready_after(0, Ok::<u32, _>(3)),
        )
    });
    assert_eq!(out, Err("failed"));
    assert_eq!(probe.drops(), 3);
}

#[test]
fn try_join_biased_and_empty() {
    block_on(async {
        let out = rt::try_join!(biased; async { Ok::<_, ()>(1) }, async { Ok::<_, ()>(2) });
        assert_eq!(out, Ok((1, 2)));
        let empty: Result<(), ()> = rt::try_join!();
        assert_eq!(empty, Ok(()));
    });
}

#[test]
fn joins_are_send_when_their_futures_are() {
    fn assert_send<T: Send + Future>(future: T) -> T {
        future
    }
    let future = assert_send(async { rt::join!(async { 1 }, async { 2 }) });
    assert_eq!(block_on(future), (1, 2));
    let future = assert_send(async { rt::try_join!(async { Ok::<_, ()>(1) }) });
    assert_eq!(block_on(future), Ok((1,)));
}

#[test]
#[cfg(target_pointer_width = "64")]
fn a_join_costs_its_slots_one_pointer_and_a_counter() {
    // Each slot holds its future or, once finished, its output; the rest is
    // one pointer to the slots and the rotation counter.
    let one = async {
        let ready = std::future::ready(0i32);
        rt::join!(ready)
    };
    assert_eq!(std::mem::size_of_val(&one), 32);
    let biased = async {
        let ready = std::future::ready(0i32);
        rt::join!(biased; ready)
    };
    assert_eq!(std::mem::size_of_val(&biased), 24, "no counter when biased");
    let two = async {
        let (a, b) = (
            std::future::ready(Ok::<i32, ()>(0)),
            std::future::ready(Ok(0)),
        );
        rt::try_join!(a, b)
    };
    assert_eq!(std::mem::size_of_val(&two), 48);
}
