//! Synchronization primitives: the runtime's own channels, semaphore,
//! mutex and notify, each driven by tasks so that every wait is a parked
//! task and every release a wake-up. Both sides use `tk::sync`, so rt is
//! measured with rt's primitives and tokio with tokio's.

use std::sync::Arc;
use std::thread;

use super::build::runtime;
use super::tk;
use bench_harness::{timed, Size};

/// The bounded channels' capacity.
const CAPACITY: usize = 128;

/// Tasks that contend for the semaphore and the mutex.
const CONTENDERS: usize = 16;

/// Permits of the contended semaphore: fewer than the contenders, so most
/// of them wait at any moment.
const PERMITS: usize = 4;

/// Receivers of the watch and broadcast workloads.
const RECEIVERS: usize = 16;

/// One producer task sends 10k messages through a bounded channel of 128
/// to a consumer task.
pub fn mpsc_bounded_1_producer(size: &Size) -> f64 {
    bounded_fan_in(size, 1)
}

/// Eight producer tasks each send 10k messages through one bounded channel
/// of 128 to a single consumer task.
pub fn mpsc_bounded_8_producers(size: &Size) -> f64 {
    bounded_fan_in(size, 8)
}

fn bounded_fan_in(size: &Size, producers: usize) -> f64 {
    let messages = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let (tx, mut rx) = tk::sync::mpsc::channel::<usize>(CAPACITY);
            for _ in 0..producers {
                let tx = tx.clone();
                tk::spawn(async move {
                    for i in 0..messages {
                        tx.send(i).await.expect("the consumer is alive");
                    }
                });
            }
            drop(tx);
            let consumer = tk::spawn(async move {
                let mut received = 0;
                while rx.recv().await.is_some() {
                    received += 1;
                }
                received
            });
            let received = consumer.await.expect("consumer completes");
            assert_eq!(received, producers * messages);
        })
    })
}

/// Eight producer tasks each send 10k messages through one unbounded
/// channel to a single consumer task.
pub fn mpsc_unbounded_8_producers(size: &Size) -> f64 {
    let producers = 8;
    let messages = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let (tx, mut rx) = tk::sync::mpsc::unbounded_channel::<usize>();
            for _ in 0..producers {
                let tx = tx.clone();
                tk::spawn(async move {
                    for i in 0..messages {
                        tx.send(i).expect("the consumer is alive");
                    }
                });
            }
            drop(tx);
            let consumer = tk::spawn(async move {
                let mut received = 0;
                while rx.recv().await.is_some() {
                    received += 1;
                }
                received
            });
            let received = consumer.await.expect("consumer completes");
            assert_eq!(received, producers * messages);
        })
    })
}

/// 100k messages from one OS thread to another through a bounded channel
/// of 128 with `blocking_send` / `blocking_recv`: no runtime is involved,
/// only the channel and the way it parks a thread. The flavor is ignored.
pub fn mpsc_blocking_threads(size: &Size) -> f64 {
    let messages = size.count(100_000);
    timed(|| {
        let (tx, mut rx) = tk::sync::mpsc::channel::<usize>(CAPACITY);
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

/// 10k rounds of creating a oneshot channel, sending a value and receiving
/// it, all in one task.
pub fn oneshot_create_send_recv(size: &Size) -> f64 {
    let rounds = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let driver = tk::spawn(async move {
                let mut sum = 0;
                for i in 0..rounds {
                    let (tx, rx) = tk::sync::oneshot::channel::<usize>();
                    tx.send(i).expect("the receiver is alive");
                    sum += rx.await.expect("the value was sent");
                }
                std::hint::black_box(sum)
            });
            driver.await.expect("driver completes");
        })
    })
}

