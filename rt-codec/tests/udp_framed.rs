//! UdpFramed over loopback sockets: frames out and in with their
//! addresses, several frames in one datagram, leftovers dropped at the
//! datagram's end, and decode errors that leave the stream going.
#![cfg(feature = "net")]

use bytes::{BufMut, Bytes, BytesMut};
use futures_core::Stream;
use futures_sink::Sink;
use rt_codec::{
    BytesCodec, Decoder, LengthDelimitedCodec, LinesCodec, LinesCodecError, SinkExt, UdpFramed,
};
use rt_core::runtime::Builder;
use rt_io::net::UdpSocket;
use rt_stream::StreamExt;
use std::future::{poll_fn, Future};
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

fn run<F: Future>(fut: F) -> F::Output {
    Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap()
        .block_on(fut)
}

async fn next<S: Stream + Unpin>(stream: &mut S) -> S::Item {
    stream.next().await.expect("a UdpFramed stream never ends")
}

async fn bound() -> UdpSocket {
    UdpSocket::bind("127.0.0.1:0").await.unwrap()
}

/// A raw socket to send hand-made datagrams, and a framed receiver.
async fn raw_and_framed<C>(codec: C) -> (UdpSocket, UdpFramed<C>, SocketAddr) {
    let raw = bound().await;
    let framed = UdpFramed::new(bound().await, codec);
    let addr = framed.get_ref().local_addr().unwrap();
    (raw, framed, addr)
}

#[test]
fn lines_go_out_and_come_back_with_their_senders() {
    run(async {
        let mut a = UdpFramed::new(bound().await, LinesCodec::new());
        let mut b = UdpFramed::new(bound().await, LinesCodec::new());
        let a_addr = a.get_ref().local_addr().unwrap();
        let b_addr = b.get_ref().local_addr().unwrap();
        for line in ["one", "two", "three"] {
            a.send((line, b_addr)).await.unwrap();
        }
        for expected in ["one", "two", "three"] {
            assert_eq!(next(&mut b).await.unwrap(), (expected.to_string(), a_addr));
        }
        b.send((String::from("reply"), a_addr)).await.unwrap();
        assert_eq!(next(&mut a).await.unwrap(), ("reply".to_string(), b_addr));
    });
}

#[test]
fn each_item_sent_is_one_datagram() {
    run(async {
        let mut framed = UdpFramed::new(bound().await, LinesCodec::new());
        let raw = bound().await;
        let raw_addr = raw.local_addr().unwrap();
        framed.feed(("first", raw_addr)).await.unwrap();
        // `poll_ready` sends the waiting datagram before taking another.
        framed.feed(("second", raw_addr)).await.unwrap();
        SinkExt::<(&str, SocketAddr)>::flush(&mut framed)
            .await
            .unwrap();
        let mut buf = [0u8; 64];
        let (n, _) = raw.recv_from(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"first\n");
        let (n, _) = raw.recv_from(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"second\n");
    });
}

#[test]
fn bytes_round_trip_including_a_full_size_datagram() {
    run(async {
        let mut a = UdpFramed::new(bound().await, BytesCodec::new());
        let mut b = UdpFramed::new(bound().await, BytesCodec::new());
        let b_addr = b.get_ref().local_addr().unwrap();
        let small = Bytes::from_static(b"\x00\x01binary\xff");
        // The largest UDP payload over IPv4.
        let big: Bytes = (0..65_507).map(|i| (i % 251) as u8).collect();
        a.send((small.clone(), b_addr)).await.unwrap();
        a.send((big.clone(), b_addr)).await.unwrap();
        assert_eq!(next(&mut b).await.unwrap().0, small);
        assert_eq!(next(&mut b).await.unwrap().0, big);
    });
}

