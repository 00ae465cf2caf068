//! Which wrappers are `Unpin`: exactly those whose pinned parts (the inner
//! streams, futures, readers and writers) are, whatever their closures,
//! buffers and held items are. Each crate's pin projections are generated,
//! so this pins down the `Unpin` rule they derive.

use std::future::{Future, Ready};
use std::marker::{PhantomData, PhantomPinned};
use std::pin::Pin;
use std::task::{Context, Poll};

use rt::stream::adapters::{
    Chain, Filter, FilterMap, Fuse, Map, MapWhile, Merge, Peekable, Skip, SkipWhile, Take,
    TakeWhile, Then,
};
use rt::stream::{AsyncStream, Collect, FoldFuture, Pending, StreamNotifyClose, TryAsyncStream};

// `UNPIN` is the inherent constant when `T: Unpin`, the trait's default
// otherwise; the types below are concrete, so the choice is made per type.
struct Probe<T: ?Sized>(PhantomData<T>);
trait NotUnpin {
    const UNPIN: bool = false;
}
impl<T: ?Sized> NotUnpin for Probe<T> {}
impl<T: ?Sized + Unpin> Probe<T> {
    const UNPIN: bool = true;
}
macro_rules! unpin {
    ($t:ty) => {
        <Probe<$t>>::UNPIN
    };
}

/// A stream that must stay where it is once polled.
struct Fixed(PhantomPinned);

impl rt::stream::Stream for Fixed {
    type Item = u8;
    fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<u8>> {
        Poll::Ready(None)
    }
}

/// A future that must stay where it is once polled.
struct FixedFuture(PhantomPinned);

impl Future for FixedFuture {
    type Output = ();
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        Poll::Ready(())
    }
}

type Free = Pending<u8>;
// A closure-like value that is not `Unpin`: it is never pinned, so it does
// not matter.
type FixedFn = PhantomPinned;

#[test]
fn single_stream_adapters_follow_the_stream() {
    assert!(unpin!(Map<Free, FixedFn>));
    assert!(!unpin!(Map<Fixed, fn(u8) -> u8>));
    assert!(unpin!(Filter<Free, FixedFn>));
    assert!(!unpin!(Filter<Fixed, ()>));
    assert!(unpin!(FilterMap<Free, FixedFn>));
    assert!(!unpin!(FilterMap<Fixed, ()>));
    assert!(unpin!(MapWhile<Free, FixedFn>));
    assert!(!unpin!(MapWhile<Fixed, ()>));
    assert!(unpin!(SkipWhile<Free, FixedFn>));
    assert!(!unpin!(SkipWhile<Fixed, ()>));
    assert!(unpin!(TakeWhile<Free, FixedFn>));
    assert!(!unpin!(TakeWhile<Fixed, ()>));
    assert!(unpin!(Skip<Free>));
    assert!(!unpin!(Skip<Fixed>));
    assert!(unpin!(Take<Free>));
    assert!(!unpin!(Take<Fixed>));
    assert!(unpin!(Fuse<Free>));
    assert!(!unpin!(Fuse<Fixed>));
    assert!(unpin!(Peekable<Free>));
    assert!(!unpin!(Peekable<Fixed>));
    assert!(unpin!(StreamNotifyClose<Free>));
    assert!(!unpin!(StreamNotifyClose<Fixed>));
}

#[test]
fn two_part_adapters_need_both_parts_unpin() {
    assert!(unpin!(Chain<Free, Free>));
    assert!(!unpin!(Chain<Fixed, Free>));
    assert!(!unpin!(Chain<Free, Fixed>));
    assert!(unpin!(Merge<Free, Free>));
    assert!(!unpin!(Merge<Fixed, Free>));
    assert!(!unpin!(Merge<Free, Fixed>));
    assert!(unpin!(Then<Free, Ready<u8>, FixedFn>));
    assert!(!unpin!(Then<Fixed, Ready<u8>, ()>));
    assert!(!unpin!(Then<Free, FixedFuture, ()>));
}