/// 16 tasks each acquire one of 4 permits 1k times. A task holds its permit
/// across a `yield_now`, so that the others find the semaphore empty and
/// queue: every release hands a permit to a parked waiter.
pub fn semaphore_contended(size: &Size) -> f64 {
    let rounds = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let semaphore = Arc::new(tk::sync::Semaphore::new(PERMITS));
            let tasks: Vec<_> = (0..CONTENDERS)
                .map(|_| {
                    let semaphore = semaphore.clone();
                    tk::spawn(async move {
                        for _ in 0..rounds {
                            let permit = semaphore.acquire().await.expect("never closed");
                            tk::task::yield_now().await;
                            drop(permit);
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.expect("contending task completes");
            }
            assert_eq!(semaphore.available_permits(), PERMITS);
        })
    })
}

/// 16 tasks each lock one mutex 1k times and increment the counter inside.
/// The guard is held across a `yield_now`, so that the others queue on the
/// lock and every unlock wakes the next one.
pub fn mutex_contended(size: &Size) -> f64 {
    let rounds = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let counter = Arc::new(tk::sync::Mutex::new(0usize));
            let tasks: Vec<_> = (0..CONTENDERS)
                .map(|_| {
                    let counter = counter.clone();
                    tk::spawn(async move {
                        for _ in 0..rounds {
                            let mut guard = counter.lock().await;
                            *guard += 1;
                            tk::task::yield_now().await;
                            drop(guard);
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.expect("contending task completes");
            }
            assert_eq!(*counter.lock().await, CONTENDERS * rounds);
        })
    })
}

/// Two tasks wake each other 10k times through a pair of `Notify`s.
pub fn notify_ping_pong(size: &Size) -> f64 {
    let rounds = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let ping = Arc::new(tk::sync::Notify::new());
            let pong = Arc::new(tk::sync::Notify::new());
            let (ping_in, pong_out) = (ping.clone(), pong.clone());
            let echo = tk::spawn(async move {
                for _ in 0..rounds {
                    ping_in.notified().await;
                    pong_out.notify_one();
                }
            });
            let serve = tk::spawn(async move {
                for _ in 0..rounds {
                    ping.notify_one();
                    pong.notified().await;
                }
            });
            serve.await.expect("serving task completes");
            echo.await.expect("echoing task completes");
        })
    })
}

/// One sender publishes 1k values on a watch channel, yielding after each
/// so that its 16 receiver tasks run in between; each receiver follows the
/// value until it sees the last one. Receivers may skip values (a watch
/// keeps only the newest), so this measures publish and wake-up cost, not
/// delivery of every value.
pub fn watch_16_receivers(size: &Size) -> f64 {
    let values = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let (tx, rx) = tk::sync::watch::channel(0usize);
            let receivers: Vec<_> = (0..RECEIVERS)
                .map(|_| {
                    let mut rx = rx.clone();
                    tk::spawn(async move {
                        let mut wake_ups = 0usize;
                        while rx.changed().await.is_ok() {
                            wake_ups += 1;
                            if *rx.borrow_and_update() == values {
                                break;
                            }
                        }
                        wake_ups
                    })
                })
                .collect();
            drop(rx);
            let sender = tk::spawn(async move {
                for value in 1..=values {
                    tx.send(value).expect("receivers are alive");
                    tk::task::yield_now().await;
                }
            });
            sender.await.expect("sender completes");
            for receiver in receivers {
                let wake_ups = receiver.await.expect("receiver completes");
                assert!(wake_ups <= values);
            }
        })
    })
}

/// One sender broadcasts 1k messages to 16 receiver tasks, each of which
/// receives every one. The capacity holds all messages, so no receiver
/// lags however the tasks are scheduled.
pub fn broadcast_16_receivers(size: &Size) -> f64 {
    let messages = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let (tx, _) = tk::sync::broadcast::channel::<usize>(messages);
            let receivers: Vec<_> = (0..RECEIVERS)
                .map(|_| {
                    let mut rx = tx.subscribe();
                    tk::spawn(async move {
                        let mut received = 0;
                        while rx.recv().await.is_ok() {
                            received += 1;
                        }
                        received
                    })
                })
                .collect();
            let sender = tk::spawn(async move {
                for i in 0..messages {
                    tx.send(i).expect("receivers are alive");
                }
            });
            sender.await.expect("sender completes");
            for receiver in receivers {
                let received = receiver.await.expect("receiver completes");
                assert_eq!(received, messages);
            }
        })
    })
}

