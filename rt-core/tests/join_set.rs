//! `JoinSet`: joining in completion order, aborting, detaching, shutdown.

use rt_core::task::{self, JoinSet};
use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};

/// A future that completes once it was polled `n` times.
async fn yields(n: usize) {
    for _ in 0..n {
        task::yield_now().await;
    }
}

#[test]
fn joins_in_completion_order() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::new();
        // Task i finishes after (10 - i) yields, so later tasks finish first.
        for i in 0..10usize {
            set.spawn(async move {
                yields(10 - i).await;
                i
            });
        }
        assert_eq!(set.len(), 10);
        let mut order = Vec::new();
        while let Some(res) = set.join_next().await {
            order.push(res.unwrap());
        }
        assert_eq!(order.len(), 10);
        let unique: HashSet<_> = order.iter().copied().collect();
        assert_eq!(unique.len(), 10);
        assert_eq!(order[0], 9, "the task with the fewest yields comes first");
        assert!(set.is_empty());
        assert!(set.join_next().await.is_none());
    });
}

#[test]
fn many_tasks_and_slot_reuse() {
    // Fewer under Miri, which interprets each spawn.
    let per_round: u64 = if cfg!(miri) { 100 } else { 1000 };
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::new();
        let mut total = 0u64;
        for round in 0..5u64 {
            for i in 0..per_round {
                set.spawn(async move { round * per_round + i });
            }
            for _ in 0..per_round / 2 {
                total += set.join_next().await.unwrap().unwrap();
            }
        }
        while let Some(res) = set.join_next().await {
            total += res.unwrap();
        }
        assert_eq!(total, (0..5 * per_round).sum::<u64>());
    });
}

#[test]
fn try_join_next_does_not_wait() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set: JoinSet<u32> = JoinSet::new();
        assert!(set.try_join_next().is_none());
        let (tx, rx) = mpsc::channel::<()>();
        set.spawn_blocking(move || {
            rx.recv().unwrap();
            3
        });
        assert!(set.try_join_next().is_none());
        assert_eq!(set.len(), 1);
        tx.send(()).unwrap();
        // Once the blocking task finishes, join_next returns it.
        assert_eq!(set.join_next().await.unwrap().unwrap(), 3);

        set.spawn(async { 4 });
        // Let the task run, then it must be available without waiting.
        task::yield_now().await;
        assert_eq!(set.try_join_next().unwrap().unwrap(), 4);
        assert!(set.try_join_next().is_none());
    });
}

#[test]
fn try_join_next_with_id_reports_the_task() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::new();
        let abort = set.spawn(async { "x" });
        task::yield_now().await;
        let (id, out) = set.try_join_next_with_id().unwrap().unwrap();
        assert_eq!((id, out), (abort.id(), "x"));
    });
}

#[test]
fn join_next_with_id_ids_match() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::new();
        let mut expected = HashSet::new();
        for i in 0..20u32 {
            let abort = set.spawn(async move { (task::id(), i) });
            expected.insert(abort.id());
        }
        let mut seen = HashSet::new();
        while let Some(res) = set.join_next_with_id().await {
            let (id, (inner_id, _)) = res.unwrap();
            assert_eq!(id, inner_id);
            seen.insert(id);
        }
        assert_eq!(seen, expected);

        // Errors carry the id as well.
        let abort = set.spawn(std::future::pending::<(task::Id, u32)>());
        abort.abort();
        let err = set.join_next_with_id().await.unwrap().unwrap_err();
        assert!(err.is_cancelled());
        assert_eq!(err.id(), abort.id());
    });
}

#[test]
fn abort_all_cancels_pending_tasks() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::new();
        for _ in 0..5 {
            set.spawn(std::future::pending::<()>());
        }
        set.spawn(async {});
        task::yield_now().await;
        set.abort_all();
        assert_eq!(set.len(), 6, "aborted tasks stay until joined");
        let (mut cancelled, mut ok) = (0, 0);
        while let Some(res) = set.join_next().await {
            match res {
                Ok(()) => ok += 1,
                Err(e) => {
                    assert!(e.is_cancelled());
                    cancelled += 1;
                }
            }
        }
        assert_eq!((cancelled, ok), (5, 1));
    });
}

#[test]
fn detach_all_lets_tasks_run_on() {
    let rt = rt_test::runtime();
    let (tx, rx) = mpsc::channel();
    rt.block_on(async {
        let mut set = JoinSet::new();
        for i in 0..3 {
            let tx = tx.clone();
            set.spawn(async move {
                task::yield_now().await;
                tx.send(i).unwrap();
            });
        }
        set.detach_all();
        assert!(set.is_empty());
        assert!(set.join_next().await.is_none());
        drop(set);
        yields(5).await;
    });
    drop(tx);
    let mut got: Vec<i32> = rx.iter().collect();
    got.sort();
    assert_eq!(got, [0, 1, 2]);
}

