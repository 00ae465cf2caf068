//! The multi-thread runtime as a user meets it.

use rt_core::runtime::{Builder, Runtime, RuntimeFlavor};
use rt_core::task;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Barrier};

fn rt(workers: usize) -> Runtime {
    Builder::new_multi_thread()
        .worker_threads(workers)
        .build()
        .unwrap()
}

#[test]
fn spawn_and_join_across_workers() {
    let rt = rt(4);
    assert_eq!(rt.handle().runtime_flavor(), RuntimeFlavor::MultiThread);
    let n: u64 = if cfg!(miri) { 100 } else { 10_000 };
    let total = rt.block_on(async {
        let handles: Vec<_> = (0..n).map(|i| rt_core::spawn(async move { i })).collect();
        let mut total = 0;
        for h in handles {
            total += h.await.unwrap();
        }
        total
    });
    assert_eq!(total, (n - 1) * n / 2);
}

#[test]
fn a_million_tasks_spawned_from_four_threads_complete_once() {
    let per_thread = if cfg!(miri) { 50 } else { 250_000 };
    let total = 4 * per_thread;
    let rt = rt(4);
    let count = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let handle = rt.handle().clone();
            let count = count.clone();
            let tx = tx.clone();
            std::thread::spawn(move || {
                for _ in 0..per_thread {
                    let count = count.clone();
                    let tx = tx.clone();
                    drop(handle.spawn(async move {
                        if count.fetch_add(1, Ordering::SeqCst) + 1 == total {
                            tx.send(()).unwrap();
                        }
                    }));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    rx.recv().unwrap();
    assert_eq!(count.load(Ordering::SeqCst), total);
}

#[test]
fn ping_pong_chains() {
    let (chains, length) = if cfg!(miri) { (4, 20) } else { (20, 100) };
    let rt = rt(3);
    rt.block_on(async move {
        let mut handles = Vec::new();
        for _ in 0..chains {
            handles.push(rt_core::spawn(async move {
                // A chain of tasks, each spawning the next from its worker.
                fn step(n: u32) -> task::JoinHandle<u32> {
                    rt_core::spawn(async move {
                        if n == 0 {
                            0
                        } else {
                            step(n - 1).await.unwrap() + 1
                        }
                    })
                }
                step(length).await.unwrap()
            }));
        }
        for h in handles {
            assert_eq!(h.await.unwrap(), length);
        }
    });
}

#[test]
fn yielding_tasks_all_finish() {
    let (tasks, yields) = if cfg!(miri) { (10, 20) } else { (50, 200) };
    let rt = rt(2);
    rt.block_on(async move {
        let handles: Vec<_> = (0..tasks)
            .map(|_| {
                rt_core::spawn(async move {
                    for _ in 0..yields {
                        task::yield_now().await;
                    }
                })
            })
            .collect();
        for h in handles {
            h.await.unwrap();
        }
    });
}

/// A task yielding in a loop keeps its worker busy without polling the
/// driver on every round; work that reaches the worker from another thread
/// (here a task woken by a blocking-pool thread, through the injector) must
/// still run in between, or the loop below never ends.
#[test]
fn a_yield_loop_lets_remotely_woken_tasks_run() {
    let rt = rt(1);
    let handle = rt.handle().clone();
    rt.block_on(async move {
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let waiter = {
            let done = done.clone();
            rt_core::spawn(async move {
                handle.spawn_blocking(|| ()).await.unwrap();
                done.store(true, Ordering::SeqCst);
            })
        };
        let spinner = rt_core::spawn(async move {
            while !done.load(Ordering::SeqCst) {
                task::yield_now().await;
            }
        });
        waiter.await.unwrap();
        spinner.await.unwrap();
    });
}

#[test]
fn spawn_storm_with_aborts() {
    let n = if cfg!(miri) { 100 } else { 5_000 };
    let rt = rt(4);
    rt.block_on(async move {
        let mut handles = Vec::new();
        for i in 0..n {
            let h = rt_core::spawn(async move {
                task::yield_now().await;
                i
            });
            if i % 3 == 0 {
                h.abort();
            }
            handles.push((i, h));
        }
        for (i, h) in handles {
            match h.await {
                Ok(v) => assert_eq!(v, i),
                Err(e) => assert!(e.is_cancelled() && i % 3 == 0),
            }
        }
    });
}

#[test]
fn block_in_place_lets_other_tasks_run() {
    let rt = rt(2);
    rt.block_on(async {
        let (tx, rx) = mpsc::channel::<()>();
        let blocker = rt_core::spawn(async move {
            task::block_in_place(move || rx.recv().unwrap());
            "unblocked"
        });
        // Another task on the pool must still run while the blocker waits.
        let helper = rt_core::spawn(async move {
            task::yield_now().await;
            tx.send(()).unwrap();
        });
        helper.await.unwrap();
        assert_eq!(blocker.await.unwrap(), "unblocked");
    });
}

#[test]
#[should_panic(expected = "can call blocking only when running on the multi-threaded runtime")]
fn block_in_place_on_current_thread_panics() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async { task::block_in_place(|| ()) });
}

#[test]
fn lifo_task_is_not_stranded_behind_a_long_poll() {
    // A task schedules another (into its worker's LIFO slot), then blocks
    // its thread until that other task has run. Another worker must take
    // the stranded task.
    let rt = rt(2);
    rt.block_on(async {
        rt_core::spawn(async {
            let (tx, rx) = mpsc::channel::<()>();
            let _inner = rt_core::spawn(async move {
                tx.send(()).unwrap();
            });
            // Blocks this worker without yielding, like a long poll.
            rx.recv_timeout(std::time::Duration::from_secs(30))
                .expect("the LIFO task ran on another worker");
        })
        .await
        .unwrap();
    });
}

#[test]
fn tasks_that_wake_themselves() {
    let (tasks, polls) = if cfg!(miri) { (4, 50) } else { (10, 1000) };
    let rt = rt(2);
    rt.block_on(async move {
        let handles: Vec<_> = (0..tasks)
            .map(|_| {
                rt_core::spawn(async move {
                    let mut n = 0;
                    std::future::poll_fn(|cx| {
                        n += 1;
                        if n == polls {
                            std::task::Poll::Ready(())
                        } else {
                            cx.waker().wake_by_ref();
                            std::task::Poll::Pending
                        }
                    })
                    .await
                })
            })
            .collect();
        for h in handles {
            h.await.unwrap();
        }
    });
}

#[test]
fn dropping_runtime_drops_every_future_once() {
    struct Guard(Arc<AtomicUsize>);
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let tasks = if cfg!(miri) { 50 } else { 1000 };
    let dropped = Arc::new(AtomicUsize::new(0));
    let rt = rt(3);
    let barrier = Arc::new(Barrier::new(2));
    for _ in 0..tasks {
        let g = Guard(dropped.clone());
        drop(rt.spawn(async move {
            let _g = g;
            std::future::pending::<()>().await;
        }));
    }
    let b = barrier.clone();
    drop(rt.spawn(async move {
        b.wait();
    }));
    barrier.wait();
    drop(rt);
    assert_eq!(dropped.load(Ordering::SeqCst), tasks);
}

#[test]
fn shutdown_timeout_returns_with_stuck_blocking_task() {
    let rt = rt(2);
    let (tx, rx) = mpsc::channel::<()>();
    let started = Arc::new(Barrier::new(2));
    let s = started.clone();
    drop(rt.spawn_blocking(move || {
        s.wait();
        let _ = rx.recv();
    }));
    started.wait();
    let before = std::time::Instant::now();
    rt.shutdown_timeout(std::time::Duration::from_millis(50));
    assert!(before.elapsed() < std::time::Duration::from_secs(5));
    tx.send(()).unwrap();
}

#[test]
#[should_panic(expected = "Worker threads cannot be set to 0")]
fn zero_workers_panics() {
    Builder::new_multi_thread().worker_threads(0);
}

#[test]
fn handle_block_on_from_outside_thread() {
    let rt = rt(2);
    let handle = rt.handle().clone();
    let v = std::thread::spawn(move || {
        handle.block_on(async { rt_core::spawn(async { 5 }).await.unwrap() })
    })
    .join()
    .unwrap();
    assert_eq!(v, 5);
}

#[test]
#[should_panic(expected = "Cannot drop a runtime in a context where blocking is not allowed")]
#[cfg_attr(
    miri,
    ignore = "the runtime that refuses to drop leaves its worker thread running, \
              and Miri fails a process that exits with threads still running"
)]
fn dropping_a_runtime_inside_async_code_panics_instead_of_deadlocking() {
    let outer = rt(1);
    let inner = rt(1);
    outer.block_on(async move {
        rt_core::spawn(async move { drop(inner) })
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()));
    });
}

