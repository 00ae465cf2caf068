//! Behaviour of `rt::select!`: every branch form, the order branches are
//! polled in, disabling, `else`, the coop budget and cancel safety.

#![cfg(feature = "macros")]

mod macros_common;

use std::cell::Cell;
use std::future::{Future, IntoFuture};
use std::pin::pin;
use std::task::Poll;

use macros_common::{block_on, poll_once, yield_now, Channel, Probe};
use rt_core::task::coop;
use rt_core::util::rng::{replace_thread_rng, FastRand};

#[test]
fn the_first_future_to_complete_wins() {
    let probe = Probe::default();
    let picked = block_on(async {
        rt::select! {
            v = probe.never::<u32>() => v,
            v = probe.ready_after(2, 7u32) => v + 1,
        }
    });
    assert_eq!(picked, 8);
    assert_eq!(probe.drops(), 2, "both futures are dropped");
}

#[test]
fn biased_polls_in_written_order() {
    for _ in 0..20 {
        let order = std::cell::RefCell::new(Vec::new());
        let picked = block_on(async {
            rt::select! {
                biased;
                v = async { order.borrow_mut().push(0); 0 } => v,
                v = async { order.borrow_mut().push(1); 1 } => v,
                v = async { order.borrow_mut().push(2); 2 } => v,
            }
        });
        assert_eq!(picked, 0);
        assert_eq!(*order.borrow(), [0]);
    }
}

fn pick_among_ready(rounds: usize) -> Vec<u32> {
    (0..rounds)
        .map(|_| {
            block_on(async {
                rt::select! {
                    v = async { 0 } => v,
                    v = async { 1 } => v,
                    v = async { 2 } => v,
                    v = async { 3 } => v,
                }
            })
        })
        .collect()
}

#[test]
fn unbiased_start_is_random_and_seedable() {
    let previous = replace_thread_rng(Some(FastRand::from_seed(11)));
    let first = pick_among_ready(200);
    replace_thread_rng(Some(FastRand::from_seed(11)));
    let second = pick_among_ready(200);
    replace_thread_rng(previous);

    assert_eq!(first, second, "the same seed gives the same choices");
    for branch in 0..4 {
        let times = first.iter().filter(|&&v| v == branch).count();
        assert!(times > 20, "branch {branch} won only {times} of 200 times");
    }
}

#[test]
fn a_false_condition_disables_the_branch_but_evaluates_its_future() {
    let evaluated = Cell::new(false);
    let probe = Probe::default();
    let make = || {
        evaluated.set(true);
        probe.ready_after(0, 1u32)
    };
    let picked = block_on(async {
        rt::select! {
            v = make(), if 1 + 1 == 3 => v,
            v = async { 2u32 } => v,
        }
    });
    assert_eq!(picked, 2);
    assert!(evaluated.get());
    assert_eq!(probe.polls(), 0, "a disabled branch is never polled");
}

#[test]
fn conditions_run_before_futures_are_created() {
    let log = std::cell::RefCell::new(Vec::new());
    block_on(async {
        rt::select! {
            _ = async { log.borrow_mut().push("poll") }, if { log.borrow_mut().push("condition"); true } => {}
        }
    });
    assert_eq!(*log.borrow(), ["condition", "poll"]);
}

#[test]
fn a_pattern_mismatch_disables_the_branch_and_keeps_waiting() {
    let mismatching = Probe::default();
    let other = Probe::default();
    let picked = block_on(async {
        rt::select! {
            biased;
            Some(v) = mismatching.ready_after(0, None::<u32>) => v,
            v = other.ready_after(3, 9u32) => v,
        }
    });
    assert_eq!(picked, 9);
    assert_eq!(
        mismatching.polls(),
        1,
        "completed futures are not polled again"
    );
    assert_eq!(other.polls(), 4);
}

