//! `Sender::send_timeout` on a runtime whose clock is paused, so every
//! deadline is hit exactly and the tests never wait for real time.

#![cfg(feature = "time")]

use rt_core::runtime::{Builder, Runtime};
use rt_sync::mpsc::{self, error::SendTimeoutError};
use rt_time::{sleep, Duration, Instant};

fn paused_rt() -> Runtime {
    Builder::new_current_thread()
        .driver_layer(rt_time::driver_layer(true))
        .build()
        .unwrap()
}

#[test]
fn a_free_slot_sends_at_once() {
    paused_rt().block_on(async {
        let (tx, mut rx) = mpsc::channel(1);
        let start = Instant::now();
        tx.send_timeout(7, Duration::from_secs(1)).await.unwrap();
        assert_eq!(start.elapsed(), Duration::ZERO);
        assert_eq!(rx.recv().await, Some(7));
    });
}

#[test]
fn a_full_channel_times_out_after_exactly_the_duration() {
    paused_rt().block_on(async {
        let (tx, mut rx) = mpsc::channel(1);
        tx.send(1).await.unwrap();
        let start = Instant::now();
        let err = tx
            .send_timeout(2, Duration::from_millis(250))
            .await
            .unwrap_err();
        assert_eq!(start.elapsed(), Duration::from_millis(250));
        assert_eq!(err, SendTimeoutError::Timeout(2));
        assert_eq!(err.into_inner(), 2);
        // The abandoned wait left the capacity as it was.
        assert_eq!(tx.capacity(), 0);
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(tx.capacity(), 1);
    });
}

#[test]
fn a_slot_freed_before_the_deadline_lets_the_send_complete() {
    paused_rt().block_on(async {
        let (tx, mut rx) = mpsc::channel(1);
        tx.send(1).await.unwrap();
        let (freed_tx, freed_rx) = rt_sync::oneshot::channel();
        let receiver = rt_core::spawn(async move {
            sleep(Duration::from_millis(40)).await;
            let first = rx.recv().await;
            freed_tx.send(()).unwrap();
            (first, rx)
        });
        let start = Instant::now();
        tx.send_timeout(2, Duration::from_millis(100))
            .await
            .unwrap();
        assert_eq!(start.elapsed(), Duration::from_millis(40));
        freed_rx.await.unwrap();
        let (first, mut rx) = receiver.await.unwrap();
        assert_eq!(first, Some(1));
        assert_eq!(rx.recv().await, Some(2));
    });
}

#[test]
fn a_closed_channel_gives_closed() {
    paused_rt().block_on(async {
        let (tx, rx) = mpsc::channel::<u32>(1);
        drop(rx);
        let start = Instant::now();
        let err = tx
            .send_timeout(3, Duration::from_secs(5))
            .await
            .unwrap_err();
        assert_eq!(err, SendTimeoutError::Closed(3));
        assert_eq!(start.elapsed(), Duration::ZERO);
    });
}

#[test]
fn closing_while_waiting_gives_closed_before_the_deadline() {
    paused_rt().block_on(async {
        let (tx, mut rx) = mpsc::channel(1);
        tx.send(1).await.unwrap();
        let closer = rt_core::spawn(async move {
            sleep(Duration::from_millis(10)).await;
            rx.close();
            rx
        });
        let start = Instant::now();
        let err = tx
            .send_timeout(2, Duration::from_secs(1))
            .await
            .unwrap_err();
        assert_eq!(err, SendTimeoutError::Closed(2));
        assert_eq!(start.elapsed(), Duration::from_millis(10));
        // The message accepted before the close is still delivered.
        let mut rx = closer.await.unwrap();
        assert_eq!(rx.recv().await, Some(1));
        assert_eq!(rx.recv().await, None);
    });
}

#[test]
fn error_texts_match_tokio() {
    let timeout = SendTimeoutError::Timeout(1u8);
    let closed = SendTimeoutError::Closed(1u8);
    assert_eq!(timeout.to_string(), "timed out waiting on send operation");
    assert_eq!(closed.to_string(), "channel closed");
    assert_eq!(format!("{timeout:?}"), "Timeout(..)");
    assert_eq!(format!("{closed:?}"), "Closed(..)");
    let boxed: Box<dyn std::error::Error> = Box::new(closed);
    assert_eq!(boxed.to_string(), "channel closed");
}
