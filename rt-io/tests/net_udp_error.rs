//! Error readiness on UDP: an ICMP port-unreachable answering a datagram
//! of a connected socket reaches the reactor as an error event with no
//! readable data. Waits for reading must end on it, so that the next
//! receive returns the error instead of waiting forever.
//!
//! Everything runs on loopback, where the kernel answers a datagram to a
//! closed port at once. Each wait runs under a timeout of the runtime's
//! timer: a regression fails the test instead of hanging it.
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
#![cfg(all(feature = "net", any(target_os = "linux", target_os = "android")))]

use rt_io::net::UdpSocket;
use rt_io::Interest;
use rt_test::{bounded, io_time_runtime, io_time_runtime_multi_thread};
use std::io;
use std::net::SocketAddr;
use std::task::Poll;

/// A loopback address nothing listens on: a socket's port, freed again.
fn closed_port() -> SocketAddr {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("bind on loopback");
    socket.local_addr().expect("local address")
}

/// A socket connected to a closed port that has sent it one datagram, so
/// that the kernel holds a "connection refused" for it.
async fn refused_socket() -> UdpSocket {
    let socket = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
    socket.connect(closed_port()).await.expect("connect");
    socket
        .send(b"anyone?")
        .await
        .expect("the send itself succeeds");
    socket
}

fn assert_refused(result: io::Result<usize>) {
    match result {
        Err(e) => assert_eq!(e.kind(), io::ErrorKind::ConnectionRefused, "{e}"),
        Ok(n) => panic!("received {n} bytes from a closed port"),
    }
}

async fn recv_returns_connection_refused() {
    let socket = refused_socket().await;
    let mut buf = [0u8; 16];
    assert_refused(bounded("recv", socket.recv(&mut buf)).await);
}

#[test]
fn recv_returns_connection_refused_io_time_runtime() {
    io_time_runtime().block_on(recv_returns_connection_refused());
}

#[test]
fn recv_returns_connection_refused_io_time_runtime_multi_thread() {
    io_time_runtime_multi_thread().block_on(recv_returns_connection_refused());
}

#[test]
fn recv_in_a_spawned_task_returns_connection_refused() {
    for rt in [io_time_runtime(), io_time_runtime_multi_thread()] {
        rt.block_on(async {
            let socket = refused_socket().await;
            let receiver = rt_core::spawn(async move {
                let mut buf = [0u8; 16];
                socket.recv(&mut buf).await
            });
            assert_refused(bounded("spawned recv", receiver).await.unwrap());
        });
    }
}

#[test]
fn readable_waiter_is_woken_by_the_error() {
    for rt in [io_time_runtime(), io_time_runtime_multi_thread()] {
        rt.block_on(async {
            let socket = refused_socket().await;
            bounded("readable", socket.readable())
                .await
                .expect("readable");
            let mut buf = [0u8; 16];
            assert_refused(socket.try_recv(&mut buf));
        });
    }
}

#[test]
fn ready_reports_the_error_to_a_read_wait() {
    io_time_runtime().block_on(async {
        let socket = refused_socket().await;
        let ready = bounded("ready", socket.ready(Interest::READABLE))
            .await
            .expect("ready");
        assert!(ready.is_error(), "{ready:?}");
        // A read would not block (it returns the error), so code that
        // tests `is_readable` before reading goes on to read.
        assert!(ready.is_readable(), "{ready:?}");
        let ready = bounded("ready", socket.ready(Interest::ERROR))
            .await
            .expect("ready");
        assert!(ready.is_error(), "{ready:?}");
        let mut buf = [0u8; 16];
        assert_refused(socket.try_recv(&mut buf));
    });
}

#[test]
fn the_error_does_not_mark_the_socket_write_closed() {
    io_time_runtime().block_on(async {
        let socket = refused_socket().await;
        let mut buf = [0u8; 16];
        assert_refused(bounded("recv", socket.recv(&mut buf)).await);
        let ready = bounded("ready", socket.ready(Interest::WRITABLE))
            .await
            .expect("ready");
        assert!(ready.is_writable() && !ready.is_write_closed(), "{ready:?}");
    });
}

#[test]
fn a_consumed_error_leaves_reads_waiting() {
    io_time_runtime().block_on(async {
        let socket = refused_socket().await;
        let mut buf = [0u8; 16];
        assert_refused(bounded("recv", socket.recv(&mut buf)).await);
        // The kernel reported the error once; the next attempt would block
        // and clears the error readiness it was handed.
        let err = socket.try_recv(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        // So a wait for reading blocks instead of returning at once (a
        // receive loop would otherwise spin on the stale error).
        let mut readable = Box::pin(socket.readable());
        assert!(matches!(
            rt_test::poll_once(readable.as_mut()),
            Poll::Pending
        ));
        let mut ready = Box::pin(socket.ready(Interest::READABLE));
        assert!(matches!(rt_test::poll_once(ready.as_mut()), Poll::Pending));
        // An explicit error wait is still owed the event: only a wait that
        // asked for errors consumes its readiness.
        let ready = bounded("ready", socket.ready(Interest::ERROR))
            .await
            .expect("ready");
        assert!(ready.is_error(), "{ready:?}");
    });
}

#[test]
fn a_later_datagram_is_received_after_the_error() {
    io_time_runtime().block_on(async {
        let socket = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
        let peer = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
        socket.connect(closed_port()).await.expect("connect");
        socket.send(b"anyone?").await.expect("send");
        let mut buf = [0u8; 16];
        assert_refused(bounded("recv", socket.recv(&mut buf)).await);
        // Re-point the socket at a live peer: receiving works again.
        socket
            .connect(peer.local_addr().unwrap())
            .await
            .expect("connect");
        peer.send_to(b"hello", socket.local_addr().unwrap())
            .await
            .expect("send_to");
        let n = bounded("recv", socket.recv(&mut buf)).await.expect("recv");
        assert_eq!(&buf[..n], b"hello");
    });
}

#[test]
fn async_fd_read_guard_sees_the_error_and_clearing_readable_takes_it() {
    use rt_io::net::unix::AsyncFd;
    use rt_io::Ready;

    io_time_runtime().block_on(async {
        let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("bind");
        socket.set_nonblocking(true).expect("non-blocking");
        socket.connect(closed_port()).expect("connect");
        socket.send(b"anyone?").expect("send");
        // SAFETY: the `AsyncFd` owns the socket, which stays open until it drops.
        let fd = unsafe { AsyncFd::register(socket) }.expect("register");
        let mut buf = [0u8; 16];

        let mut guard = bounded("readable", fd.readable()).await.expect("readable");
        let ready = guard.ready();
        assert!(ready.is_error() && ready.is_readable(), "{ready:?}");
        assert_refused(guard.get_inner().recv(&mut buf));
        let err = guard.get_inner().recv(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        // Code written against plain read readiness clears just that; the
        // error that ended the wait goes with it, so the next wait blocks.
        guard.clear_ready_matching(Ready::READABLE);

        let mut readable = Box::pin(fd.readable());
        assert!(matches!(
            rt_test::poll_once(readable.as_mut()),
            Poll::Pending
        ));
        drop(readable);
        // The error readiness proper is still there for an error wait.
        let guard = bounded("error", fd.ready(Interest::ERROR))
            .await
            .expect("ready");
        assert!(guard.ready().is_error());
    });
}
