//! `Builder::coop_budget` takes a number of units or `None`.

use rt_core::runtime::Builder;
use rt_core::task::coop;

#[test]
fn none_disables_the_budget() {
    let rt = Builder::new_current_thread()
        .coop_budget(None)
        .build()
        .unwrap();
    let forced = rt.block_on(async {
        rt_core::spawn(async {
            let before = coop::forced_yields();
            for _ in 0..1_000 {
                coop::consume_budget().await;
            }
            assert!(coop::has_budget_remaining());
            coop::forced_yields() - before
        })
        .await
        .unwrap()
    });
    assert_eq!(forced, 0);
}

#[test]
fn a_number_still_sets_the_budget() {
    let rt = Builder::new_current_thread()
        .coop_budget(64)
        .build()
        .unwrap();
    let forced = rt.block_on(async {
        rt_core::spawn(async {
            let before = coop::forced_yields();
            for _ in 0..200 {
                coop::consume_budget().await;
            }
            coop::forced_yields() - before
        })
        .await
        .unwrap()
    });
    // 200 units at 64 per poll.
    assert_eq!(forced, 3);
}

#[test]
fn none_disables_the_budget_on_multi_thread() {
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .coop_budget(Some(4).filter(|_| false))
        .build()
        .unwrap();
    let unlimited = rt.block_on(async {
        rt_core::spawn(async {
            for _ in 0..100 {
                coop::consume_budget().await;
            }
            coop::has_budget_remaining()
        })
        .await
        .unwrap()
    });
    assert!(unlimited);
}

#[test]
#[should_panic(expected = "coop budget must be greater than 0")]
fn zero_is_rejected() {
    Builder::new_current_thread().coop_budget(0);
}
