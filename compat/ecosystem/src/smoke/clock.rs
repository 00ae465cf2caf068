//! Timer checks on the paused clock, so that they are exact and cannot
//! flake: tokio-util's DelayQueue (insert, reset, remove), tokio-stream's
//! IntervalStream and its `timeout` adapter.

use std::time::Duration;

use tokio::time::Instant;
use tokio_stream::wrappers::IntervalStream;
use tokio_stream::StreamExt;
use tokio_util::time::DelayQueue;

use super::{ensure, Outcome};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Items come out in deadline order, at their deadline, after a reset and
/// a removal.
pub async fn delay_queue() -> Outcome {
    let start = Instant::now();
    let mut queue = DelayQueue::new();
    queue.insert("c", ms(30));
    queue.insert("a", ms(10));
    let b = queue.insert("b", ms(500));
    let gone = queue.insert("removed", ms(15));
    queue.reset(&b, ms(20));
    ensure!(
        queue.remove(&gone).into_inner() == "removed",
        "remove returned the wrong item"
    );
    let mut seen = Vec::new();
    while let Some(expired) = queue.next().await {
        seen.push((expired.into_inner(), start.elapsed()));
    }
    let expected = [("a", ms(10)), ("b", ms(20)), ("c", ms(30))];
    ensure!(
        seen.len() == expected.len(),
        "expired {seen:?}, expected {expected:?}"
    );
    for ((item, at), (want, due)) in seen.iter().zip(expected) {
        ensure!(
            *item == want && *at >= due && *at < due + ms(2),
            "expired {seen:?}, expected {expected:?}"
        );
    }
    Ok("3 items in deadline order, at their deadlines".to_string())
}

/// Ticks come at once, then one period apart.
pub async fn interval_stream() -> Outcome {
    let start = Instant::now();
    let ticks: Vec<Duration> = IntervalStream::new(tokio::time::interval(ms(100)))
        .take(4)
        .map(|tick| tick - start)
        .collect()
        .await;
    let expected = [ms(0), ms(100), ms(200), ms(300)];
    ensure!(
        ticks == expected,
        "ticks at {ticks:?}, expected {expected:?}"
    );
    Ok("4 ticks, 100 ms apart".to_string())
}

/// `timeout` passes items through and reports a stream that goes quiet.
pub async fn stream_timeout() -> Outcome {
    let start = Instant::now();
    let stream = tokio_stream::iter([1, 2])
        .chain(tokio_stream::pending())
        .timeout(ms(50));
    tokio::pin!(stream);
    let first = stream.next().await;
    let second = stream.next().await;
    let third = stream.next().await;
    ensure!(
        matches!(first, Some(Ok(1))) && matches!(second, Some(Ok(2))),
        "items came out as {first:?}, {second:?}"
    );
    ensure!(
        matches!(third, Some(Err(_))),
        "a quiet stream gave {third:?}, not a timeout"
    );
    let waited = start.elapsed();
    ensure!(
        waited == ms(50),
        "the timeout fired after {waited:?}, not 50 ms"
    );
    Ok("2 items, then a timeout after 50 ms".to_string())
}