#[test]
fn else_runs_when_every_branch_is_disabled() {
    let by_condition = block_on(async {
        rt::select! {
            v = async { 1 }, if false => v,
            v = async { 2 }, if false => v,
            else => 0,
        }
    });
    assert_eq!(by_condition, 0);

    let by_pattern = block_on(async {
        rt::select! {
            Ok(v) = async { Err::<u32, ()>(()) } => v,
            Some(v) = async { None::<u32> } => v,
            else => 100,
        }
    });
    assert_eq!(by_pattern, 100);
}

#[test]
#[should_panic(expected = "all branches of this select! are disabled")]
fn without_else_a_fully_disabled_select_panics() {
    block_on(async {
        rt::select! {
            Some(v) = async { None::<u32> } => v,
        }
    });
}

#[test]
fn handler_forms() {
    block_on(async {
        // A block handler needs no comma; an expression handler does,
        // except as the last branch.
        let block = rt::select! {
            biased;
            v = async { 1 } => {
                v + 1
            }
            v = async { 10 } => v
        };
        assert_eq!(block, 2);

        // Or-patterns, a leading `|`, tuples, ranges and `_`.
        let or = rt::select! {
            | Ok(v) | Err(v) = async { Err::<u32, u32>(5) } => v,
        };
        assert_eq!(or, 5);
        let tuple = rt::select! {
            (a, _, c) = async { (1, 2, 3) } => a + c,
        };
        assert_eq!(tuple, 4);
        let range = rt::select! {
            biased;
            n @ 0..=9 = async { 12 } => n,
            _ = async {} => 99,
        };
        assert_eq!(range, 99);
    });
}

#[test]
fn ref_and_mut_bindings_work() {
    block_on(async {
        let text = rt::select! {
            ref s = async { String::from("abc") } => s.len(),
        };
        assert_eq!(text, 3);
        let pushed = rt::select! {
            mut v = async { vec![1] } => {
                v.push(2);
                v
            }
        };
        assert_eq!(pushed, [1, 2]);
        let mut target = 1;
        let changed = rt::select! {
            Some(&mut ref mut x) = async { Some(&mut target) } => {
                *x += 1;
                *x
            }
        };
        assert_eq!(changed, 2);
        let (a, b) = rt::select! {
            (ref a, mut b) = async { (String::from("x"), 1) } => {
                b += 1;
                (a.clone(), b)
            }
        };
        assert_eq!((a.as_str(), b), ("x", 2));
    });
}

async fn length(text: &str) -> usize {
    text.len()
}

#[test]
fn temporaries_in_future_expressions_live_long_enough() {
    let len = block_on(async {
        rt::select! {
            n = length(&String::from("four")) => n,
        }
    });
    assert_eq!(len, 4);
}

#[test]
fn handlers_run_after_the_futures_are_dropped() {
    let mut data = vec![1, 2, 3];
    let probe = Probe::default();
    let total = block_on(async {
        rt::select! {
            n = async { data.len() } => {
                // The futures borrowed `data`; they are gone now.
                data.push(n);
                data.iter().sum::<usize>()
            }
            _ = probe.never::<()>() => 0,
        }
    });
    assert_eq!(total, 9);
}

#[test]
fn handlers_can_break_continue_return_and_use_question_mark() {
    async fn first_even(values: &[u32]) -> Result<u32, String> {
        let mut i = 0;
        loop {
            let value = values.get(i).copied();
            i += 1;
            rt::select! {
                Some(v) = async { value } => {
                    if v % 2 == 1 {
                        continue;
                    }
                    if v == 0 {
                        return Err::<u32, String>("zero".into());
                    }
                    break Ok(v);
                }
                else => {
                    let missing: Result<u32, String> = Err("no even value".into());
                    missing?;
                }
            }
        }
    }
    assert_eq!(block_on(first_even(&[1, 3, 4, 5])), Ok(4));
    assert_eq!(block_on(first_even(&[1, 0])), Err("zero".into()));
    assert_eq!(block_on(first_even(&[1, 3])), Err("no even value".into()));
}

