//! Wake-ups: messages bounced between pairs of tasks, and tasks that do
//! nothing but yield.

use super::build::runtime;
use super::tk;
use bench_harness::mailbox::Mailbox;
use bench_harness::{timed, Size};

/// 20 pairs of tasks, each pair bouncing a counter back and forth 500
/// times through two mailboxes: every hop is a wake-up of a parked task.
pub fn ping_pong(size: &Size) -> f64 {
    let pairs = size.count(20);
    let rounds = size.count(500);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let driver = tk::spawn(async move {
                let mut tasks = Vec::with_capacity(2 * pairs);
                for _ in 0..pairs {
                    let (ping, pong) = (Mailbox::new(), Mailbox::new());
                    let (echo_in, echo_out) = (ping.clone(), pong.clone());
                    tasks.push(tk::spawn(async move {
                        for _ in 0..rounds {
                            let n: usize = echo_in.recv().await;
                            echo_out.send(n + 1);
                        }
                    }));
                    tasks.push(tk::spawn(async move {
                        let mut n = 0;
                        for _ in 0..rounds {
                            ping.send(n);
                            n = pong.recv().await;
                        }
                        assert_eq!(n, rounds);
                    }));
                }
                for task in tasks {
                    task.await.expect("ping-pong task completes");
                }
            });
            driver.await.expect("driver completes");
        })
    })
}

/// 200 tasks that each yield 1k times.
pub fn yield_many(size: &Size) -> f64 {
    let tasks = size.count(200);
    let yields = size.count(1_000);
    let rt = runtime(size.flavor);
    timed(|| {
        rt.block_on(async move {
            let handles: Vec<_> = (0..tasks)
                .map(|_| {
                    tk::spawn(async move {
                        for _ in 0..yields {
                            tk::task::yield_now().await;
                        }
                    })
                })
                .collect();
            for handle in handles {
                handle.await.expect("yielding task completes");
            }
        })
    })
}