/// Wakes the stored waker when dropped.
struct WakeOnDrop(Arc<std::sync::Mutex<Option<std::task::Waker>>>);

impl Drop for WakeOnDrop {
    fn drop(&mut self) {
        if let Some(waker) = self.0.lock().unwrap().take() {
            waker.wake();
        }
    }
}

/// A panicking task shuts the runtime down from its worker; cancelling the
/// other tasks there wakes one of them on that worker (its waker fires in
/// a future's drop). The stale wake must neither run the cancelled task
/// nor keep the runtime from shutting down.
#[test]
fn a_wake_during_shutdown_on_a_worker_is_dropped_cleanly() {
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .unhandled_panic(rt_core::runtime::UnhandledPanic::ShutdownRuntime)
        .build()
        .unwrap();
    let slot = Arc::new(std::sync::Mutex::new(None::<std::task::Waker>));
    let polls = Arc::new(AtomicUsize::new(0));
    let waiter = {
        let (slot, polls) = (slot.clone(), polls.clone());
        rt.spawn(std::future::poll_fn(move |cx| {
            polls.fetch_add(1, Ordering::SeqCst);
            *slot.lock().unwrap() = Some(cx.waker().clone());
            std::task::Poll::<()>::Pending
        }))
    };
    let holder = {
        let guard = WakeOnDrop(slot.clone());
        rt.spawn(async move {
            let _guard = guard;
            std::future::pending::<()>().await;
        })
    };
    rt.block_on(async {
        // The waiter has stored its waker.
        while polls.load(Ordering::SeqCst) == 0 {
            task::yield_now().await;
        }
        drop(rt_core::spawn(async { panic!("shut the runtime down") }));
        assert!(waiter.await.unwrap_err().is_cancelled());
        assert!(holder.await.unwrap_err().is_cancelled());
    });
    assert_eq!(polls.load(Ordering::SeqCst), 1, "a cancelled task ran");
    drop(rt);
}

