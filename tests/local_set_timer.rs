//! A `LocalSet` made current by an enter guard, with a local task woken by
//! a timer that fires in the driver, on the owner thread but outside the
//! set's poll.

use rt::task::LocalSet;
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn a_local_sleep_under_an_enter_guard_wakes_the_set() {
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let rt = rt::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let local = LocalSet::new();
        let _guard = local.enter();
        local.block_on(&rt, async {
            let (tx, rx) = rt::sync::oneshot::channel();
            rt::task::spawn_local(async move {
                rt::time::sleep(Duration::from_millis(1)).await;
                tx.send(()).unwrap();
            });
            rx.await.unwrap();
        });
        done_tx.send(()).unwrap();
    });
    // A bound, not a synchronisation: the lost wake-up hung forever.
    done_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("a timer wake under a LocalSet::enter guard never reached the set");
}
