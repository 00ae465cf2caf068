//! The coop budget at tokio's paths: `task::unconstrained`,
//! `task::consume_budget` and `task::coop::cooperative`.

use rt_core::runtime::Builder;
use rt_core::task::{self, coop};
use std::future::{poll_fn, Future};
use std::task::Poll;

#[test]
fn consume_budget_at_the_task_path_spends_the_budget() {
    let rt = Builder::new_current_thread()
        .coop_budget(4)
        .build()
        .unwrap();
    let forced = rt.block_on(async {
        rt_core::spawn(async {
            let before = coop::forced_yields();
            for _ in 0..10 {
                task::consume_budget().await;
            }
            coop::forced_yields() - before
        })
        .await
        .unwrap()
    });
    assert!(forced >= 2, "ten units at four a poll yield at least twice");
}

#[test]
fn unconstrained_at_the_task_path_lifts_the_budget() {
    let rt = Builder::new_current_thread()
        .coop_budget(1)
        .build()
        .unwrap();
    let spent_all = rt.block_on(async {
        rt_core::spawn(task::unconstrained(async {
            for _ in 0..100 {
                task::consume_budget().await;
            }
            coop::has_budget_remaining()
        }))
        .await
        .unwrap()
    });
    assert!(spent_all);
}

#[test]
fn cooperative_yields_once_the_budget_is_spent() {
    let rt = Builder::new_current_thread()
        .coop_budget(3)
        .build()
        .unwrap();
    let polls_before_yield = rt.block_on(async {
        rt_core::spawn(async {
            let mut ready = 0;
            // Poll cooperative futures by hand in one task poll: the fourth
            // finds the budget spent.
            poll_fn(|cx| {
                for _ in 0..4 {
                    let mut future = std::pin::pin!(coop::cooperative(async {}));
                    if future.as_mut().poll(cx).is_ready() {
                        ready += 1;
                    }
                }
                Poll::Ready(())
            })
            .await;
            ready
        })
        .await
        .unwrap()
    });
    assert_eq!(polls_before_yield, 3);
}
