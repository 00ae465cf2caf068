//! Unix domain sockets: listener and stream, owned halves, datagrams, and
//! `AsyncFd` over a socket pair.
// Unix only: Unix domain sockets.
#![cfg(unix)]
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
#![cfg(feature = "net")]

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::net::unix::AsyncFd;
use rt_io::net::{UnixDatagram, UnixListener, UnixStream};
use rt_io::Interest;
use std::future::Future;
use std::io::{self, Read, Write};

#[test]
fn listener_accepts_and_streams_echo() {
    let dir = rt_test::ScratchDir::new("listener");
    let path = dir.join("echo.sock");
    rt_test::io_runtime().block_on(async {
        let listener = UnixListener::bind(&path).unwrap();
        assert_eq!(
            listener.local_addr().unwrap().as_pathname(),
            Some(path.as_path())
        );
        let server = rt_core::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            rt_test::echo(stream).await;
        });
        let mut client = UnixStream::connect(&path).await.unwrap();
        rt_test::assert_echoed(&mut client, b"over unix").await;
        server.await.unwrap();
    });
}

#[test]
fn connect_to_a_missing_path_fails() {
    let dir = rt_test::ScratchDir::new("missing");
    rt_test::io_runtime().block_on(async {
        let err = UnixStream::connect(dir.join("nobody.sock"))
            .await
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    });
}

#[test]
fn pair_into_split_and_reunite() {
    rt_test::io_runtime().block_on(async {
        let (a, mut b) = UnixStream::pair().unwrap();
        let (mut ar, mut aw) = a.into_split();
        aw.write_all(b"to b").await.unwrap();
        let mut buf = [0u8; 4];
        b.read_exact(&mut buf).await.unwrap();
        b.write_all(b"to a").await.unwrap();
        ar.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"to a");
        let a = ar.reunite(aw).unwrap();
        a.writable().await.unwrap();
        assert_eq!(a.try_write(b"x").unwrap(), 1);
        b.readable().await.unwrap();
        assert_eq!(b.try_read(&mut buf).unwrap(), 1);
    });
}

#[test]
fn borrowed_split_halves() {
    rt_test::io_runtime().block_on(async {
        let (mut a, mut b) = UnixStream::pair().unwrap();
        let (mut ar, mut aw) = a.split();
        aw.write_all(b"half").await.unwrap();
        let mut buf = [0u8; 4];
        b.read_exact(&mut buf).await.unwrap();
        b.write_all(b"back").await.unwrap();
        ar.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"back");
        aw.shutdown().await.unwrap();
        let mut rest = Vec::new();
        b.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty());
    });
}

