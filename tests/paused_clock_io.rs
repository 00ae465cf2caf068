//! A paused clock jumps to the next timer only when nothing can run: a
//! task (or the `block_on` future) that a socket woke during the driver's
//! poll runs first, at the instant the data arrived.

#![cfg(unix)]

use rt::net::UnixDatagram;
use rt::time::{sleep, Instant};
use std::time::Duration;

#[rt::test(start_paused = true)]
async fn a_datagram_wakes_the_block_on_future_before_time_moves() {
    let start = Instant::now();
    let (tx, rx) = UnixDatagram::pair().unwrap();
    let mut buf = [0u8; 1];
    let ((), received_at) = rt::join!(
        async {
            tx.send(b"x").await.unwrap();
            sleep(Duration::from_secs(5)).await;
        },
        async {
            rx.recv(&mut buf).await.unwrap();
            start.elapsed()
        },
    );
    assert_eq!(received_at, Duration::ZERO);
    assert_eq!(start.elapsed(), Duration::from_secs(5));
}

#[rt::test(start_paused = true)]
async fn a_datagram_wakes_a_spawned_task_before_time_moves() {
    let start = Instant::now();
    let (tx, rx) = UnixDatagram::pair().unwrap();
    tx.send(b"x").await.unwrap();
    let receiver = rt::spawn(async move {
        let mut buf = [0u8; 1];
        rx.recv(&mut buf).await.unwrap();
        start.elapsed()
    });
    sleep(Duration::from_secs(5)).await;
    assert_eq!(receiver.await.unwrap(), Duration::ZERO);
    assert_eq!(start.elapsed(), Duration::from_secs(5));
}
