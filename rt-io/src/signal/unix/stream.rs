//! [`Signal`], one listener of one signal kind, and [`signal`] that creates
//! it.

use super::SignalKind;
use crate::signal::event::EventListener;
use crate::signal::registry;
use std::future::poll_fn;
use std::io;
use std::task::{ready, Context, Poll};

/// Listens to `kind`: the returned [`Signal`] reports every delivery made
/// after this call and, when no other `Signal` of `kind` exists, those made
/// since the last one was dropped.
///
/// The first call for a kind installs its process-wide handler. It works
/// inside or outside a runtime; the `Signal` may be polled by any runtime.
///
/// # Errors
///
/// `SIGKILL`, `SIGSTOP`, `SIGILL`, `SIGFPE`, `SIGSEGV` and negative numbers
/// are refused ("Refusing to register signal N"), numbers above 64 too
/// ("signal too large"); a failing `sigaction` (for example on an unknown
/// number) gives its OS error.
///
/// # Examples
///
/// ```
/// use rt_io::signal::unix::{signal, SignalKind};
///
/// # fn main() -> std::io::Result<()> {
/// let rt = rt_core::runtime::Builder::new_current_thread().build()?;
/// rt.block_on(async {
///     let mut hangups = signal(SignalKind::hangup())?;
///     // A real program waits for someone else to send the signal.
///     std::process::Command::new("kill")
///         .args(["-HUP", &std::process::id().to_string()])
///         .status()?;
///     hangups.recv().await;
///     println!("reloading the configuration");
///     Ok(())
/// })
/// # }
/// ```
pub fn signal(kind: SignalKind) -> io::Result<Signal> {
    let listener = registry::listen(kind.as_raw_value())?;
    Ok(Signal { listener })
}

/// A stream of notifications that one signal kind was delivered; created by
/// [`signal`].
///
/// Dropping a `Signal` discards deliveries it had not reported; the handler
/// stays installed, and a delivery that comes while no `Signal` of the kind
/// exists is reported by the next one.
#[derive(Debug)]
#[must_use = "a Signal reports deliveries only when polled"]
pub struct Signal {
    listener: EventListener,
}

impl Signal {
    /// Waits for the next delivery and returns `Some(())`.
    ///
    /// Deliveries since the last completed call count once. Never returns
    /// `None`: the handler is never removed.
    ///
    /// # Cancel safety
    ///
    /// Cancel-safe: if the future is dropped before it completes, a delivery
    /// it would have reported is reported by the next call instead.
    pub async fn recv(&mut self) -> Option<()> {
        poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// Polls for the next delivery: `Ready(Some(()))` if the signal arrived
    /// since the last `Ready`; otherwise `Pending`, and `cx`'s waker is woken
    /// on the next delivery. Only the waker of the latest call is kept.
    pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<()>> {
        let budget = ready!(rt_core::task::coop::poll_proceed(cx));
        ready!(self.listener.poll_delivery(cx));
        budget.made_progress();
        Poll::Ready(Some(()))
    }
}

/// The number of live [`Signal`]s of `kind`; lets tests check that a
/// dropped `Signal` unregisters itself.
#[doc(hidden)]
pub fn listener_count(kind: SignalKind) -> usize {
    registry::listener_count(kind.as_raw_value())
}
