//! UDP behaviour: connected and unconnected datagrams, peeking, the try_*
//! variants, options and multicast basics.
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
#![cfg(feature = "net")]

use rt_io::net::UdpSocket;
use rt_io::Interest;
use std::io;
use std::net::Ipv4Addr;
use std::sync::Arc;

#[test]
fn send_to_recv_from_and_peek() {
    rt_test::io_runtime().block_on(async {
        let a = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b = UdpSocket::bind(("127.0.0.1", 0)).await.unwrap();
        let b_addr = b.local_addr().unwrap();
        assert_eq!(a.send_to(b"first", b_addr).await.unwrap(), 5);
        assert_eq!(a.send_to(b"second", b_addr.to_string()).await.unwrap(), 6);
        let mut buf = [0u8; 16];
        let (n, from) = b.peek_from(&mut buf).await.unwrap();
        assert_eq!((&buf[..n], from), (&b"first"[..], a.local_addr().unwrap()));
        let (n, _) = b.recv_from(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"first");
        let (n, _) = b.recv_from(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"second");
        let err = b.try_recv_from(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
    });
}

#[test]
fn connected_send_recv_and_try_variants() {
    rt_test::io_runtime().block_on(async {
        let a = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        a.connect(b.local_addr().unwrap()).await.unwrap();
        b.connect(a.local_addr().unwrap()).await.unwrap();
        assert_eq!(a.peer_addr().unwrap(), b.local_addr().unwrap());
        a.writable().await.unwrap();
        assert_eq!(a.try_send(b"ping").unwrap(), 4);
        let mut buf = [0u8; 8];
        b.readable().await.unwrap();
        assert_eq!(b.try_recv(&mut buf).unwrap(), 4);
        b.send(b"pong").await.unwrap();
        assert_eq!(a.recv(&mut buf).await.unwrap(), 4);
        assert_eq!(&buf[..4], b"pong");
        let ready = a
            .ready(Interest::READABLE | Interest::WRITABLE)
            .await
            .unwrap();
        assert!(ready.is_writable());
    });
}

#[test]
fn shared_socket_sender_and_receiver_tasks() {
    const COUNT: u32 = 200;
    rt_test::io_runtime().block_on(async {
        let rx = Arc::new(UdpSocket::bind("127.0.0.1:0").await.unwrap());
        let tx = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let rx_addr = rx.local_addr().unwrap();
        let tx_addr = tx.local_addr().unwrap();
        let receiver = rt_core::spawn({
            let rx = rx.clone();
            async move {
                let mut buf = [0u8; 4];
                let mut expected = 0u32;
                while expected < COUNT {
                    let (n, from) = rx.recv_from(&mut buf).await.unwrap();
                    assert_eq!((n, from), (4, tx_addr));
                    assert_eq!(u32::from_be_bytes(buf), expected);
                    expected += 1;
                    // Acknowledge so that the sender never overruns the
                    // receive buffer.
                    rx.send_to(b"ack", from).await.unwrap();
                }
            }
        });
        let mut ack = [0u8; 3];
        for i in 0..COUNT {
            tx.send_to(&i.to_be_bytes(), rx_addr).await.unwrap();
            tx.recv_from(&mut ack).await.unwrap();
        }
        receiver.await.unwrap();
    });
}

#[test]
fn options_and_multicast_basics() {
    rt_test::io_runtime().block_on(async {
        let s = UdpSocket::bind("0.0.0.0:0").await.unwrap();
        s.set_broadcast(true).unwrap();
        assert!(s.broadcast().unwrap());
        s.set_ttl(7).unwrap();
        assert_eq!(s.ttl().unwrap(), 7);
        s.set_multicast_ttl_v4(3).unwrap();
        assert_eq!(s.multicast_ttl_v4().unwrap(), 3);
        s.set_multicast_loop_v4(false).unwrap();
        assert!(!s.multicast_loop_v4().unwrap());
        let group = Ipv4Addr::new(239, 255, 42, 99);
        // Joining needs a multicast-capable interface; containers may have
        // none, which the OS reports as an error rather than a panic.
        if s.join_multicast_v4(group, Ipv4Addr::UNSPECIFIED).is_ok() {
            s.leave_multicast_v4(group, Ipv4Addr::UNSPECIFIED).unwrap();
        }
        assert!(s.take_error().unwrap().is_none());
    });
}

#[test]
fn std_round_trip_and_bad_target() {
    rt_test::io_runtime().block_on(async {
        let std_socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let addr = std_socket.local_addr().unwrap();
        let s = UdpSocket::from_std(std_socket).unwrap();
        assert_eq!(s.local_addr().unwrap(), addr);
        let empty: &[std::net::SocketAddr] = &[];
        let err = s.send_to(b"x", empty).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        let back = s.into_std().unwrap();
        assert_eq!(back.local_addr().unwrap(), addr);
    });
}

#[test]
fn poll_send_and_recv_readiness() {
    rt_test::io_runtime().block_on(async {
        let a = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b_addr = b.local_addr().unwrap();
        std::future::poll_fn(|cx| a.poll_send_ready(cx))
            .await
            .unwrap();
        let n = std::future::poll_fn(|cx| a.poll_send_to(cx, b"polled", b_addr))
            .await
            .unwrap();
        assert_eq!(n, 6);
        a.connect(b_addr).await.unwrap();
        std::future::poll_fn(|cx| a.poll_send(cx, b"again"))
            .await
            .unwrap();
        std::future::poll_fn(|cx| b.poll_recv_ready(cx))
            .await
            .unwrap();
        let mut buf = [0u8; 8];
        let (n, _) = b.try_peek_from(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"polled");
        assert_eq!(b.try_recv_from(&mut buf).unwrap().0, 6);
        assert_eq!(b.recv_from(&mut buf).await.unwrap().0, 5);
    });
}

#[test]
fn operations_fail_after_the_runtime_is_dropped() {
    let first = rt_test::io_runtime();
    let socket = first.block_on(UdpSocket::bind("127.0.0.1:0")).unwrap();
    drop(first);
    rt_test::io_runtime().block_on(async {
        let mut buf = [0u8; 4];
        let err = socket.recv_from(&mut buf).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::Other);
        let addr = socket.local_addr().unwrap();
        assert!(socket.send_to(b"x", addr).await.is_err());
        assert!(socket.try_recv(&mut buf).is_err());
    });
}

