//! Behaviour of the channel wrappers: `ReceiverStream`,
//! `UnboundedReceiverStream`, `BroadcastStream` and `WatchStream`, on rt's
//! current-thread runtime.

#![cfg(feature = "sync")]

use std::task::Poll;

use rt_stream::wrappers::errors;
use rt_stream::wrappers::{
    BroadcastStream, BroadcastStreamRecvError, ReceiverStream, UnboundedReceiverStream, WatchStream,
};
use rt_stream::{Stream, StreamExt};
use rt_sync::{broadcast, mpsc, watch};
use rt_test::{poll_next_once, run};

fn assert_send_sync_unpin<T: Send + Sync + Unpin>() {}

#[test]
fn every_wrapper_is_send_sync_and_unpin() {
    assert_send_sync_unpin::<ReceiverStream<u8>>();
    assert_send_sync_unpin::<UnboundedReceiverStream<u8>>();
    assert_send_sync_unpin::<BroadcastStream<u8>>();
    assert_send_sync_unpin::<WatchStream<u8>>();
}

// ---- ReceiverStream ----

#[test]
fn receiver_stream_yields_in_send_order_and_ends_when_senders_are_gone() {
    run(async {
        let (tx, rx) = mpsc::channel(8);
        for n in 0..5u32 {
            tx.send(n).await.unwrap();
        }
        let mut stream = ReceiverStream::new(rx);
        assert_eq!(stream.size_hint(), (5, None));
        assert_eq!(stream.next().await, Some(0));
        drop(tx);
        assert_eq!(stream.size_hint(), (4, Some(4)));
        let rest: Vec<u32> = (&mut stream).collect().await;
        assert_eq!(rest, [1, 2, 3, 4]);
        assert_eq!(stream.size_hint(), (0, Some(0)));
        assert_eq!(stream.next().await, None);
        assert_eq!(stream.next().await, None);
    });
}

#[test]
fn receiver_stream_waits_for_a_message_sent_later() {
    run(async {
        let (tx, rx) = mpsc::channel(1);
        let mut stream = ReceiverStream::from(rx);
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        let sender = rt_core::task::spawn(async move {
            tx.send("late").await.unwrap();
        });
        assert_eq!(stream.next().await, Some("late"));
        sender.await.unwrap();
        assert_eq!(stream.next().await, None);
    });
}

#[test]
fn receiver_stream_close_ends_after_messages_and_reserved_permits() {
    run(async {
        let (tx, rx) = mpsc::channel(4);
        let mut stream = ReceiverStream::new(rx);
        tx.send(1u8).await.unwrap();
        let permit = tx.reserve().await.unwrap();
        stream.close();
        assert!(stream.as_ref().is_closed());
        // One message waiting, and the permit may still send one more.
        assert_eq!(stream.size_hint(), (1, Some(2)));
        assert!(tx.send(9).await.is_err());
        assert_eq!(stream.next().await, Some(1));
        permit.send(2);
        assert_eq!(stream.next().await, Some(2));
        assert_eq!(stream.next().await, None);
        drop(tx);
    });
}

#[test]
fn receiver_stream_gives_its_receiver_back() {
    run(async {
        let (tx, rx) = mpsc::channel(4);
        let mut stream = ReceiverStream::new(rx);
        tx.send(1u8).await.unwrap();
        tx.send(2).await.unwrap();
        assert_eq!(stream.as_mut().try_recv(), Ok(1));
        let mut rx = stream.into_inner();
        assert_eq!(rx.recv().await, Some(2));
    });
}

// ---- UnboundedReceiverStream ----

#[test]
fn unbounded_stream_yields_in_send_order_and_ends_when_senders_are_gone() {
    run(async {
        let (tx, rx) = mpsc::unbounded_channel();
        let tx2 = tx.clone();
        tx.send("a").unwrap();
        tx2.send("b").unwrap();
        tx.send("c").unwrap();
        let mut stream = UnboundedReceiverStream::new(rx);
        assert_eq!(stream.size_hint(), (3, None));
        drop(tx);
        assert_eq!(stream.next().await, Some("a"));
        drop(tx2);
        assert_eq!(stream.size_hint(), (2, Some(2)));
        let rest: Vec<&str> = (&mut stream).collect().await;
        assert_eq!(rest, ["b", "c"]);
        assert_eq!(stream.next().await, None);
    });
}

