//! The unhandled-panic policy: the callback sees the task id and payload on
//! both flavors, and the runtime keeps running.

use rt_core::runtime::{Builder, Runtime, UnhandledPanic};
use rt_core::task::Id;
use std::sync::{Arc, Mutex};

type Seen = Arc<Mutex<Vec<(Id, String)>>>;

fn with_callback(mut builder: Builder, seen: &Seen) -> Runtime {
    let seen = seen.clone();
    builder
        .unhandled_panic(UnhandledPanic::callback(move |id, payload| {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            seen.lock().unwrap().push((id, message));
        }))
        .build()
        .unwrap()
}

fn check(rt: Runtime, seen: &Seen) {
    let failing = rt.spawn(async { panic!("task {} failed", 7) });
    let id = failing.id();
    let err = rt.block_on(failing).unwrap_err();
    assert!(err.is_panic());
    assert_eq!(err.id(), id);
    // The runtime keeps running after the callback.
    assert_eq!(
        rt.block_on(async { rt_core::spawn(async { 1 }).await.unwrap() }),
        1
    );
    assert_eq!(
        *seen.lock().unwrap(),
        vec![(id, "task 7 failed".to_string())]
    );
}

#[test]
fn callback_on_current_thread() {
    let seen = Seen::default();
    let rt = with_callback(Builder::new_current_thread(), &seen);
    check(rt, &seen);
}

#[test]
fn callback_on_multi_thread() {
    let seen = Seen::default();
    let mut builder = Builder::new_multi_thread();
    builder.worker_threads(2);
    let rt = with_callback(builder, &seen);
    check(rt, &seen);
}

#[test]
fn a_panicking_callback_is_contained() {
    let rt = Builder::new_current_thread()
        .unhandled_panic(UnhandledPanic::callback(|_, _| panic!("callback failed")))
        .build()
        .unwrap();
    let err = rt
        .block_on(rt.spawn(async { panic!("task failed") }))
        .unwrap_err();
    assert!(err.is_panic());
    assert_eq!(
        rt.block_on(async { rt_core::spawn(async { 2 }).await.unwrap() }),
        2
    );
}

#[test]
fn ignore_keeps_running() {
    let rt = Builder::new_current_thread()
        .unhandled_panic(UnhandledPanic::Ignore)
        .build()
        .unwrap();
    assert!(rt.block_on(rt.spawn(async { panic!("x") })).is_err());
    assert_eq!(
        rt.block_on(async { rt_core::spawn(async { 3 }).await.unwrap() }),
        3
    );
}

#[test]
fn policies_debug_print() {
    assert_eq!(format!("{:?}", UnhandledPanic::default()), "Ignore");
    assert_eq!(
        format!("{:?}", UnhandledPanic::callback(|_, _| {})),
        "Callback(..)"
    );
}
