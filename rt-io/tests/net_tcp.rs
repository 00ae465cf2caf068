//! TCP behaviour: echo under load, half-close, resets, backpressure,
//! splitting, socket options, and resources dropped while waited on.
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
#![cfg(feature = "net")]

use rt_core::runtime::Builder;
use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::net::{TcpListener, TcpStream};
use rt_io::Interest;
use std::future::Future;
use std::io;
use std::pin::pin;
use std::task::Poll;

/// Polls `fut` once; true if it is still pending.
async fn is_pending<F: Future + Unpin>(fut: &mut F) -> bool {
    std::future::poll_fn(|cx| Poll::Ready(std::pin::Pin::new(&mut *fut).poll(cx).is_pending()))
        .await
}

#[test]
fn echo_with_1000_concurrent_connections() {
    const CONNS: usize = 1000;
    rt_test::io_runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = rt_core::spawn(async move {
            for _ in 0..CONNS {
                let (stream, _) = listener.accept().await.unwrap();
                rt_core::spawn(rt_test::echo(stream));
            }
        });
        let clients: Vec<_> = (0..CONNS)
            .map(|i| {
                rt_core::spawn(async move {
                    let mut stream = TcpStream::connect(addr).await.unwrap();
                    let msg = format!("connection number {i} says hello").repeat(8);
                    rt_test::assert_echoed(&mut stream, msg.as_bytes()).await;
                })
            })
            .collect();
        for c in clients {
            c.await.unwrap();
        }
        server.await.unwrap();
    });
}

#[test]
fn half_close_lets_the_other_direction_finish() {
    rt_test::io_runtime().block_on(async {
        let (mut client, mut server) = rt_test::tcp_pair().await;
        client.write_all(b"request").await.unwrap();
        client.shutdown().await.unwrap();
        let mut got = Vec::new();
        server.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, b"request");
        server.write_all(b"response").await.unwrap();
        drop(server);
        let mut back = Vec::new();
        client.read_to_end(&mut back).await.unwrap();
        assert_eq!(back, b"response");
    });
}

/// Closing a socket with unread input makes the kernel send a reset.
async fn reset_by_peer(peer: TcpStream, other: &mut TcpStream) {
    other.write_all(b"unread").await.unwrap();
    peer.readable().await.unwrap();
    drop(peer);
}

#[test]
fn peer_reset_during_a_pending_read() {
    rt_test::io_runtime().block_on(async {
        let (mut client, server) = rt_test::tcp_pair().await;
        let mut buf = [0u8; 16];
        let (mut reader, writer) = client.split();
        let mut pending_read = pin!(reader.read(&mut buf));
        assert!(is_pending(&mut pending_read).await);
        // The client has written nothing yet to make the server reset:
        // write from the other half of the same socket.
        let writer = writer.try_write(b"unread");
        assert_eq!(writer.unwrap(), 6);
        server.readable().await.unwrap();
        drop(server);
        let err = pending_read.await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::ConnectionReset);
    });
}

#[test]
fn peer_reset_during_a_large_write() {
    rt_test::io_runtime().block_on(async {
        let (mut client, mut server) = rt_test::tcp_pair().await;
        let writer = rt_core::spawn(async move {
            let chunk = vec![7u8; 1 << 20];
            loop {
                if let Err(e) = client.write_all(&chunk).await {
                    return e;
                }
            }
        });
        let mut first = [0u8; 1024];
        server.read_exact(&mut first).await.unwrap();
        drop(server);
        let err = writer.await.unwrap();
        assert!(
            matches!(
                err.kind(),
                io::ErrorKind::ConnectionReset | io::ErrorKind::BrokenPipe
            ),
            "{err:?}"
        );
    });
}

#[test]
fn peer_reset_helper_resets() {
    rt_test::io_runtime().block_on(async {
        let (mut client, server) = rt_test::tcp_pair().await;
        reset_by_peer(server, &mut client).await;
        let mut buf = [0u8; 8];
        let err = client.read(&mut buf).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::ConnectionReset);
    });
}