#[test]
fn unbounded_stream_waits_for_a_message_sent_later() {
    run(async {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut stream = UnboundedReceiverStream::from(rx);
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        let sender = rt_core::task::spawn(async move {
            tx.send(42u64).unwrap();
        });
        assert_eq!(stream.next().await, Some(42));
        sender.await.unwrap();
        assert_eq!(stream.next().await, None);
    });
}

#[test]
fn unbounded_stream_close_keeps_what_was_sent() {
    run(async {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut stream = UnboundedReceiverStream::new(rx);
        tx.send(1u8).unwrap();
        stream.close();
        assert!(tx.send(2).is_err());
        assert_eq!(stream.size_hint(), (1, Some(1)));
        assert_eq!(stream.next().await, Some(1));
        assert_eq!(stream.next().await, None);
        tx.send(3).unwrap_err();
        assert_eq!(stream.as_ref().len(), 0);
        let mut rx = stream.into_inner();
        assert_eq!(rx.recv().await, None);
    });
}

// ---- BroadcastStream ----

#[test]
fn broadcast_stream_yields_in_send_order_and_ends_on_close() {
    run(async {
        let (tx, rx) = broadcast::channel(8);
        let mut stream = BroadcastStream::new(rx);
        for n in 0..4u32 {
            tx.send(n).unwrap();
        }
        drop(tx);
        let got: Vec<Result<u32, BroadcastStreamRecvError>> = (&mut stream).collect().await;
        assert_eq!(got, [Ok(0), Ok(1), Ok(2), Ok(3)]);
        assert_eq!(stream.size_hint(), (0, Some(0)));
        // Polling past the end keeps answering `None`.
        assert_eq!(stream.next().await, None);
    });
}

#[test]
fn broadcast_stream_reports_a_lag_as_an_item_and_goes_on() {
    run(async {
        let (tx, rx) = broadcast::channel(2);
        let mut stream = BroadcastStream::from(rx);
        for n in 1..=5u32 {
            tx.send(n).unwrap();
        }
        assert_eq!(
            stream.next().await,
            Some(Err(BroadcastStreamRecvError::Lagged(3)))
        );
        assert_eq!(stream.next().await, Some(Ok(4)));
        assert_eq!(stream.next().await, Some(Ok(5)));
        // The stream is still live after the lag.
        tx.send(6).unwrap();
        assert_eq!(stream.next().await, Some(Ok(6)));
        // A second lag is reported the same way.
        for n in 7..=10u32 {
            tx.send(n).unwrap();
        }
        assert_eq!(
            stream.next().await,
            Some(Err(BroadcastStreamRecvError::Lagged(2)))
        );
        drop(tx);
        let rest: Vec<_> = stream.collect().await;
        assert_eq!(rest, [Ok(9), Ok(10)]);
    });
}

#[test]
fn broadcast_lag_error_reads_like_tokio_streams() {
    let err = BroadcastStreamRecvError::Lagged(3);
    assert_eq!(err.to_string(), "channel lagged by 3");
    let same: errors::BroadcastStreamRecvError = err.clone();
    assert_eq!(same, err);
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(err);
    assert_eq!(boxed.to_string(), "channel lagged by 3");
}

#[test]
fn broadcast_stream_waits_for_a_value_sent_later() {
    run(async {
        let (tx, rx) = broadcast::channel(4);
        let mut stream = BroadcastStream::new(rx);
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        assert_eq!(stream.size_hint(), (0, None));
        let sender = rt_core::task::spawn(async move {
            tx.send("late").unwrap();
            tx
        });
        assert_eq!(stream.next().await, Some(Ok("late")));
        let tx = sender.await.unwrap();
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        let closer = rt_core::task::spawn(async move { drop(tx) });
        assert_eq!(stream.next().await, None);
        closer.await.unwrap();
    });
}

#[test]
fn every_broadcast_stream_sees_every_value() {
    run(async {
        let (tx, rx) = broadcast::channel(4);
        let first = BroadcastStream::new(rx);
        let second = BroadcastStream::new(tx.subscribe());
        tx.send(String::from("x")).unwrap();
        tx.send(String::from("y")).unwrap();
        drop(tx);
        let first: Vec<_> = first.map(Result::unwrap).collect().await;
        let second: Vec<_> = second.map(Result::unwrap).collect().await;
        assert_eq!(first, ["x", "y"]);
        assert_eq!(second, ["x", "y"]);
    });
}

