//! Sleeps used from many threads at once: eight threads create, poll,
//! reset and drop sleeps against one runtime's time driver while the
//! runtime thread keeps firing timers.

use rt_time::{sleep, Duration, Instant, Sleep};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::task::{Context, Wake, Waker};

/// Unparks the worker thread that owns the sleeps.
struct UnparkWake(std::thread::Thread);

impl Wake for UnparkWake {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

#[test]
fn sleep_and_timeout_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Sleep>();
    assert_send_sync::<rt_time::Timeout<std::future::Ready<()>>>();
    assert_send_sync::<rt_time::Interval>();
}

#[test]
fn eight_threads_create_reset_and_drop_sleeps_while_timers_fire() {
    const THREADS: usize = 8;
    const ROUNDS: usize = 200;
    let rt = rt_test::time_runtime(false);
    let barrier = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let handle = rt.handle().clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let _guard = handle.enter();
                let waker = Waker::from(Arc::new(UnparkWake(std::thread::current())));
                let mut cx = Context::from_waker(&waker);
                barrier.wait();
                let mut kept = Vec::new();
                for round in 0..ROUNDS {
                    let mut s = Box::pin(sleep(Duration::from_millis((round % 5) as u64)));
                    let _ = s.as_mut().poll(&mut cx);
                    if round % 3 == 0 {
                        s.as_mut()
                            .reset(Instant::now() + Duration::from_millis(1 + t as u64));
                        let _ = s.as_mut().poll(&mut cx);
                    }
                    if round % 4 == 0 {
                        kept.push(s);
                    }
                }
                // The kept sleeps all fire eventually.
                for mut s in kept {
                    while s.as_mut().poll(&mut cx).is_pending() {
                        // The waker unparks us; a token left by an earlier
                        // wake only costs one more poll.
                        std::thread::park();
                    }
                }
            })
        })
        .collect();
    let done = Arc::new(AtomicUsize::new(0));
    rt.block_on(async {
        // Keep the driver turning until every worker finished.
        while done.load(Ordering::SeqCst) < THREADS {
            sleep(Duration::from_millis(1)).await;
            let finished = workers.iter().filter(|w| w.is_finished()).count();
            done.store(finished, Ordering::SeqCst);
        }
    });
    for worker in workers {
        worker.join().unwrap();
    }
}
