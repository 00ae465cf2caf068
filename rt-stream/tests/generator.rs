//! Behaviour of `stream_fn` and `try_stream_fn`: streams written as async
//! bodies that send their items.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::Poll;

use rt_stream::{stream_fn, try_stream_fn, Stream, StreamExt};
use rt_test::{poll_next_once, run};

#[test]
fn items_come_out_in_send_order() {
    let got: Vec<u32> = run(stream_fn(|mut tx| async move {
        for n in 0..5 {
            tx.send(n).await;
        }
    })
    .collect());
    assert_eq!(got, [0, 1, 2, 3, 4]);
}

#[test]
fn the_body_may_await_other_things_between_items() {
    let got: Vec<u32> = run(async {
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let worker = rt_core::spawn(async move {
            done_tx.send(7).unwrap();
        });
        let s = stream_fn(|mut tx| async move {
            tx.send(1).await;
            worker.await.unwrap();
            rt_core::task::yield_now().await;
            tx.send(done_rx.recv().unwrap()).await;
        });
        s.collect().await
    });
    assert_eq!(got, [1, 7]);
}

#[test]
fn the_body_runs_only_while_the_stream_is_polled() {
    let started = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&started);
    let mut s = Box::pin(stream_fn(move |mut tx| async move {
        flag.store(true, Ordering::SeqCst);
        tx.send(()).await;
    }));
    assert!(!started.load(Ordering::SeqCst));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(())));
    assert!(started.load(Ordering::SeqCst));
    assert_eq!(s.size_hint(), (0, None));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(s.size_hint(), (0, Some(0)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

/// Polls `send` once and abandons it, as a `select!` whose other branch won
/// would: the value is already in the slot.
async fn poll_once_and_drop<F: Future<Output = ()> + Unpin>(mut send: F) {
    poll_fn(|cx| {
        let _ = Pin::new(&mut send).poll(cx);
        Poll::Ready(())
    })
    .await;
}

#[test]
fn an_abandoned_send_still_delivers_and_a_waiting_send_gets_its_turn() {
    let mut s = Box::pin(stream_fn(|mut tx| async move {
        poll_once_and_drop(tx.send(1)).await;
        // The slot is still full here: this send waits for the next poll.
        tx.send(2).await;
    }));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(1)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(2)));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn an_item_sent_as_the_body_finishes_is_not_lost() {
    let mut s = Box::pin(stream_fn(|mut tx| async move {
        poll_once_and_drop(tx.send("last")).await;
    }));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some("last")));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn dropping_the_stream_drops_the_body() {
    struct SetOnDrop(Arc<AtomicBool>);
    impl Drop for SetOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let dropped = Arc::new(AtomicBool::new(false));
    let guard = SetOnDrop(Arc::clone(&dropped));
    let mut s = Box::pin(stream_fn(move |mut tx| async move {
        let _guard = guard;
        loop {
            tx.send(0u8).await;
        }
    }));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(0)));
    assert!(!dropped.load(Ordering::SeqCst));
    drop(s);
    assert!(dropped.load(Ordering::SeqCst));
}

#[test]
fn try_stream_yields_ok_items_then_the_error_then_ends() {
    let mut s = Box::pin(try_stream_fn(|mut tx| async move {
        tx.send(1).await;
        tx.send(2).await;
        Err::<(), _>("broken")
    }));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(Ok(1))));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(Ok(2))));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(Err("broken"))));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert_eq!(s.size_hint(), (0, Some(0)));
}

#[test]
fn try_stream_keeps_order_when_an_item_and_the_error_arrive_together() {
    let mut s = Box::pin(try_stream_fn(|mut tx| async move {
        poll_once_and_drop(tx.send(1)).await;
        Err::<(), _>("after")
    }));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(Ok(1))));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(Err("after"))));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
}

#[test]
fn try_stream_collects_into_a_result() {
    let ok: Result<Vec<u8>, String> = run(try_stream_fn(|mut tx| async move {
        tx.send(3).await;
        Ok(())
    })
    .collect());
    assert_eq!(ok, Ok(vec![3]));
}

#[test]
fn generator_streams_are_send_when_their_body_is() {
    fn assert_send<T: Send>(_: &T) {}
    let s = stream_fn(|mut tx| async move {
        tx.send(String::new()).await;
    });
    assert_send(&s);
    let _ = s.size_hint();
}
