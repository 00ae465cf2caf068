//! The `ReadBuf` receive and peek entry points of the socket types
//! (`poll_recv`, `poll_recv_from`, `poll_peek`, `poll_peek_from`), the poll
//! send variants, UDP's `peek`/`try_peek`, and the `BufMut` ones
//! (`recv_buf`, `recv_buf_from`, their `try_` forms, `try_read_buf`), and
//! a stream's `poll_read` into uninitialised memory.
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
#![cfg(feature = "net")]

use rt_io::io::{AsyncReadExt, AsyncWriteExt, ReadBuf};
use rt_io::net::UdpSocket;
#[cfg(unix)]
use rt_io::net::{UnixDatagram, UnixStream};
use std::future::poll_fn;
use std::io;
use std::mem::MaybeUninit;

async fn udp_pair() -> (UdpSocket, UdpSocket) {
    let a = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let b = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    a.connect(b.local_addr().unwrap()).await.unwrap();
    b.connect(a.local_addr().unwrap()).await.unwrap();
    (a, b)
}

#[test]
fn udp_poll_peek_then_poll_recv_fill_the_unfilled_part() {
    rt_test::io_runtime().block_on(async {
        let (a, b) = udp_pair().await;
        let sent = poll_fn(|cx| a.poll_send(cx, b"datagram")).await.unwrap();
        assert_eq!(sent, 8);

        let mut storage = [MaybeUninit::uninit(); 16];
        let mut buf = ReadBuf::uninit(&mut storage);
        buf.put_slice(b">");
        poll_fn(|cx| b.poll_peek(cx, &mut buf)).await.unwrap();
        assert_eq!(buf.filled(), b">datagram");

        buf.set_filled(1);
        poll_fn(|cx| b.poll_recv(cx, &mut buf)).await.unwrap();
        assert_eq!(buf.filled(), b">datagram");
        let mut rest = [0u8; 4];
        assert_eq!(
            b.try_recv(&mut rest).unwrap_err().kind(),
            io::ErrorKind::WouldBlock
        );
    });
}

#[test]
fn udp_poll_recv_from_and_poll_peek_from_report_the_sender() {
    rt_test::io_runtime().block_on(async {
        let a = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let b_addr = b.local_addr().unwrap();
        poll_fn(|cx| a.poll_send_to(cx, b"hello", b_addr))
            .await
            .unwrap();

        let mut storage = [0u8; 3];
        let mut buf = ReadBuf::new(&mut storage);
        let peeked = poll_fn(|cx| b.poll_peek_from(cx, &mut buf)).await;
        #[cfg(not(windows))]
        {
            assert_eq!(peeked.unwrap(), a.local_addr().unwrap());
            // A datagram longer than the buffer is cut to the buffer's room.
            assert_eq!(buf.filled(), b"hel");
        }
        // Windows fails a receive or peek into a smaller buffer with
        // WSAEMSGSIZE instead (tokio documents the same).
        #[cfg(windows)]
        assert_eq!(peeked.unwrap_err().raw_os_error(), Some(10040));

        let mut storage = [0u8; 8];
        let mut buf = ReadBuf::new(&mut storage);
        let from = poll_fn(|cx| b.poll_recv_from(cx, &mut buf)).await.unwrap();
        assert_eq!(
            (buf.filled(), from),
            (&b"hello"[..], a.local_addr().unwrap())
        );
    });
}

#[test]
fn udp_peek_and_try_peek_leave_the_datagram_queued() {
    rt_test::io_runtime().block_on(async {
        let (a, b) = udp_pair().await;
        let mut buf = [0u8; 8];
        assert_eq!(
            b.try_peek(&mut buf).unwrap_err().kind(),
            io::ErrorKind::WouldBlock
        );
        a.send(b"abc").await.unwrap();
        assert_eq!(b.peek(&mut buf).await.unwrap(), 3);
        assert_eq!(b.try_peek(&mut buf).unwrap(), 3);
        assert_eq!(b.recv(&mut buf).await.unwrap(), 3);
        assert_eq!(&buf[..3], b"abc");
    });
}

#[test]
fn tcp_poll_peek_returns_the_count_and_keeps_the_bytes() {
    rt_test::io_runtime().block_on(async {
        let (mut client, mut server) = rt_test::tcp_pair().await;
        client.write_all(b"peekaboo").await.unwrap();

        let mut storage = [0u8; 4];
        let mut buf = ReadBuf::new(&mut storage);
        let n = poll_fn(|cx| server.poll_peek(cx, &mut buf)).await.unwrap();
        assert_eq!((n, buf.filled()), (4, &b"peek"[..]));

        let mut all = [0u8; 8];
        server.read_exact(&mut all).await.unwrap();
        assert_eq!(&all, b"peekaboo");
    });
}

