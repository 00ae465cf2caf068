//! SinkExt: the order of sink calls each future makes, resuming after
//! `Pending`, errors, and the helpers on a real Framed.

use futures_core::Stream;
use futures_sink::Sink;
use rt_codec::{FramedRead, FramedWrite, LinesCodec, SinkExt};
use rt_io::io::duplex;
use rt_stream::StreamExt;
use rt_test::{block_on, poll_once};
use std::collections::VecDeque;
use std::pin::{pin, Pin};
use std::task::{Context, Poll};

/// A sink that logs every call, says `Pending` (after waking the task) to
/// every other `poll_ready` and `poll_flush` when asked to, and fails on
/// the item "bad".
#[derive(Default)]
struct Recorder {
    log: Vec<String>,
    hesitant: bool,
    hesitated: bool,
}

impl Recorder {
    fn hesitate(&mut self, cx: &mut Context<'_>) -> bool {
        if self.hesitant && !self.hesitated {
            self.hesitated = true;
            cx.waker().wake_by_ref();
            return true;
        }
        self.hesitated = false;
        false
    }
}

impl Sink<&'static str> for Recorder {
    type Error = String;

    fn poll_ready(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), String>> {
        if self.hesitate(cx) {
            self.log.push("ready?".into());
            return Poll::Pending;
        }
        self.log.push("ready".into());
        Poll::Ready(Ok(()))
    }

    fn start_send(mut self: Pin<&mut Self>, item: &'static str) -> Result<(), String> {
        if item == "bad" {
            return Err("refused bad".into());
        }
        self.log.push(format!("send {item}"));
        Ok(())
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), String>> {
        if self.hesitate(cx) {
            self.log.push("flush?".into());
            return Poll::Pending;
        }
        self.log.push("flush".into());
        Poll::Ready(Ok(()))
    }

    fn poll_close(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Result<(), String>> {
        self.log.push("close".into());
        Poll::Ready(Ok(()))
    }
}

/// A stream of scripted results; `None` entries are one `Pending` each
/// (after waking the task).
struct Script(VecDeque<Option<Result<&'static str, String>>>);

impl Stream for Script {
    type Item = Result<&'static str, String>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.0.pop_front() {
            Some(Some(item)) => Poll::Ready(Some(item)),
            Some(None) => {
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            None => Poll::Ready(None),
        }
    }
}

#[test]
fn feed_waits_for_room_and_does_not_flush() {
    let mut sink = Recorder {
        hesitant: true,
        ..Recorder::default()
    };
    block_on(sink.feed("a")).unwrap();
    assert_eq!(sink.log, ["ready?", "ready", "send a"]);
}

#[test]
fn send_feeds_then_flushes_and_resumes_a_pending_flush() {
    let mut sink = Recorder::default();
    block_on(sink.send("a")).unwrap();
    assert_eq!(sink.log, ["ready", "send a", "flush"]);

    let mut sink = Recorder {
        hesitant: true,
        ..Recorder::default()
    };
    block_on(sink.send("b")).unwrap();
    // The item is handed over once, however often the future is polled.
    assert_eq!(sink.log, ["ready?", "ready", "send b", "flush?", "flush"]);
}

#[test]
fn flush_and_close_call_the_sink_once_ready() {
    let mut sink = Recorder::default();
    block_on(SinkExt::<&str>::flush(&mut sink)).unwrap();
    block_on(SinkExt::<&str>::close(&mut sink)).unwrap();
    assert_eq!(sink.log, ["flush", "close"]);
}

#[test]
fn errors_of_the_sink_end_the_future() {
    let mut sink = Recorder::default();
    assert_eq!(block_on(sink.send("bad")).unwrap_err(), "refused bad");
    assert_eq!(sink.log, ["ready"], "no flush after a refused item");
}

#[test]
fn send_all_forwards_everything_and_flushes_while_the_stream_waits() {
    let mut sink = Recorder::default();
    let mut stream = Script(
        [Some(Ok("a")), Some(Ok("b")), None, Some(Ok("c"))]
            .into_iter()
            .collect(),
    );
    block_on(sink.send_all(&mut stream)).unwrap();
    assert_eq!(
        sink.log,
        ["ready", "send a", "ready", "send b", "flush", "ready", "send c", "flush"]
    );
}

#[test]
fn send_all_keeps_an_item_while_the_sink_has_no_room() {
    let mut sink = Recorder {
        hesitant: true,
        ..Recorder::default()
    };
    let mut stream = Script([Some(Ok("a")), Some(Ok("b"))].into_iter().collect());
    block_on(sink.send_all(&mut stream)).unwrap();
    let sent: Vec<_> = sink.log.iter().filter(|l| l.starts_with("send")).collect();
    assert_eq!(sent, ["send a", "send b"]);
    assert!(stream.0.is_empty());
}

#[test]
fn send_all_stops_at_the_first_error_of_either_side() {
    let mut sink = Recorder::default();
    let mut stream = Script(
        [
            Some(Ok("a")),
            Some(Err("stream broke".into())),
            Some(Ok("b")),
        ]
        .into_iter()
        .collect(),
    );
    assert_eq!(
        block_on(sink.send_all(&mut stream)).unwrap_err(),
        "stream broke"
    );
    assert_eq!(sink.log, ["ready", "send a"]);
    assert_eq!(stream.0.len(), 1, "nothing read past the error");

    let mut sink = Recorder::default();
    let mut stream = Script([Some(Ok("bad")), Some(Ok("b"))].into_iter().collect());
    assert_eq!(
        block_on(sink.send_all(&mut stream)).unwrap_err(),
        "refused bad"
    );
}

#[test]
fn with_framed_lines() {
    block_on(async {
        let (a, b) = duplex(1024);
        let mut writer = FramedWrite::new(a, LinesCodec::new());
        let mut reader = FramedRead::new(b, LinesCodec::new());
        writer.feed("fed").await.unwrap();
        assert_eq!(&writer.write_buffer()[..], b"fed\n", "fed, not flushed");
        assert!(poll_once(pin!(reader.next())).is_pending());
        writer.send("sent").await.unwrap();
        assert!(writer.write_buffer().is_empty());
        let mut more =
            Script([Some(Ok("x")), Some(Ok("y"))].into_iter().collect()).map_err_into_lines();
        writer.send_all(&mut more).await.unwrap();
        SinkExt::<&str>::close(&mut writer).await.unwrap();
        let mut lines = Vec::new();
        while let Some(line) = reader.next().await {
            lines.push(line.unwrap());
        }
        assert_eq!(lines, ["fed", "sent", "x", "y"]);
    });
}

/// `Script` with `LinesCodecError` as its error type, to match the sink.
struct LinesScript(Script);

impl Script {
    fn map_err_into_lines(self) -> LinesScript {
        LinesScript(self)
    }
}

impl Stream for LinesScript {
    type Item = Result<&'static str, rt_codec::LinesCodecError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.0)
            .poll_next(cx)
            .map(|item| item.map(|r| r.map_err(|e| std::io::Error::other(e).into())))
    }
}

mod glob_import {
    // A glob import of the crate must not shadow the `Send` marker trait.
    #[allow(unused_imports)]
    use rt_codec::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn leaves_the_send_marker_alone() {
        assert_send::<rt_codec::sink::Send<'static, Vec<u8>, u8>>();
        assert_send::<LinesCodec>();
    }
}
