//! FramedRead, FramedWrite and Framed over duplex pipes: decoding before
//! reading, frames split across reads, errors and what follows them,
//! backpressure, close, and taking a `Framed` apart.

use bytes::{Bytes, BytesMut};
use futures_sink::Sink;
use rt_codec::SinkExt;
use rt_codec::{
    BytesCodec, Decoder, Framed, FramedParts, FramedRead, FramedWrite, LengthDelimitedCodec,
    LinesCodec,
};
use rt_io::io::{duplex, AsyncRead, AsyncWriteExt, ReadBuf};
use rt_stream::StreamExt;
use rt_test::{block_on, join2, poll_once};
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

/// A reader that counts how often it is polled.
struct CountingReader<R> {
    inner: R,
    reads: Arc<AtomicUsize>,
}

impl<R: AsyncRead + Unpin> AsyncRead for CountingReader<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

fn counting<R>(inner: R) -> (CountingReader<R>, Arc<AtomicUsize>) {
    let reads = Arc::new(AtomicUsize::new(0));
    (
        CountingReader {
            inner,
            reads: reads.clone(),
        },
        reads,
    )
}

#[test]
fn buffers_start_at_8_kib() {
    let (a, _b) = duplex(8);
    let framed = Framed::new(a, LinesCodec::new());
    assert_eq!(framed.read_buffer().capacity(), 8 * 1024);
    assert_eq!(framed.write_buffer().capacity(), 8 * 1024);
    assert_eq!(framed.backpressure_boundary(), 8 * 1024);
    let (a, _b) = duplex(8);
    let framed = FramedRead::with_capacity(a, LinesCodec::new(), 100);
    assert_eq!(framed.read_buffer().capacity(), 100);
}

#[test]
fn decodes_every_buffered_frame_before_reading_again() {
    block_on(async {
        let (reader, reads) = counting(&b"one\ntwo\nthree\n"[..]);
        let mut framed = FramedRead::new(reader, LinesCodec::new());
        for expected in ["one", "two", "three"] {
            assert_eq!(framed.next().await.unwrap().unwrap(), expected);
        }
        assert_eq!(
            reads.load(Ordering::SeqCst),
            1,
            "one read held three frames"
        );
        assert!(framed.next().await.is_none());
    });
}

#[test]
fn frames_spanning_many_reads_arrive_whole() {
    block_on(async {
        let (a, b) = duplex(3);
        let mut writer = FramedWrite::new(a, LengthDelimitedCodec::new());
        let mut reader = FramedRead::new(b, LengthDelimitedCodec::new());
        let payload = Bytes::from(vec![0xAB; 1000]);
        let (sent, got) = join2(
            async {
                writer.send(payload.clone()).await.unwrap();
                writer.close().await.unwrap();
            },
            async {
                let frame = reader.next().await.unwrap().unwrap();
                let end = reader.next().await;
                (frame, end.is_none())
            },
        )
        .await;
        let () = sent;
        assert_eq!(got.0, payload);
        assert!(got.1);
    });
}

#[test]
fn peer_stopping_mid_frame_is_an_error_then_end() {
    block_on(async {
        let (mut a, b) = duplex(64);
        a.write_all(&[0, 0, 0, 10, 1, 2, 3]).await.unwrap();
        drop(a);
        let mut reader = FramedRead::new(b, LengthDelimitedCodec::new());
        let err = reader.next().await.unwrap().unwrap_err();
        assert_eq!(err.to_string(), "bytes remaining on stream");
        assert!(reader.next().await.is_none());
    });
}

#[test]
fn header_only_then_eof_is_an_error_too() {
    block_on(async {
        let mut reader = FramedRead::new(&[0u8, 0, 0, 5][..], LengthDelimitedCodec::new());
        assert!(reader.next().await.unwrap().is_err());
        assert!(reader.next().await.is_none());
    });
}

#[test]
fn no_read_follows_an_error_until_none_was_yielded() {
    block_on(async {
        let (reader, reads) = counting(&[0xFFu8, b'\n', b'o', b'k', b'\n'][..]);
        let mut framed = FramedRead::new(reader, LinesCodec::new());
        let err = framed.next().await.unwrap().unwrap_err();
        assert!(err.to_string().contains("UTF8"), "{err}");
        let reads_at_error = reads.load(Ordering::SeqCst);
        assert!(framed.next().await.is_none());
        assert_eq!(reads.load(Ordering::SeqCst), reads_at_error);
        // Polling again resumes after the bad line.
        assert_eq!(framed.next().await.unwrap().unwrap(), "ok");
    });
}