#[test]
fn sixty_four_mib_through_a_slow_reader() {
    const TOTAL: usize = 64 << 20;
    rt_test::io_runtime().block_on(async {
        let (mut client, mut server) = rt_test::tcp_pair().await;
        let writer = rt_core::spawn(async move {
            let data: Vec<u8> = (0..TOTAL).map(|i| (i % 251) as u8).collect();
            client.write_all(&data).await.unwrap();
            client.shutdown().await.unwrap();
        });
        let mut buf = [0u8; 4096];
        let mut seen = 0usize;
        let mut reads = 0usize;
        loop {
            let n = server.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            for (k, b) in buf[..n].iter().enumerate() {
                assert_eq!(*b, ((seen + k) % 251) as u8);
            }
            seen += n;
            reads += 1;
            if reads % 4 == 0 {
                rt_core::task::yield_now().await;
            }
        }
        assert_eq!(seen, TOTAL);
        writer.await.unwrap();
    });
}

#[test]
fn split_and_into_split_reunite() {
    rt_test::io_runtime().block_on(async {
        let (mut client, mut server) = rt_test::tcp_pair().await;
        {
            let (mut r, mut w) = client.split();
            w.write_all(b"ping").await.unwrap();
            let mut buf = [0u8; 4];
            server.read_exact(&mut buf).await.unwrap();
            server.write_all(b"pong").await.unwrap();
            r.read_exact(&mut buf).await.unwrap();
            assert_eq!(&buf, b"pong");
        }
        let (r, w) = client.into_split();
        let (r2, w2) = rt_test::tcp_pair().await.0.into_split();
        let rejoined = r.reunite(w2).unwrap_err();
        assert_eq!(
            rejoined.to_string(),
            "tried to reunite halves that are not from the same socket"
        );
        let (r, w2) = (rejoined.0, rejoined.1);
        drop((r2, w2));
        let mut stream = w.reunite(r).unwrap();
        stream.write_all(b"again").await.unwrap();
        let mut buf = [0u8; 5];
        server.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"again");
    });
}

#[test]
fn owned_write_half_shuts_down_on_drop() {
    rt_test::io_runtime().block_on(async {
        let (client, mut server) = rt_test::tcp_pair().await;
        let (_r, mut w) = client.into_split();
        w.write_all(b"bye").await.unwrap();
        drop(w);
        let mut got = Vec::new();
        server.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, b"bye");
    });
}

#[test]
fn options_addresses_peek_and_vectored_io() {
    rt_test::io_runtime().block_on(async {
        let (client, server) = rt_test::tcp_pair().await;
        assert_eq!(client.peer_addr().unwrap(), server.local_addr().unwrap());
        client.set_nodelay(true).unwrap();
        assert!(client.nodelay().unwrap());
        client.set_ttl(42).unwrap();
        assert_eq!(client.ttl().unwrap(), 42);
        assert!(client.take_error().unwrap().is_none());

        client.writable().await.unwrap();
        let parts = [io::IoSlice::new(b"ab"), io::IoSlice::new(b"cd")];
        assert_eq!(client.try_write_vectored(&parts).unwrap(), 4);
        let mut peeked = [0u8; 4];
        assert_eq!(server.peek(&mut peeked).await.unwrap(), 4);
        assert_eq!(&peeked, b"abcd");
        let (mut a, mut b) = ([0u8; 1], [0u8; 3]);
        let mut bufs = [io::IoSliceMut::new(&mut a), io::IoSliceMut::new(&mut b)];
        server.readable().await.unwrap();
        assert_eq!(server.try_read_vectored(&mut bufs).unwrap(), 4);
        assert_eq!((&a, &b), (b"a", b"bcd"));
        let err = server.try_read(&mut a).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        let ready = client.ready(Interest::WRITABLE).await.unwrap();
        assert!(ready.is_writable());
    });
}

