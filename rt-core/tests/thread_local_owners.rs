//! A runtime or a `LocalSet` kept in a thread-local is dropped by the
//! thread's destructors, after rt's own thread-local context may be gone:
//! that must shut down quietly, not abort the process.

use rt_core::runtime::{Builder, Runtime};
use rt_core::task::LocalSet;
use std::cell::RefCell;
use std::sync::mpsc;

#[test]
fn a_runtime_in_a_thread_local_shuts_down_with_the_thread() {
    thread_local! {
        static RUNTIME: RefCell<Option<Runtime>> = const { RefCell::new(None) };
    }
    std::thread::spawn(|| {
        RUNTIME.with(|cell| {
            let rt = Builder::new_current_thread().build().unwrap();
            drop(rt.spawn(std::future::pending::<()>()));
            *cell.borrow_mut() = Some(rt);
        });
        // A second runtime, dropped normally, before the thread-local one.
        let _other = Builder::new_current_thread().build().unwrap();
    })
    .join()
    .unwrap();
}

#[test]
fn a_local_set_in_a_thread_local_is_dropped_with_the_thread() {
    thread_local! {
        static LOCAL_SET: LocalSet = LocalSet::new();
    }
    let rt = Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap();
    let handle = rt.handle().clone();
    let (started_tx, started_rx) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        LOCAL_SET.with(|local| {
            local.spawn_local(std::future::pending::<()>());
            handle.block_on(local.run_until(async move {
                started_tx.send(()).unwrap();
            }));
        });
    });
    started_rx.recv().unwrap();
    thread.join().unwrap();
}
