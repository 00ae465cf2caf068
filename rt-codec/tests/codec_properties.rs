//! Property tests: random byte streams, cut into random pieces, fed to the
//! codecs the way `FramedRead` does, against straightforward reference
//! decoders that see the whole stream at once.
//!
//! Checked for every case: no panic, the same frames in the same order,
//! the same final outcome (clean end, truncated frame, or which error), and
//! a read buffer that never grows past the configured limits.

use bytes::BytesMut;
use rt_codec::length_delimited::Builder;
use rt_codec::{Decoder, LengthDelimitedCodec, LinesCodec, LinesCodecError};
use rt_core::util::rng::FastRand;
use std::io::ErrorKind;

const CASES: u64 = 100_000;

/// How a decode run ended.
#[derive(Debug, PartialEq)]
enum Outcome {
    Clean,
    Truncated,
    Failed(ErrorKind),
}

fn pick(rng: &mut FastRand, n: usize) -> usize {
    rng.fastrand_n(n as u32) as usize
}

fn random_bytes(rng: &mut FastRand, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.fastrand() as u8).collect()
}

/// Cuts `data` into pieces of random sizes (some empty).
fn random_pieces<'a>(rng: &mut FastRand, data: &'a [u8]) -> Vec<&'a [u8]> {
    let max_piece = 1 + pick(rng, 16);
    let mut pieces = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let n = pick(rng, max_piece + 1).min(rest.len());
        let (piece, tail) = rest.split_at(n);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}

#[derive(Debug, Clone, Copy)]
struct Layout {
    field_len: usize,
    offset: usize,
    adjustment: isize,
    num_skip: Option<usize>,
    little_endian: bool,
    max_frame: usize,
}

impl Layout {
    fn random(rng: &mut FastRand) -> Layout {
        let field_len = 1 + pick(rng, 8);
        Layout {
            field_len,
            offset: pick(rng, 3),
            adjustment: pick(rng, 9) as isize - 4,
            num_skip: if pick(rng, 3) == 0 {
                Some(pick(rng, field_len + 5))
            } else {
                None
            },
            little_endian: pick(rng, 2) == 0,
            max_frame: if pick(rng, 10) == 0 {
                8 * 1024 * 1024
            } else {
                pick(rng, 48)
            },
        }
    }

    fn builder(&self) -> Builder {
        let mut b = Builder::new();
        b.length_field_length(self.field_len)
            .length_field_offset(self.offset)
            .length_adjustment(self.adjustment)
            .max_frame_length(self.max_frame);
        if let Some(skip) = self.num_skip {
            b.num_skip(skip);
        }
        if self.little_endian {
            b.little_endian();
        }
        b
    }

    fn skip(&self) -> usize {
        self.num_skip.unwrap_or(self.offset + self.field_len)
    }

    fn head(&self) -> usize {
        (self.offset + self.field_len).max(self.skip())
    }

    /// The limit after clamping to what the field can express.
    fn limit(&self) -> u64 {
        let field_max: i128 = if self.field_len == 8 {
            u64::MAX as i128
        } else {
            (1i128 << (8 * self.field_len)) - 1
        };
        let expressible = (field_max + self.adjustment as i128).max(0);
        (self.max_frame as i128).min(expressible) as u64
    }

    fn read_field(&self, header: &[u8]) -> u64 {
        let field = &header[self.offset..self.offset + self.field_len];
        let fold = |n: u64, b: &u8| (n << 8) | *b as u64;
        if self.little_endian {
            field.iter().rev().fold(0, fold)
        } else {
            field.iter().fold(0, fold)
        }
    }

    fn write_field(&self, value: u64, out: &mut Vec<u8>) {
        let bytes = value.to_be_bytes();
        let field = &bytes[8 - self.field_len..];
        if self.little_endian {
            out.extend(field.iter().rev());
        } else {
            out.extend_from_slice(field);
        }
    }