#[test]
fn std_conversions_round_trip() {
    rt_test::io_runtime().block_on(async {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = std_listener.local_addr().unwrap();
        let listener = TcpListener::from_std(std_listener).unwrap();
        let std_client = std::net::TcpStream::connect(addr).unwrap();
        let mut client = TcpStream::from_std(std_client).unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let std_listener = listener.into_std().unwrap();
        assert_eq!(std_listener.local_addr().unwrap(), addr);
        let std_server = server.into_std().unwrap();
        std_server.set_nonblocking(false).unwrap();
        client.write_all(b"x").await.unwrap();
        let mut buf = [0u8; 1];
        io::Read::read_exact(&mut &std_server, &mut buf).unwrap();
        assert_eq!(&buf, b"x");
    });
}

#[test]
fn connect_tries_each_address_in_order() {
    rt_test::io_runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let good = listener.local_addr().unwrap();
        // A port that was just freed refuses connections.
        let bad = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap()
        };
        let addrs = [bad, good];
        let stream = TcpStream::connect(&addrs[..]).await.unwrap();
        assert_eq!(stream.peer_addr().unwrap(), good);
        let err = TcpStream::connect(bad).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::ConnectionRefused);
        let empty: &[std::net::SocketAddr] = &[];
        let err = TcpStream::connect(empty).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    });
}

#[test]
fn task_aborted_while_waiting_on_its_stream() {
    rt_test::io_runtime().block_on(async {
        let (mut client, mut server) = rt_test::tcp_pair().await;
        let waiter = rt_core::spawn(async move {
            let mut buf = [0u8; 8];
            let _ = server.read(&mut buf).await;
            let _ = server.ready(Interest::READABLE).await;
        });
        rt_core::task::yield_now().await;
        waiter.abort();
        assert!(waiter.await.unwrap_err().is_cancelled());
        // The server side is gone: the client sees end of stream.
        let mut buf = [0u8; 8];
        assert_eq!(client.read(&mut buf).await.unwrap(), 0);
    });
}

#[test]
fn readiness_future_dropped_while_linked() {
    rt_test::io_runtime().block_on(async {
        let (mut client, server) = rt_test::tcp_pair().await;
        // An accepted stream starts out assumed readable; a read that finds
        // nothing clears that.
        let err = server.try_read(&mut [0u8; 1]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        for _ in 0..3 {
            let mut fut = Box::pin(server.ready(Interest::READABLE));
            assert!(is_pending(&mut fut).await);
            drop(fut);
        }
        let mut kept = Box::pin(server.readable());
        assert!(is_pending(&mut kept).await);
        client.write_all(b"z").await.unwrap();
        kept.await.unwrap();
    });
}

#[test]
fn streams_dropped_with_events_in_flight() {
    rt_test::io_runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        for _ in 0..200 {
            let mut client = TcpStream::connect(addr).await.unwrap();
            let (server, _) = listener.accept().await.unwrap();
            client.write_all(b"event").await.unwrap();
            // The readiness event for `server` may be fetched by the next
            // turn after its registration is gone.
            drop(server);
            rt_core::task::yield_now().await;
            drop(client);
        }
    });
}

#[test]
fn operations_fail_after_the_runtime_is_dropped() {
    let first = rt_test::io_runtime();
    let (client, mut server) = first.block_on(rt_test::tcp_pair());
    drop(first);
    let second = rt_test::io_runtime();
    second.block_on(async {
        let err = client.readable().await.unwrap_err();
        assert_eq!(
            err.to_string(),
            "An rt context was found, but it is being shutdown."
        );
        let mut buf = [0u8; 4];
        assert!(server.read(&mut buf).await.is_err());
        assert!(server.write_all(b"x").await.is_err());
        assert!(client.try_read(&mut buf).is_err());
    });
}

