//! [`BoxedBody`]: the heap-held generator that the broadcast and watch
//! streams run their receiver loop in.
//!
//! Those channels only offer `async fn`s (`recv`, `changed`) that borrow
//! the receiver, so a stream cannot keep one such future between polls
//! next to the receiver it borrows. Instead the whole read loop is written
//! once as a [`stream_fn`](crate::stream_fn) body that owns the receiver
//! and runs for the stream's whole life. It is boxed once, when the
//! stream is built, to give it a nameable type; every item after that
//! reuses the same box (and the generator's one slot), so reading
//! allocates nothing.

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::sync::{Mutex, PoisonError};

use futures_core::Stream;

/// A boxed, `Send` stream, made `Sync` as well.
///
/// The body holds the channel's wait-list entry, which is `Send` but not
/// `Sync`. The stream is only ever reached through `&mut self`, so it sits
/// in a `Mutex` that is never locked: [`Mutex::get_mut`] hands out the
/// stream without any atomic operation, and the `Mutex` makes the wrapper
/// `Sync` without unsafe code.
pub(super) struct BoxedBody<Item> {
    stream: Mutex<Pin<Box<dyn Stream<Item = Item> + Send>>>,
    // Set once the body has finished, for `size_hint`, which cannot reach
    // the stream through `&self` without locking.
    ended: bool,
}

impl<Item> BoxedBody<Item> {
    pub(super) fn new(stream: impl Stream<Item = Item> + Send + 'static) -> BoxedBody<Item> {
        BoxedBody {
            stream: Mutex::new(Box::pin(stream)),
            ended: false,
        }
    }

    fn get_mut(&mut self) -> Pin<&mut (dyn Stream<Item = Item> + Send)> {
        // Never locked, so never poisoned; if it were, the stream inside is
        // still whole.
        self.stream
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
    }

    pub(super) fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<Item>> {
        let next = self.get_mut().poll_next(cx);
        if let Poll::Ready(None) = next {
            self.ended = true;
        }
        next
    }

    /// Nothing is known of a running body (the channel's buffer belongs to
    /// it); a finished one yields nothing more.
    pub(super) fn size_hint(&self) -> (usize, Option<usize>) {
        if self.ended {
            (0, Some(0))
        } else {
            (0, None)
        }
    }
}

impl<Item> fmt::Debug for BoxedBody<Item> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoxedBody")
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}