#[test]
fn one_datagram_may_carry_several_frames() {
    run(async {
        let (raw, mut framed, addr) = raw_and_framed(LinesCodec::new()).await;
        let raw_addr = raw.local_addr().unwrap();
        // The last line needs no `\n`: the datagram's end ends it.
        raw.send_to(b"a\nb\r\nc", addr).await.unwrap();
        raw.send_to(b"d\n", addr).await.unwrap();
        for expected in ["a", "b", "c", "d"] {
            assert_eq!(
                next(&mut framed).await.unwrap(),
                (expected.to_string(), raw_addr)
            );
        }
    });
}

#[test]
fn length_delimited_frames_never_span_datagrams() {
    run(async {
        let (raw, mut framed, addr) = raw_and_framed(LengthDelimitedCodec::new()).await;
        let mut datagram = BytesMut::new();
        for payload in [&b"x"[..], b"yz"] {
            datagram.put_u32(payload.len() as u32);
            datagram.put_slice(payload);
        }
        raw.send_to(&datagram, addr).await.unwrap();
        // A header promising 10 bytes, followed by 3 of them.
        raw.send_to(b"\x00\x00\x00\x0aabc", addr).await.unwrap();
        // The rest of that frame, as a datagram of its own, is not glued
        // to it: read alone it is a header for 0x64656667 bytes.
        raw.send_to(b"defghij", addr).await.unwrap();
        raw.send_to(b"\x00\x00\x00\x02ok", addr).await.unwrap();

        assert_eq!(&next(&mut framed).await.unwrap().0[..], b"x");
        assert_eq!(&next(&mut framed).await.unwrap().0[..], b"yz");
        let cut_short = next(&mut framed).await.unwrap_err();
        assert_eq!(cut_short.to_string(), "bytes remaining on stream");
        let too_long = next(&mut framed).await.unwrap_err();
        assert_eq!(too_long.kind(), io::ErrorKind::InvalidData);
        assert_eq!(too_long.to_string(), "frame size too big");
        assert_eq!(&next(&mut framed).await.unwrap().0[..], b"ok");
        assert!(framed.read_buffer().is_empty());
    });
}

#[test]
fn a_broken_datagram_is_an_error_and_the_stream_goes_on() {
    run(async {
        let (raw, mut framed, addr) = raw_and_framed(LinesCodec::new()).await;
        raw.send_to(b"fine\n\xff\xfe\nafter\n", addr).await.unwrap();
        raw.send_to(b"\xc3", addr).await.unwrap();
        raw.send_to(b"next\n", addr).await.unwrap();
        assert_eq!(next(&mut framed).await.unwrap().0, "fine");
        match next(&mut framed).await {
            Err(LinesCodecError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::InvalidData),
            other => panic!("expected an invalid UTF-8 error, got {other:?}"),
        }
        // The bad line was consumed; the rest of its datagram still counts.
        assert_eq!(next(&mut framed).await.unwrap().0, "after");
        // A datagram holding only half a character.
        assert!(matches!(
            next(&mut framed).await,
            Err(LinesCodecError::Io(_))
        ));
        assert_eq!(next(&mut framed).await.unwrap().0, "next");
    });
}

#[test]
fn an_over_long_line_is_skipped_within_its_datagram() {
    run(async {
        let (raw, mut framed, addr) = raw_and_framed(LinesCodec::new_with_max_length(4)).await;
        raw.send_to(b"too long\nok\n", addr).await.unwrap();
        raw.send_to(b"good\n", addr).await.unwrap();
        assert!(matches!(
            next(&mut framed).await,
            Err(LinesCodecError::MaxLineLengthExceeded)
        ));
        assert_eq!(next(&mut framed).await.unwrap().0, "ok");
        assert_eq!(next(&mut framed).await.unwrap().0, "good");
    });
}

/// A decoder whose `decode_eof` fails on any leftover byte without
/// consuming it (the default `decode_eof`).
struct Pairs;

impl Decoder for Pairs {
    type Item = [u8; 2];
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<[u8; 2]>> {
        if src.len() < 2 {
            return Ok(None);
        }
        let pair = src.split_to(2);
        Ok(Some([pair[0], pair[1]]))
    }
}

