//! Seeking through the buffered wrappers: `BufWriter` writes its buffer
//! out before the inner writer moves, and `BufStream` does both that and
//! dropping its read-ahead.

use rt_io::io::{AsyncReadExt, AsyncSeekExt, AsyncWriteExt, BufStream, BufWriter, SeekFrom};
use rt_test::block_on;
use std::io::Cursor;

#[test]
fn buf_writer_seek_writes_the_buffer_first() {
    block_on(async {
        let mut writer = BufWriter::with_capacity(16, Cursor::new(Vec::new()));
        writer.write_all(b"abcdef").await.unwrap();
        // The bytes are still buffered; the seek puts them at 0..6 first.
        assert!(writer.get_ref().get_ref().is_empty());
        assert_eq!(writer.seek(SeekFrom::Start(2)).await.unwrap(), 2);
        assert_eq!(writer.get_ref().get_ref(), b"abcdef");
        writer.write_all(b"XY").await.unwrap();
        assert_eq!(writer.seek(SeekFrom::Current(0)).await.unwrap(), 4);
        assert_eq!(writer.get_ref().get_ref(), b"abXYef");
        assert_eq!(writer.seek(SeekFrom::End(-1)).await.unwrap(), 5);
        writer.write_all(b"!").await.unwrap();
        writer.flush().await.unwrap();
        assert_eq!(writer.into_inner().into_inner(), b"abXYe!");
    });
}

#[test]
fn buf_writer_seek_error_leaves_the_writer_usable() {
    block_on(async {
        let mut writer = BufWriter::new(Cursor::new(Vec::new()));
        writer.write_all(b"abc").await.unwrap();
        assert!(writer.seek(SeekFrom::Current(-10)).await.is_err());
        assert_eq!(writer.seek(SeekFrom::Start(1)).await.unwrap(), 1);
        writer.write_all(b"Z").await.unwrap();
        writer.flush().await.unwrap();
        assert_eq!(writer.get_ref().get_ref(), b"aZc");
    });
}

#[test]
fn buf_stream_seek_drops_read_ahead_and_writes_out() {
    block_on(async {
        let mut stream = BufStream::new(Cursor::new(b"0123456789".to_vec()));
        let mut two = [0u8; 2];
        stream.read_exact(&mut two).await.unwrap();
        assert_eq!(&two, b"01");
        // The reader buffered the rest; the logical position is still 2.
        assert_eq!(stream.seek(SeekFrom::Current(0)).await.unwrap(), 2);
        stream.write_all(b"ab").await.unwrap();
        assert_eq!(stream.seek(SeekFrom::Start(0)).await.unwrap(), 0);
        let mut all = Vec::new();
        stream.read_to_end(&mut all).await.unwrap();
        assert_eq!(all, b"01ab456789");
    });
}

#[test]
fn buf_reader_seek_too_far_back_for_one_step_takes_two() {
    use rt_io::io::{AsyncBufReadExt, AsyncRead, AsyncSeek, BufReader, ReadBuf};
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// Yields its position (mod 256) for every byte; seeks wrap.
    struct Positions(u64);
    impl AsyncRead for Positions {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
            while buf.remaining() > 0 {
                buf.put_slice(&[self.0 as u8]);
                self.0 = self.0.wrapping_add(1);
            }
            Poll::Ready(Ok(()))
        }
    }
    impl AsyncSeek for Positions {
        fn start_seek(mut self: Pin<&mut Self>, pos: SeekFrom) -> std::io::Result<()> {
            self.0 = match pos {
                SeekFrom::Start(n) => n,
                SeekFrom::Current(n) => self.0.wrapping_add(n as u64),
                SeekFrom::End(n) => u64::MAX.wrapping_add(n as u64),
            };
            Ok(())
        }
        fn poll_complete(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<u64>> {
            Poll::Ready(Ok(self.0))
        }
    }

    block_on(async {
        let mut reader = BufReader::with_capacity(5, Positions(0));
        assert_eq!(reader.fill_buf().await.unwrap(), &[0, 1, 2, 3, 4]);
        let end = reader.seek(SeekFrom::End(-5)).await.unwrap();
        assert_eq!(end, u64::MAX - 5);
        assert_eq!(reader.fill_buf().await.unwrap().len(), 5);
        // i64::MIN less the 5 buffered bytes does not fit one seek.
        let back = reader.seek(SeekFrom::Current(i64::MIN)).await.unwrap();
        assert_eq!(back, end.wrapping_add(i64::MIN as u64));
        assert_eq!(reader.get_ref().0, back);
    });
}
