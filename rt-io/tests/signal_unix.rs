//! `rt_io::signal`: delivery, coalescing, several listeners, several
//! runtimes, dropped listeners, deliveries between listeners, cancelled
//! `recv`, `SIGCHLD`, `ctrl_c` and refused signal numbers.
//!
//! All tests share one process, so each test owns a different signal.
//! Signals are sent either with the `kill` command (delivered to the process
//! at some point; the test waits for it) or with `raise`, which runs the
//! handler on the calling thread before it returns, so that the test knows
//! exactly which deliveries happened before its next poll.
// Unix only: Unix signals.
#![cfg(unix)]
// Signals: Miri does not emulate signal handlers or their delivery.
#![cfg(not(miri))]
#![cfg(all(feature = "signal", feature = "net"))]

use rt_io::signal::unix::{listener_count, signal, Signal, SignalKind};
use std::future::{poll_fn, Future};
use std::os::raw::c_int;
use std::sync::{Arc, Barrier};
use std::task::Poll;

/// Sends `kind` to this process with the `kill` command.
fn kill_self(name: &str) {
    let status = std::process::Command::new("kill")
        .args([&format!("-{name}"), &std::process::id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Polls `signal.recv()` once; true if it was still pending.
async fn recv_is_pending(signal: &mut Signal) -> bool {
    poll_fn(|cx| {
        let mut recv = std::pin::pin!(signal.recv());
        Poll::Ready(recv.as_mut().poll(cx).is_pending())
    })
    .await
}

#[test]
fn deliveries_before_recv_count_once() {
    let kind = SignalKind::user_defined2();
    let mut usr2 = signal(kind).unwrap();
    rt_test::io_runtime().block_on(async {
        assert!(recv_is_pending(&mut usr2).await);
        rt_test::raise_now(kind);
        rt_test::raise_now(kind);
        rt_test::raise_now(kind);
        assert_eq!(usr2.recv().await, Some(()));
        assert!(recv_is_pending(&mut usr2).await);
        rt_test::raise_now(kind);
        assert_eq!(usr2.recv().await, Some(()));
        assert!(recv_is_pending(&mut usr2).await);
    });
}

#[test]
fn a_delivery_wakes_a_waiting_task() {
    let mut usr1 = signal(SignalKind::user_defined1()).unwrap();
    rt_test::io_runtime().block_on(async {
        kill_self("USR1");
        assert_eq!(usr1.recv().await, Some(()));
    });
}

#[test]
fn each_delivery_from_another_thread_wakes_the_waiting_task() {
    const ROUNDS: usize = 200;
    let kind = SignalKind::quit();
    let mut quit = signal(kind).unwrap();
    let (ack_tx, ack_rx) = std::sync::mpsc::channel::<()>();
    let sender = std::thread::spawn(move || {
        for _ in 0..ROUNDS {
            rt_test::raise_now(kind);
            // The next delivery only after the task reported this one, so
            // that each round needs its own wake-up.
            ack_rx.recv().unwrap();
        }
    });
    rt_test::io_runtime().block_on(async {
        for _ in 0..ROUNDS {
            assert_eq!(quit.recv().await, Some(()));
            ack_tx.send(()).unwrap();
        }
    });
    sender.join().unwrap();
}

#[test]
fn every_listener_of_a_signal_is_notified() {
    let kind = SignalKind::hangup();
    let mut first = signal(kind).unwrap();
    let mut second = signal(kind).unwrap();
    let mut third = signal(kind).unwrap();
    rt_test::io_runtime().block_on(async {
        kill_self("HUP");
        assert_eq!(first.recv().await, Some(()));
        assert_eq!(second.recv().await, Some(()));
        assert_eq!(third.recv().await, Some(()));
    });
}

#[test]
fn listeners_in_two_runtimes_are_both_notified() {
    let ready = Arc::new(Barrier::new(3));
    let waiters: Vec<_> = (0..2)
        .map(|_| {
            let ready = ready.clone();
            std::thread::spawn(move || {
                let rt = rt_test::io_runtime();
                let mut winch = signal(SignalKind::window_change()).unwrap();
                ready.wait();
                rt.block_on(winch.recv())
            })
        })
        .collect();
    ready.wait();
    kill_self("WINCH");
    for waiter in waiters {
        assert_eq!(waiter.join().unwrap(), Some(()));
    }
}

#[test]
fn dropping_a_signal_with_an_unreported_delivery() {
    let kind = SignalKind::alarm();
    let dropped = signal(kind).unwrap();
    let mut kept = signal(kind).unwrap();
    assert_eq!(listener_count(kind), 2);
    rt_test::raise_now(kind);
    drop(dropped);
    assert_eq!(listener_count(kind), 1);
    rt_test::io_runtime().block_on(async {
        assert_eq!(kept.recv().await, Some(()));
        // A new listener does not see deliveries made before it existed.
        let mut late = signal(kind).unwrap();
        assert!(recv_is_pending(&mut late).await);
        rt_test::raise_now(kind);
        assert_eq!(late.recv().await, Some(()));
        assert_eq!(kept.recv().await, Some(()));
    });
    drop(kept);
    assert_eq!(listener_count(kind), 0);
}

#[test]
fn a_delivery_while_no_signal_exists_reaches_the_next_one() {
    let kind = SignalKind::from_raw(41);
    let first = signal(kind).unwrap();
    // Made while `first` exists and never reported: dropped with it.
    rt_test::raise_now(kind);
    drop(first);
    assert_eq!(listener_count(kind), 0);
    rt_test::io_runtime().block_on(async {
        // Nobody listens: the handler stays, and the delivery waits.
        rt_test::raise_now(kind);
        rt_test::raise_now(kind);
        let mut next = signal(kind).unwrap();
        assert_eq!(next.recv().await, Some(()));
        // Both deliveries count once, as for a listener that was there.
        assert!(recv_is_pending(&mut next).await);
        // With `next` alive, a newcomer starts from now.
        let mut late = signal(kind).unwrap();
        assert!(recv_is_pending(&mut late).await);
    });
}

#[test]
fn a_cancelled_recv_loses_no_delivery() {
    let kind = SignalKind::terminate();
    let mut term = signal(kind).unwrap();
    rt_test::io_runtime().block_on(async {
        // This recv registers its waker and is then dropped.
        assert!(recv_is_pending(&mut term).await);
        rt_test::raise_now(kind);
        assert_eq!(term.recv().await, Some(()));
    });
}

#[test]
fn a_child_exit_delivers_sigchld() {
    let mut child = signal(SignalKind::child()).unwrap();
    let status = std::process::Command::new("true").status().unwrap();
    assert!(status.success());
    rt_test::io_runtime().block_on(async {
        assert_eq!(child.recv().await, Some(()));
    });
}

#[test]
fn ctrl_c_completes_on_sigint() {
    rt_test::io_runtime().block_on(async {
        let mut interrupted = std::pin::pin!(rt_io::signal::ctrl_c());
        poll_fn(|cx| {
            assert!(interrupted.as_mut().poll(cx).is_pending());
            Poll::Ready(())
        })
        .await;
        rt_test::raise_now(SignalKind::interrupt());
        interrupted.await.unwrap();
    });
}

#[test]
fn forbidden_and_out_of_range_numbers_are_refused() {
    // SIGKILL, SIGILL, SIGFPE, SIGSEGV have the same numbers everywhere.
    for signum in [9, 4, 8, 11, -1] {
        let err = signal(SignalKind::from_raw(signum)).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("Refusing to register signal {signum}")
        );
    }
    #[cfg(target_os = "linux")]
    {
        let err = signal(SignalKind::from_raw(19)).unwrap_err();
        assert_eq!(err.to_string(), "Refusing to register signal 19");
    }
    let err = signal(SignalKind::from_raw(1000)).unwrap_err();
    assert_eq!(err.to_string(), "signal too large");
    // Signal 0 is no signal: sigaction refuses it, and nothing stays listed.
    assert!(signal(SignalKind::from_raw(0)).is_err());
    assert_eq!(listener_count(SignalKind::from_raw(0)), 0);
}

#[cfg(target_os = "linux")]
#[test]
fn a_real_time_signal_by_raw_number() {
    // SIGRTMIN + 6 with glibc's and musl's reserved real-time signals.
    let kind = SignalKind::from_raw(40);
    let mut realtime = signal(kind).unwrap();
    rt_test::raise_now(kind);
    rt_test::io_runtime().block_on(async {
        assert_eq!(realtime.recv().await, Some(()));
    });
}

#[test]
fn kinds_round_trip_through_raw_numbers() {
    let kinds = [
        SignalKind::alarm(),
        SignalKind::child(),
        SignalKind::hangup(),
        SignalKind::interrupt(),
        SignalKind::pipe(),
        SignalKind::quit(),
        SignalKind::terminate(),
        SignalKind::user_defined1(),
        SignalKind::user_defined2(),
        SignalKind::window_change(),
    ];
    for (i, kind) in kinds.iter().enumerate() {
        assert_eq!(SignalKind::from(c_int::from(*kind)), *kind);
        for other in &kinds[i + 1..] {
            assert_ne!(kind, other);
        }
    }
    assert_eq!(SignalKind::interrupt().as_raw_value(), 2);
    assert_eq!(SignalKind::terminate().as_raw_value(), 15);
}