/// Two tasks that take turns: each waits for its turn, passes it to the
/// other and wakes it, `rounds` times.
struct Baton {
    turn: AtomicUsize,
    wakers: std::sync::Mutex<[Option<std::task::Waker>; 2]>,
}

impl Baton {
    fn new() -> Arc<Baton> {
        Arc::new(Baton {
            turn: AtomicUsize::new(0),
            wakers: std::sync::Mutex::new([None, None]),
        })
    }

    /// Plays side `me` (0 or 1) until `done` says stop or `rounds` turns
    /// were taken; returns the turns taken.
    async fn play(self: Arc<Self>, me: usize, rounds: usize, done: impl Fn() -> bool) -> usize {
        let mut taken = 0;
        while taken < rounds && !done() {
            std::future::poll_fn(|cx| {
                let mut wakers = self.wakers.lock().unwrap();
                if self.turn.load(Ordering::SeqCst) == me {
                    std::task::Poll::Ready(())
                } else {
                    wakers[me] = Some(cx.waker().clone());
                    std::task::Poll::Pending
                }
            })
            .await;
            taken += 1;
            let other = self.wakers.lock().unwrap()[1 - me].take();
            self.turn.store(1 - me, Ordering::SeqCst);
            if let Some(waker) = other {
                waker.wake();
            }
        }
        // Let the other side finish too.
        self.turn.store(1 - me, Ordering::SeqCst);
        if let Some(waker) = self.wakers.lock().unwrap()[1 - me].take() {
            waker.wake();
        }
        taken
    }
}

/// A pair of tasks waking each other through the LIFO slot must not keep a
/// task queued on the same worker waiting: once the pair's LIFO run is
/// capped, its next wake queues behind that task.
#[test]
fn a_ping_pong_pair_does_not_starve_a_queued_task() {
    const LIMIT: usize = 1_000_000;
    let rt = rt(1);
    let ran_after = rt.block_on(async {
        rt_core::spawn(async {
            let baton = Baton::new();
            let bounces = Arc::new(AtomicUsize::new(0));
            let queued_ran = Arc::new(AtomicUsize::new(usize::MAX));
            let (b, q) = (bounces.clone(), queued_ran.clone());
            let done = move || {
                b.fetch_add(1, Ordering::SeqCst);
                q.load(Ordering::SeqCst) != usize::MAX
            };
            // Spawned from this worker, then pushed out of the LIFO slot
            // into the local queue by the next spawn.
            let queued = {
                let (bounces, queued_ran) = (bounces.clone(), queued_ran.clone());
                rt_core::spawn(async move {
                    queued_ran.store(bounces.load(Ordering::SeqCst), Ordering::SeqCst);
                })
            };
            let other = rt_core::spawn(baton.clone().play(1, LIMIT, done.clone()));
            baton.play(0, LIMIT, done).await;
            other.await.unwrap();
            queued.await.unwrap();
            queued_ran.load(Ordering::SeqCst)
        })
        .await
        .unwrap()
    });
    assert!(
        ran_after < 100,
        "the queued task ran after {ran_after} bounces"
    );
}

/// A ping-pong pair settles on one worker and, with nothing else queued,
/// wakes no sleeping worker every few messages (which would come and steal
/// one of the pair): steals stay at the few made while the runtime starts,
/// however many messages go back and forth.
#[test]
fn a_ping_pong_pair_does_not_keep_waking_sleepers() {
    const ROUNDS: usize = if cfg!(miri) { 200 } else { 20_000 };
    let rt = rt(4);
    rt.block_on(async {
        let baton = Baton::new();
        let other = rt_core::spawn(baton.clone().play(1, ROUNDS, || false));
        let one = rt_core::spawn(baton.play(0, ROUNDS, || false));
        assert_eq!(one.await.unwrap(), ROUNDS);
        assert_eq!(other.await.unwrap(), ROUNDS);
    });
    let metrics = rt.handle().metrics();
    let steals: u64 = (0..4).map(|w| metrics.worker_steal_operations(w)).sum();
    assert!(steals < 50, "{steals} steals for {ROUNDS} messages");
}

/// A worker thread the OS refuses to start (here: a stack larger than any
/// address space) makes `build` return the OS's error, promptly.
#[test]
#[cfg_attr(
    miri,
    ignore = "Miri's threads take no stack size from the OS, so none is refused"
)]
fn build_reports_a_worker_thread_that_cannot_start() {
    let result = Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(1 << 60)
        .build();
    assert!(result.is_err());
}