#[test]
fn datagrams_bound_unbound_and_paired() {
    let dir = rt_test::ScratchDir::new("dgram");
    rt_test::io_runtime().block_on(async {
        let server_path = dir.join("server.sock");
        let server = UnixDatagram::bind(&server_path).unwrap();
        let client = UnixDatagram::bind(dir.join("client.sock")).unwrap();
        client.send_to(b"hello", &server_path).await.unwrap();
        let mut buf = [0u8; 16];
        let (n, from) = server.recv_from(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"hello");
        let reply_to = from.as_pathname().unwrap().to_owned();
        server.send_to(b"world", &reply_to).await.unwrap();
        assert_eq!(client.recv(&mut buf).await.unwrap(), 5);

        let unbound = UnixDatagram::unbound().unwrap();
        unbound.connect(&server_path).unwrap();
        unbound.send(b"anon").await.unwrap();
        let (n, from) = server.recv_from(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"anon");
        assert!(from.is_unnamed());

        let (a, b) = UnixDatagram::pair().unwrap();
        a.writable().await.unwrap();
        assert_eq!(a.try_send(b"p").unwrap(), 1);
        b.readable().await.unwrap();
        assert_eq!(b.try_recv(&mut buf).unwrap(), 1);
        let err = b.try_recv(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
    });
}

#[test]
fn async_fd_readable_guard_clear_and_retain() {
    rt_test::io_runtime().block_on(async {
        let (a, mut b) = std::os::unix::net::UnixStream::pair().unwrap();
        a.set_nonblocking(true).unwrap();
        // SAFETY: the `AsyncFd` owns the socket, which stays open until it drops.
        let fd = unsafe { AsyncFd::register(a) }.unwrap();

        b.write_all(b"abc").unwrap();
        let mut guard = fd.readable().await.unwrap();
        assert!(guard.ready().is_readable());
        guard.retain_ready();
        // Retained: waiting again returns at once.
        let mut guard = fd.readable().await.unwrap();
        let mut buf = [0u8; 8];
        let n = guard
            .try_io(|inner| inner.get_ref().read(&mut buf))
            .unwrap()
            .unwrap();
        assert_eq!(&buf[..n], b"abc");
        // Drained: the next try clears readiness.
        assert!(guard
            .try_io(|inner| inner.get_ref().read(&mut buf))
            .is_err());

        // Cleared: waiting blocks until the peer writes again.
        let mut wait = Box::pin(fd.readable());
        let pending =
            std::future::poll_fn(|cx| std::task::Poll::Ready(wait.as_mut().poll(cx).is_pending()))
                .await;
        assert!(pending);
        b.write_all(b"d").unwrap();
        let mut guard = wait.await.unwrap();
        let n = guard
            .try_io(|inner| inner.get_ref().read(&mut buf))
            .unwrap()
            .unwrap();
        assert_eq!(&buf[..n], b"d");
        guard.clear_ready();
        drop(guard);

        let mut writer = fd.writable().await.unwrap();
        assert!(writer.ready().is_writable());
        writer
            .try_io(|inner| inner.get_ref().write(b"back"))
            .unwrap()
            .unwrap();
        let a = fd.into_inner();
        drop(a);
        let mut got = Vec::new();
        b.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"back");
    });
}

#[test]
fn async_fd_mut_guard_and_async_io() {
    rt_test::io_runtime().block_on(async {
        let (a, mut b) = std::os::unix::net::UnixStream::pair().unwrap();
        a.set_nonblocking(true).unwrap();
        // SAFETY: the `AsyncFd` owns the socket, which stays open until it drops.
        let mut fd = unsafe { AsyncFd::register_with_interest(a, Interest::READABLE) }.unwrap();
        b.write_all(b"xy").unwrap();
        {
            let mut guard = fd.readable_mut().await.unwrap();
            let mut one = [0u8; 1];
            let n = guard
                .try_io(|inner| inner.get_mut().read(&mut one))
                .unwrap()
                .unwrap();
            assert_eq!(n, 1);
        }
        let mut rest = [0u8; 1];
        let n = fd
            .async_io(Interest::READABLE, |inner| (&*inner).read(&mut rest))
            .await
            .unwrap();
        assert_eq!((n, &rest), (1, b"y"));
        let err = fd
            .try_io(Interest::READABLE, |inner| (&*inner).read(&mut rest))
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        b.write_all(b"z").unwrap();
        let n = fd
            .async_io_mut(Interest::READABLE, |inner| inner.read(&mut rest))
            .await
            .unwrap();
        assert_eq!((n, &rest), (1, b"z"));
        let err = fd
            .try_io_mut(Interest::READABLE, |inner| inner.read(&mut rest))
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
    });
}

#[test]
fn async_fd_register_gives_the_value_back_on_failure() {
    rt_test::io_runtime().block_on(async {
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        a.set_nonblocking(true).unwrap();
        // SAFETY: the `AsyncFd` owns the socket, which stays open until it drops.
        let fd = unsafe { AsyncFd::register(a) }.unwrap();
        let raw = std::os::fd::AsRawFd::as_raw_fd(fd.get_ref());
        // The same descriptor cannot be registered twice.
        let dup = Borrowed(raw);
        // SAFETY: `dup` borrows the descriptor `fd` keeps open; the call
        // fails before anything is registered.
        let err = unsafe { AsyncFd::register(dup) }.unwrap_err();
        let (back, cause) = err.into_parts();
        assert_eq!(back.0, raw);
        assert_eq!(cause.kind(), io::ErrorKind::AlreadyExists);
    });
}

