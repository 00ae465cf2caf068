//! `rt_io::io::compat`: rt readers and writers seen as `futures-io` ones and
//! back, over in-memory values, `duplex` and a TCP pair.
#![cfg(feature = "compat")]

use futures_io::{
    AsyncBufRead as FBufRead, AsyncRead as FRead, AsyncSeek as FSeek, AsyncWrite as FWrite,
};
use rt_io::io::{AsyncBufReadExt, AsyncReadExt, AsyncSeekExt, AsyncWriteExt};
use rt_test::block_on;
use std::future::poll_fn;
use std::io::{self, SeekFrom};
use std::pin::Pin;

/// Reads a futures-io reader to its end.
async fn futures_read_to_end<R: FRead + Unpin>(reader: &mut R) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut chunk = [0u8; 3];
    loop {
        let n = poll_fn(|cx| Pin::new(&mut *reader).poll_read(cx, &mut chunk)).await?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&chunk[..n]);
    }
}

/// Writes all of `data` to a futures-io writer.
async fn futures_write_all<W: FWrite + Unpin>(writer: &mut W, mut data: &[u8]) -> io::Result<()> {
    while !data.is_empty() {
        let n = poll_fn(|cx| Pin::new(&mut *writer).poll_write(cx, data)).await?;
        assert_ne!(n, 0, "writer took nothing");
        data = &data[n..];
    }
    Ok(())
}

#[test]
fn rt_slice_reads_through_futures_io() {
    use rt_io::io::compat::TokioAsyncReadCompatExt;
    let mut reader = (&b"hello compat"[..]).compat();
    let out = block_on(futures_read_to_end(&mut reader)).unwrap();
    assert_eq!(out, b"hello compat");
    assert!(reader.get_ref().is_empty());
}

#[test]
fn futures_slice_reads_through_rt() {
    use rt_io::io::compat::FuturesAsyncReadCompatExt;
    let mut reader = (&b"the other way"[..]).compat();
    let mut out = Vec::new();
    block_on(reader.read_to_end(&mut out)).unwrap();
    assert_eq!(out, b"the other way");
}

#[test]
fn rt_vec_writes_through_futures_io_and_close_shuts_down() {
    use rt_io::io::compat::TokioAsyncWriteCompatExt;
    let mut writer = Vec::new().compat_write();
    block_on(async {
        futures_write_all(&mut writer, b"abc").await.unwrap();
        let bufs = [io::IoSlice::new(b"de"), io::IoSlice::new(b"f")];
        let n = poll_fn(|cx| Pin::new(&mut writer).poll_write_vectored(cx, &bufs))
            .await
            .unwrap();
        assert!(n >= 2);
        poll_fn(|cx| Pin::new(&mut writer).poll_flush(cx))
            .await
            .unwrap();
        poll_fn(|cx| Pin::new(&mut writer).poll_close(cx))
            .await
            .unwrap();
    });
    assert!(writer.into_inner().starts_with(b"abcde"));
}

#[test]
fn futures_vec_writes_through_rt() {
    use rt_io::io::compat::FuturesAsyncWriteCompatExt;
    let mut writer = Vec::new().compat_write();
    block_on(async {
        writer.write_all(b"written by rt").await.unwrap();
        writer.flush().await.unwrap();
        writer.shutdown().await.unwrap();
    });
    assert_eq!(writer.get_ref(), b"written by rt");
    writer.get_mut().clear();
    assert!(writer.into_inner().is_empty());
}

