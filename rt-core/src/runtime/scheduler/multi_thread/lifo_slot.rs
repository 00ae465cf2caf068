//! A worker's LIFO slot: one task, put by the worker that owns it and taken
//! by that worker or by a watcher rescuing a task stranded behind a long
//! poll (`lifo_watch.rs`).
//!
//! The slot is one atomic pointer. Takers swap null in, so exactly one of
//! them gets a given task, and the owner swaps its task in (or, in a
//! runtime of one worker, which nobody watches, stores it into an empty
//! slot: only the owner fills it). A count of
//! puts, written before the task is published, lets the watcher tell "the
//! same task all along" from "a new task in the same slot".

use crate::loom::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use crate::task::Notified;
use std::ptr::{self, NonNull};

/// What a slot can hold: an owned value that converts to and from a
/// non-null pointer (a task reference; a box in the loom model).
pub(super) trait SlotItem: Sized {
    /// Gives up ownership as a pointer.
    fn into_ptr(self) -> NonNull<()>;
    /// Takes ownership back.
    ///
    /// # Safety
    ///
    /// `ptr` came from `into_ptr` and is converted back once.
    unsafe fn from_ptr(ptr: NonNull<()>) -> Self;
}

impl<S: 'static> SlotItem for Notified<S> {
    fn into_ptr(self) -> NonNull<()> {
        self.into_raw().cast()
    }

    unsafe fn from_ptr(ptr: NonNull<()>) -> Self {
        // SAFETY: the caller passes a pointer from `into_raw`, once.
        unsafe { Notified::from_raw(ptr.cast()) }
    }
}

pub(super) struct LifoSlot<T: SlotItem> {
    item: AtomicPtr<()>,
    /// Puts so far (written by the owner only): a watcher that sees the
    /// same count twice knows the slot held one task all along.
    puts: AtomicU32,
    _owns: std::marker::PhantomData<T>,
}

// SAFETY: the slot owns at most one `T` and hands it out by value to
// exactly one taker; sending or sharing the slot sends that `T`.
unsafe impl<T: SlotItem + Send> Send for LifoSlot<T> {}
// SAFETY: as above; every access goes through the atomic pointer.
unsafe impl<T: SlotItem + Send> Sync for LifoSlot<T> {}

impl<T: SlotItem> LifoSlot<T> {
    pub(super) fn new() -> LifoSlot<T> {
        LifoSlot {
            item: AtomicPtr::new(ptr::null_mut()),
            puts: AtomicU32::new(0),
            _owns: std::marker::PhantomData,
        }
    }

    /// Puts `item` in the slot and returns the one it displaced. Only the
    /// owner calls this. `watched`: whether another worker may watch the
    /// slot (the runtime has more than one worker).
    pub(super) fn put(&self, item: T, watched: bool) -> Option<T> {
        let raw = item.into_ptr().as_ptr();
        // Counted before the item is published, so that a `stamp` that
        // sees the new item also sees the new count.
        let puts = self.puts.load(Ordering::Relaxed);
        self.puts.store(puts.wrapping_add(1), Ordering::Relaxed);
        if !watched && self.item.load(Ordering::Relaxed).is_null() {
            // Empty, only we fill it, and no watcher looks: a plain store
            // publishes the item, cheaper than a swap.
            self.item.store(raw, Ordering::Release);
            return None;
        }
        // Watched, a swap even into an empty slot: this read-modify-write
        // is the owner's side of the LIFO watch's handshake
        // (`lifo_watch.rs`).
        let prev = self.item.swap(raw, Ordering::AcqRel);
        // SAFETY: non-null pointers in the slot came from `into_ptr`, and
        // the swap took this one out, so we convert it back once.
        NonNull::new(prev).map(|p| unsafe { T::from_ptr(p) })
    }

    /// Takes the item, if any.
    pub(super) fn take(&self) -> Option<T> {
        if self.item.load(Ordering::Relaxed).is_null() {
            return None;
        }
        let prev = self.item.swap(ptr::null_mut(), Ordering::AcqRel);
        // SAFETY: as in `put`.
        NonNull::new(prev).map(|p| unsafe { T::from_ptr(p) })
    }

    pub(super) fn is_empty(&self) -> bool {
        self.item.load(Ordering::Acquire).is_null()
    }

    /// Whether the slot holds an item, read with a read-modify-write (a
    /// compare-exchange of null for null), which sees the latest put: the
    /// watcher's side of the handshake in `lifo_watch.rs`. Either this
    /// comes after the owner's put in the slot's modification order and
    /// sees its item, or the put comes after it, synchronizes with it, and
    /// sees what the watcher wrote before looking.
    pub(super) fn holds_item_now(&self) -> bool {
        self.item
            .compare_exchange(ptr::null_mut(), ptr::null_mut(), Ordering::AcqRel, Ordering::Acquire)
            .is_err()
    }

    /// The put count, if the slot holds an item.
    pub(super) fn stamp(&self) -> Option<u32> {
        if self.is_empty() {
            return None;
        }
        Some(self.puts.load(Ordering::Relaxed))
    }
}

impl<T: SlotItem> Drop for LifoSlot<T> {
    fn drop(&mut self) {
        drop(self.take());
    }
}
