//! The utilities: duplex pipes, split/unsplit, join, empty/sink/repeat,
//! buffered readers and writers, and the copies, all over in-memory streams.

use rt_io::io::{
    copy, copy_bidirectional, copy_bidirectional_with_sizes, copy_buf, duplex, empty, join, repeat,
    sink, split, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader, BufStream,
    BufWriter, DuplexStream, ErrorKind, ReadBuf,
};
use rt_test::{block_on, join2, poll_once};
use std::pin::{pin, Pin};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

#[test]
fn duplex_applies_backpressure_at_capacity() {
    let (mut a, mut b) = duplex(4);
    let mut write = Box::pin(a.write(b"abcdef"));
    assert!(matches!(
        poll_once(Pin::new(&mut write)),
        Poll::Ready(Ok(4))
    ));
    drop(write);
    let mut blocked = Box::pin(a.write(b"ef"));
    assert!(
        poll_once(Pin::new(&mut blocked)).is_pending(),
        "full pipe waits"
    );
    drop(blocked);
    block_on(async {
        let mut buf = [0u8; 4];
        b.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"abcd");
    });
    let mut write = Box::pin(a.write(b"ef"));
    assert!(matches!(
        poll_once(Pin::new(&mut write)),
        Poll::Ready(Ok(2))
    ));
}

#[test]
fn duplex_eof_after_shutdown_or_drop_and_broken_pipe() {
    block_on(async {
        let (mut a, mut b) = duplex(16);
        a.write_all(b"last").await.unwrap();
        a.shutdown().await.unwrap();
        let mut out = Vec::new();
        b.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"last");
        b.write_all(b"back").await.unwrap();
        drop(b);
        let mut out = Vec::new();
        a.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"back");
        let err = a.write_all(b"x").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BrokenPipe);
    });
}

/// A waker that, when woken, reads from the duplex end it holds, the way a
/// task woken on another worker would poll its stream at once.
struct ReadsOnWake {
    stream: Mutex<Option<DuplexStream>>,
    read: Mutex<Vec<u8>>,
}

impl Wake for ReadsOnWake {
    fn wake(self: Arc<Self>) {
        let mut stream = self.stream.lock().unwrap();
        let stream = stream.as_mut().expect("the stream was handed over");
        let noop = Waker::from(Arc::new(Noop));
        let mut storage = [0u8; 8];
        let mut buf = ReadBuf::new(&mut storage);
        let polled = Pin::new(stream).poll_read(&mut Context::from_waker(&noop), &mut buf);
        assert!(matches!(polled, Poll::Ready(Ok(()))));
        self.read.lock().unwrap().extend_from_slice(buf.filled());
    }
}

struct Noop;

impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

#[test]
fn duplex_wakes_the_reader_after_releasing_the_pipe() {
    let (mut a, mut b) = duplex(8);
    let reader = Arc::new(ReadsOnWake {
        stream: Mutex::new(None),
        read: Mutex::new(Vec::new()),
    });
    let waker = Waker::from(reader.clone());
    let mut storage = [0u8; 8];
    let mut buf = ReadBuf::new(&mut storage);
    let polled = Pin::new(&mut b).poll_read(&mut Context::from_waker(&waker), &mut buf);
    assert!(polled.is_pending(), "an empty pipe waits");
    *reader.stream.lock().unwrap() = Some(b);
    // The write wakes the reader, which locks the same pipe from inside
    // its wake: this only completes if the writer released the lock first.
    assert!(matches!(
        poll_once(pin!(a.write(b"hi"))),
        Poll::Ready(Ok(2))
    ));
    assert_eq!(*reader.read.lock().unwrap(), b"hi");
}

#[test]
fn duplex_spends_the_coop_budget() {
    let (mut a, _b) = duplex(1024);
    rt_core::task::coop::with_budget(2, || {
        assert!(poll_once(pin!(a.write(b"x"))).is_ready());
        assert!(poll_once(pin!(a.write(b"x"))).is_ready());
        assert!(poll_once(pin!(a.write(b"x"))).is_pending());
    });
}

