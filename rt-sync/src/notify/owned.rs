//! [`OwnedNotified`]: the `'static` form of [`Notified`](super::Notified),
//! holding the `Notify` through an `Arc`. The wait itself is the same
//! [`Wait`] the borrowed future uses.

use super::{Notify, Wait};
use pin_project_lite::pin_project;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

pin_project! {
    /// The future returned by [`Notify::notified_owned`]: as
    /// [`Notified`](super::Notified), but it owns an `Arc` of the `Notify`
    /// instead of borrowing it.
    ///
    /// # Cancel safety
    ///
    /// As for `Notified`: a `notify_one`/`notify_last` delivered to it and
    /// not consumed is passed on when it is dropped.
    #[must_use = "futures do nothing unless polled"]
    pub struct OwnedNotified {
        #[pin]
        wait: Wait<Arc<Notify>>,
    }
}

impl OwnedNotified {
    pub(super) fn new(notify: Arc<Notify>) -> Self {
        OwnedNotified {
            wait: Wait::new(notify),
        }
    }

    /// Joins the queue without a waker, as
    /// [`Notified::enable`](super::Notified::enable); returns `true` if it
    /// is already notified.
    pub fn enable(self: Pin<&mut Self>) -> bool {
        self.project().wait.poll_notified(None).is_ready()
    }
}

impl Future for OwnedNotified {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.project().wait.poll_notified(Some(cx.waker()))
    }
}

impl fmt::Debug for OwnedNotified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedNotified")
            .field("stage", &self.wait.stage)
            .finish()
    }
}
