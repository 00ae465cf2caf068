//! Behaviour of `wrappers::JoinSetStream`: a JoinSet drained as a stream.

#![cfg(feature = "rt")]

use rt_core::task::JoinSet;
use rt_stream::wrappers::JoinSetStream;
use rt_stream::{Stream, StreamExt};
use rt_test::run;

#[test]
fn yields_every_result_and_then_ends() {
    run(async {
        let mut set = JoinSet::new();
        for n in 0..5u32 {
            set.spawn(async move { n });
        }
        let mut stream = JoinSetStream::new(set);
        assert_eq!(stream.size_hint(), (5, None));
        let mut got = Vec::new();
        while let Some(result) = stream.next().await {
            got.push(result.unwrap());
        }
        got.sort();
        assert_eq!(got, [0, 1, 2, 3, 4]);
        assert!(stream.next().await.is_none());
        assert!(stream.as_ref().is_empty());
    });
}

#[test]
fn results_come_in_the_order_tasks_finish() {
    run(async {
        let (first_tx, first_rx) = std::sync::mpsc::channel::<()>();
        let mut set = JoinSet::new();
        set.spawn(async move {
            // Finishes second: it waits for the other task to run first.
            while first_rx.try_recv().is_err() {
                rt_core::task::yield_now().await;
            }
            "slow"
        });
        set.spawn(async move {
            first_tx.send(()).unwrap();
            "fast"
        });
        let got: Vec<&str> = JoinSetStream::new(set).map(|r| r.unwrap()).collect().await;
        assert_eq!(got, ["fast", "slow"]);
    });
}

#[test]
fn a_panicking_task_comes_out_as_a_join_error() {
    run(async {
        let mut stream = JoinSetStream::new(JoinSet::new());
        stream.get_mut().spawn(async { panic!("boom") });
        let err = stream.next().await.unwrap().unwrap_err();
        assert!(err.is_panic());
        assert!(stream.next().await.is_none());
        let set: JoinSet<()> = stream.into_inner();
        assert!(set.is_empty());
    });
}

#[test]
fn tasks_spawned_while_reading_are_picked_up() {
    run(async {
        let mut stream = JoinSetStream::new(JoinSet::new());
        stream.as_mut().spawn(async { 1 });
        assert_eq!(stream.next().await.unwrap().unwrap(), 1);
        stream.as_mut().spawn(async { 2 });
        assert_eq!(stream.next().await.unwrap().unwrap(), 2);
        assert!(stream.next().await.is_none());
    });
}
