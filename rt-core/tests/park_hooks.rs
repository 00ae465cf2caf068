//! What `on_thread_park` may do: a task it spawns (or wakes) runs before
//! the current-thread runtime blocks, instead of being lost.

use rt_core::runtime::Builder;
use std::future::poll_fn;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Poll, Waker};

#[test]
fn a_task_spawned_by_the_park_hook_runs_before_the_thread_blocks() {
    let done = Arc::new(AtomicBool::new(false));
    let waiter: Arc<Mutex<Option<Waker>>> = Arc::default();
    let spawned = Arc::new(AtomicBool::new(false));
    let rt = {
        let (done, waiter, spawned) = (done.clone(), waiter.clone(), spawned.clone());
        Builder::new_current_thread()
            .on_thread_park(move || {
                if spawned.swap(true, Ordering::SeqCst) {
                    return;
                }
                let (done, waiter) = (done.clone(), waiter.clone());
                drop(rt_core::spawn(async move {
                    done.store(true, Ordering::SeqCst);
                    if let Some(waker) = waiter.lock().unwrap().take() {
                        waker.wake();
                    }
                }));
            })
            .build()
            .unwrap()
    };
    rt.block_on(poll_fn(|cx| {
        *waiter.lock().unwrap() = Some(cx.waker().clone());
        if done.load(Ordering::SeqCst) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }));
    assert!(spawned.load(Ordering::SeqCst));
    // The waker kept in `waiter` holds the runtime, whose hook holds
    // `waiter`: take it out, or the cycle leaks both.
    waiter.lock().unwrap().take();
}