/// A descriptor number without ownership.
#[derive(Debug)]
struct Borrowed(std::os::fd::RawFd);

impl std::os::fd::AsRawFd for Borrowed {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.0
    }
}

#[test]
fn unix_sockets_fail_after_the_runtime_is_dropped() {
    let first = rt_test::io_runtime();
    let (stream, datagram) = {
        let _guard = first.enter();
        (
            UnixStream::pair().unwrap().0,
            UnixDatagram::pair().unwrap().0,
        )
    };
    drop(first);
    rt_test::io_runtime().block_on(async {
        assert_eq!(
            stream.readable().await.unwrap_err().kind(),
            io::ErrorKind::Other
        );
        let mut buf = [0u8; 4];
        assert!(datagram.recv(&mut buf).await.is_err());
    });
}

#[test]
fn unix_socket_binds_then_listens_connects_or_sends() {
    use rt_io::net::UnixSocket;
    let dir = rt_test::ScratchDir::new("unix-socket");
    rt_test::io_runtime().block_on(async {
        let server_path = dir.join("server.sock");
        let peer_path = dir.join("peer.sock");
        let socket = UnixSocket::new_stream().unwrap();
        socket.bind(&server_path).unwrap();
        let listener = socket.listen(16).unwrap();
        let client = UnixSocket::new_stream().unwrap();
        client.bind(&peer_path).unwrap();
        let mut client = client.connect(&server_path).await.unwrap();
        let (mut server, _) = listener.accept().await.unwrap();
        assert_eq!(
            server.peer_addr().unwrap().as_pathname(),
            Some(peer_path.as_path())
        );
        client.write_all(b"hi").await.unwrap();
        drop(client);
        let mut got = Vec::new();
        server.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, b"hi");

        let a = UnixSocket::new_datagram().unwrap();
        a.bind(dir.join("a.sock")).unwrap();
        let a = a.datagram().unwrap();
        let b = UnixSocket::new_datagram().unwrap().datagram().unwrap();
        b.send_to(b"dgram", dir.join("a.sock")).await.unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(a.recv(&mut buf).await.unwrap(), 5);
    });
}

#[test]
fn unix_socket_of_the_wrong_kind_is_refused() {
    use rt_io::net::UnixSocket;
    rt_test::io_runtime().block_on(async {
        let err = UnixSocket::new_datagram().unwrap().listen(1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "listen cannot be called on a datagram socket"
        );
        let err = UnixSocket::new_datagram()
            .unwrap()
            .connect("nowhere.sock")
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "connect cannot be called on a datagram socket"
        );
        let err = UnixSocket::new_stream().unwrap().datagram().unwrap_err();
        assert_eq!(
            err.to_string(),
            "datagram cannot be called on a stream socket"
        );
    });
}

#[test]
fn peer_cred_names_this_process() {
    rt_test::io_runtime().block_on(async {
        let (a, b) = UnixStream::pair().unwrap();
        let cred = a.peer_cred().unwrap();
        assert_eq!(cred, b.peer_cred().unwrap());
        // SAFETY: these calls only read the process's ids.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        assert_eq!((cred.uid(), cred.gid()), (uid, gid));
        #[cfg(target_os = "linux")]
        assert_eq!(cred.pid(), Some(std::process::id() as i32));
    });
}

#[test]
fn bind_addr_and_connect_addr() {
    use std::os::unix::net::SocketAddr;
    let dir = rt_test::ScratchDir::new("unix-addr");
    rt_test::io_runtime().block_on(async {
        let addr = SocketAddr::from_pathname(dir.join("addr.sock")).unwrap();
        let listener = UnixListener::bind_addr(&addr).unwrap();
        let mut client = UnixStream::connect_addr(&addr).await.unwrap();
        let (mut server, _) = listener.accept().await.unwrap();
        client.write_all(b"addr").await.unwrap();
        let mut buf = [0u8; 4];
        server.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"addr");
    });
}

