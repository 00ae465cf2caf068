//! [`WeakSender`]: a sender handle that does not keep the channel open.
//!
//! It holds the shared state alive but is not counted among the senders,
//! so the channel closes when the last [`Sender`] goes even while weak
//! handles remain. Upgrading increments the sender count only from a
//! non-zero value (a compare-and-swap loop), so a closed channel never
//! reopens.

use super::{Sender, Shared};
use rt_core::loom::sync::atomic::Ordering::SeqCst;
use std::fmt;
use std::sync::Arc;

/// A handle to a broadcast channel that does not keep it open; made by
/// [`Sender::downgrade`].
pub struct WeakSender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> WeakSender<T> {
    pub(super) fn new(shared: Arc<Shared<T>>) -> Self {
        shared.weak_senders.fetch_add(1, SeqCst);
        WeakSender { shared }
    }

    /// A [`Sender`] for the channel if some `Sender` is still alive, else
    /// `None` (the channel is closed for good).
    #[must_use]
    pub fn upgrade(&self) -> Option<Sender<T>> {
        let mut count = self.shared.senders.load(SeqCst);
        loop {
            if count == 0 {
                return None;
            }
            match self
                .shared
                .senders
                .compare_exchange_weak(count, count + 1, SeqCst, SeqCst)
            {
                Ok(_) => {
                    return Some(Sender {
                        shared: self.shared.clone(),
                    })
                }
                Err(now) => count = now,
            }
        }
    }

    /// Live [`Sender`]s.
    pub fn strong_count(&self) -> usize {
        self.shared.senders.load(SeqCst)
    }

    /// Live `WeakSender`s.
    pub fn weak_count(&self) -> usize {
        self.shared.weak_senders.load(SeqCst)
    }
}

impl<T> Clone for WeakSender<T> {
    fn clone(&self) -> Self {
        WeakSender::new(self.shared.clone())
    }
}

impl<T> Drop for WeakSender<T> {
    fn drop(&mut self) {
        self.shared.weak_senders.fetch_sub(1, SeqCst);
    }
}

impl<T> fmt::Debug for WeakSender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WeakSender")
            .field("senders", &self.strong_count())
            .finish()
    }
}