    /// A stream of mostly well-formed frames with some noise.
    fn random_stream(&self, rng: &mut FastRand) -> Vec<u8> {
        let mut data = Vec::new();
        for _ in 0..pick(rng, 6) {
            if pick(rng, 5) == 0 {
                let n = pick(rng, 8);
                data.extend(random_bytes(rng, n));
                continue;
            }
            let value = match pick(rng, 8) {
                0 => rng.fastrand() as u64 | ((rng.fastrand() as u64) << 32),
                1 => self.limit().saturating_add(pick(rng, 3) as u64),
                _ => pick(rng, self.limit().min(24) as usize + 1) as u64,
            };
            let start = data.len();
            let offset_bytes = random_bytes(rng, self.offset);
            data.extend(offset_bytes);
            self.write_field(value, &mut data);
            let extra = random_bytes(rng, self.head() - self.offset - self.field_len);
            data.extend(extra);
            let payload = value as i128 + self.adjustment as i128;
            if (0..64).contains(&payload) {
                let end = start + self.skip() + payload as usize;
                let missing = end.saturating_sub(data.len());
                let body = random_bytes(rng, missing);
                data.extend(body);
            }
        }
        if pick(rng, 4) == 0 {
            let cut = pick(rng, data.len() + 1);
            data.truncate(cut);
        }
        data
    }

    /// Decodes the whole stream in one go, the simple way.
    fn reference_decode(&self, data: &[u8]) -> (Vec<Vec<u8>>, Outcome) {
        let mut frames = Vec::new();
        let mut pos = 0;
        loop {
            if data.len() - pos < self.head() {
                let outcome = if pos == data.len() {
                    Outcome::Clean
                } else {
                    Outcome::Truncated
                };
                return (frames, outcome);
            }
            let raw = self.read_field(&data[pos..]);
            if raw > self.limit() {
                return (frames, Outcome::Failed(ErrorKind::InvalidData));
            }
            let len = raw as i128 + self.adjustment as i128;
            if len < 0 {
                return (frames, Outcome::Failed(ErrorKind::InvalidInput));
            }
            if len == 0 && self.skip() == 0 {
                return (frames, Outcome::Failed(ErrorKind::InvalidData));
            }
            let start = pos + self.skip();
            let end = start + len as usize;
            if end > data.len() {
                return (frames, Outcome::Truncated);
            }
            frames.push(data[start..end].to_vec());
            pos = end;
        }
    }
}

/// Feeds `pieces` to `codec` one at a time, decoding after each, then
/// finishes with `decode_eof`; checks the buffer bound after every step.
fn incremental_decode<D, F>(
    codec: &mut D,
    pieces: &[&[u8]],
    max_capacity: usize,
    mut on_error: F,
) -> (Vec<D::Item>, Option<Outcome>)
where
    D: Decoder,
    F: FnMut(D::Error) -> Option<Outcome>,
{
    let mut frames = Vec::new();
    let mut buf = BytesMut::new();
    for piece in pieces {
        buf.extend_from_slice(piece);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(frame)) => frames.push(frame),
                Ok(None) => break,
                Err(e) => match on_error(e) {
                    Some(outcome) => return (frames, Some(outcome)),
                    None => continue,
                },
            }
        }
        assert!(
            buf.capacity() <= max_capacity,
            "buffer capacity {} over {max_capacity}",
            buf.capacity()
        );
    }
    loop {
        match codec.decode_eof(&mut buf) {
            Ok(Some(frame)) => frames.push(frame),
            Ok(None) => return (frames, None),
            Err(e) => match on_error(e) {
                Some(outcome) => return (frames, Some(outcome)),
                None => continue,
            },
        }
    }
}

#[test]
fn length_delimited_matches_the_reference_on_random_streams() {
    let mut rng = FastRand::from_seed(0x5eed_0001);
    // How often each outcome occurred, to show the generator covers them.
    let mut seen = [0u64; 4];
    let mut total_frames = 0;
    for case in 0..CASES {
        let layout = Layout::random(&mut rng);
        let data = layout.random_stream(&mut rng);
        let pieces = random_pieces(&mut rng, &data);
        let (expected_frames, expected_outcome) = layout.reference_decode(&data);

        // What the buffer may hold: one frame with its header, plus one
        // piece, with room for `BytesMut`'s doubling growth.
        let frame_bound = layout.limit() as usize + layout.adjustment.max(0) as usize;
        let max_capacity = 2 * (layout.head() + frame_bound.max(64) + 17) + 64;
        let mut codec = layout.builder().new_codec();
        let (frames, outcome) = incremental_decode(&mut codec, &pieces, max_capacity, |e| {
            Some(match e.kind() {
                ErrorKind::Other => Outcome::Truncated,
                kind => Outcome::Failed(kind),
            })
        });
        let frames: Vec<Vec<u8>> = frames.into_iter().map(|f| f.to_vec()).collect();
        let outcome = outcome.unwrap_or(Outcome::Clean);
        total_frames += frames.len();
        seen[match outcome {
            Outcome::Clean => 0,
            Outcome::Truncated => 1,
            Outcome::Failed(ErrorKind::InvalidData) => 2,
            Outcome::Failed(_) => 3,
        }] += 1;
        assert_eq!(
            (frames, outcome),
            (expected_frames, expected_outcome),
            "case {case}: {layout:?}, stream {data:?}"
        );
    }
    assert!(seen.iter().all(|n| *n > CASES / 50), "outcomes {seen:?}");
    assert!(
        total_frames as u64 > CASES / 2,
        "only {total_frames} frames"
    );
}

