//! LengthDelimitedCodec: round trips over every header option, the
//! decode-only layouts (offset, skip), limits and their errors, and a huge
//! declared length that must not cost memory.

use bytes::{BufMut, Bytes, BytesMut};
use rt_codec::length_delimited::Builder;
use rt_codec::SinkExt;
use rt_codec::{Decoder, Encoder, FramedRead, LengthDelimitedCodec, LengthDelimitedCodecError};
use rt_io::io::{duplex, AsyncWriteExt, ErrorKind};
use rt_stream::StreamExt;
use rt_test::{block_on, join2};
use std::io;

#[derive(Clone, Copy, Debug)]
enum Order {
    Big,
    Little,
    Native,
}

fn builder(field_len: usize, order: Order, adjustment: isize) -> Builder {
    let mut b = LengthDelimitedCodec::builder();
    b.length_field_length(field_len)
        .length_adjustment(adjustment);
    match order {
        Order::Big => b.big_endian(),
        Order::Little => b.little_endian(),
        Order::Native => b.native_endian(),
    };
    b
}

fn assert_frame_too_big(err: &io::Error, kind: ErrorKind) {
    assert_eq!(err.kind(), kind);
    let inner = err.get_ref().expect("wraps the codec error");
    assert!(inner.is::<LengthDelimitedCodecError>(), "{inner:?}");
    assert_eq!(err.to_string(), "frame size too big");
}

#[test]
fn defaults() {
    let codec = LengthDelimitedCodec::new();
    assert_eq!(codec.max_frame_length(), 8 * 1024 * 1024);
    let mut wire = BytesMut::new();
    LengthDelimitedCodec::default()
        .encode(Bytes::from_static(b"abc"), &mut wire)
        .unwrap();
    assert_eq!(&wire[..], b"\x00\x00\x00\x03abc", "4-byte big-endian field");
}

#[test]
fn round_trip_every_field_width_byte_order_and_adjustment() {
    let payload_sizes = [0usize, 1, 3, 17, 250];
    for field_len in 1..=8usize {
        for order in [Order::Big, Order::Little, Order::Native] {
            for adjustment in [-(field_len as isize), 0, 3] {
                let config = builder(field_len, order, adjustment);
                let payloads: Vec<Bytes> = payload_sizes
                    .iter()
                    .filter(|n| adjustment <= 0 || **n >= adjustment as usize)
                    .map(|n| Bytes::from((0..*n).map(|i| i as u8).collect::<Vec<u8>>()))
                    .collect();
                block_on(async {
                    let (a, b) = duplex(7);
                    let mut writer = config.new_write(a);
                    let mut reader = config.new_read(b);
                    let ((), received) = join2(
                        async {
                            for p in &payloads {
                                writer.feed(p.clone()).await.unwrap();
                            }
                            writer.close().await.unwrap();
                        },
                        async {
                            let mut got = Vec::new();
                            while let Some(frame) = reader.next().await {
                                got.push(frame.unwrap().freeze());
                            }
                            got
                        },
                    )
                    .await;
                    assert_eq!(
                        received, payloads,
                        "field {field_len}, {order:?}, adjustment {adjustment}"
                    );
                });
            }
        }
    }
}

#[test]
fn framed_round_trip_both_directions() {
    block_on(async {
        let (a, b) = duplex(5);
        let mut left = Builder::new().length_field_type::<u16>().new_framed(a);
        let mut right = Builder::new().length_field_type::<u16>().new_framed(b);
        let (_, echoed) = join2(
            async {
                for i in 0..20u8 {
                    left.send(Bytes::from(vec![i; i as usize])).await.unwrap();
                    let back = left.next().await.unwrap().unwrap();
                    assert_eq!(&back[..], &vec![i; i as usize][..]);
                }
                SinkExt::<Bytes>::close(&mut left).await.unwrap();
            },
            async {
                let mut n = 0;
                while let Some(frame) = right.next().await {
                    right.send(frame.unwrap().freeze()).await.unwrap();
                    n += 1;
                }
                n
            },
        )
        .await;
        assert_eq!(echoed, 20);
    });
}

#[test]
fn byte_orders_on_the_wire() {
    let mut wire = BytesMut::new();
    builder(3, Order::Little, 0)
        .new_codec()
        .encode(Bytes::from_static(b"x"), &mut wire)
        .unwrap();
    assert_eq!(&wire[..], b"\x01\x00\x00x");
    wire.clear();
    builder(2, Order::Native, 0)
        .new_codec()
        .encode(Bytes::from_static(b"xy"), &mut wire)
        .unwrap();
    assert_eq!(&wire[..2], &2u16.to_ne_bytes());
}

#[test]
fn offset_before_the_length_field_is_skipped_by_default() {
    // Two magic bytes, a 2-byte length, the payload.
    let mut codec = Builder::new()
        .length_field_offset(2)
        .length_field_length(2)
        .new_codec();
    let mut src = BytesMut::from(&b"\xCA\xFE\x00\x03abc\xCA\xFE\x00\x01z"[..]);
    assert_eq!(&codec.decode(&mut src).unwrap().unwrap()[..], b"abc");
    assert_eq!(&codec.decode(&mut src).unwrap().unwrap()[..], b"z");
    assert!(src.is_empty());
}

#[test]
fn num_skip_zero_keeps_the_header_in_the_frame() {
    // The length counts only the payload; the frame keeps the 2-byte
    // header, so the adjustment adds it back.
    let mut codec = Builder::new()
        .length_field_length(2)
        .length_adjustment(2)
        .num_skip(0)
        .new_codec();
    let mut src = BytesMut::from(&b"\x00\x03abc"[..]);
    assert_eq!(
        &codec.decode(&mut src).unwrap().unwrap()[..],
        b"\x00\x03abc"
    );
}

