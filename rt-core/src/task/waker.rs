//! Wakers built straight from the task pointer: no allocation per waker, a
//! single static vtable (so `will_wake` compares equal for the same task),
//! and `wake_by_ref` that takes a reference only when it must queue.

use super::core::Header;
use super::raw::RawTask;
use super::state::TransitionToNotified;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::ptr::NonNull;
use std::task::{RawWaker, RawWakerVTable, Waker};

static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, wake_by_val, wake_by_ref, drop_waker);

/// A waker that borrows the poller's reference instead of owning one.
pub(super) struct WakerRef<'a> {
    waker: ManuallyDrop<Waker>,
    _borrow: PhantomData<&'a Header>,
}

/// Builds a borrowed waker for the task being polled.
pub(super) fn waker_ref<'a>(header: NonNull<Header>) -> WakerRef<'a> {
    // SAFETY: the vtable's functions uphold the RawWaker contract for a task
    // pointer; the ManuallyDrop keeps this borrowed waker from dropping a
    // reference it does not own.
    let waker = unsafe { Waker::from_raw(RawWaker::new(header.as_ptr() as *const (), &VTABLE)) };
    WakerRef {
        waker: ManuallyDrop::new(waker),
        _borrow: PhantomData,
    }
}

impl Deref for WakerRef<'_> {
    type Target = Waker;

    fn deref(&self) -> &Waker {
        &self.waker
    }
}

fn raw(ptr: *const ()) -> RawTask {
    // SAFETY: wakers are only made from live task headers, and each waker
    // holds a reference that keeps the task alive.
    unsafe { RawTask::from_raw(NonNull::new_unchecked(ptr as *mut Header)) }
}

unsafe fn clone(ptr: *const ()) -> RawWaker {
    raw(ptr).ref_inc();
    // A dump's trace poll notes where a future keeps the waker.
    super::trace::waker_cloned(RawWaker::new(ptr, &VTABLE))
}

unsafe fn wake_by_val(ptr: *const ()) {
    let task = raw(ptr);
    match task.header().state.transition_to_notified_by_val() {
        // The waker's reference is the Notified's now.
        TransitionToNotified::Submit => task.schedule(),
        TransitionToNotified::Dealloc => task.dealloc(),
        TransitionToNotified::DoNothing => {}
    }
}

unsafe fn wake_by_ref(ptr: *const ()) {
    let task = raw(ptr);
    match task.header().state.transition_to_notified_by_ref() {
        TransitionToNotified::Submit => task.schedule(),
        TransitionToNotified::Dealloc => unreachable!("wake_by_ref holds no reference"),
        TransitionToNotified::DoNothing => {}
    }
}

unsafe fn drop_waker(ptr: *const ()) {
    raw(ptr).drop_reference();
}