#[test]
fn split_halves_work_and_unsplit() {
    block_on(async {
        let (a, mut b) = duplex(64);
        let (mut read, mut write) = split(a);
        write.write_all(b"to b").await.unwrap();
        b.write_all(b"to a").await.unwrap();
        let mut buf = [0u8; 4];
        read.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"to a");
        b.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"to b");
        assert!(read.is_pair_of(&write));
        let _whole = read.unsplit(write);
    });
}

#[test]
#[should_panic(expected = "belongs to another stream")]
fn unsplit_rejects_foreign_halves() {
    let (r1, _w1) = split(duplex(1).0);
    let (_r2, w2) = split(duplex(1).0);
    let _ = r1.unsplit(w2);
}

#[test]
fn join_reads_one_and_writes_the_other() {
    block_on(async {
        let mut out = Vec::new();
        let mut buf = [0u8; 2];
        {
            let mut joined = join(&b"in"[..], &mut out);
            joined.read_exact(&mut buf).await.unwrap();
            joined.write_all(b"out").await.unwrap();
        }
        assert_eq!(&buf, b"in");
        assert_eq!(out, b"out");
    });
}

#[test]
fn empty_sink_and_repeat() {
    block_on(async {
        let mut out = Vec::new();
        assert_eq!(empty().read_to_end(&mut out).await.unwrap(), 0);
        assert_eq!(sink().write(b"gone").await.unwrap(), 4);
        let mut buf = [0u8; 5];
        repeat(7).read_exact(&mut buf).await.unwrap();
        assert_eq!(buf, [7; 5]);
        let mut limited = Vec::new();
        repeat(1).take(10).read_to_end(&mut limited).await.unwrap();
        assert_eq!(limited, [1; 10]);
    });
}

#[test]
fn buf_reader_buffers_and_bypasses() {
    block_on(async {
        let mut reader = BufReader::with_capacity(4, &b"abcdefghij"[..]);
        let mut one = [0u8; 1];
        reader.read_exact(&mut one).await.unwrap();
        assert_eq!(reader.buffer(), b"bcd");
        let mut big = [0u8; 8];
        let n = reader.read(&mut big).await.unwrap();
        assert_eq!(&big[..n], b"bcd", "buffered bytes come first");
        let n = reader.read(&mut big).await.unwrap();
        assert_eq!(&big[..n], b"efghij", "large reads skip the buffer");
    });
}

#[test]
fn buf_writer_collects_until_flush() {
    block_on(async {
        let (a, mut b) = duplex(64);
        let mut writer = BufWriter::with_capacity(8, a);
        writer.write_all(b"abc").await.unwrap();
        assert_eq!(writer.buffer(), b"abc");
        let mut probe = Box::pin(b.read_u8());
        assert!(
            poll_once(Pin::new(&mut probe)).is_pending(),
            "nothing sent before flush"
        );
        drop(probe);
        writer.write_all(b"defghi").await.unwrap();
        writer.write_all(b"0123456789").await.unwrap();
        writer.flush().await.unwrap();
        let mut buf = [0u8; 19];
        b.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"abcdefghi0123456789");
        writer.shutdown().await.unwrap();
        assert_eq!(b.read(&mut buf).await.unwrap(), 0);
    });
}

#[test]
fn buf_stream_buffers_both_ways() {
    block_on(async {
        let (a, mut b) = duplex(64);
        let mut stream = BufStream::new(a);
        stream.write_all(b"hello\n").await.unwrap();
        stream.flush().await.unwrap();
        let mut line = String::new();
        BufReader::new(&mut b).read_line(&mut line).await.unwrap();
        assert_eq!(line, "hello\n");
        b.write_all(b"world\n").await.unwrap();
        line.clear();
        stream.read_line(&mut line).await.unwrap();
        assert_eq!(line, "world\n");
    });
}

#[test]
fn copy_moves_everything_through_a_small_pipe() {
    block_on(async {
        // Less under Miri, which interprets each chunk's hand-off.
        let len = if cfg!(miri) { 5_000u32 } else { 50_000 };
        let data: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
        let (mut a, mut b) = duplex(100);
        let mut src: &[u8] = &data;
        let (copied, received) = join2(
            async {
                let n = copy(&mut src, &mut a).await.unwrap();
                drop(a);
                n
            },
            async {
                let mut out = Vec::new();
                b.read_to_end(&mut out).await.unwrap();
                out
            },
        )
        .await;
        assert_eq!(copied, data.len() as u64);
        assert_eq!(received, data);
    });
}