#[test]
fn a_stuck_decoder_reports_once_then_moves_to_the_next_datagram() {
    run(async {
        let (raw, mut framed, addr) = raw_and_framed(Pairs).await;
        raw.send_to(b"abc", addr).await.unwrap();
        raw.send_to(b"de", addr).await.unwrap();
        assert_eq!(next(&mut framed).await.unwrap().0, *b"ab");
        let err = next(&mut framed).await.unwrap_err();
        assert_eq!(err.to_string(), "bytes remaining on stream");
        assert_eq!(next(&mut framed).await.unwrap().0, *b"de");
    });
}

#[test]
fn empty_datagrams_carry_no_frames() {
    run(async {
        let (raw, mut framed, addr) = raw_and_framed(BytesCodec::new()).await;
        raw.send_to(b"", addr).await.unwrap();
        raw.send_to(b"data", addr).await.unwrap();
        assert_eq!(&next(&mut framed).await.unwrap().0[..], b"data");
    });
}

#[test]
#[cfg(target_os = "linux")] // EMSGSIZE is 90 there
fn a_refused_datagram_is_an_error_once_and_the_sink_goes_on() {
    run(async {
        let mut framed = UdpFramed::new(bound().await, BytesCodec::new());
        let raw = bound().await;
        let raw_addr = raw.local_addr().unwrap();
        let too_big = Bytes::from(vec![0u8; 70_000]);
        let err = framed.send((too_big, raw_addr)).await.unwrap_err();
        assert_eq!(err.raw_os_error(), Some(90), "EMSGSIZE: {err}");
        framed
            .send((Bytes::from_static(b"small"), raw_addr))
            .await
            .unwrap();
        let mut buf = [0u8; 16];
        let (n, _) = raw.recv_from(&mut buf).await.unwrap();
        assert_eq!(&buf[..n], b"small");
    });
}

#[test]
fn a_shared_socket_can_back_a_receiver_and_a_sender() {
    run(async {
        let socket = Arc::new(bound().await);
        let mut receiver = UdpFramed::new(socket.clone(), LinesCodec::new());
        let mut sender = UdpFramed::new(socket.clone(), LinesCodec::new());
        let peer = bound().await;
        let peer_addr = peer.local_addr().unwrap();
        let own_addr = socket.local_addr().unwrap();
        sender.send(("to the peer", peer_addr)).await.unwrap();
        let mut buf = [0u8; 32];
        let (n, from) = peer.recv_from(&mut buf).await.unwrap();
        assert_eq!((&buf[..n], from), (&b"to the peer\n"[..], own_addr));
        peer.send_to(b"back\n", own_addr).await.unwrap();
        assert_eq!(
            next(&mut receiver).await.unwrap(),
            ("back".to_string(), peer_addr)
        );
        assert!(Arc::ptr_eq(receiver.get_ref(), &socket));
        drop(sender.into_inner());
    });
}

#[test]
fn accessors_and_a_quiet_socket() {
    run(async {
        let mut framed = UdpFramed::new(bound().await, LinesCodec::new_with_max_length(9));
        assert_eq!(framed.codec().max_length(), 9);
        *framed.codec_mut() = LinesCodec::new();
        assert_eq!(framed.codec().max_length(), usize::MAX);
        assert!(framed.read_buffer().is_empty());
        framed.read_buffer_mut().reserve(10);
        let _ = framed.get_mut();
        assert!(format!("{framed:?}").starts_with("UdpFramed"));
        // Nothing sent: the stream is pending, and flushing an empty sink
        // is done at once.
        let polled = poll_fn(|cx| {
            let stream = Pin::new(&mut framed).poll_next(cx).is_pending();
            let sink = Sink::<(&str, SocketAddr)>::poll_flush(Pin::new(&mut framed), cx).is_ready();
            Poll::Ready((stream, sink))
        })
        .await;
        assert_eq!(polled, (true, true));
    });
}