#[test]
fn fresh_pairs_are_writable_before_any_event() {
    rt_test::io_runtime().block_on(async {
        let (a, b) = UnixDatagram::pair().unwrap();
        // Nothing has polled the driver since `pair()`.
        assert_eq!(a.try_send(b"hi").unwrap(), 2);
        assert_eq!(b.try_send(b"yo").unwrap(), 2);
        // Readability still comes from the driver.
        let (c, _d) = UnixDatagram::pair().unwrap();
        let err = c.try_recv(&mut [0u8; 1]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        a.readable().await.unwrap();
        assert_eq!(a.try_recv(&mut [0u8; 4]).unwrap(), 2);

        let (s, _t) = UnixStream::pair().unwrap();
        assert_eq!(s.try_write(b"now").unwrap(), 3);
    });
}

#[test]
fn guard_reports_what_clear_ready_matching_left() {
    use rt_io::Ready;
    rt_test::io_runtime().block_on(async {
        let (a, mut b) = std::os::unix::net::UnixStream::pair().unwrap();
        a.set_nonblocking(true).unwrap();
        // SAFETY: the `AsyncFd` owns the socket, which stays open until it drops.
        let fd = unsafe { AsyncFd::register(a) }.unwrap();
        b.write_all(b"0").unwrap();
        let mut guard = fd
            .ready(Interest::READABLE | Interest::WRITABLE)
            .await
            .unwrap();
        assert_eq!(guard.ready(), Ready::READABLE | Ready::WRITABLE);
        guard.clear_ready_matching(Ready::READABLE);
        assert_eq!(guard.ready(), Ready::WRITABLE);
        guard.clear_ready_matching(Ready::WRITABLE);
        assert_eq!(guard.ready(), Ready::EMPTY);
    });
}

#[cfg(target_os = "linux")]
#[test]
fn a_path_starting_with_nul_names_an_abstract_socket() {
    use std::os::linux::net::SocketAddrExt;
    rt_test::io_runtime().block_on(async {
        let name = format!("\0rt-io-abstract-{}", std::process::id());
        let listener = UnixListener::bind(&name).unwrap();
        let client = UnixStream::connect(&name).await.unwrap();
        let (server, _) = listener.accept().await.unwrap();
        let local = server.local_addr().unwrap();
        assert_eq!(local.as_abstract_name(), Some(&name.as_bytes()[1..]));
        drop(client);
    });
}

/// A short read drained the socket and a short write filled it: either one
/// clears that direction's readiness, so the next attempt waits for the
/// reactor's next event instead of spending a system call that would say
/// `WouldBlock`. Seen from outside: right after a short transfer, a
/// `try_` call reports `WouldBlock` even though the peer has since made
/// room (no reactor turn has happened in between), and the next awaited
/// transfer still completes once the reactor reports the change.
#[test]
fn a_short_transfer_waits_for_the_next_readiness_event() {
    rt_test::io_runtime().block_on(async {
        let (ours, mut theirs) = std::os::unix::net::UnixStream::pair().unwrap();
        ours.set_nonblocking(true).unwrap();
        let mut ours = UnixStream::from_std(ours).unwrap();

        // Read: 3 bytes queued, 16 asked for.
        theirs.write_all(b"abc").unwrap();
        let mut buf = [0u8; 16];
        assert_eq!(ours.read(&mut buf).await.unwrap(), 3);
        theirs.write_all(b"def").unwrap();
        let err = ours.try_read(&mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        assert_eq!(ours.read(&mut buf).await.unwrap(), 3);
        assert_eq!(&buf[..3], b"def");

        // Write: far more than the send buffer holds.
        let big = vec![7u8; 8 << 20];
        let written = ours.write(&big).await.unwrap();
        assert!(written > 0 && written < big.len(), "wrote {written}");
        let mut drained = vec![0u8; written];
        theirs.read_exact(&mut drained).unwrap();
        let err = ours.try_write(b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
        assert_eq!(ours.write(b"x").await.unwrap(), 1);
        let mut last = [0u8; 1];
        theirs.read_exact(&mut last).unwrap();
        assert_eq!(last, *b"x");
    });
}
