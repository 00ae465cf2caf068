//! tokio's runtime surface on rt-core: runtime ids and names,
//! `Runtime::metrics`, `is_rt_shutdown_err`, unwind safety of the handles,
//! `LocalKey::try_get`, and `block_in_place` inside `block_on`.

use rt_core::runtime::{is_rt_shutdown_err, shutdown_error, Builder, Handle, Runtime};
use std::panic::{RefUnwindSafe, UnwindSafe};

#[test]
fn every_runtime_has_its_own_id() {
    let a = Builder::new_current_thread().build().unwrap();
    let b = Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    assert_eq!(a.handle().id(), a.handle().clone().id());
    assert_ne!(a.handle().id(), b.handle().id());
    let inside = a.block_on(async { Handle::current().id() });
    assert_eq!(inside, a.handle().id());
    assert_ne!(a.handle().id().to_string(), b.handle().id().to_string());
}

#[test]
fn a_runtime_is_unnamed_unless_named() {
    let unnamed = Builder::new_current_thread().build().unwrap();
    assert_eq!(unnamed.handle().name(), None);
    let named = Builder::new_multi_thread()
        .worker_threads(1)
        .name("ingest")
        .build()
        .unwrap();
    assert_eq!(named.handle().name(), Some("ingest"));
    assert!(format!("{:?}", named.handle()).contains("ingest"));
}

#[test]
#[should_panic(expected = "runtime name shouldn't be empty")]
fn an_empty_name_is_refused() {
    Builder::new_current_thread().name("  ");
}

#[test]
fn runtime_metrics_are_the_handle_s() {
    let rt = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    assert_eq!(rt.metrics().num_workers(), 2);
    assert_eq!(
        rt.metrics().num_workers(),
        rt.handle().metrics().num_workers()
    );
}

#[test]
fn the_shutdown_error_is_recognised_by_type() {
    let err = shutdown_error();
    assert!(is_rt_shutdown_err(&err));
    assert_eq!(err.kind(), std::io::ErrorKind::Other);
    let lookalike = std::io::Error::other(err.to_string());
    assert!(!is_rt_shutdown_err(&lookalike));
    assert!(!is_rt_shutdown_err(&std::io::Error::from(
        std::io::ErrorKind::Other
    )));
}

#[test]
fn runtimes_and_handles_cross_catch_unwind() {
    fn unwind_safe<T: UnwindSafe + RefUnwindSafe>() {}
    unwind_safe::<Runtime>();
    unwind_safe::<Handle>();
    unwind_safe::<rt_core::runtime::LocalRuntime>();
    let rt = Builder::new_current_thread().build().unwrap();
    let caught = std::panic::catch_unwind(|| {
        rt.block_on(async { panic!("inside block_on") });
    });
    assert!(caught.is_err());
    assert_eq!(rt.block_on(async { 1 }), 1);
}

rt_core::task_local! {
    static REQUEST: u32;
}

#[test]
fn try_get_reports_a_missing_scope() {
    assert!(REQUEST.try_get().is_err());
    let rt = Builder::new_current_thread().build().unwrap();
    let inside = rt.block_on(REQUEST.scope(5, async { REQUEST.try_get() }));
    assert_eq!(inside, Ok(5));
}

#[test]
fn block_in_place_works_inside_block_on_of_the_multi_thread_runtime() {
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    let out = rt.block_on(async {
        let spawned = rt_core::spawn(async { 2 });
        let blocked = rt_core::task::block_in_place(|| 40);
        blocked + spawned.await.unwrap()
    });
    assert_eq!(out, 42);
}

#[test]
#[should_panic(expected = "can call blocking only when running on the multi-threaded runtime")]
fn block_in_place_inside_block_on_of_the_current_thread_runtime_panics() {
    let rt = Builder::new_current_thread().build().unwrap();
    rt.block_on(async { rt_core::task::block_in_place(|| ()) });
}

#[test]
fn worker_index_names_the_worker_or_nothing() {
    use rt_core::runtime::worker_index;
    assert_eq!(worker_index(), None);
    let current = Builder::new_current_thread().build().unwrap();
    assert_eq!(current.block_on(async { worker_index() }), Some(0));
    let blocking = current.block_on(current.spawn_blocking(worker_index));
    assert_eq!(blocking.unwrap(), None);
    let multi = Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let on_worker = multi.block_on(multi.spawn(async { worker_index() }));
    assert!(matches!(on_worker.unwrap(), Some(0 | 1)));
    assert_eq!(multi.block_on(async { worker_index() }), None);
}