#[test]
fn bytes_queued_before_the_runtime_dropped_can_still_be_tried() {
    let first = rt_test::io_runtime();
    let (mut client, server) = first.block_on(async {
        let (mut client, server) = rt_test::tcp_pair().await;
        client.write_all(b"late").await.unwrap();
        server.readable().await.unwrap();
        (client, server)
    });
    drop(first);
    let mut buf = [0u8; 4];
    // The readiness seen before the shutdown is still used...
    assert_eq!(server.try_read(&mut buf).unwrap(), 4);
    assert_eq!(&buf, b"late");
    // ...and once a try finds nothing, the shutdown is reported.
    let err = server.try_read(&mut buf).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
    let err = server.try_read(&mut buf).unwrap_err();
    assert!(rt_io::reactor::is_rt_shutdown_err(&err));
    let second = rt_test::io_runtime();
    second.block_on(async {
        assert!(client.write_all(b"x").await.is_err());
    });
}

#[test]
fn shutdown_wakes_a_waiter_on_another_runtime() {
    let first = rt_test::io_runtime();
    let (mut client, _server) = first.block_on(rt_test::tcp_pair());
    let (pending_tx, pending_rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        rt_test::io_runtime().block_on(async {
            // One waiter in the intrusive list, one in the reader slot.
            let (mut reader, writer) = client.split();
            let mut listed = Box::pin(writer.ready(Interest::READABLE));
            let mut buf = [0u8; 8];
            let mut slot = Box::pin(reader.read(&mut buf));
            assert!(is_pending(&mut listed).await);
            assert!(is_pending(&mut slot).await);
            pending_tx.send(()).unwrap();
            let (mut listed_out, mut slot_out) = (None, None);
            std::future::poll_fn(|cx| {
                if listed_out.is_none() {
                    if let Poll::Ready(r) = listed.as_mut().poll(cx) {
                        listed_out = Some(r.map(|_| 0));
                    }
                }
                if slot_out.is_none() {
                    if let Poll::Ready(r) = slot.as_mut().poll(cx) {
                        slot_out = Some(r);
                    }
                }
                if listed_out.is_some() && slot_out.is_some() {
                    Poll::Ready(())
                } else {
                    Poll::Pending
                }
            })
            .await;
            (listed_out.unwrap(), slot_out.unwrap())
        })
    });
    pending_rx.recv().unwrap();
    drop(first);
    let (listed, slot) = waiter.join().unwrap();
    assert!(rt_io::reactor::is_rt_shutdown_err(&listed.unwrap_err()));
    assert!(rt_io::reactor::is_rt_shutdown_err(&slot.unwrap_err()));
    // Other errors are not mistaken for it.
    assert!(!rt_io::reactor::is_rt_shutdown_err(&io::Error::other("x")));
    assert!(!rt_io::reactor::is_rt_shutdown_err(
        &io::ErrorKind::Other.into()
    ));
}

#[test]
fn poll_accept_and_readiness_polls() {
    rt_test::io_runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut accept_pending = true;
        std::future::poll_fn(|cx| {
            accept_pending = listener.poll_accept(cx).is_pending();
            Poll::Ready(())
        })
        .await;
        assert!(accept_pending);
        let client = TcpStream::connect(addr).await.unwrap();
        let (server, peer) = std::future::poll_fn(|cx| listener.poll_accept(cx))
            .await
            .unwrap();
        assert_eq!(peer, client.local_addr().unwrap());
        std::future::poll_fn(|cx| client.poll_write_ready(cx))
            .await
            .unwrap();
        client.try_write(b"q").unwrap();
        std::future::poll_fn(|cx| server.poll_read_ready(cx))
            .await
            .unwrap();
        let mut buf = [0u8; 1];
        assert_eq!(server.try_read(&mut buf).unwrap(), 1);
    });
}

#[test]
fn creating_a_socket_outside_a_runtime_panics_with_guidance() {
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let err = std::panic::catch_unwind(|| TcpListener::from_std(std_listener)).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("there is no reactor running"), "{msg}");

    let no_io = Builder::new_current_thread().build().unwrap();
    let _guard = no_io.enter();
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let err = std::panic::catch_unwind(|| TcpListener::from_std(std_listener)).unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("IO is disabled"), "{msg}");
    assert!(msg.contains("enable_io"), "{msg}");
}