/// Five producer tasks each send 1k messages through a channel of 100 to
/// one consumer: the tokio benchmark's contended shape with a small buffer.
pub fn mpsc_5x1k_capacity_100(size: &Size) -> f64 {
    fan_in_with_capacity(size, 100)
}

/// As `mpsc_5x1k_capacity_100`, with a buffer that never fills (1M).
pub fn mpsc_5x1k_capacity_1m(size: &Size) -> f64 {
    fan_in_with_capacity(size, 1_000_000)
}

fn fan_in_with_capacity(size: &Size, capacity: usize) -> f64 {
    let messages = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let (tx, mut rx) = tk::sync::mpsc::channel::<usize>(capacity);
            for _ in 0..5 {
                let tx = tx.clone();
                tk::spawn(async move {
                    for i in 0..messages {
                        tx.send(i).await.expect("the consumer is alive");
                    }
                });
            }
            drop(tx);
            let mut received = 0;
            while rx.recv().await.is_some() {
                received += 1;
            }
            assert_eq!(received, 5 * messages);
        })
    })
}

/// One task sends 10k messages into a channel and receives each back at
/// once: the channel's cost with nobody waiting.
pub fn mpsc_uncontended(size: &Size) -> f64 {
    let messages = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let (tx, mut rx) = tk::sync::mpsc::channel::<usize>(CAPACITY);
            let mut sum = 0;
            for i in 0..messages {
                tx.send(i).await.expect("the receiver is alive");
                sum += rx.recv().await.expect("a message is queued");
            }
            std::hint::black_box(sum);
        })
    })
}

/// A server task answers 10k requests, each carrying a oneshot for the
/// reply: the request/response pattern of actor-style code.
pub fn oneshot_request_reply(size: &Size) -> f64 {
    let requests = size.count(10_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let (tx, mut rx) =
                tk::sync::mpsc::channel::<(usize, tk::sync::oneshot::Sender<usize>)>(CAPACITY);
            let server = tk::spawn(async move {
                while let Some((n, reply)) = rx.recv().await {
                    let _ = reply.send(n + 1);
                }
            });
            let mut sum = 0;
            for i in 0..requests {
                let (reply_tx, reply_rx) = tk::sync::oneshot::channel();
                tx.send((i, reply_tx)).await.expect("the server is alive");
                sum += reply_rx.await.expect("the server replies");
            }
            drop(tx);
            server.await.expect("server completes");
            std::hint::black_box(sum);
        })
    })
}

/// One task acquires and releases a permit 100k times with nobody else
/// around.
pub fn semaphore_uncontended(size: &Size) -> f64 {
    let rounds = size.count(100_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let semaphore = tk::sync::Semaphore::new(PERMITS);
            for _ in 0..rounds {
                drop(semaphore.acquire().await.expect("never closed"));
            }
        })
    })
}

/// 12 reader and 4 writer tasks each take the lock 1k times, holding it
/// across a `yield_now`, so readers share while writers queue.
pub fn rwlock_contended(size: &Size) -> f64 {
    let rounds = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let value = Arc::new(tk::sync::RwLock::new(0usize));
            let tasks: Vec<_> = (0..CONTENDERS)
                .map(|i| {
                    let value = value.clone();
                    tk::spawn(async move {
                        for _ in 0..rounds {
                            if i % 4 == 0 {
                                let mut guard = value.write().await;
                                *guard += 1;
                                tk::task::yield_now().await;
                                drop(guard);
                            } else {
                                let guard = value.read().await;
                                std::hint::black_box(*guard);
                                tk::task::yield_now().await;
                                drop(guard);
                            }
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.expect("contending task completes");
            }
            assert_eq!(*value.read().await, CONTENDERS / 4 * rounds);
        })
    })
}