#[test]
fn copy_buf_writes_from_the_reader_buffer() {
    block_on(async {
        let mut reader = BufReader::with_capacity(3, &b"buffered copy"[..]);
        let mut out = Vec::new();
        assert_eq!(copy_buf(&mut reader, &mut out).await.unwrap(), 13);
        assert_eq!(out, b"buffered copy");
    });
}

#[test]
fn copy_bidirectional_relays_both_ways_and_shuts_down() {
    block_on(async {
        let (mut client, mut proxy_in) = duplex(16);
        let (mut proxy_out, mut server) = duplex(16);
        let relay = copy_bidirectional(&mut proxy_in, &mut proxy_out);
        let client_side = async {
            client.write_all(&[1u8; 1000]).await.unwrap();
            client.shutdown().await.unwrap();
            let mut back = Vec::new();
            client.read_to_end(&mut back).await.unwrap();
            back
        };
        let server_side = async {
            let mut got = Vec::new();
            server.read_to_end(&mut got).await.unwrap();
            server.write_all(&[2u8; 300]).await.unwrap();
            server.shutdown().await.unwrap();
            got
        };
        let (counts, (back, got)) = join2(relay, join2(client_side, server_side)).await;
        assert_eq!(counts.unwrap(), (1000, 300));
        assert_eq!(got, vec![1u8; 1000]);
        assert_eq!(back, vec![2u8; 300]);
    });
}

#[test]
fn copy_bidirectional_rejects_zero_sized_buffers() {
    block_on(async {
        let (mut a, _x) = duplex(1);
        let (mut b, _y) = duplex(1);
        let err = copy_bidirectional_with_sizes(&mut a, &mut b, 0, 8)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
    });
}

#[test]
fn chain_reads_one_reader_then_the_next() {
    block_on(async {
        let mut chained = (&b"ab"[..]).chain(&b"cd"[..]);
        let mut out = Vec::new();
        chained.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"abcd");

        let mut lines = BufReader::new(&b"one\ntw"[..])
            .chain(&b"o\nthree"[..])
            .lines();
        let mut got = Vec::new();
        while let Some(line) = lines.next_line().await.unwrap() {
            got.push(line);
        }
        assert_eq!(got, ["one", "two", "three"]);
    });
}

#[test]
fn buf_reader_seeks_relative_to_what_was_consumed() {
    use rt_io::io::{AsyncSeekExt, SeekFrom};
    block_on(async {
        let mut reader = BufReader::with_capacity(4, std::io::Cursor::new(b"0123456789".to_vec()));
        let mut two = [0u8; 2];
        reader.read_exact(&mut two).await.unwrap();
        assert_eq!(reader.buffer(), b"23", "two bytes still buffered");
        assert_eq!(reader.stream_position().await.unwrap(), 2);
        assert_eq!(reader.seek(SeekFrom::Current(3)).await.unwrap(), 5);
        reader.read_exact(&mut two).await.unwrap();
        assert_eq!(&two, b"56");
        assert_eq!(reader.seek(SeekFrom::End(-1)).await.unwrap(), 9);
        reader.read_exact(&mut two[..1]).await.unwrap();
        assert_eq!(two[0], b'9');
    });
}

#[test]
fn copy_yields_when_the_coop_budget_is_spent() {
    let mut source = repeat(1).take(1 << 16);
    let mut target = sink();
    let mut copying = Box::pin(copy(&mut source, &mut target));
    rt_core::task::coop::with_budget(4, || {
        assert!(
            poll_once(Pin::new(&mut copying)).is_pending(),
            "an endless-ready copy still yields"
        );
    });
    let copied = block_on(copying).unwrap();
    assert_eq!(copied, 1 << 16);
}

/// An endless reader and a writer that counts what it takes, neither of
/// which spends coop budget, as a plain in-memory stream does not.
struct Unbudgeted {
    written: usize,
}

impl AsyncRead for Unbudgeted {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let n = buf.remaining();
        buf.initialize_unfilled_to(n).fill(7);
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}