#[test]
fn buffered_reads_both_ways() {
    // rt `AsyncBufRead` seen as futures-io.
    {
        use rt_io::io::compat::TokioAsyncReadCompatExt;
        let mut reader = (&b"line one\nline two\n"[..]).compat();
        block_on(async {
            let filled = poll_fn(|cx| {
                Pin::new(&mut reader)
                    .poll_fill_buf(cx)
                    .map_ok(<[u8]>::to_vec)
            })
            .await
            .unwrap();
            assert_eq!(filled, b"line one\nline two\n");
            Pin::new(&mut reader).consume(9);
            let rest = poll_fn(|cx| {
                Pin::new(&mut reader)
                    .poll_fill_buf(cx)
                    .map_ok(<[u8]>::to_vec)
            })
            .await
            .unwrap();
            assert_eq!(rest, b"line two\n");
        });
    }
    // futures-io `AsyncBufRead` seen as rt.
    {
        use rt_io::io::compat::FuturesAsyncReadCompatExt;
        let mut reader = (&b"first\nsecond"[..]).compat();
        let mut line = String::new();
        block_on(async {
            assert_eq!(reader.read_line(&mut line).await.unwrap(), 6);
            assert_eq!(line, "first\n");
            line.clear();
            assert_eq!(reader.read_line(&mut line).await.unwrap(), 6);
            assert_eq!(line, "second");
        });
    }
}

#[test]
fn seeks_both_ways() {
    use rt_io::io::compat::{FuturesAsyncReadCompatExt, TokioAsyncReadCompatExt};
    // An rt cursor seen as futures-io...
    let futures_side = TokioAsyncReadCompatExt::compat(io::Cursor::new(b"0123456789".to_vec()));
    // ...and that seen as rt again.
    let mut rt_side = FuturesAsyncReadCompatExt::compat(futures_side);
    block_on(async {
        assert_eq!(rt_side.seek(SeekFrom::Start(4)).await.unwrap(), 4);
        let mut two = [0u8; 2];
        rt_side.read_exact(&mut two).await.unwrap();
        assert_eq!(&two, b"45");
        assert_eq!(rt_side.stream_position().await.unwrap(), 6);
        let inner = rt_side.get_mut();
        let pos = poll_fn(|cx| Pin::new(&mut *inner).poll_seek(cx, SeekFrom::End(-1)))
            .await
            .unwrap();
        assert_eq!(pos, 9);
    });
}

#[test]
fn a_reader_that_overreports_is_an_error_not_a_panic() {
    use rt_io::io::compat::FuturesAsyncReadCompatExt;
    struct Liar;
    impl FRead for Liar {
        fn poll_read(
            self: Pin<&mut Self>,
            _cx: &mut std::task::Context<'_>,
            buf: &mut [u8],
        ) -> std::task::Poll<io::Result<usize>> {
            std::task::Poll::Ready(Ok(buf.len() + 1))
        }
    }
    let mut reader = Liar.compat();
    let mut buf = [0u8; 4];
    let err = block_on(reader.read(&mut buf)).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
}

#[test]
fn duplex_through_futures_io() {
    use rt_io::io::compat::TokioAsyncReadCompatExt;
    let (a, mut b) = rt_io::io::duplex(8);
    let mut a = a.compat();
    block_on(async {
        let ((), echoed) = rt_test::join2(
            async {
                futures_write_all(&mut a, b"more than eight bytes")
                    .await
                    .unwrap();
                poll_fn(|cx| Pin::new(&mut a).poll_close(cx)).await.unwrap();
            },
            async {
                let mut out = Vec::new();
                b.read_to_end(&mut out).await.unwrap();
                out
            },
        )
        .await;
        assert_eq!(echoed, b"more than eight bytes");
    });
}

#[cfg(feature = "net")]
#[test]
#[cfg_attr(miri, ignore = "sockets: Miri does not emulate socket system calls")]
fn tcp_pair_through_futures_io() {
    use rt_io::io::compat::TokioAsyncReadCompatExt;
    rt_test::io_runtime().block_on(async {
        let (client, server) = rt_test::tcp_pair().await;
        let mut client = client.compat();
        let mut server = server.compat();
        futures_write_all(&mut client, b"over tcp").await.unwrap();
        poll_fn(|cx| Pin::new(&mut client).poll_close(cx))
            .await
            .unwrap();
        let got = futures_read_to_end(&mut server).await.unwrap();
        assert_eq!(got, b"over tcp");
        // And back: the futures-io view of the stream read through rt.
        use rt_io::io::compat::FuturesAsyncWriteCompatExt;
        let mut server = server.compat_write();
        server.write_all(b"reply").await.unwrap();
        server.shutdown().await.unwrap();
        let reply = futures_read_to_end(&mut client).await.unwrap();
        assert_eq!(reply, b"reply");
    });
}