#[test]
fn clean_eof_between_frames_ends_the_stream() {
    block_on(async {
        let mut framed = FramedRead::new(&b"a\nb"[..], LinesCodec::new());
        assert_eq!(framed.next().await.unwrap().unwrap(), "a");
        assert_eq!(framed.next().await.unwrap().unwrap(), "b");
        assert!(framed.next().await.is_none());
        assert!(framed.next().await.is_none(), "stays ended");
    });
}

#[test]
fn slow_writer_backpressure_bounds_the_write_buffer() {
    block_on(async {
        let (a, b) = duplex(16);
        let mut writer = FramedWrite::new(a, LengthDelimitedCodec::new());
        writer.set_backpressure_boundary(100);
        assert_eq!(writer.backpressure_boundary(), 100);
        let frame = Bytes::from(vec![7u8; 26]);
        let mut reader = FramedRead::new(b, LengthDelimitedCodec::new());
        let (max_buffered, received) = join2(
            async {
                let mut max_buffered = 0;
                for _ in 0..200 {
                    writer.feed(frame.clone()).await.unwrap();
                    max_buffered = max_buffered.max(writer.write_buffer().len());
                }
                writer.close().await.unwrap();
                max_buffered
            },
            async {
                let mut count = 0;
                while let Some(item) = reader.next().await {
                    assert_eq!(item.unwrap().len(), 26);
                    count += 1;
                }
                count
            },
        )
        .await;
        assert_eq!(received, 200);
        assert!(
            max_buffered < 100 + 30,
            "buffer reached {max_buffered} bytes"
        );
    });
}

#[test]
fn poll_ready_waits_while_the_peer_does_not_read() {
    let (a, _b) = duplex(10);
    let mut writer = FramedWrite::new(a, BytesCodec::new());
    writer.set_backpressure_boundary(20);
    let mut accepted = 0;
    loop {
        let ready = poll_once(pin!(std::future::poll_fn(|cx| {
            Sink::<Bytes>::poll_ready(Pin::new(&mut writer), cx)
        })));
        match ready {
            Poll::Ready(Ok(())) => {
                Pin::new(&mut writer)
                    .start_send(Bytes::from_static(b"12345"))
                    .unwrap();
                accepted += 1;
            }
            Poll::Ready(Err(e)) => panic!("{e}"),
            Poll::Pending => break,
        }
        assert!(accepted < 100, "poll_ready never pushed back");
    }
    assert!(writer.write_buffer().len() >= 10);
    assert!(writer.write_buffer().len() <= 20);
}

#[test]
fn close_flushes_then_shuts_down() {
    block_on(async {
        let (a, b) = duplex(1024);
        let mut writer = FramedWrite::new(a, LinesCodec::new());
        writer.feed("first").await.unwrap();
        writer.feed("second").await.unwrap();
        assert!(!writer.write_buffer().is_empty(), "feed does not flush");
        SinkExt::<&str>::close(&mut writer).await.unwrap();
        assert!(writer.write_buffer().is_empty());
        let mut reader = FramedRead::new(b, LinesCodec::new());
        assert_eq!(reader.next().await.unwrap().unwrap(), "first");
        assert_eq!(reader.next().await.unwrap().unwrap(), "second");
        assert!(reader.next().await.is_none(), "peer sees the end");
        // The transport is shut down: a later send fails.
        let err = writer.send("late").await.unwrap_err();
        assert!(err.to_string().contains("pipe"), "{err}");
    });
}

#[test]
fn framed_round_trips_both_ways() {
    block_on(async {
        let (a, b) = duplex(32);
        let mut client = LinesCodec::new().framed(a);
        let mut server = Framed::new(b, LinesCodec::new());
        let (_, echoed) = join2(
            async {
                for i in 0..50 {
                    client.send(format!("line {i}")).await.unwrap();
                    let back = client.next().await.unwrap().unwrap();
                    assert_eq!(back, format!("LINE {i}"));
                }
                SinkExt::<String>::close(&mut client).await.unwrap();
            },
            async {
                let mut count = 0;
                while let Some(line) = server.next().await {
                    server.send(line.unwrap().to_uppercase()).await.unwrap();
                    count += 1;
                }
                count
            },
        )
        .await;
        assert_eq!(echoed, 50);
    });
}