#[test]
fn pending_while_every_branch_is_pending() {
    let probe = Probe::default();
    {
        let mut select = pin!(async {
            rt::select! {
                v = probe.never::<u32>() => v,
                v = probe.never::<u32>() => v,
            }
        });
        for round in 1..=3 {
            let (poll, _) = poll_once(select.as_mut());
            assert!(poll.is_pending());
            assert_eq!(probe.polls(), 2 * round, "every branch is polled each time");
        }
    }
    assert_eq!(probe.drops(), 2, "dropping the select drops its futures");
}

#[test]
fn a_spent_coop_budget_yields_before_polling() {
    let probe = Probe::default();
    let mut select = pin!(async {
        rt::select! {
            v = probe.ready_after(0, 5u32) => v,
        }
    });
    coop::with_budget(0, || {
        let (poll, woken) = poll_once(select.as_mut());
        assert!(poll.is_pending());
        assert!(woken, "the task is woken so that it runs again");
    });
    assert_eq!(probe.polls(), 0);
    coop::with_budget(8, || {
        let (poll, _) = poll_once(select.as_mut());
        assert_eq!(poll, Poll::Ready(5));
    });
}

struct Deferred(u32);

impl IntoFuture for Deferred {
    type Output = u32;
    type IntoFuture = std::future::Ready<u32>;

    fn into_future(self) -> Self::IntoFuture {
        std::future::ready(self.0)
    }
}

#[test]
fn branches_accept_into_future() {
    assert_eq!(
        block_on(async {
            rt::select! { v = Deferred(3) => v }
        }),
        3
    );
}

#[test]
fn a_pinned_future_can_be_resumed_across_selects() {
    let probe = Probe::default();
    let slow = probe.ready_after(5, "done");
    rt::pin!(slow);
    let mut ticks = 0;
    let result = block_on(async {
        loop {
            rt::select! {
                biased;
                v = &mut slow => break v,
                _ = yield_now() => ticks += 1,
            }
        }
    });
    assert_eq!(result, "done");
    assert!(ticks > 0);
    assert_eq!(
        probe.polls(),
        6,
        "the same future was resumed, not recreated"
    );
}

#[test]
fn a_select_loop_over_a_cancel_safe_future_loses_nothing() {
    const MESSAGES: u32 = 500;
    let channel = Channel::new();
    let received = block_on(async {
        let mut sent = 0;
        let mut received = Vec::new();
        let previous = replace_thread_rng(Some(FastRand::from_seed(5)));
        while received.len() < MESSAGES as usize {
            rt::select! {
                v = channel.recv() => received.push(v),
                _ = yield_now(), if sent < MESSAGES => {
                    // Send in bursts so that the receive branch often loses
                    // the race while values are waiting.
                    for _ in 0..3 {
                        if sent < MESSAGES {
                            channel.send(sent);
                            sent += 1;
                        }
                    }
                }
            }
        }
        replace_thread_rng(previous);
        received
    });
    assert_eq!(received, (0..MESSAGES).collect::<Vec<_>>());
    assert_eq!(channel.len(), 0);
}

#[test]
fn nested_selects_do_not_interfere() {
    let v = block_on(async {
        rt::select! {
            a = async {
                rt::select! {
                    b = async { 1 } => b + 1,
                }
            } => rt::select! { c = async { a * 10 } => c },
        }
    });
    assert_eq!(v, 20);
}

#[test]
fn the_select_future_is_send_when_its_branches_are() {
    fn assert_send<T: Send>(_: &T) {}
    let future = async {
        rt::select! {
            v = async { 1 } => v,
            else => 0,
        }
    };
    assert_send(&future);
    assert_eq!(block_on(future), 1);
}