#[test]
fn tcp_socket_options_listen_and_connect() {
    rt_test::io_runtime().block_on(async {
        let socket = rt_io::net::TcpSocket::new_v4().unwrap();
        socket.set_reuseaddr(true).unwrap();
        assert!(socket.reuseaddr().unwrap());
        #[cfg(unix)]
        {
            socket.set_reuseport(true).unwrap();
            assert!(socket.reuseport().unwrap());
        }
        socket.set_send_buffer_size(64 * 1024).unwrap();
        assert!(socket.send_buffer_size().unwrap() >= 64 * 1024);
        socket.set_recv_buffer_size(64 * 1024).unwrap();
        assert!(socket.recv_buffer_size().unwrap() >= 64 * 1024);
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = socket.local_addr().unwrap();
        let listener = socket.listen(16).unwrap();
        assert_eq!(listener.local_addr().unwrap(), addr);

        let client = rt_io::net::TcpSocket::new_v4().unwrap();
        client.set_nodelay(true).unwrap();
        let stream = client.connect(addr).await.unwrap();
        assert!(stream.nodelay().unwrap());
        let (mut server, _) = listener.accept().await.unwrap();
        stream.set_zero_linger().unwrap();
        assert_eq!(stream.linger().unwrap(), Some(std::time::Duration::ZERO));
        // Zero linger: closing resets instead of a graceful end of stream.
        drop(stream);
        let mut buf = [0u8; 4];
        let err = server.read(&mut buf).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::ConnectionReset);

        let refused = rt_io::net::TcpSocket::new_v4().unwrap().connect(addr);
        drop(listener);
        assert!(refused.await.is_err());
    });
}

#[test]
fn ip_options_and_quickack() {
    rt_test::io_runtime().block_on(async {
        let socket = rt_io::net::TcpSocket::new_v4().unwrap();
        socket.set_tos_v4(0x10).unwrap();
        assert_eq!(socket.tos_v4().unwrap(), 0x10);
        socket.set_zero_linger().unwrap();
        assert_eq!(socket.linger().unwrap(), Some(std::time::Duration::ZERO));
        // The bound device (`SO_BINDTODEVICE`) exists on Linux only.
        #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
        assert_eq!(socket.device().unwrap(), None);
        // The traffic class (`IPV6_TCLASS`) is not settable on Windows.
        #[cfg(unix)]
        {
            let v6 = rt_io::net::TcpSocket::new_v6().unwrap();
            v6.set_tclass_v6(0x20).unwrap();
            assert_eq!(v6.tclass_v6().unwrap(), 0x20);
        }

        // `TCP_QUICKACK` exists on Linux only; Linux may clear the flag
        // again on its own, so setting it must work, reading it must not
        // fail.
        #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
        {
            let (client, _server) = rt_test::tcp_pair().await;
            client.set_quickack(true).unwrap();
            client.quickack().unwrap();
        }
    });
}

#[test]
fn accepted_stream_starts_readable_and_writable() {
    rt_test::io_runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut peer = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        std::io::Write::write_all(&mut peer, b"early").unwrap();
        // Wait (outside the reactor) until the bytes are queued.
        let probe = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        drop(probe);
        let (server, _) = listener.accept().await.unwrap();
        let mut buf = [0u8; 5];
        let mut got = 0;
        // The first try_read does not wait for the driver's first event.
        while got == 0 {
            match server.try_read(&mut buf) {
                Ok(n) => got = n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    // The data was not queued yet; the guess was cleared and
                    // the driver's event will come.
                    server.readable().await.unwrap();
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(&buf[..got], &b"early"[..got]);
        assert_eq!(server.try_write(b"x").unwrap(), 1);
    });
}