#[cfg(unix)]
#[test]
fn unix_datagram_poll_variants() {
    rt_test::io_runtime().block_on(async {
        let (a, b) = UnixDatagram::pair().unwrap();
        poll_fn(|cx| a.poll_send(cx, b"one")).await.unwrap();
        let mut storage = [0u8; 8];
        let mut buf = ReadBuf::new(&mut storage);
        poll_fn(|cx| b.poll_recv(cx, &mut buf)).await.unwrap();
        assert_eq!(buf.filled(), b"one");

        let dir = std::env::temp_dir().join(format!("rt-readbuf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (rx_path, tx_path) = (dir.join("rx.sock"), dir.join("tx.sock"));
        let _ = std::fs::remove_file(&rx_path);
        let _ = std::fs::remove_file(&tx_path);
        let rx = UnixDatagram::bind(&rx_path).unwrap();
        let tx = UnixDatagram::bind(&tx_path).unwrap();
        let sent = poll_fn(|cx| tx.poll_send_to(cx, b"two", &rx_path))
            .await
            .unwrap();
        assert_eq!(sent, 3);
        let mut storage = [0u8; 8];
        let mut buf = ReadBuf::new(&mut storage);
        let from = poll_fn(|cx| rx.poll_recv_from(cx, &mut buf)).await.unwrap();
        assert_eq!(buf.filled(), b"two");
        assert_eq!(from.as_pathname(), Some(tx_path.as_path()));
        std::fs::remove_dir_all(&dir).unwrap();
    });
}

#[test]
fn udp_recv_buf_variants_append_to_a_vec() {
    rt_test::io_runtime().block_on(async {
        let (a, b) = udp_pair().await;
        let mut out = b"<".to_vec();
        assert_eq!(
            b.try_recv_buf(&mut out).unwrap_err().kind(),
            io::ErrorKind::WouldBlock
        );
        a.send(b"one").await.unwrap();
        assert_eq!(b.recv_buf(&mut out).await.unwrap(), 3);
        a.send(b"two").await.unwrap();
        let (n, from) = b.recv_buf_from(&mut out).await.unwrap();
        assert_eq!((n, from), (3, a.local_addr().unwrap()));
        a.send(b"three").await.unwrap();
        b.readable().await.unwrap();
        let (n, _) = b.try_recv_buf_from(&mut out).unwrap();
        assert_eq!(n, 5);
        assert_eq!(out, b"<onetwothree");
    });
}

#[cfg(unix)]
#[test]
fn unix_datagram_recv_buf_variants() {
    rt_test::io_runtime().block_on(async {
        let (a, b) = UnixDatagram::pair().unwrap();
        // Two bytes of spare room: the datagram is cut to them, the rest of
        // it is dropped as with any datagram receive.
        let mut out = Vec::with_capacity(2);
        a.send(b"first").await.unwrap();
        assert_eq!(b.recv_buf(&mut out).await.unwrap(), 2);
        a.send(b"second").await.unwrap();
        let (n, from) = b.recv_buf_from(&mut out).await.unwrap();
        assert_eq!(n, 6);
        assert!(from.is_unnamed());
        a.send(b"!").await.unwrap();
        b.readable().await.unwrap();
        assert_eq!(b.try_recv_buf(&mut out).unwrap(), 1);
        assert_eq!(
            b.try_recv_buf_from(&mut out).unwrap_err().kind(),
            io::ErrorKind::WouldBlock
        );
        assert_eq!(out, b"fisecond!");
    });
}

#[cfg(unix)]
#[test]
fn stream_try_read_buf_on_streams_and_halves() {
    rt_test::io_runtime().block_on(async {
        let (client, mut server) = rt_test::tcp_pair().await;
        client.writable().await.unwrap();
        client.try_write(b"tcp").unwrap();
        let mut out = Vec::new();
        server.readable().await.unwrap();
        assert_eq!(server.try_read_buf(&mut out).unwrap(), 3);
        client.try_write(b"+half").unwrap();
        let (read, _write) = server.split();
        read.readable().await.unwrap();
        assert_eq!(read.try_read_buf(&mut out).unwrap(), 5);
        assert_eq!(out, b"tcp+half");

        let (a, b) = UnixStream::pair().unwrap();
        let (b_read, _b_write) = b.into_split();
        a.writable().await.unwrap();
        a.try_write(b"unix").unwrap();
        let mut out = bytes::BytesMut::new();
        b_read.readable().await.unwrap();
        assert_eq!(b_read.try_read_buf(&mut out).unwrap(), 4);
        assert_eq!(&out[..], b"unix");
    });
}

#[cfg(unix)]
/// A stream's `poll_read` fills an uninitialised `ReadBuf` straight from the
/// kernel: only the bytes read become initialised, nothing is zeroed ahead
/// of them, and a second read continues after the first.
#[test]
fn stream_poll_read_initialises_only_what_it_reads() {
    use rt_io::io::AsyncRead;
    use std::pin::Pin;
    rt_test::io_runtime().block_on(async {
        let (mut a, mut b) = UnixStream::pair().unwrap();
        a.write_all(b"hello").await.unwrap();
        let mut storage = [MaybeUninit::uninit(); 64];
        let mut buf = ReadBuf::uninit(&mut storage);
        poll_fn(|cx| Pin::new(&mut b).poll_read(cx, &mut buf))
            .await
            .unwrap();
        assert_eq!(buf.filled(), b"hello");
        assert_eq!(buf.initialized().len(), 5);
        a.write_all(b", world").await.unwrap();
        poll_fn(|cx| Pin::new(&mut b).poll_read(cx, &mut buf))
            .await
            .unwrap();
        assert_eq!(buf.filled(), b"hello, world");
        assert_eq!(buf.initialized().len(), 12);
        // End of stream: a read that fills nothing.
        drop(a);
        poll_fn(|cx| Pin::new(&mut b).poll_read(cx, &mut buf))
            .await
            .unwrap();
        assert_eq!(buf.filled().len(), 12);
    });
}
