//! The blocking pool's thread accounting at its cap.

use rt_core::runtime::Builder;
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Duration;

/// With `max_blocking_threads(1)`, a `spawn_blocking` submitted while the
/// only thread is retiring (its keep-alive elapsed and it is in its stop
/// callback) must get a thread. The pool used to count the retiring thread
/// against the cap until its callback returned, so the task was queued with
/// nobody left to run it.
#[test]
fn spawn_blocking_while_the_last_thread_retires_runs() {
    rt_test::within(
        "a blocking task submitted during a retire never ran",
        || {
            let (stopping_tx, stopping_rx) = mpsc::channel::<()>();
            let (resume_tx, resume_rx) = mpsc::channel::<()>();
            // Only the first thread to stop is held in its callback.
            let hold = Mutex::new(Some((stopping_tx, resume_rx)));
            let rt = Builder::new_current_thread()
                .max_blocking_threads(1)
                .thread_keep_alive(Duration::from_millis(1))
                .on_thread_stop(move || {
                    if let Some((stopping, resume)) = hold.lock().unwrap().take() {
                        stopping.send(()).unwrap();
                        let _ = resume.recv();
                    }
                })
                .build()
                .unwrap();
            assert_eq!(rt.block_on(rt.spawn_blocking(|| 1)).unwrap(), 1);
            // The thread idles for its keep-alive, then stops.
            stopping_rx.recv().unwrap();
            // The retiring thread is held until the task has run: it must not
            // be the one to run it.
            assert_eq!(rt.block_on(rt.spawn_blocking(|| 2)).unwrap(), 2);
            resume_tx.send(()).unwrap();
        },
    );
}

/// The pool's thread yields for a while after each task, waiting for the
/// next, and a submit made meanwhile signals a condvar nobody waits on. A
/// chain of hops, each submitted as the last one returns, must still run
/// every task: from a spawned task (results come through the injection
/// queue) and from `block_on` itself (through its waker). With one thread
/// and a keep-alive of an hour, a submit the yielding thread missed would
/// hang the chain.
fn chain_of_hops_runs_every_task(mut builder: Builder) {
    rt_test::within(
        "a blocking task submitted during the yields never ran",
        move || {
            // Miri-sized: ten hops still race the pool's yields, and finish
            // well inside the deadline under either borrow model.
            let hops: u64 = if cfg!(miri) { 10 } else { 1_000 };
            let rt = builder
                .max_blocking_threads(1)
                .thread_keep_alive(Duration::from_secs(3600))
                .build()
                .unwrap();
            let chain = rt.spawn(async move {
                let mut sum = 0;
                for hop in 0..hops {
                    sum += rt_core::task::spawn_blocking(move || hop).await.unwrap();
                }
                sum
            });
            assert_eq!(rt.block_on(chain).unwrap(), hops * (hops - 1) / 2);
            let mut sum = 0;
            for hop in 0..hops {
                sum += rt.block_on(rt.spawn_blocking(move || hop)).unwrap();
            }
            assert_eq!(sum, hops * (hops - 1) / 2);
        },
    );
}

#[test]
fn a_chain_of_hops_on_the_current_thread_runs_every_task() {
    chain_of_hops_runs_every_task(Builder::new_current_thread());
}

#[test]
fn a_chain_of_hops_on_one_worker_runs_every_task() {
    let mut builder = Builder::new_multi_thread();
    builder.worker_threads(1);
    chain_of_hops_runs_every_task(builder);
}

#[test]
fn a_chain_of_hops_on_two_workers_runs_every_task() {
    let mut builder = Builder::new_multi_thread();
    builder.worker_threads(2);
    chain_of_hops_runs_every_task(builder);
}
