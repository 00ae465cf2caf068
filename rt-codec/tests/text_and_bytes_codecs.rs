//! LinesCodec, AnyDelimiterCodec and BytesCodec: round trips over duplex
//! pipes, length limits with resynchronisation, and their errors.

use bytes::{Bytes, BytesMut};
use rt_codec::SinkExt;
use rt_codec::{
    AnyDelimiterCodec, AnyDelimiterCodecError, BytesCodec, Decoder, Encoder, FramedRead,
    FramedWrite, LinesCodec, LinesCodecError,
};
use rt_io::io::{duplex, AsyncWriteExt};
use rt_stream::StreamExt;
use rt_test::{block_on, join2};

#[test]
fn lines_round_trip_through_a_small_pipe() {
    block_on(async {
        let (a, b) = duplex(4);
        let mut writer = FramedWrite::new(a, LinesCodec::new());
        let mut reader = FramedRead::new(b, LinesCodec::new());
        let lines = ["", "short", "a much longer line with spaces", "ünïcödé"];
        let ((), got) = join2(
            async {
                for line in lines {
                    writer.feed(line).await.unwrap();
                }
                SinkExt::<&str>::close(&mut writer).await.unwrap();
            },
            async {
                let mut got = Vec::new();
                while let Some(line) = reader.next().await {
                    got.push(line.unwrap());
                }
                got
            },
        )
        .await;
        assert_eq!(got, lines);
    });
}

#[test]
fn over_long_line_is_reported_once_then_decoding_resumes() {
    block_on(async {
        let (mut a, b) = duplex(8);
        let mut reader = FramedRead::new(b, LinesCodec::new_with_max_length(5));
        let ((), events) = join2(
            async {
                a.write_all(b"ok\nthis line is far too long\r\nfine\nx")
                    .await
                    .unwrap();
                drop(a);
            },
            async {
                let mut events = Vec::new();
                // Keep polling past the `None` that follows an error.
                for _ in 0..6 {
                    events.push(match reader.next().await {
                        Some(Ok(line)) => line,
                        Some(Err(LinesCodecError::MaxLineLengthExceeded)) => "<too long>".into(),
                        Some(Err(e)) => panic!("{e}"),
                        None => "<none>".into(),
                    });
                }
                events
            },
        )
        .await;
        assert_eq!(
            events,
            ["ok", "<too long>", "<none>", "fine", "x", "<none>"]
        );
    });
}

#[test]
fn lines_limit_bounds_the_buffer() {
    let mut codec = LinesCodec::new_with_max_length(16);
    let mut buf = BytesMut::new();
    let mut errors = 0;
    for _ in 0..1000 {
        buf.extend_from_slice(&[b'z'; 100]);
        match codec.decode(&mut buf) {
            Err(LinesCodecError::MaxLineLengthExceeded) => errors += 1,
            Ok(None) => {}
            other => panic!("{other:?}"),
        }
        assert!(buf.len() <= 100, "discarded bytes are dropped");
    }
    assert_eq!(errors, 1);
    buf.extend_from_slice(b"zz\nnext\n");
    assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("next"));
}

#[test]
fn lines_codec_errors_and_limits() {
    let mut codec = LinesCodec::new_with_max_length(3);
    assert_eq!(codec.max_length(), 3);
    assert_eq!(LinesCodec::new().max_length(), usize::MAX);
    let mut buf = BytesMut::from("abc\n");
    assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("abc"));
    let mut buf = BytesMut::from(&b"\xFF\n"[..]);
    let err = codec.decode(&mut buf).unwrap_err();
    assert!(
        matches!(err, LinesCodecError::Io(ref e) if e.kind() == std::io::ErrorKind::InvalidData)
    );
    assert_eq!(
        LinesCodecError::MaxLineLengthExceeded.to_string(),
        "max line length exceeded"
    );
    let mut out = BytesMut::new();
    codec.encode(String::from("hi"), &mut out).unwrap();
    assert_eq!(&out[..], b"hi\n");
    let mut eof = BytesMut::from("\r");
    assert_eq!(codec.decode_eof(&mut eof).unwrap(), None);
}

#[test]
fn any_delimiter_round_trip_and_limit() {
    block_on(async {
        let (a, b) = duplex(3);
        let codec = AnyDelimiterCodec::new(b",;".to_vec(), b";".to_vec());
        let mut writer = FramedWrite::new(a, codec.clone());
        let mut reader = FramedRead::new(b, codec);
        let ((), got) = join2(
            async {
                for chunk in ["alpha", "", "gamma"] {
                    writer.feed(chunk).await.unwrap();
                }
                SinkExt::<&str>::close(&mut writer).await.unwrap();
            },
            async {
                let mut got = Vec::new();
                while let Some(chunk) = reader.next().await {
                    got.push(chunk.unwrap());
                }
                got
            },
        )
        .await;
        assert_eq!(got, ["alpha", "", "gamma"]);
    });

    let mut codec = AnyDelimiterCodec::new_with_max_length(b",".to_vec(), b",".to_vec(), 2);
    assert_eq!(codec.max_length(), 2);
    let mut buf = BytesMut::from("toolong,ok,");
    assert!(matches!(
        codec.decode(&mut buf),
        Err(AnyDelimiterCodecError::MaxChunkLengthExceeded)
    ));
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(Bytes::from("ok")));
    assert_eq!(
        AnyDelimiterCodecError::MaxChunkLengthExceeded.to_string(),
        "max chunk length exceeded"
    );
    let mut default = AnyDelimiterCodec::default();
    let mut buf = BytesMut::from("a\nb;c,d\re");
    let mut chunks = Vec::new();
    while let Some(c) = default.decode_eof(&mut buf).unwrap() {
        chunks.push(c);
    }
    assert_eq!(chunks, ["a", "b", "c", "d", "e"]);
}

#[test]
fn bytes_codec_passes_everything_through() {
    block_on(async {
        let (a, b) = duplex(5);
        let mut writer = FramedWrite::new(a, BytesCodec::new());
        let mut reader = FramedRead::new(b, BytesCodec::new());
        let data: Vec<u8> = (0..=255u8).collect();
        let ((), got) = join2(
            async {
                writer.feed(Bytes::from(data.clone())).await.unwrap();
                writer.feed(BytesMut::from(&b"tail"[..])).await.unwrap();
                SinkExt::<Bytes>::close(&mut writer).await.unwrap();
            },
            async {
                let mut got = Vec::new();
                while let Some(chunk) = reader.next().await {
                    got.extend_from_slice(&chunk.unwrap());
                }
                got
            },
        )
        .await;
        let mut want = data;
        want.extend_from_slice(b"tail");
        assert_eq!(got, want);
    });
}
