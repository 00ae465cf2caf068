//! `ErrorKind::Interrupted` is retried by the helpers that loop until done,
//! as std's are (`read_exact`, `read_to_end`, `read_until`, `write_all`,
//! the integer readers and writers, and the rest), while single calls
//! (`read`, `write`) hand it to the caller. The reader and writer here fail
//! with `Interrupted` before every byte they move.

use rt_io::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
    BufWriter, ReadBuf,
};
use std::io::{self, ErrorKind};
use std::pin::Pin;
use std::task::{Context, Poll};

use rt_test::block_on;

fn interrupted() -> io::Error {
    io::Error::from(ErrorKind::Interrupted)
}

/// Yields its bytes one at a time, each after an `Interrupted` error, then
/// (after one more) end of stream, or `end` if set.
struct InterruptingReader {
    data: &'static [u8],
    interrupt_next: bool,
    end: Option<ErrorKind>,
}

impl InterruptingReader {
    fn new(data: &'static [u8]) -> InterruptingReader {
        InterruptingReader {
            data,
            interrupt_next: true,
            end: None,
        }
    }

    fn failing_with(kind: ErrorKind) -> InterruptingReader {
        InterruptingReader {
            end: Some(kind),
            ..InterruptingReader::new(b"")
        }
    }
}

impl AsyncRead for InterruptingReader {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let me = &mut *self;
        me.interrupt_next = !me.interrupt_next;
        if !me.interrupt_next {
            return Poll::Ready(Err(interrupted()));
        }
        if let (Some((first, rest)), true) = (me.data.split_first(), buf.remaining() > 0) {
            buf.put_slice(&[*first]);
            me.data = rest;
            return Poll::Ready(Ok(()));
        }
        match me.end {
            Some(kind) => Poll::Ready(Err(kind.into())),
            None => Poll::Ready(Ok(())),
        }
    }
}

/// Buffers one byte per call, each call after an `Interrupted` error.
#[derive(Default)]
struct InterruptingWriter {
    written: Vec<u8>,
    accept_next: bool,
}

impl AsyncWrite for InterruptingWriter {
    fn poll_write(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let me = &mut *self;
        me.accept_next = !me.accept_next;
        if me.accept_next {
            return Poll::Ready(Err(interrupted()));
        }
        let n = buf.len().min(1);
        me.written.extend_from_slice(&buf[..n]);
        Poll::Ready(Ok(n))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// Fails `fill_buf` with `Interrupted` before each of its chunks.
struct InterruptingBufRead {
    chunks: Vec<&'static [u8]>,
    interrupt_next: bool,
}

impl InterruptingBufRead {
    fn new(mut chunks: Vec<&'static [u8]>) -> InterruptingBufRead {
        chunks.reverse();
        InterruptingBufRead {
            chunks,
            interrupt_next: true,
        }
    }
}

impl AsyncRead for InterruptingBufRead {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        _buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        unreachable!("only read through fill_buf")
    }
}

impl AsyncBufRead for InterruptingBufRead {
    fn poll_fill_buf(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let me = self.get_mut();
        if std::mem::replace(&mut me.interrupt_next, false) {
            return Poll::Ready(Err(interrupted()));
        }
        Poll::Ready(Ok(me.chunks.last().copied().unwrap_or(b"")))
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        let me = self.get_mut();
        if let Some(chunk) = me.chunks.last_mut() {
            *chunk = &chunk[amt..];
            if chunk.is_empty() {
                me.chunks.pop();
                me.interrupt_next = true;
            }
        }
    }
}

#[test]
fn read_exact_and_integers_retry_interrupted() {
    let mut reader = InterruptingReader::new(b"abc\x01\x02\x03\x04\x05\x06\x07\x08");
    let mut three = [0; 3];
    assert_eq!(block_on(reader.read_exact(&mut three)).unwrap(), 3);
    assert_eq!(&three, b"abc");
    assert_eq!(block_on(reader.read_u16()).unwrap(), 0x0102);
    assert_eq!(block_on(reader.read_u16_le()).unwrap(), 0x0403);
    assert_eq!(block_on(reader.read_u32()).unwrap(), 0x0506_0708);
}

#[test]
fn read_to_end_and_to_string_retry_interrupted() {
    let mut bytes = Vec::new();
    let n = block_on(InterruptingReader::new(b"hello").read_to_end(&mut bytes));
    assert_eq!(n.unwrap(), 5);
    assert_eq!(bytes, b"hello");
    let mut text = String::new();
    let n = block_on(InterruptingReader::new(b"world").read_to_string(&mut text));
    assert_eq!(n.unwrap(), 5);
    assert_eq!(text, "world");
}

#[test]
fn an_error_after_interrupted_still_ends_the_helper() {
    let mut reader = InterruptingReader::failing_with(ErrorKind::PermissionDenied);
    let err = block_on(reader.read_exact(&mut [0; 2])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PermissionDenied);
    let err = block_on(InterruptingReader::new(b"x").read_u16()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
}

#[test]
fn read_until_read_line_and_lines_retry_interrupted() {
    let mut reader = InterruptingBufRead::new(vec![b"one", b" two\nthree;", b"four"]);
    let mut line = Vec::new();
    assert_eq!(block_on(reader.read_until(b'\n', &mut line)).unwrap(), 8);
    assert_eq!(line, b"one two\n");
    let mut text = String::new();
    assert_eq!(block_on(reader.read_line(&mut text)).unwrap(), 10);
    assert_eq!(text, "three;four");

    let mut lines = InterruptingBufRead::new(vec![b"a\nb", b"\n"]).lines();
    assert_eq!(block_on(lines.next_line()).unwrap().as_deref(), Some("a"));
    assert_eq!(block_on(lines.next_line()).unwrap().as_deref(), Some("b"));
    assert_eq!(block_on(lines.next_line()).unwrap(), None);
    let mut segments = InterruptingBufRead::new(vec![b"x;", b"y"]).split(b';');
    assert_eq!(
        block_on(segments.next_segment()).unwrap(),
        Some(b"x".to_vec())
    );
    assert_eq!(
        block_on(segments.next_segment()).unwrap(),
        Some(b"y".to_vec())
    );
}

#[test]
fn write_all_and_integers_retry_interrupted() {
    let mut writer = InterruptingWriter::default();
    block_on(writer.write_all(b"hey")).unwrap();
    block_on(writer.write_u16(0x0102)).unwrap();
    block_on(writer.write_u32_le(0x0403_0201)).unwrap();
    let mut buf: &[u8] = b"end";
    block_on(writer.write_all_buf(&mut buf)).unwrap();
    assert_eq!(writer.written, b"hey\x01\x02\x01\x02\x03\x04end");
}

#[test]
fn buf_writer_flush_retries_interrupted() {
    let mut writer = BufWriter::new(InterruptingWriter::default());
    block_on(writer.write_all(b"hello")).unwrap();
    block_on(writer.flush()).unwrap();
    assert_eq!(writer.get_ref().written, b"hello");
}

#[test]
fn single_reads_and_writes_report_interrupted() {
    let mut reader = InterruptingReader::new(b"a");
    let err = block_on(reader.read(&mut [0; 1])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Interrupted);
    let mut writer = InterruptingWriter::default();
    let err = block_on(writer.write(b"a")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Interrupted);
    // A buffered reader passes the error of its single fill on, too.
    let mut buffered = BufReader::new(InterruptingReader::new(b"a"));
    let err = block_on(buffered.fill_buf()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Interrupted);
}
