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
    const { assert!(unpin!(Map<Free, FixedFn>)) };
    const { assert!(!unpin!(Map<Fixed, fn(u8) -> u8>)) };
    const { assert!(unpin!(Filter<Free, FixedFn>)) };
    const { assert!(!unpin!(Filter<Fixed, ()>)) };
    const { assert!(unpin!(FilterMap<Free, FixedFn>)) };
    const { assert!(!unpin!(FilterMap<Fixed, ()>)) };
    const { assert!(unpin!(MapWhile<Free, FixedFn>)) };
    const { assert!(!unpin!(MapWhile<Fixed, ()>)) };
    const { assert!(unpin!(SkipWhile<Free, FixedFn>)) };
    const { assert!(!unpin!(SkipWhile<Fixed, ()>)) };
    const { assert!(unpin!(TakeWhile<Free, FixedFn>)) };
    const { assert!(!unpin!(TakeWhile<Fixed, ()>)) };
    const { assert!(unpin!(Skip<Free>)) };
    const { assert!(!unpin!(Skip<Fixed>)) };
    const { assert!(unpin!(Take<Free>)) };
    const { assert!(!unpin!(Take<Fixed>)) };
    const { assert!(unpin!(Fuse<Free>)) };
    const { assert!(!unpin!(Fuse<Fixed>)) };
    const { assert!(unpin!(Peekable<Free>)) };
    const { assert!(!unpin!(Peekable<Fixed>)) };
    const { assert!(unpin!(StreamNotifyClose<Free>)) };
    const { assert!(!unpin!(StreamNotifyClose<Fixed>)) };
}

#[test]
fn two_part_adapters_need_both_parts_unpin() {
    const { assert!(unpin!(Chain<Free, Free>)) };
    const { assert!(!unpin!(Chain<Fixed, Free>)) };
    const { assert!(!unpin!(Chain<Free, Fixed>)) };
    const { assert!(unpin!(Merge<Free, Free>)) };
    const { assert!(!unpin!(Merge<Fixed, Free>)) };
    const { assert!(!unpin!(Merge<Free, Fixed>)) };
    const { assert!(unpin!(Then<Free, Ready<u8>, FixedFn>)) };
    const { assert!(!unpin!(Then<Fixed, Ready<u8>, ()>)) };
    const { assert!(!unpin!(Then<Free, FixedFuture, ()>)) };
}

#[test]
fn futures_and_generators_follow_their_pinned_part() {
    const { assert!(unpin!(FoldFuture<Free, PhantomPinned, FixedFn>)) };
    const { assert!(!unpin!(FoldFuture<Fixed, u8, ()>)) };
    const { assert!(unpin!(Collect<Free, Vec<u8>>)) };
    const { assert!(!unpin!(Collect<Fixed, Vec<u8>>)) };
    const { assert!(unpin!(AsyncStream<FixedFn, Ready<()>>)) };
    const { assert!(!unpin!(AsyncStream<u8, FixedFuture>)) };
    const { assert!(unpin!(TryAsyncStream<u8, FixedFn, Ready<Result<(), FixedFn>>>)) };
    const { assert!(!unpin!(TryAsyncStream<u8, (), FixedFuture>)) };
}

#[test]
fn io_wrappers_follow_their_inner_values() {
    use rt::io::{BufReader, BufStream, BufWriter, Chain, Join, Lines, Split, Take};
    type Free = rt::io::Empty;
    type Fixed = PhantomPinned;

    const { assert!(unpin!(BufReader<Free>)) };
    const { assert!(!unpin!(BufReader<Fixed>)) };
    const { assert!(unpin!(BufWriter<Free>)) };
    const { assert!(!unpin!(BufWriter<Fixed>)) };
    const { assert!(unpin!(BufStream<Free>)) };
    const { assert!(!unpin!(BufStream<Fixed>)) };
    const { assert!(unpin!(Take<Free>)) };
    const { assert!(!unpin!(Take<Fixed>)) };
    const { assert!(unpin!(Lines<Free>)) };
    const { assert!(!unpin!(Lines<Fixed>)) };
    const { assert!(unpin!(Split<Free>)) };
    const { assert!(!unpin!(Split<Fixed>)) };
    const { assert!(unpin!(Chain<Free, Free>)) };
    const { assert!(!unpin!(Chain<Fixed, Free>)) };
    const { assert!(!unpin!(Chain<Free, Fixed>)) };
    const { assert!(unpin!(Join<Free, Free>)) };
    const { assert!(!unpin!(Join<Fixed, Free>)) };
    const { assert!(!unpin!(Join<Free, Fixed>)) };
}

#[cfg(feature = "compat")]
#[test]
fn compat_follows_the_wrapped_value() {
    use rt::io::compat::Compat;

    const { assert!(unpin!(Compat<rt::io::Empty>)) };
    const { assert!(!unpin!(Compat<PhantomPinned>)) };
}

#[test]
fn timers_stay_in_place() {
    // The wheel links a `Sleep`'s entry by address, so neither a sleep nor
    // a timeout holding one may move once polled, whatever it wraps.
    const { assert!(!unpin!(rt::time::Sleep)) };
    const { assert!(!unpin!(rt::time::Timeout<Ready<()>>)) };
    const { assert!(!unpin!(rt::time::Timeout<FixedFuture>)) };
}

#[test]
fn framed_transports_follow_the_transport_not_the_codec() {
    use rt::codec::{Framed, FramedRead, FramedWrite};
    type Free = rt::io::Empty;
    type FixedCodec = PhantomPinned;

    const { assert!(unpin!(Framed<Free, FixedCodec>)) };
    const { assert!(!unpin!(Framed<PhantomPinned, ()>)) };
    const { assert!(unpin!(FramedRead<Free, FixedCodec>)) };
    const { assert!(!unpin!(FramedRead<PhantomPinned, ()>)) };
    const { assert!(unpin!(FramedWrite<Free, FixedCodec>)) };
    const { assert!(!unpin!(FramedWrite<PhantomPinned, ()>)) };
}

#[test]
fn task_wrappers_follow_the_future_not_the_value() {
    use rt::task::coop::Unconstrained;
    use rt::task::futures::TaskLocalFuture;

    const { assert!(unpin!(TaskLocalFuture<PhantomPinned, Ready<()>>)) };
    const { assert!(!unpin!(TaskLocalFuture<u8, FixedFuture>)) };
    const { assert!(unpin!(Unconstrained<Ready<()>>)) };
    const { assert!(!unpin!(Unconstrained<FixedFuture>)) };
}

#[test]
fn queued_waiters_stay_in_place() {
    // A `Notified` links its waiter node into the notify's queue by
    // address.
    const { assert!(!unpin!(rt::sync::futures::Notified<'static>)) };
}