#[test]
fn sixty_four_branches() {
    // Only the last branch is enabled: bit 63 of the mask works.
    let picked = block_on(async {
        let off = false;
        rt::select! {
            v = async { 0 }, if off => v, v = async { 1 }, if off => v,
            v = async { 2 }, if off => v, v = async { 3 }, if off => v,
            v = async { 4 }, if off => v, v = async { 5 }, if off => v,
            v = async { 6 }, if off => v, v = async { 7 }, if off => v,
            v = async { 8 }, if off => v, v = async { 9 }, if off => v,
            v = async { 10 }, if off => v, v = async { 11 }, if off => v,
            v = async { 12 }, if off => v, v = async { 13 }, if off => v,
            v = async { 14 }, if off => v, v = async { 15 }, if off => v,
            v = async { 16 }, if off => v, v = async { 17 }, if off => v,
            v = async { 18 }, if off => v, v = async { 19 }, if off => v,
            v = async { 20 }, if off => v, v = async { 21 }, if off => v,
            v = async { 22 }, if off => v, v = async { 23 }, if off => v,
            v = async { 24 }, if off => v, v = async { 25 }, if off => v,
            v = async { 26 }, if off => v, v = async { 27 }, if off => v,
            v = async { 28 }, if off => v, v = async { 29 }, if off => v,
            v = async { 30 }, if off => v, v = async { 31 }, if off => v,
            v = async { 32 }, if off => v, v = async { 33 }, if off => v,
            v = async { 34 }, if off => v, v = async { 35 }, if off => v,
            v = async { 36 }, if off => v, v = async { 37 }, if off => v,
            v = async { 38 }, if off => v, v = async { 39 }, if off => v,
            v = async { 40 }, if off => v, v = async { 41 }, if off => v,
            v = async { 42 }, if off => v, v = async { 43 }, if off => v,
            v = async { 44 }, if off => v, v = async { 45 }, if off => v,
            v = async { 46 }, if off => v, v = async { 47 }, if off => v,
            v = async { 48 }, if off => v, v = async { 49 }, if off => v,
            v = async { 50 }, if off => v, v = async { 51 }, if off => v,
            v = async { 52 }, if off => v, v = async { 53 }, if off => v,
            v = async { 54 }, if off => v, v = async { 55 }, if off => v,
            v = async { 56 }, if off => v, v = async { 57 }, if off => v,
            v = async { 58 }, if off => v, v = async { 59 }, if off => v,
            v = async { 60 }, if off => v, v = async { 61 }, if off => v,
            v = async { 62 }, if off => v, v = async { 63 } => v,
        }
    });
    assert_eq!(picked, 63);
}

#[test]
fn the_select_is_a_future_of_the_handler_type() {
    fn output_of<F: Future<Output = O>, O>(_: &F) {}
    let future = async {
        rt::select! { v = async { 1u8 } => v }
    };
    output_of::<_, u8>(&future);
    drop(future);
}

#[test]
fn a_select_of_only_an_else_branch_is_its_handler() {
    assert_eq!(
        block_on(async {
            rt::select! { else => 1 }
        }),
        1
    );
    assert_eq!(
        block_on(async {
            rt::select! { biased; else => 2, }
        }),
        2
    );
}

#[test]
fn a_handler_pattern_may_bind_by_ref_mut() {
    let text = block_on(async {
        rt::select! {
            Some(ref mut text) = async { Some(String::from("a")) } => {
                text.push('b');
                text.clone()
            }
        }
    });
    assert_eq!(text, "ab");
}

/// The futures are pinned as one list that the polling closure reaches
/// through one pointer: a branch costs its future and nothing more, so a
/// `select!` of ready `i32`s is as small as tokio's (32, 40 and 48 bytes
/// for one, two and three branches on 64-bit targets).
#[test]
#[cfg(target_pointer_width = "64")]
fn a_select_future_grows_by_its_futures_only() {
    let one = async {
        let a = std::future::ready(0i32);
        rt::select! { _ = a => {} }
    };
    let two = async {
        let (a, b) = (std::future::ready(0i32), std::future::ready(0i32));
        rt::select! { _ = a => {}, _ = b => {} }
    };
    let three = async {
        let (a, b) = (std::future::ready(0i32), std::future::ready(0i32));
        let c = std::future::ready(0i32);
        rt::select! { _ = a => {}, _ = b => {}, _ = c => {} }
    };
    assert_eq!(std::mem::size_of_val(&one), 32);
    assert_eq!(std::mem::size_of_val(&two), 40);
    assert_eq!(std::mem::size_of_val(&three), 48);
}
