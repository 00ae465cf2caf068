//! Loom models of `OnceCell`, `SetOnce` and `Barrier`.
#![cfg(loom)]

use loom::future::block_on;
use loom::sync::Arc;
use loom::thread;
use rt_sync::{Barrier, OnceCell, SetOnce};

#[test]
fn once_cell_initialises_once() {
    loom::model(|| {
        let cell = Arc::new(OnceCell::new());
        let other = cell.clone();
        let t = thread::spawn(move || *block_on(other.get_or_init(|| async { 1 })));
        let mine = *block_on(cell.get_or_init(|| async { 2 }));
        let theirs = t.join().unwrap();
        assert_eq!(mine, theirs);
    });
}

#[test]
fn once_cell_set_races_with_init() {
    loom::model(|| {
        let cell = Arc::new(OnceCell::new());
        let other = cell.clone();
        let t = thread::spawn(move || other.set(1).is_ok());
        let value = *block_on(cell.get_or_init(|| async { 2 }));
        let set = t.join().unwrap();
        assert_eq!(value == 1, set);
    });
}

#[test]
fn set_once_waiter_sees_the_value() {
    loom::model(|| {
        let cell = Arc::new(SetOnce::new());
        let other = cell.clone();
        let t = thread::spawn(move || other.set(7).unwrap());
        assert_eq!(*block_on(cell.wait()), 7);
        t.join().unwrap();
    });
}

#[test]
fn set_once_elects_one_setter() {
    loom::model(|| {
        let cell = Arc::new(SetOnce::new());
        let other = cell.clone();
        let t = thread::spawn(move || other.set(1).is_ok());
        let mine = cell.set(2).is_ok();
        let theirs = t.join().unwrap();
        assert!(mine ^ theirs);
        assert_eq!(cell.get(), Some(if mine { &2 } else { &1 }));
    });
}

#[test]
fn barrier_of_two() {
    loom::model(|| {
        let barrier = Arc::new(Barrier::new(2));
        let other = barrier.clone();
        let t = thread::spawn(move || block_on(other.wait()).is_leader());
        let mine = block_on(barrier.wait()).is_leader();
        assert!(mine ^ t.join().unwrap());
    });
}