#[test]
fn broadcast_stream_of_a_closed_channel_ends_at_once() {
    run(async {
        let (tx, rx) = broadcast::channel::<u8>(1);
        drop(tx);
        let mut stream = BroadcastStream::new(rx);
        assert_eq!(stream.next().await, None);
    });
}

// ---- WatchStream ----

#[test]
fn watch_stream_yields_the_current_value_then_each_change() {
    run(async {
        let (tx, rx) = watch::channel(0u32);
        let mut stream = WatchStream::new(rx);
        assert_eq!(stream.next().await, Some(0));
        // Nothing new: the stream waits.
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        tx.send(1).unwrap();
        assert_eq!(stream.next().await, Some(1));
        tx.send(2).unwrap();
        assert_eq!(stream.next().await, Some(2));
        drop(tx);
        assert_eq!(stream.next().await, None);
        assert_eq!(stream.size_hint(), (0, Some(0)));
        assert_eq!(stream.next().await, None);
    });
}

#[test]
fn watch_stream_skips_values_written_while_it_was_not_read() {
    run(async {
        let (tx, rx) = watch::channel(0u32);
        let mut stream = WatchStream::new(rx);
        for n in 1..=5 {
            tx.send(n).unwrap();
        }
        // The first poll sees only the latest value, and it is not
        // reported a second time as a change.
        assert_eq!(stream.next().await, Some(5));
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        for n in 6..=9 {
            tx.send(n).unwrap();
        }
        assert_eq!(stream.next().await, Some(9));
        drop(tx);
        assert_eq!(stream.next().await, None);
    });
}

#[test]
fn watch_stream_from_changes_waits_for_a_new_value() {
    run(async {
        let (tx, rx) = watch::channel("start");
        let mut stream = WatchStream::from_changes(rx);
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        let writer = rt_core::task::spawn(async move {
            tx.send("first").unwrap();
            tx.send("second").unwrap();
            tx
        });
        assert_eq!(stream.next().await, Some("second"));
        let tx = writer.await.unwrap();
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        let closer = rt_core::task::spawn(async move { drop(tx) });
        assert_eq!(stream.next().await, None);
        closer.await.unwrap();
    });
}

#[test]
fn watch_stream_from_changes_yields_a_value_not_seen_yet() {
    run(async {
        let (tx, rx) = watch::channel(1u8);
        tx.send(2).unwrap();
        let mut stream = WatchStream::from_changes(rx);
        assert_eq!(stream.next().await, Some(2));
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
    });
}

#[test]
fn watch_stream_new_still_yields_the_value_left_by_a_gone_sender() {
    run(async {
        let (tx, rx) = watch::channel(7u8);
        drop(tx);
        let got: Vec<u8> = WatchStream::new(rx).collect().await;
        assert_eq!(got, [7]);
        let (tx, rx) = watch::channel(7u8);
        drop(tx);
        let got: Vec<u8> = WatchStream::from_changes(rx).collect().await;
        assert!(got.is_empty());
    });
}

#[test]
fn broadcast_stream_reports_a_lag_that_happened_while_it_waited() {
    run(async {
        let (tx, rx) = broadcast::channel(2);
        let mut stream = BroadcastStream::new(rx);
        assert_eq!(poll_next_once(&mut stream), Poll::Pending);
        let sender = rt_core::task::spawn(async move {
            for n in 1..=5u32 {
                tx.send(n).unwrap();
            }
        });
        assert_eq!(
            stream.next().await,
            Some(Err(BroadcastStreamRecvError::Lagged(3)))
        );
        sender.await.unwrap();
        let rest: Vec<_> = stream.collect().await;
        assert_eq!(rest, [Ok(4), Ok(5)]);
    });
}

#[test]
fn wrappers_have_debug_output() {
    let (_tx, rx) = broadcast::channel::<u8>(1);
    assert!(format!("{:?}", BroadcastStream::new(rx)).starts_with("BroadcastStream"));
    let (_tx, rx) = watch::channel(0u8);
    assert!(format!("{:?}", WatchStream::new(rx)).starts_with("WatchStream"));
    let (_tx, rx) = mpsc::channel::<u8>(1);
    assert!(format!("{:?}", ReceiverStream::new(rx)).starts_with("ReceiverStream"));
    let (_tx, rx) = mpsc::unbounded_channel::<u8>();
    assert!(
        format!("{:?}", UnboundedReceiverStream::new(rx)).starts_with("UnboundedReceiverStream")
    );
}
