//! [`Sender`]: the handle a generator body yields items through, and the
//! slot it shares with its stream.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::sync::{Arc, Mutex, MutexGuard};

/// The one-item slot between a generator body and its stream.
#[derive(Debug)]
pub(super) struct Slot<T> {
    item: Mutex<Option<T>>,
}

impl<T> Slot<T> {
    pub(super) fn new() -> Arc<Slot<T>> {
        Arc::new(Slot {
            item: Mutex::new(None),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Option<T>> {
        // The lock is only held to move one value in or out, which cannot
        // panic, so a poisoned lock still holds consistent data.
        self.item.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn take(&self) -> Option<T> {
        self.lock().take()
    }
}

/// The handle through which a [`stream_fn`](crate::stream_fn) body yields
/// its items.
///
/// Use it only inside the body's own future: the stream picks items up
/// when it polls that future, so an item sent from elsewhere (another
/// task, a thread) would wait until the stream happens to be polled again.
#[derive(Debug)]
pub struct Sender<T> {
    slot: Arc<Slot<T>>,
}

impl<T> Sender<T> {
    pub(super) fn new(slot: Arc<Slot<T>>) -> Sender<T> {
        Sender { slot }
    }

    /// Yields `value` as the stream's next item; completes once the stream
    /// has handed it out and is asked for the following one.
    pub fn send(&mut self, value: T) -> SendItem<'_, T> {
        SendItem {
            slot: &self.slot,
            value: Some(value),
        }
    }
}

/// Future for [`Sender::send`].
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct SendItem<'a, T> {
    slot: &'a Slot<T>,
    // `None` once the value is in the slot.
    value: Option<T>,
}

// The value is moved, never pinned.
impl<T> Unpin for SendItem<'_, T> {}

impl<T> Future for SendItem<'_, T> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
        let Some(value) = self.value.take() else {
            // Our value went out on an earlier poll, and the stream polled
            // the body again: it wants the next item.
            return Poll::Ready(());
        };
        let mut item = self.slot.lock();
        if item.is_none() {
            *item = Some(value);
        } else {
            // Another send in the same body (say, two joined sends) filled
            // the slot first. The stream hands that item out and polls the
            // body again on its next poll, when this value gets its turn.
            drop(item);
            self.value = Some(value);
        }
        // No waker is needed: the stream returns the slot's item at once
        // and polls the body again on its next `poll_next`.
        Poll::Pending
    }
}
