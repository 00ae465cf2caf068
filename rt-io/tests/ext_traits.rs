//! The extension traits' futures over slices, vectors, cursors and duplex
//! pipes: exact reads, EOF handling, numbers in both byte orders, strings,
//! lines and segments.

use rt_io::io::{
    duplex, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncSeekExt, AsyncWriteExt, BufReader,
    ErrorKind, ReadBuf, SeekFrom,
};
use rt_test::{block_on, join2};
use std::io::Cursor;
use std::pin::Pin;
use std::task::{Context, Poll};

#[test]
fn read_returns_zero_at_eof_and_for_empty_buffers() {
    block_on(async {
        let mut src: &[u8] = b"ab";
        let mut buf = [0u8; 8];
        assert_eq!(src.read(&mut []).await.unwrap(), 0);
        assert_eq!(src.read(&mut buf).await.unwrap(), 2);
        assert_eq!(src.read(&mut buf).await.unwrap(), 0);
    });
}

#[test]
fn read_exact_waits_for_every_byte_and_reports_early_eof() {
    block_on(async {
        let (mut a, mut b) = duplex(3);
        let writer = async {
            a.write_all(b"0123456789").await.unwrap();
            drop(a);
        };
        let reader = async {
            let mut buf = [0u8; 8];
            b.read_exact(&mut buf).await.unwrap();
            assert_eq!(&buf, b"01234567");
            let err = b.read_exact(&mut buf).await.unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
        };
        join2(writer, reader).await;
    });
}

#[test]
fn numbers_round_trip_in_both_byte_orders() {
    block_on(async {
        let mut out = Vec::new();
        out.write_u8(0xAB).await.unwrap();
        out.write_i8(-2).await.unwrap();
        out.write_u16(0x0102).await.unwrap();
        out.write_u16_le(0x0102).await.unwrap();
        out.write_i32(-5).await.unwrap();
        out.write_u64_le(u64::MAX - 1).await.unwrap();
        out.write_i128(-7).await.unwrap();
        out.write_f32(1.5).await.unwrap();
        out.write_f64_le(-2.25).await.unwrap();
        assert_eq!(&out[2..6], &[1, 2, 2, 1]);

        let mut src: &[u8] = &out;
        assert_eq!(src.read_u8().await.unwrap(), 0xAB);
        assert_eq!(src.read_i8().await.unwrap(), -2);
        assert_eq!(src.read_u16().await.unwrap(), 0x0102);
        assert_eq!(src.read_u16_le().await.unwrap(), 0x0102);
        assert_eq!(src.read_i32().await.unwrap(), -5);
        assert_eq!(src.read_u64_le().await.unwrap(), u64::MAX - 1);
        assert_eq!(src.read_i128().await.unwrap(), -7);
        assert_eq!(src.read_f32().await.unwrap(), 1.5);
        assert_eq!(src.read_f64_le().await.unwrap(), -2.25);
        let err = src.read_u32().await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    });
}

#[test]
fn numbers_cross_a_one_byte_pipe() {
    block_on(async {
        let (mut a, mut b) = duplex(1);
        let (_, value) = join2(
            async { a.write_u64(0x0102_0304_0506_0708).await.unwrap() },
            async { b.read_u64().await.unwrap() },
        )
        .await;
        assert_eq!(value, 0x0102_0304_0506_0708);
    });
}

#[test]
fn read_to_end_and_read_to_string() {
    block_on(async {
        let data: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
        let mut src: &[u8] = &data;
        let mut all = vec![9u8];
        assert_eq!(src.read_to_end(&mut all).await.unwrap(), data.len());
        assert_eq!(&all[1..], &data[..]);

        let mut text = String::from("> ");
        let mut src: &[u8] = "héllo".as_bytes();
        assert_eq!(src.read_to_string(&mut text).await.unwrap(), 6);
        assert_eq!(text, "> héllo");

        let mut bad: &[u8] = &[b'a', 0xFF];
        let err = bad.read_to_string(&mut text).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidData);
        assert_eq!(text, "> héllo", "invalid input leaves the string alone");
    });
}

#[test]
fn read_buf_and_write_buf_use_bytes_buffers() {
    block_on(async {
        let mut src: &[u8] = b"hello world";
        let mut dst = bytes::BytesMut::with_capacity(4);
        let n = src.read_buf(&mut dst).await.unwrap();
        assert!(n > 0);
        while src.read_buf(&mut dst).await.unwrap() > 0 {
            dst.reserve(4);
        }
        assert_eq!(&dst[..], b"hello world");

        let mut out = Vec::new();
        let mut chain = bytes::Buf::chain(&b"ab"[..], &b"cd"[..]);
        out.write_all_buf(&mut chain).await.unwrap();
        assert_eq!(out, b"abcd");
    });
}

#[test]
fn cursor_reads_writes_and_seeks() {
    block_on(async {
        let mut cursor = Cursor::new(vec![0u8; 4]);
        cursor.write_all(b"abcdef").await.unwrap();
        assert_eq!(cursor.get_ref(), b"abcdef");
        assert_eq!(cursor.seek(SeekFrom::Start(2)).await.unwrap(), 2);
        let mut two = [0u8; 2];
        cursor.read_exact(&mut two).await.unwrap();
        assert_eq!(&two, b"cd");
        cursor.set_position(100);
        let mut buf = [0u8; 4];
        assert_eq!(
            cursor.read(&mut buf).await.unwrap(),
            0,
            "past the end is EOF"
        );
        assert_eq!(cursor.rewind().await.unwrap(), 0);
    });
}

