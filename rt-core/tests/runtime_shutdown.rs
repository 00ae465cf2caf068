//! Runtime shutdown and the builder options that shape it: timeouts, the
//! blocking pool's cap, hooks and names, panics, and the seeded RNG.

use rt_core::runtime::{Builder, RngSeed, Runtime, UnhandledPanic};
use rt_core::task;
use rt_core::util::rng::thread_rng_n;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Spawns a blocking closure that reports it started and then blocks until
/// the returned sender releases it (or is dropped).
fn stuck_blocking_task(rt: &Runtime) -> mpsc::Sender<()> {
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let (started_tx, started_rx) = mpsc::channel::<()>();
    drop(rt.spawn_blocking(move || {
        started_tx.send(()).unwrap();
        let _ = release_rx.recv();
    }));
    started_rx.recv().unwrap();
    release_tx
}

#[test]
fn shutdown_timeout_does_not_wait_for_a_stuck_blocking_task() {
    let rt = rt_test::runtime();
    let release = stuck_blocking_task(&rt);
    let start = Instant::now();
    rt.shutdown_timeout(Duration::from_millis(100));
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(100),
        "returned early: {took:?}"
    );
    assert!(took < Duration::from_secs(1), "waited too long: {took:?}");
    release.send(()).unwrap();
}

#[test]
fn shutdown_background_returns_at_once() {
    let rt = rt_test::runtime();
    let release = stuck_blocking_task(&rt);
    let start = Instant::now();
    rt.shutdown_background();
    assert!(start.elapsed() < Duration::from_secs(1));
    release.send(()).unwrap();
}

#[test]
fn dropping_a_runtime_cancels_pending_tasks() {
    let drops = Arc::new(AtomicUsize::new(0));
    let rt1 = rt_test::runtime();
    let mut handles = Vec::new();
    // One task that has been polled and one that never was.
    let guard = rt_test::DropCounter(drops.clone());
    handles.push(rt1.spawn(async move {
        let _guard = guard;
        std::future::pending::<()>().await;
    }));
    rt1.block_on(task::yield_now());
    let guard = rt_test::DropCounter(drops.clone());
    handles.push(rt1.spawn(async move {
        let _guard = guard;
        std::future::pending::<()>().await;
    }));
    assert_eq!(rt1.handle().num_alive_tasks(), 2);
    drop(rt1);
    assert_eq!(drops.load(Ordering::SeqCst), 2);

    let rt2 = rt_test::runtime();
    rt2.block_on(async {
        for h in handles {
            assert!(h.await.unwrap_err().is_cancelled());
        }
    });
}

#[test]
fn spawn_after_shutdown_gives_a_cancelled_handle() {
    let rt1 = rt_test::runtime();
    let handle = rt1.handle().clone();
    rt1.shutdown_background();
    let drops = Arc::new(AtomicUsize::new(0));
    let guard = rt_test::DropCounter(drops.clone());
    let join = handle.spawn(async move {
        let _guard = guard;
    });
    assert_eq!(drops.load(Ordering::SeqCst), 1, "the future is dropped");
    let rt2 = rt_test::runtime();
    assert!(rt2.block_on(join).unwrap_err().is_cancelled());
}

#[test]
fn spawn_blocking_after_shutdown_gives_a_cancelled_handle() {
    let rt1 = rt_test::runtime();
    let handle = rt1.handle().clone();
    rt1.shutdown_background();
    let join = handle.spawn_blocking(|| 1);
    let rt2 = rt_test::runtime();
    assert!(rt2.block_on(join).unwrap_err().is_cancelled());
}

#[test]
fn max_blocking_threads_caps_concurrency() {
    const CAP: usize = 2;
    const TASKS: usize = 6;
    let rt = Builder::new_current_thread()
        .max_blocking_threads(CAP)
        .build()
        .unwrap();
    let running = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let threads = Arc::new(Mutex::new(HashSet::new()));
    let (started_tx, started_rx) = mpsc::channel::<()>();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let release_rx = Arc::new(Mutex::new(release_rx));
    let handles: Vec<_> = (0..TASKS)
        .map(|_| {
            let (running, peak, threads) = (running.clone(), peak.clone(), threads.clone());
            let (started_tx, release_rx) = (started_tx.clone(), release_rx.clone());
            rt.spawn_blocking(move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                threads.lock().unwrap().insert(std::thread::current().id());
                started_tx.send(()).unwrap();
                release_rx.lock().unwrap().recv().unwrap();
                running.fetch_sub(1, Ordering::SeqCst);
            })
        })
        .collect();
    // Let closures through one at a time: at every step exactly CAP of
    // them have started and none has finished.
    for started in 0..TASKS {
        started_rx.recv().unwrap();
        if started + 1 >= CAP {
            assert!(running.load(Ordering::SeqCst) <= CAP);
            release_tx.send(()).unwrap();
        }
    }
    for _ in 0..CAP - 1 {
        release_tx.send(()).unwrap();
    }
    rt.block_on(async {
        for h in handles {
            h.await.unwrap();
        }
    });
    assert_eq!(peak.load(Ordering::SeqCst), CAP);
    assert!(threads.lock().unwrap().len() <= CAP);
}