#[test]
fn shutdown_aborts_and_waits() {
    let rt = rt_test::runtime();
    let drops = Arc::new(AtomicUsize::new(0));
    rt.block_on(async {
        let mut set = JoinSet::new();
        for _ in 0..4 {
            let guard = rt_test::DropCounter(drops.clone());
            set.spawn(async move {
                let _guard = guard;
                std::future::pending::<()>().await;
            });
        }
        task::yield_now().await;
        set.shutdown().await;
        assert!(set.is_empty());
        assert_eq!(drops.load(Ordering::SeqCst), 4);
    });
}

#[test]
fn join_all_collects_outputs() {
    let rt = rt_test::runtime();
    let mut out = rt.block_on(async {
        let set: JoinSet<u32> = (0..8u32).map(|i| async move { i }).collect();
        set.join_all().await
    });
    out.sort();
    assert_eq!(out, (0..8).collect::<Vec<_>>());
}

#[test]
fn join_all_resumes_a_panic_and_aborts_the_rest() {
    let rt = rt_test::runtime();
    let drops = Arc::new(AtomicUsize::new(0));
    let drops2 = drops.clone();
    let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rt.block_on(async move {
            let mut set = JoinSet::new();
            let guard = rt_test::DropCounter(drops2);
            set.spawn(async move {
                let _guard = guard;
                std::future::pending::<()>().await;
            });
            set.spawn(async { panic!("join_all boom") });
            set.join_all().await
        })
    }));
    let payload = res.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"join_all boom"));
    // The pending task was aborted when the set dropped; run the runtime so
    // that the cancellation is processed.
    rt.block_on(yields(2));
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn dropping_the_set_aborts_tasks() {
    let rt = rt_test::runtime();
    let drops = Arc::new(AtomicUsize::new(0));
    rt.block_on(async {
        let mut set = JoinSet::new();
        for _ in 0..10 {
            let guard = rt_test::DropCounter(drops.clone());
            set.spawn(async move {
                let _guard = guard;
                std::future::pending::<()>().await;
            });
        }
        task::yield_now().await;
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        drop(set);
        yields(2).await;
        assert_eq!(drops.load(Ordering::SeqCst), 10);
    });
    assert_eq!(rt.handle().num_alive_tasks(), 0);
}

#[test]
fn len_and_is_empty_track_joins() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::default();
        assert!(set.is_empty());
        assert_eq!(set.len(), 0);
        set.spawn(async { 1 });
        set.spawn(async { 2 });
        assert_eq!(set.len(), 2);
        assert!(!set.is_empty());
        set.join_next().await.unwrap().unwrap();
        assert_eq!(set.len(), 1);
        set.join_next().await.unwrap().unwrap();
        assert!(set.is_empty());
    });
}

#[test]
fn spawn_on_and_spawn_blocking_on_use_the_given_runtime() {
    let rt = rt_test::runtime();
    let handle = rt.handle().clone();
    let mut set = JoinSet::new();
    set.spawn_on(async { 1 }, &handle);
    set.spawn_blocking_on(|| 2, &handle);
    let mut out = rt.block_on(async move {
        let mut out = Vec::new();
        while let Some(res) = set.join_next().await {
            out.push(res.unwrap());
        }
        out
    });
    out.sort();
    assert_eq!(out, [1, 2]);
}

#[test]
fn join_next_is_cancel_safe() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::new();
        let (tx, rx) = mpsc::channel::<()>();
        set.spawn_blocking(move || rx.recv().unwrap());
        // Poll join_next once by hand and drop it while pending.
        {
            let fut = std::pin::pin!(set.join_next());
            let waker = rt_test::noop_waker();
            let mut cx = Context::from_waker(&waker);
            assert!(fut.poll(&mut cx).is_pending());
        }
        tx.send(()).unwrap();
        assert!(set.join_next().await.unwrap().is_ok());
        assert!(set.is_empty());
    });
}

#[test]
fn poll_join_next_registers_the_waker() {
    let rt = rt_test::runtime();
    rt.block_on(async {
        let mut set = JoinSet::new();
        let (tx, rx) = mpsc::channel::<()>();
        set.spawn_blocking(move || rx.recv().unwrap());
        let mut polled_pending = false;
        let res = std::future::poll_fn(|cx| {
            let polled = set.poll_join_next(cx);
            if polled.is_pending() && !polled_pending {
                polled_pending = true;
                tx.send(()).unwrap();
            }
            match polled {
                Poll::Ready(res) => Poll::Ready(res),
                Poll::Pending => Poll::Pending,
            }
        })
        .await;
        assert!(polled_pending);
        assert!(res.unwrap().is_ok());
    });
}

#[test]
fn join_set_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<JoinSet<u32>>();
}

#[test]
fn try_join_next_is_not_limited_by_the_coop_budget() {
    let rt = rt_core::runtime::Builder::new_current_thread()
        .coop_budget(4)
        .build()
        .unwrap();
    let joined = rt.block_on(async {
        let mut set = JoinSet::new();
        for i in 0..20 {
            set.spawn(async move { i });
        }
        while !set.is_empty() && set.try_join_next().is_none() {
            task::yield_now().await;
        }
        // Every task is done once the first is: one tick ran them all.
        for _ in 0..3 {
            task::yield_now().await;
        }
        let mut joined = 1;
        while set.try_join_next().is_some() {
            joined += 1;
        }
        joined
    });
    assert_eq!(joined, 20);
}