#[test]
fn read_line_read_until_lines_and_split() {
    block_on(async {
        let mut reader = BufReader::with_capacity(3, &b"one\r\ntwo\nthree"[..]);
        let mut line = String::new();
        assert_eq!(reader.read_line(&mut line).await.unwrap(), 5);
        assert_eq!(line, "one\r\n");
        let mut bytes = Vec::new();
        assert_eq!(reader.read_until(b'w', &mut bytes).await.unwrap(), 2);
        assert_eq!(bytes, b"tw");
        let mut lines = reader.lines();
        assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("o"));
        assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("three"));
        assert_eq!(lines.next_line().await.unwrap(), None);

        let mut segments = AsyncBufReadExt::split(&b"a,,bc,"[..], b',');
        let mut seen = Vec::new();
        while let Some(segment) = segments.next_segment().await.unwrap() {
            seen.push(segment);
        }
        assert_eq!(seen, vec![b"a".to_vec(), vec![], b"bc".to_vec()]);
    });
}

#[test]
fn read_line_rejects_invalid_utf8_without_touching_the_string() {
    block_on(async {
        let mut src: &[u8] = &[b'o', b'k', b'\n', 0xC3, b'\n'];
        let mut line = String::new();
        src.read_line(&mut line).await.unwrap();
        let err = src.read_line(&mut line).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidData);
        assert_eq!(line, "ok\n");
    });
}

#[test]
fn take_limits_reads() {
    block_on(async {
        let mut limited = (&b"abcdef"[..]).take(4);
        let mut out = Vec::new();
        limited.read_to_end(&mut out).await.unwrap();
        assert_eq!(out, b"abcd");
        assert_eq!(limited.limit(), 0);
        assert_eq!(limited.into_inner(), b"ef");
    });
}

/// A reader that fills uninitialised memory through `unfilled_mut`.
struct RawReader;

impl AsyncRead for RawReader {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        // SAFETY: only initialised values are written, then declared.
        unsafe {
            let unfilled = buf.unfilled_mut();
            let n = unfilled.len().min(3);
            for slot in &mut unfilled[..n] {
                slot.write(b'z');
            }
            buf.assume_init(n);
            buf.advance(n);
        }
        Poll::Ready(Ok(()))
    }
}

#[test]
fn uninitialised_reads_through_read_buf() {
    block_on(async {
        let mut out = bytes::BytesMut::with_capacity(16);
        let n = RawReader.read_buf(&mut out).await.unwrap();
        assert_eq!(n, 3);
        assert_eq!(&out[..], b"zzz");
    });
}

#[test]
fn utf8_errors_carry_std_errors_and_keep_the_string() {
    use rt_io::io::{AsyncBufReadExt, AsyncReadExt};
    rt_test::block_on(async {
        let mut line = "Foo".to_string();
        let mut rd: &[u8] = b"Hello Wor\xffld.\n";
        let err = rd.read_line(&mut line).await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        let utf8 = err.into_inner().unwrap();
        let utf8 = utf8.downcast::<std::str::Utf8Error>().unwrap();
        assert_eq!(utf8.valid_up_to(), 12);
        assert_eq!(line, "Foo");

        let mut text = "abc".to_string();
        let err = (&[0xffu8, 0xff][..])
            .read_to_string(&mut text)
            .await
            .unwrap_err();
        let utf8 = err.into_inner().unwrap();
        assert_eq!(
            utf8.downcast::<std::str::Utf8Error>()
                .unwrap()
                .valid_up_to(),
            3
        );
        assert_eq!(text, "abc");

        let mut lines = (&b"ok\n\xff\xfe\nnext\n"[..]).lines();
        assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("ok"));
        let err = lines.next_line().await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        let bad = err.into_inner().unwrap();
        let bad = bad.downcast::<std::string::FromUtf8Error>().unwrap();
        assert_eq!(bad.into_bytes(), b"\xff\xfe");
        assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("next"));
        assert_eq!(lines.next_line().await.unwrap(), None);
    });
}

#[test]
fn read_to_end_grows_only_when_the_data_does_not_fit() {
    rt_test::block_on(async {
        let data: Vec<u8> = (0..100).collect();
        // Room for everything: the capacity is left alone, even when the
        // data fills it exactly.
        for cap in [40, 64, 100, 128] {
            let mut buf = Vec::with_capacity(cap);
            let n = (&data[..40]).read_to_end(&mut buf).await.unwrap();
            assert_eq!((n, &buf[..]), (40, &data[..40]));
            assert_eq!(buf.capacity(), cap);
        }
        // Too small: it grows, by doubling.
        let mut buf = Vec::with_capacity(36);
        (&data[..40]).read_to_end(&mut buf).await.unwrap();
        assert_eq!(buf, &data[..40]);
        assert!(buf.capacity() >= 72);
    });
}

#[test]
fn read_to_end_remembers_what_the_reader_initialised() {
    /// Checks that it is offered exactly the initialised bytes it left
    /// behind, then initialises two more than it fills.
    struct Tracker {
        left: usize,
        calls: usize,
    }
    impl AsyncRead for Tracker {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
            assert_eq!(buf.initialized().len() - buf.filled().len(), self.left);
            if self.calls == 10 {
                return Poll::Ready(Ok(()));
            }
            buf.initialize_unfilled_to(self.left + 2);
            buf.advance(1);
            self.left += 1;
            self.calls += 1;
            Poll::Ready(Ok(()))
        }
    }
    rt_test::block_on(async {
        let mut buf = Vec::with_capacity(64);
        let mut reader = Tracker { left: 0, calls: 0 };
        assert_eq!(reader.read_to_end(&mut buf).await.unwrap(), 10);
    });
}
