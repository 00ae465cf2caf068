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

use examples::bench::{median, timed, Unit};

/// Capacity of every channel, as in the runtime suite.
const CAPACITY: usize = 128;

/// Messages per sample in a measured run.
const MESSAGES: usize = 100_000;

/// Messages per sample in a smoke run.
const SMOKE_MESSAGES: usize = 1_000;

/// Samples per channel when `--samples` is not given.
const DEFAULT_SAMPLES: usize = 20;

/// Most samples accepted.
const MAX_SAMPLES: usize = 10_000;

const USAGE: &str = "\
usage: channel_vs_crossbeam [--smoke] [--samples N]
  --smoke      one tiny transfer per channel; no timings
  --samples N  samples per channel (default 20, 1..=10000)";

/// One transfer of `messages` values through one kind of channel; returns
/// nanoseconds.
type Transfer = fn(usize) -> f64;

/// The channels under comparison, in print order.
const CHANNELS: [(&str, Transfer); 3] = [
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

/// `(smoke, samples)` from the arguments; `cargo bench` adds `--bench`.
fn parse(args: impl IntoIterator<Item = String>) -> Result<(bool, usize), String> {
    let (mut smoke, mut samples) = (false, DEFAULT_SAMPLES);
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => {}
            "--smoke" => smoke = true,
            "--samples" => {
                let value = args.next().ok_or("--samples needs a value")?;
                samples = match value.parse::<usize>() {
                    Ok(n) if (1..=MAX_SAMPLES).contains(&n) => n,
                    _ => {
                        return Err(format!(
                            "--samples takes a whole number from 1 to {MAX_SAMPLES}, not {value:?}"
                        ))
                    }
                };
            }
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    Ok((smoke, samples))
}

fn main() -> ExitCode {
    let (smoke, samples) = match parse(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("error: {err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if smoke {
        for (_, transfer) in CHANNELS {
            transfer(SMOKE_MESSAGES);
        }
        println!(
            "channel_vs_crossbeam: smoke run of {} channels passed",
            CHANNELS.len()
        );
        return ExitCode::SUCCESS;
    }
    // One unrecorded run each: thread creation and page faults warm up.
    for (_, transfer) in CHANNELS {
        transfer(MESSAGES);
    }
    let mut results: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); CHANNELS.len()];
    for round in 0..samples {
        // Rotate which channel goes first, so none always follows the same one.
        for k in 0..CHANNELS.len() {
            let index = (round + k) % CHANNELS.len();
            results[index].push((CHANNELS[index].1)(MESSAGES));
        }
    }
    println!("{MESSAGES} messages between two threads, capacity {CAPACITY}, {samples} samples:");
    let reference = median(&results[2]);
    for ((name, _), samples) in CHANNELS.iter().zip(&results) {
        let Some(value) = median(samples) else {
            continue;
        };
        let per_message = value / MESSAGES as f64;
        let versus = reference.map_or(String::new(), |r| format!("  x{:.2} crossbeam", value / r));
        println!(
            "  {name:<22} {:>10}  ({per_message:.0} ns/message){versus}",
            Unit::Nanos.format(value)
        );
    }
    ExitCode::SUCCESS
}
