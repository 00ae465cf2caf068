//! Driving one future to completion on the calling thread.
//!
//! The `blocking_*` methods (`Mutex::blocking_lock`, `mpsc::Sender::blocking_send`,
//! ...) let synchronous code use the primitives. They park the calling
//! thread until the future's waker unparks it; no thread is ever started.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

struct ThreadWaker(Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` on this thread, parking between polls, until it is ready.
///
/// # Panics
///
/// On a thread that drives an rt runtime (inside an asynchronous task),
/// where blocking would stall every task of that thread.
#[track_caller]
pub fn block_on<F: Future>(future: F) -> F::Output {
    rt_core::runtime::assert_can_block();
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        // A wake that arrived before `park` leaves a token, so this cannot
        // miss it; a spurious return just polls once more.
        thread::park();
    }
}
