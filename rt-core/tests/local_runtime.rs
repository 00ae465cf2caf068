//! `LocalRuntime`: a `!Send` current-thread runtime that runs `!Send`
//! tasks; `JoinSet::spawn_local` and `spawn_local_on`.

use rt_core::runtime::{Builder, LocalOptions, LocalRuntime};
use rt_core::task::{self, JoinSet, LocalSet};
use std::cell::Cell;
use std::rc::Rc;

fn local() -> LocalRuntime {
    Builder::new_current_thread()
        .build_local(LocalOptions::default())
        .unwrap()
}

#[test]
fn spawn_local_runs_inside_block_on() {
    let rt = local();
    let hits = Rc::new(Cell::new(0));
    let inner = hits.clone();
    rt.block_on(async move {
        task::spawn_local(async move { inner.set(inner.get() + 1) })
            .await
            .unwrap();
    });
    assert_eq!(hits.get(), 1);
}

#[test]
fn tasks_spawned_on_the_runtime_object_run_at_the_next_block_on() {
    let rt = local();
    let value = Rc::new(5);
    let task = rt.spawn_local(async move { *value * 2 });
    assert_eq!(rt.block_on(task).unwrap(), 10);
}

#[test]
fn entering_makes_spawn_local_work() {
    let rt = local();
    let task = {
        let _guard = rt.enter();
        task::spawn_local(async { 3 })
    };
    assert_eq!(rt.block_on(task).unwrap(), 3);
}

#[test]
fn send_tasks_spawn_from_other_threads() {
    let rt = local();
    let handle = rt.handle().clone();
    let task = std::thread::spawn(move || handle.spawn(async { 4 }))
        .join()
        .unwrap();
    assert_eq!(rt.block_on(task).unwrap(), 4);
}

#[test]
#[should_panic(expected = "Local tasks can only be spawned on a LocalRuntime from the thread")]
fn spawn_local_from_another_thread_names_the_local_runtime() {
    let rt = local();
    let handle = rt.handle().clone();
    let result = std::thread::spawn(move || {
        let _guard = handle.enter();
        drop(task::spawn_local(async {}));
    })
    .join();
    if let Err(payload) = result {
        std::panic::resume_unwind(payload);
    }
}

#[test]
#[should_panic(
    expected = "`spawn_local` called from outside of a `task::LocalSet` or `runtime::LocalRuntime`"
)]
fn spawn_local_on_a_plain_runtime_still_panics() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        drop(task::spawn_local(async {}));
    });
}

#[test]
fn a_multi_thread_builder_refuses_to_build_a_local_runtime() {
    let err = Builder::new_multi_thread()
        .build_local(LocalOptions::default())
        .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("new_current_thread"));
}

#[test]
fn dropping_the_runtime_cancels_local_tasks_once() {
    struct Flag(Rc<Cell<u32>>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let dropped = Rc::new(Cell::new(0));
    let rt = local();
    let flag = Flag(dropped.clone());
    drop(rt.spawn_local(async move {
        let _flag = flag;
        std::future::pending::<()>().await
    }));
    rt.block_on(task::yield_now());
    assert_eq!(dropped.get(), 0);
    rt.shutdown_timeout(std::time::Duration::from_secs(1));
    assert_eq!(dropped.get(), 1);
}

#[test]
fn metrics_and_handle_are_the_runtime_s() {
    let rt = local();
    assert_eq!(rt.metrics().num_workers(), 1);
    assert_eq!(rt.handle().id(), rt.handle().clone().id());
}

#[test]
fn join_set_spawns_local_tasks() {
    let rt = local();
    let shared = Rc::new(Cell::new(0));
    let total = rt.block_on(async {
        let mut set = JoinSet::new();
        for i in 1..=3 {
            let shared = shared.clone();
            set.spawn_local(async move {
                shared.set(shared.get() + i);
                i
            });
        }
        let mut total = 0;
        while let Some(out) = set.join_next().await {
            total += out.unwrap();
        }
        total
    });
    assert_eq!(total, 6);
    assert_eq!(shared.get(), 6);
}

#[test]
fn join_set_spawns_on_a_given_local_set() {
    let rt = Builder::new_current_thread().build().unwrap();
    let local = LocalSet::new();
    let mut set = JoinSet::new();
    let value = Rc::new(9);
    set.spawn_local_on(async move { *value }, &local);
    let out = local.block_on(&rt, async { set.join_next().await.unwrap().unwrap() });
    assert_eq!(out, 9);
}