#[test]
fn peek_sender_leaves_the_datagram_queued() {
    rt_test::io_runtime().block_on(async {
        let a = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let err = b.try_peek_sender().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        a.send_to(b"hello", b.local_addr().unwrap()).await.unwrap();
        let from = a.local_addr().unwrap();
        assert_eq!(b.peek_sender().await.unwrap(), from);
        assert_eq!(
            std::future::poll_fn(|cx| b.poll_peek_sender(cx))
                .await
                .unwrap(),
            from
        );
        assert_eq!(b.try_peek_sender().unwrap(), from);
        let mut buf = [0u8; 8];
        let (n, sender) = b.recv_from(&mut buf).await.unwrap();
        assert_eq!((&buf[..n], sender), (&b"hello"[..], from));
    });
}

#[test]
fn ip_options() {
    rt_test::io_runtime().block_on(async {
        let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        socket.set_tos_v4(0x10).unwrap();
        assert_eq!(socket.tos_v4().unwrap(), 0x10);
        // The bound device (`SO_BINDTODEVICE`) exists on Linux only.
        #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
        assert_eq!(socket.device().unwrap(), None);
        // The traffic class (`IPV6_TCLASS`) is not settable on Windows.
        #[cfg(unix)]
        if let Ok(v6) = UdpSocket::bind("[::1]:0").await {
            v6.set_tclass_v6(0x20).unwrap();
            assert_eq!(v6.tclass_v6().unwrap(), 0x20);
        }
    });
}