#[test]
fn thread_hooks_and_name_apply_to_blocking_threads() {
    let starts = Arc::new(Mutex::new(Vec::new()));
    let stops = Arc::new(AtomicUsize::new(0));
    let rt = {
        let (starts, stops) = (starts.clone(), stops.clone());
        Builder::new_current_thread()
            .thread_name("blocking-under-test")
            .on_thread_start(move || {
                let name = std::thread::current().name().map(String::from);
                starts.lock().unwrap().push(name);
            })
            .on_thread_stop(move || {
                stops.fetch_add(1, Ordering::SeqCst);
            })
            .build()
            .unwrap()
    };
    let name = rt
        .block_on(rt.spawn_blocking(|| std::thread::current().name().map(String::from)))
        .unwrap();
    assert_eq!(name.as_deref(), Some("blocking-under-test"));
    // Dropping the runtime waits for the pool's threads to exit, so the
    // stop hooks have run by then.
    drop(rt);
    let starts = starts.lock().unwrap();
    assert!(!starts.is_empty());
    assert!(starts
        .iter()
        .all(|n| n.as_deref() == Some("blocking-under-test")));
    assert_eq!(stops.load(Ordering::SeqCst), starts.len());
}

#[test]
#[should_panic(expected = "Cannot drop a runtime in a context where blocking is not allowed")]
fn dropping_a_runtime_inside_block_on_panics() {
    let outer = rt_test::runtime();
    let inner = rt_test::runtime();
    outer.block_on(async move {
        drop(inner);
    });
}

#[test]
fn unhandled_panic_shutdown_runtime_makes_block_on_panic() {
    let rt = Builder::new_current_thread()
        .unhandled_panic(UnhandledPanic::ShutdownRuntime)
        .build()
        .unwrap();
    let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rt.block_on(async {
            drop(rt_core::spawn(async { panic!("task boom") }));
            // Keep yielding: the runtime must stop us.
            loop {
                task::yield_now().await;
            }
        })
    }));
    let payload = res.unwrap_err();
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(
        message.contains("configured to shut down on unhandled panic"),
        "{message}"
    );
}

#[test]
fn unhandled_panic_shutdown_runtime_cancels_the_other_tasks_at_once() {
    let rt = Builder::new_current_thread()
        .unhandled_panic(UnhandledPanic::ShutdownRuntime)
        .build()
        .unwrap();
    let drops = Arc::new(AtomicUsize::new(0));
    let guard = rt_test::DropCounter(drops.clone());
    let bystander = rt.spawn(async move {
        let _guard = guard;
        std::future::pending::<()>().await;
    });
    let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rt.block_on(async {
            drop(rt_core::spawn(async { panic!("task boom") }));
            loop {
                task::yield_now().await;
            }
        })
    }));
    assert!(res.is_err());
    assert_eq!(drops.load(Ordering::SeqCst), 1, "bystander still alive");
    let late = rt.spawn(async { 1 });
    rt.block_on(async {
        assert!(bystander.await.unwrap_err().is_cancelled());
        assert!(late.await.unwrap_err().is_cancelled());
    });
}

#[test]
fn unhandled_panic_ignore_keeps_running() {
    let rt = rt_test::runtime();
    let out = rt.block_on(async {
        let err = rt_core::spawn(async { panic!("ignored") })
            .await
            .unwrap_err();
        assert!(err.is_panic());
        task::yield_now().await;
        5
    });
    assert_eq!(out, 5);
}

fn draws_with_seed(seed: u64) -> Vec<u32> {
    let rt = Builder::new_current_thread()
        .rng_seed(RngSeed::from_u64(seed))
        .build()
        .unwrap();
    rt.block_on(async { (0..16).map(|_| thread_rng_n(1 << 30)).collect() })
}

#[test]
fn rng_seed_repeats_the_sequence() {
    let a = draws_with_seed(42);
    let b = draws_with_seed(42);
    assert_eq!(a, b);
    assert_ne!(a, draws_with_seed(43));
    assert_eq!(
        RngSeed::from_bytes(b"seed").as_u64(),
        RngSeed::from_bytes(b"seed").as_u64()
    );
}

/// Shutdown's wake-up must not be lost when a worker consumes it in a
/// zero-timeout park (requeueing yielded tasks) and then parks for good.
#[test]
fn dropping_a_runtime_busy_with_yielding_tasks_never_hangs() {
    let (done_tx, done_rx) = mpsc::channel();
    // Miri-sized: one round of each worker count.
    let rounds = if cfg!(miri) { 3 } else { 2000 };
    std::thread::spawn(move || {
        for i in 0..rounds {
            let workers = 2 + i % 3;
            let rt = Builder::new_multi_thread()
                .worker_threads(workers)
                .build()
                .unwrap();
            for _ in 0..16 {
                rt.spawn(async {
                    loop {
                        task::yield_now().await;
                    }
                });
            }
            rt.block_on(async {
                for _ in 0..4 {
                    task::yield_now().await;
                }
            });
            drop(rt);
        }
        done_tx.send(()).unwrap();
    });
    // A bound, not a synchronisation: a lost wake-up hangs forever.
    done_rx
        .recv_timeout(Duration::from_secs(120))
        .expect("dropping the runtime hung: a worker missed the shutdown wake-up");
}

#[test]
fn a_shutdown_timeout_too_large_for_a_deadline_waits_without_one() {
    let current = Builder::new_current_thread().build().unwrap();
    current.shutdown_timeout(Duration::MAX);
    let multi = Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    multi.spawn_blocking(|| ());
    multi.shutdown_timeout(Duration::MAX);
}

#[test]
fn a_blocking_task_spawned_just_before_shutdown_still_runs() {
    // Its thread is started for it before the shutdown, whether or not it
    // has reached the queue yet: the task is that thread's to run.
    for _ in 0..50 {
        let rt = rt_test::runtime();
        let join = rt.spawn_blocking(|| 42);
        rt.shutdown_timeout(std::time::Duration::from_secs(10));
        let rt2 = rt_test::runtime();
        assert_eq!(rt2.block_on(join).unwrap(), 42);
    }
}