#[test]
fn num_skip_past_the_length_field() {
    // A 1-byte length, then 3 flag bytes, then the payload.
    let mut codec = Builder::new()
        .length_field_length(1)
        .num_skip(4)
        .new_codec();
    let mut src = BytesMut::from(&b"\x02FLGhi"[..]);
    assert_eq!(&codec.decode(&mut src).unwrap().unwrap()[..], b"hi");
    let mut partial = BytesMut::from(&b"\x02FL"[..]);
    assert_eq!(
        codec.decode(&mut partial).unwrap(),
        None,
        "header incomplete"
    );
}

#[test]
fn length_counting_the_header_uses_a_negative_adjustment() {
    let mut codec = Builder::new().length_adjustment(-4).new_codec();
    let mut src = BytesMut::from(&b"\x00\x00\x00\x06hi"[..]);
    assert_eq!(&codec.decode(&mut src).unwrap().unwrap()[..], b"hi");
    let mut bad = BytesMut::from(&b"\x00\x00\x00\x02"[..]);
    let err = codec.decode(&mut bad).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert_eq!(
        err.to_string(),
        "provided length would overflow after adjustment"
    );
}

#[test]
fn frame_limit_is_checked_on_decode_and_encode() {
    let mut codec = Builder::new().max_frame_length(10).new_codec();
    let mut src = BytesMut::new();
    src.put_u32(11);
    assert_frame_too_big(&codec.decode(&mut src).unwrap_err(), ErrorKind::InvalidData);

    let mut dst = BytesMut::new();
    let err = codec
        .encode(Bytes::from(vec![0; 11]), &mut dst)
        .unwrap_err();
    assert_frame_too_big(&err, ErrorKind::InvalidInput);
    assert!(dst.is_empty());
    codec.encode(Bytes::from(vec![0; 10]), &mut dst).unwrap();
}

#[test]
fn encode_rejects_payloads_shorter_than_a_positive_adjustment() {
    let mut codec = Builder::new().length_adjustment(5).new_codec();
    let err = codec
        .encode(Bytes::from_static(b"abc"), &mut BytesMut::new())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
}

#[test]
fn max_frame_length_is_clamped_to_what_the_field_can_express() {
    assert_eq!(
        Builder::new()
            .length_field_type::<u8>()
            .new_codec()
            .max_frame_length(),
        255
    );
    assert_eq!(
        Builder::new()
            .length_field_type::<u16>()
            .max_frame_length(1 << 20)
            .new_codec()
            .max_frame_length(),
        65_535
    );
    assert_eq!(
        Builder::new()
            .length_field_length(1)
            .length_adjustment(-1)
            .new_codec()
            .max_frame_length(),
        254
    );
    assert_eq!(
        Builder::new()
            .length_field_type::<u64>()
            .new_codec()
            .max_frame_length(),
        8 * 1024 * 1024
    );
    let mut codec = Builder::new().length_field_type::<u8>().new_codec();
    codec.set_max_frame_length(1000);
    assert_eq!(codec.max_frame_length(), 255);
    codec.set_max_frame_length(3);
    assert_eq!(codec.max_frame_length(), 3);
}

#[test]
#[should_panic(expected = "between 1 and 8")]
fn zero_byte_length_field_is_refused() {
    Builder::new().length_field_length(0);
}

#[test]
#[should_panic(expected = "between 1 and 8")]
fn nine_byte_length_field_is_refused() {
    Builder::new().length_field_length(9);
}

#[test]
fn one_gib_declared_length_fails_without_allocating() {
    block_on(async {
        let (mut a, b) = duplex(64 * 1024);
        let mut reader = FramedRead::new(b, LengthDelimitedCodec::new());
        let ((), first) = join2(
            async {
                a.write_u32(1 << 30).await.unwrap();
                a.write_all(&[0u8; 32 * 1024]).await.unwrap();
            },
            async { reader.next().await },
        )
        .await;
        let err = first.unwrap().unwrap_err();
        assert_frame_too_big(&err, ErrorKind::InvalidData);
        assert!(
            reader.read_buffer().capacity() <= 64 * 1024,
            "read buffer grew to {}",
            reader.read_buffer().capacity()
        );
        assert!(reader.next().await.is_none());
    });
}

#[test]
fn frames_arriving_byte_by_byte_are_parsed_once() {
    let mut codec = LengthDelimitedCodec::new();
    let mut wire = BytesMut::new();
    codec
        .encode(Bytes::from_static(b"hello"), &mut wire)
        .unwrap();
    codec.encode(Bytes::from_static(b""), &mut wire).unwrap();
    let mut src = BytesMut::new();
    let mut frames = Vec::new();
    for byte in wire {
        src.put_u8(byte);
        while let Some(frame) = codec.decode(&mut src).unwrap() {
            frames.push(frame);
        }
    }
    assert_eq!(frames, vec![BytesMut::from("hello"), BytesMut::new()]);
    assert_eq!(codec.decode_eof(&mut src).unwrap(), None);
}

#[test]
fn decode_eof_forgets_a_frame_cut_short() {
    let mut codec = LengthDelimitedCodec::new();
    // A header for 10 bytes, and only 3 of them.
    let mut cut = BytesMut::from(&b"\x00\x00\x00\x0aabc"[..]);
    let err = codec.decode_eof(&mut cut).unwrap_err();
    assert_eq!(err.to_string(), "bytes remaining on stream");
    // Fed fresh bytes (a new stream, the next datagram), it reads a header
    // again instead of waiting for the rest of the old payload.
    let mut fresh = BytesMut::from(&b"\x00\x00\x00\x02ok"[..]);
    assert_eq!(&codec.decode_eof(&mut fresh).unwrap().unwrap()[..], b"ok");
}