impl rt_io::io::AsyncWrite for Unbudgeted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.written += buf.len();
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[test]
fn copy_between_streams_that_spend_no_budget_still_yields() {
    let mut source = Unbudgeted { written: 0 };
    let mut target = Unbudgeted { written: 0 };
    {
        let mut copying = Box::pin(copy(&mut source, &mut target));
        rt_core::task::coop::with_budget(4, || {
            assert!(
                poll_once(Pin::new(&mut copying)).is_pending(),
                "an endless copy that no resource charges yields all the same"
            );
        });
    }
    // One unit goes to the poll and one to each round that ends with some
    // left: three such rounds, and the fourth, which finds none, ends the
    // poll. The first round's read fills the 8 KiB buffer, so the other
    // three move 16 KiB each.
    assert_eq!(target.written, 8 * 1024 + 3 * 16 * 1024);
}

#[test]
fn copy_rounds_spend_only_the_budget_of_their_reads_and_writes() {
    // `repeat` and `sink` spend a unit per read and per write, as sockets
    // do: with 9 units, one goes to the poll and four rounds of a read and
    // a write use the other eight, the rate of tokio's copy. The first
    // read fills the 8 KiB buffer, and the buffer grows to 16 KiB.
    let mut source = repeat(1).take(1 << 20);
    let mut target = sink();
    let mut copying = Box::pin(copy(&mut source, &mut target));
    rt_core::task::coop::with_budget(9, || {
        assert!(poll_once(Pin::new(&mut copying)).is_pending());
    });
    drop(copying);
    assert_eq!(source.limit(), (1 << 20) - (8 * 1024 + 3 * 16 * 1024));
}

#[test]
fn copy_buf_rounds_spend_only_the_budget_of_their_reads_and_writes() {
    // As above, through the reader's own 8 KiB buffer: each refill and
    // each write spends a unit.
    let mut source = BufReader::with_capacity(8 * 1024, repeat(1).take(1 << 20));
    let mut target = sink();
    let mut copying = Box::pin(copy_buf(&mut source, &mut target));
    rt_core::task::coop::with_budget(9, || {
        assert!(poll_once(Pin::new(&mut copying)).is_pending());
    });
    drop(copying);
    assert_eq!(source.get_ref().limit(), (1 << 20) - 4 * 8 * 1024);
}

#[test]
fn simplex_carries_bytes_one_way_with_backpressure() {
    use rt_io::io::simplex;
    block_on(async {
        let (mut rx, mut tx) = simplex(4);
        let (_, got) = join2(
            async {
                tx.write_all(b"one way only").await.unwrap();
                tx.shutdown().await.unwrap();
            },
            async {
                let mut got = Vec::new();
                rx.read_to_end(&mut got).await.unwrap();
                got
            },
        )
        .await;
        assert_eq!(got, b"one way only");
        let err = tx.write_all(b"late").await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BrokenPipe);
        let mut whole = rx.unsplit(tx);
        let mut rest = Vec::new();
        whole.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty());
    });
}

#[test]
fn duplex_zero_length_and_vectored_writes() {
    use std::io::IoSlice;
    block_on(async {
        // Zero-length calls complete at once, even with nothing to read or
        // no room to write.
        let (mut reader, _peer) = duplex(1);
        let mut read = Box::pin(reader.read(&mut []));
        assert!(matches!(poll_once(Pin::new(&mut read)), Poll::Ready(Ok(0))));
        drop(read);

        let (mut writer, mut peer) = duplex(4);
        writer.write_all(b"abcd").await.unwrap();
        let mut write = Box::pin(writer.write(&[]));
        assert!(matches!(
            poll_once(Pin::new(&mut write)),
            Poll::Ready(Ok(0))
        ));
        drop(write);
        let empty = [IoSlice::new(&[]), IoSlice::new(&[])];
        let mut write = Box::pin(writer.write_vectored(&empty));
        assert!(matches!(
            poll_once(Pin::new(&mut write)),
            Poll::Ready(Ok(0))
        ));
        drop(write);

        // A vectored write takes from every slice, up to the room left.
        let mut drained = [0u8; 4];
        peer.read_exact(&mut drained).await.unwrap();
        assert!(rt_io::io::AsyncWrite::is_write_vectored(&writer));
        let bufs = [
            IoSlice::new(b"ab"),
            IoSlice::new(b""),
            IoSlice::new(b"cdef"),
        ];
        assert_eq!(writer.write_vectored(&bufs).await.unwrap(), 4);
        peer.read_exact(&mut drained).await.unwrap();
        assert_eq!(&drained, b"abcd");

        // Closed: even an empty write fails.
        drop(peer);
        let err = writer.write(&[]).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BrokenPipe);
    });
}

