//! A bounded channel between two OS threads, three ways: rt's mpsc and
//! tokio's mpsc through `blocking_send` / `blocking_recv`, and
//! crossbeam-channel as the reference for a channel built for threads.
//!
//! Each sample moves 100k `usize`s through a channel of capacity 128 from
//! a producer thread to the main thread; the samples of the three channels
//! alternate, and the medians are printed. The runtime suite's
//! `mpsc_blocking_threads` compares rt with tokio on the same transfer;
//! this target adds the third figure.
//!
//! ```text
//! cargo bench -p examples --bench channel_vs_crossbeam [-- --samples N | --smoke]
//! ```

use std::process::ExitCode;
use std::thread;

use bench_harness::timed;
use bench_harness::versus::{self, Contestant, Versus};

/// Capacity of every channel, as in the runtime suite.
const CAPACITY: usize = 128;

/// Messages per sample in a measured run.
const MESSAGES: usize = 100_000;

/// Messages per sample in a smoke run.
const SMOKE_MESSAGES: usize = 1_000;

/// The channels under comparison, in print order; the last is the
/// reference.
const CHANNELS: [Contestant; 3] = [
    ("rt mpsc (blocking)", rt_blocking),
    ("tokio mpsc (blocking)", tokio_blocking),
    ("crossbeam-channel", crossbeam_bounded),
];

fn rt_blocking(messages: usize) -> f64 {
    timed(|| {
        let (tx, mut rx) = rt::sync::mpsc::channel::<usize>(CAPACITY);
        let producer = thread::spawn(move || {
            for i in 0..messages {
                tx.blocking_send(i).expect("the consumer is alive");
            }
        });
        let mut received = 0;
        while rx.blocking_recv().is_some() {
            received += 1;
        }
        producer.join().expect("producer thread completes");
        assert_eq!(received, messages);
    })
}

fn tokio_blocking(messages: usize) -> f64 {
    timed(|| {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<usize>(CAPACITY);
        let producer = thread::spawn(move || {
            for i in 0..messages {
                tx.blocking_send(i).expect("the consumer is alive");
            }
        });
        let mut received = 0;
        while rx.blocking_recv().is_some() {
            received += 1;
        }
        producer.join().expect("producer thread completes");
        assert_eq!(received, messages);
    })
}

fn crossbeam_bounded(messages: usize) -> f64 {
    timed(|| {
        let (tx, rx) = crossbeam_channel::bounded::<usize>(CAPACITY);
        let producer = thread::spawn(move || {
            for i in 0..messages {
                tx.send(i).expect("the consumer is alive");
            }
        });
        let mut received = 0;
        while rx.recv().is_ok() {
            received += 1;
        }
        producer.join().expect("producer thread completes");
        assert_eq!(received, messages);
    })
}

fn main() -> ExitCode {
    versus::main(&Versus {
        name: "channel_vs_crossbeam",
        title: format!("{MESSAGES} messages between two threads, capacity {CAPACITY}"),
        contestants: &CHANNELS,
        size: MESSAGES,
        smoke_size: SMOKE_MESSAGES,
        per: "message",
    })
}