#[test]
fn futures_and_generators_follow_their_pinned_part() {
    assert!(unpin!(FoldFuture<Free, PhantomPinned, FixedFn>));
    assert!(!unpin!(FoldFuture<Fixed, u8, ()>));
    assert!(unpin!(Collect<Free, Vec<u8>>));
    assert!(!unpin!(Collect<Fixed, Vec<u8>>));
    assert!(unpin!(AsyncStream<FixedFn, Ready<()>>));
    assert!(!unpin!(AsyncStream<u8, FixedFuture>));
    assert!(unpin!(TryAsyncStream<u8, FixedFn, Ready<Result<(), FixedFn>>>));
    assert!(!unpin!(TryAsyncStream<u8, (), FixedFuture>));
}

#[test]
fn io_wrappers_follow_their_inner_values() {
    use rt::io::{BufReader, BufStream, BufWriter, Chain, Join, Lines, Split, Take};
    type Free = rt::io::Empty;
    type Fixed = PhantomPinned;

    assert!(unpin!(BufReader<Free>));
    assert!(!unpin!(BufReader<Fixed>));
    assert!(unpin!(BufWriter<Free>));
    assert!(!unpin!(BufWriter<Fixed>));
    assert!(unpin!(BufStream<Free>));
    assert!(!unpin!(BufStream<Fixed>));
    assert!(unpin!(Take<Free>));
    assert!(!unpin!(Take<Fixed>));
    assert!(unpin!(Lines<Free>));
    assert!(!unpin!(Lines<Fixed>));
    assert!(unpin!(Split<Free>));
    assert!(!unpin!(Split<Fixed>));
    assert!(unpin!(Chain<Free, Free>));
    assert!(!unpin!(Chain<Fixed, Free>));
    assert!(!unpin!(Chain<Free, Fixed>));
    assert!(unpin!(Join<Free, Free>));
    assert!(!unpin!(Join<Fixed, Free>));
    assert!(!unpin!(Join<Free, Fixed>));
}

#[cfg(feature = "compat")]
#[test]
fn compat_follows_the_wrapped_value() {
    use rt::io::compat::Compat;

    assert!(unpin!(Compat<rt::io::Empty>));
    assert!(!unpin!(Compat<PhantomPinned>));
}

#[test]
fn timers_stay_in_place() {
    // The wheel links a `Sleep`'s entry by address, so neither a sleep nor
    // a timeout holding one may move once polled, whatever it wraps.
    assert!(!unpin!(rt::time::Sleep));
    assert!(!unpin!(rt::time::Timeout<Ready<()>>));
    assert!(!unpin!(rt::time::Timeout<FixedFuture>));
}

#[test]
fn framed_transports_follow_the_transport_not_the_codec() {
    use rt::codec::{Framed, FramedRead, FramedWrite};
    type Free = rt::io::Empty;
    type FixedCodec = PhantomPinned;

    assert!(unpin!(Framed<Free, FixedCodec>));
    assert!(!unpin!(Framed<PhantomPinned, ()>));
    assert!(unpin!(FramedRead<Free, FixedCodec>));
    assert!(!unpin!(FramedRead<PhantomPinned, ()>));
    assert!(unpin!(FramedWrite<Free, FixedCodec>));
    assert!(!unpin!(FramedWrite<PhantomPinned, ()>));
}

#[test]
fn task_wrappers_follow_the_future_not_the_value() {
    use rt::task::coop::Unconstrained;
    use rt::task::futures::TaskLocalFuture;

    assert!(unpin!(TaskLocalFuture<PhantomPinned, Ready<()>>));
    assert!(!unpin!(TaskLocalFuture<u8, FixedFuture>));
    assert!(unpin!(Unconstrained<Ready<()>>));
    assert!(!unpin!(Unconstrained<FixedFuture>));
}

#[test]
fn queued_waiters_stay_in_place() {
    // A `Notified` links its waiter node into the notify's queue by
    // address.
    assert!(!unpin!(rt::sync::futures::Notified<'static>));
}