#[test]
fn length_delimited_codec_is_reusable_after_defaults() {
    // A plain sanity anchor for the property above: default layout, three
    // frames in one buffer.
    let mut codec = LengthDelimitedCodec::new();
    let mut buf = BytesMut::from(&b"\x00\x00\x00\x01a\x00\x00\x00\x00\x00\x00\x00\x02bc"[..]);
    let mut frames = Vec::new();
    while let Some(f) = codec.decode(&mut buf).unwrap() {
        frames.push(f.to_vec());
    }
    assert_eq!(frames, vec![b"a".to_vec(), vec![], b"bc".to_vec()]);
}

/// What a line decoder reports for one line.
#[derive(Debug, PartialEq)]
enum LineEvent {
    Line(String),
    TooLong,
}

/// Splits the whole stream into lines the simple way.
fn reference_lines(data: &[u8], max_length: usize) -> Vec<LineEvent> {
    let mut events = Vec::new();
    let mut segments: Vec<&[u8]> = data.split(|b| *b == b'\n').collect();
    let last = segments.pop().unwrap_or(&[]);
    let mut push = |content: &[u8], terminated: bool| {
        if content.len() > max_length {
            events.push(LineEvent::TooLong);
            return;
        }
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if terminated || !content.is_empty() {
            events.push(LineEvent::Line(
                String::from_utf8(content.to_vec()).unwrap(),
            ));
        }
    };
    for segment in segments {
        push(segment, true);
    }
    push(last, false);
    events
}

#[test]
fn lines_codec_matches_the_reference_on_random_streams() {
    let mut rng = FastRand::from_seed(0x5eed_0002);
    let (mut total_lines, mut total_errors) = (0u64, 0u64);
    for case in 0..CASES {
        let max_length = pick(&mut rng, 12);
        let alphabet = b"ab\r\n\n";
        let len = pick(&mut rng, 40);
        let data: Vec<u8> = (0..len)
            .map(|_| alphabet[pick(&mut rng, alphabet.len())])
            .collect();
        let pieces = random_pieces(&mut rng, &data);
        let expected = reference_lines(&data, max_length);

        let mut codec = LinesCodec::new_with_max_length(max_length);
        let mut events = Vec::new();
        let max_capacity = 2 * (max_length + 1 + 17) + 64;
        let (lines, outcome) = incremental_decode(&mut codec, &pieces, max_capacity, |e| match e {
            LinesCodecError::MaxLineLengthExceeded => {
                events.push(LineEvent::TooLong);
                None
            }
            LinesCodecError::Io(e) => panic!("case {case}: unexpected {e}"),
        });
        assert_eq!(outcome, None);
        // Interleave: errors are recorded as they happen, lines at the end,
        // so compare counts per kind and the line order separately.
        let got_lines: Vec<String> = lines;
        let want_lines: Vec<&String> = expected
            .iter()
            .filter_map(|e| match e {
                LineEvent::Line(l) => Some(l),
                LineEvent::TooLong => None,
            })
            .collect();
        let want_errors = expected.len() - want_lines.len();
        assert_eq!(
            got_lines.iter().collect::<Vec<_>>(),
            want_lines,
            "case {case}: max {max_length}, stream {:?}",
            String::from_utf8_lossy(&data)
        );
        assert_eq!(events.len(), want_errors, "case {case}: {data:?}");
        total_lines += got_lines.len() as u64;
        total_errors += want_errors as u64;
    }
    assert!(total_lines > CASES && total_errors > CASES / 10);
}
