//! Windows console control events as async listeners, as in
//! `tokio::signal::windows`: [`ctrl_c`], [`ctrl_break`], [`ctrl_close`],
//! [`ctrl_logoff`] and [`ctrl_shutdown`].
//!
//! Each returns a listener that reports every event of its kind after it
//! was created; events that come while no listener of the kind exists are
//! reported by the next one, as for Unix signals. The console handler is
//! installed on first use and stays for the life of the process; see
//! `console.rs`.

mod console;

use crate::signal::event::EventListener;
use std::future::poll_fn;
use std::io;
use std::task::{ready, Context, Poll};
use windows_sys::Win32::System::Console::{
    CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_C_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
};

/// One listener of one console control event kind.
#[derive(Debug)]
struct Listener(EventListener);

impl Listener {
    fn new(kind: u32) -> io::Result<Listener> {
        console::listen(kind).map(Listener)
    }

    fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<()>> {
        let budget = ready!(rt_core::task::coop::poll_proceed(cx));
        ready!(self.0.poll_delivery(cx));
        budget.made_progress();
        Poll::Ready(Some(()))
    }
}

/// Declares one listener type, its constructor, and its `recv` and
/// `poll_recv`.
macro_rules! control_event {
    ($(#[$doc:meta])* $ty:ident, $ctor:ident, $kind:expr, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug)]
        #[must_use = "a listener reports events only when polled"]
        pub struct $ty {
            inner: Listener,
        }

        #[doc = concat!("Listens to ", $what, " events.")]
        ///
        /// # Errors
        ///
        /// Fails if the console control handler cannot be installed.
        pub fn $ctor() -> io::Result<$ty> {
            Ok($ty {
                inner: Listener::new($kind)?,
            })
        }

        impl $ty {
            /// Waits for the next event and returns `Some(())`; never
            /// `None`. Events since the last completed call count once.
            ///
            /// # Cancel safety
            ///
            /// Cancel-safe: an event a dropped future would have reported
            /// is reported by the next call.
            pub async fn recv(&mut self) -> Option<()> {
                poll_fn(|cx| self.poll_recv(cx)).await
            }

            /// Polls for the next event: `Ready(Some(()))` if one came since
            /// the last `Ready`; otherwise `Pending`, and `cx`'s waker is
            /// woken on the next one.
            pub fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<()>> {
                self.inner.poll_recv(cx)
            }
        }
    };
}

control_event!(
    /// Listens to Ctrl-C (`CTRL_C_EVENT`); made by [`ctrl_c`].
    CtrlC,
    ctrl_c,
    CTRL_C_EVENT,
    "Ctrl-C (`CTRL_C_EVENT`)"
);
control_event!(
    /// Listens to Ctrl-Break (`CTRL_BREAK_EVENT`); made by [`ctrl_break`].
    CtrlBreak,
    ctrl_break,
    CTRL_BREAK_EVENT,
    "Ctrl-Break (`CTRL_BREAK_EVENT`)"
);
control_event!(
    /// Listens to the console window closing (`CTRL_CLOSE_EVENT`); made
    /// by [`ctrl_close`].
    CtrlClose,
    ctrl_close,
    CTRL_CLOSE_EVENT,
    "console close (`CTRL_CLOSE_EVENT`)"
);
control_event!(
    /// Listens to the user logging off (`CTRL_LOGOFF_EVENT`, services
    /// only); made by [`ctrl_logoff`].
    CtrlLogoff,
    ctrl_logoff,
    CTRL_LOGOFF_EVENT,
    "logoff (`CTRL_LOGOFF_EVENT`)"
);
control_event!(
    /// Listens to the system shutting down (`CTRL_SHUTDOWN_EVENT`,
    /// services only); made by [`ctrl_shutdown`].
    CtrlShutdown,
    ctrl_shutdown,
    CTRL_SHUTDOWN_EVENT,
    "shutdown (`CTRL_SHUTDOWN_EVENT`)"
);