/// A writer that takes at most `limit` bytes per call and records them;
/// `vectored` says whether it writes several slices in one call.
struct Limited {
    data: Vec<u8>,
    limit: usize,
    vectored: bool,
}

impl rt_io::io::AsyncWrite for Limited {
    fn poll_write(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let n = buf.len().min(self.limit);
        self.data.extend_from_slice(&buf[..n]);
        Poll::Ready(Ok(n))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        if !self.vectored {
            let first = bufs.iter().find(|b| !b.is_empty()).map_or(&[][..], |b| b);
            return self.poll_write(cx, first);
        }
        let mut n = 0;
        for buf in bufs {
            let take = buf.len().min(self.limit - n);
            self.data.extend_from_slice(&buf[..take]);
            n += take;
        }
        Poll::Ready(Ok(n))
    }

    fn is_write_vectored(&self) -> bool {
        self.vectored
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[test]
fn buf_writer_write_vectored_buffers_what_fits() {
    use std::io::IoSlice;
    let msg = b"foo bar baz";
    let bufs = [
        IoSlice::new(&msg[0..4]),
        IoSlice::new(&msg[4..8]),
        IoSlice::new(&msg[8..]),
    ];
    block_on(async {
        for vectored in [false, true] {
            // Room for all: every slice is buffered in one call.
            let inner = Limited {
                data: Vec::new(),
                limit: 4,
                vectored,
            };
            let mut w = BufWriter::new(inner);
            assert_eq!(w.write_vectored(&bufs).await.unwrap(), 11);
            assert_eq!(w.buffer(), msg);
            w.flush().await.unwrap();
            assert_eq!(w.get_ref().data, msg);
        }

        // Non-vectored inner, 8-byte buffer: the first two slices fit.
        let inner = Limited {
            data: Vec::new(),
            limit: 4,
            vectored: false,
        };
        let mut w = BufWriter::with_capacity(8, inner);
        assert_eq!(w.write_vectored(&bufs).await.unwrap(), 8);
        assert_eq!(w.buffer(), &msg[..8]);
        assert_eq!(w.write_vectored(&bufs[2..]).await.unwrap(), 3);
        assert_eq!(w.get_ref().data, &msg[..8]);
        assert_eq!(w.buffer(), &msg[8..]);

        // Vectored inner and more than the buffer holds: straight through.
        let inner = Limited {
            data: Vec::new(),
            limit: 10,
            vectored: true,
        };
        let mut w = BufWriter::with_capacity(8, inner);
        assert_eq!(w.write_vectored(&bufs).await.unwrap(), 10);
        assert!(w.buffer().is_empty());
        assert_eq!(w.get_ref().data, &msg[..10]);

        let mut w = BufWriter::new(Limited {
            data: Vec::new(),
            limit: 4,
            vectored: false,
        });
        let empty = [IoSlice::new(&[]); 3];
        assert_eq!(w.write_vectored(&empty).await.unwrap(), 0);
    });
}

#[test]
fn zero_capacity_pipes_panic_at_the_caller() {
    for make in [
        (|| drop(duplex(0))) as fn(),
        || drop(rt_io::io::simplex(0)),
        || drop(rt_io::io::SimplexStream::new_unsplit(0)),
    ] {
        let file = Arc::new(Mutex::new(None));
        let seen = file.clone();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            *seen.lock().unwrap() = info.location().map(|l| l.file().to_string());
        }));
        let result = std::panic::catch_unwind(make);
        std::panic::set_hook(previous);
        assert!(result.is_err());
        assert_eq!(file.lock().unwrap().as_deref(), Some(file!()));
    }
}
