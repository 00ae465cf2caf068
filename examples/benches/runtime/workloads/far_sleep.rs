//! A task parked in a far `sleep`, shared by the memory workloads of the
//! runtime suite and by the `rss_sleepers` bench.

use std::future::{poll_fn, Future};
use std::task::Poll;
use std::time::Duration;

use super::tk;

/// Sleeps for `far`, calling `registered` once the sleep has been polled
/// (so the timer holds its entry) and before waiting on it.
pub async fn sleep_after_registering(far: Duration, registered: impl FnOnce()) {
    let sleep = tk::time::sleep(far);
    tk::pin!(sleep);
    poll_fn(|cx| {
        let _ = sleep.as_mut().poll(cx);
        Poll::Ready(())
    })
    .await;
    registered();
    sleep.await;
}