#[test]
fn parts_and_map_codec_keep_buffered_bytes() {
    block_on(async {
        let (mut a, b) = duplex(64);
        a.write_all(b"hello\nrest of it").await.unwrap();
        let mut framed = Framed::new(b, LinesCodec::new());
        assert_eq!(framed.next().await.unwrap().unwrap(), "hello");
        framed.feed("pending").await.unwrap();

        let parts = framed.into_parts();
        assert_eq!(&parts.read_buf[..], b"rest of it");
        assert_eq!(&parts.write_buf[..], b"pending\n");
        let mut framed = Framed::from_parts(parts);
        let mut framed_bytes = framed.map_codec(|_| BytesCodec::new());
        let chunk = framed_bytes.next().await.unwrap().unwrap();
        assert_eq!(&chunk[..], b"rest of it", "decoded without a new read");
        SinkExt::<Bytes>::flush(&mut framed_bytes).await.unwrap();
        let mut out = [0u8; 8];
        rt_io::io::AsyncReadExt::read_exact(&mut a, &mut out)
            .await
            .unwrap();
        assert_eq!(&out, b"pending\n");
        framed = framed_bytes.map_codec(|_| LinesCodec::new());
        assert!(framed.read_buffer().is_empty());
    });
}

#[test]
fn new_parts_start_empty() {
    let (a, _b) = duplex(8);
    let mut parts = FramedParts::new::<&str>(a, LinesCodec::new());
    assert!(parts.read_buf.is_empty() && parts.write_buf.is_empty());
    parts.read_buf = BytesMut::from("x\n");
    let mut framed = Framed::from_parts(parts);
    let line = poll_once(pin!(framed.next()));
    assert!(matches!(line, Poll::Ready(Some(Ok(ref l))) if l == "x"));
}

#[test]
fn accessors_reach_the_transport_and_codec() {
    let (a, _b) = duplex(8);
    let mut read = FramedRead::new(a, LinesCodec::new_with_max_length(5));
    assert_eq!(read.decoder().max_length(), 5);
    *read.decoder_mut() = LinesCodec::new_with_max_length(6);
    let _: &rt_io::io::DuplexStream = read.get_ref();
    let _ = read.get_mut();
    read.read_buffer_mut().extend_from_slice(b"abc");
    assert_eq!(&read.read_buffer()[..], b"abc");
    let read = read.map_decoder(|d| LinesCodec::new_with_max_length(d.max_length() + 1));
    assert_eq!(read.decoder().max_length(), 7);
    let _stream = read.into_inner();

    let (a, _b) = duplex(8);
    let mut write = FramedWrite::new(a, LinesCodec::new());
    write.encoder_mut();
    write.write_buffer_mut().extend_from_slice(b"x");
    let write = write.map_encoder(|_| BytesCodec::new());
    assert_eq!(&write.write_buffer()[..], b"x");
    let _: &BytesCodec = write.encoder();
    let _ = write.into_inner();
}

/// A transport that is readable and also a `Sink` and `Stream` of its own.
struct Both {
    data: &'static [u8],
    sent: Vec<u8>,
}

impl AsyncRead for Both {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.data).poll_read(cx, buf)
    }
}

impl rt_io::io::AsyncWrite for Both {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl Sink<u8> for Both {
    type Error = std::io::Error;

    fn poll_ready(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn start_send(mut self: Pin<&mut Self>, item: u8) -> std::io::Result<()> {
        self.sent.push(item);
        Ok(())
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_close(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl futures_core::Stream for Both {
    type Item = u8;

    fn poll_next(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<u8>> {
        Poll::Ready(Some(42))
    }
}

#[test]
fn framed_read_forwards_sink_and_framed_write_forwards_stream() {
    block_on(async {
        let mut read = FramedRead::new(
            Both {
                data: b"line\n",
                sent: Vec::new(),
            },
            LinesCodec::new(),
        );
        read.send(7u8).await.unwrap();
        assert_eq!(read.get_ref().sent, [7]);
        assert_eq!(read.next().await.unwrap().unwrap(), "line");

        let mut write = FramedWrite::new(
            Both {
                data: b"",
                sent: Vec::new(),
            },
            LinesCodec::new(),
        );
        assert_eq!(write.next().await, Some(42));
    });
}

#[test]
fn dropping_a_pending_next_loses_no_bytes() {
    block_on(async {
        let (mut a, b) = duplex(64);
        let mut reader = FramedRead::new(b, LinesCodec::new());
        a.write_all(b"hel").await.unwrap();
        {
            let mut first = Box::pin(reader.next());
            assert!(poll_once(first.as_mut()).is_pending(), "half a line");
        }
        a.write_all(b"lo\nworld\n").await.unwrap();
        assert_eq!(reader.next().await.unwrap().unwrap(), "hello");
        assert_eq!(reader.next().await.unwrap().unwrap(), "world");
    });
}

#[test]
fn with_capacity_sets_buffers_and_boundary() {
    let (a, _b) = duplex(8);
    let framed = Framed::with_capacity(a, LinesCodec::new(), 256);
    assert_eq!(framed.read_buffer().capacity(), 256);
    assert_eq!(framed.backpressure_boundary(), 256);
}
