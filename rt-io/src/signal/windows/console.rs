//! The process-wide part of console control events: one [`SignalEvent`]
//! per event kind and the console control handler, installed once.
//!
//! Windows runs a console control handler on a thread of its own, not
//! inside an interrupted thread as a Unix signal handler runs, so the
//! handler here may lock: it records the event and wakes its listeners
//! itself, with no wake pipe or dispatcher thread between.
//!
//! The handler reports an event handled only while it has a listener;
//! otherwise the next handler (by default, the one that ends the process)
//! runs, so Ctrl-C still stops a program that listens to nothing. For the
//! close, logoff and shutdown events Windows ends the process as soon as
//! the handler returns, so a handled one keeps the handler thread until
//! the program exits on its own (within the grace period Windows allows),
//! as tokio's does.

use crate::signal::event::{EventListener, SignalEvent};
use rt_core::loom::sync::Arc;
use std::io;
use std::sync::OnceLock;
use windows_sys::core::BOOL;
use windows_sys::Win32::System::Console::{
    SetConsoleCtrlHandler, CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_C_EVENT, CTRL_LOGOFF_EVENT,
    CTRL_SHUTDOWN_EVENT,
};

/// The console control events, in the order of [`Events`]'s slots.
const KINDS: [u32; 5] = [
    CTRL_C_EVENT,
    CTRL_BREAK_EVENT,
    CTRL_CLOSE_EVENT,
    CTRL_LOGOFF_EVENT,
    CTRL_SHUTDOWN_EVENT,
];

/// One event per entry of [`KINDS`].
type Events = [Arc<SignalEvent>; KINDS.len()];

/// The events, or why installing the handler failed.
static EVENTS: OnceLock<Result<Events, (io::ErrorKind, String)>> = OnceLock::new();

/// Starts listening to console control event `kind` (a `CTRL_*_EVENT`),
/// installing the handler on first use.
pub(super) fn listen(kind: u32) -> io::Result<EventListener> {
    let slot = slot_of(kind).expect("a console control event rt listens to");
    let events = EVENTS
        .get_or_init(install)
        .as_ref()
        .map_err(|(kind, message)| io::Error::new(*kind, message.clone()))?;
    Ok(SignalEvent::listen(&events[slot]))
}

fn slot_of(kind: u32) -> Option<usize> {
    KINDS.iter().position(|&k| k == kind)
}

fn install() -> Result<Events, (io::ErrorKind, String)> {
    // SAFETY: `on_control` has the signature the handler list expects and,
    // being a plain function, lives as long as the process.
    let installed = unsafe { SetConsoleCtrlHandler(Some(on_control), 1) };
    if installed == 0 {
        let e = io::Error::last_os_error();
        return Err((e.kind(), e.to_string()));
    }
    Ok(std::array::from_fn(|_| Arc::new(SignalEvent::new())))
}

/// The console control handler: wakes the event's listeners, and says
/// whether there were any.
unsafe extern "system" fn on_control(kind: u32) -> BOOL {
    let (Some(Ok(events)), Some(slot)) = (EVENTS.get(), slot_of(kind)) else {
        return 0;
    };
    let event = &events[slot];
    event.record();
    event.dispatch();
    if event.listener_count() == 0 {
        return 0;
    }
    if matches!(
        kind,
        CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT
    ) {
        // Returning would end the process now; the program exits itself.
        loop {
            std::thread::park();
        }
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll};

    /// Runs the handler as Windows would on `kind`.
    fn deliver(kind: u32) -> BOOL {
        // SAFETY: the handler is a plain function of the expected
        // signature; calling it from a test thread is what Windows does
        // from a thread of its own.
        unsafe { on_control(kind) }
    }

    #[test]
    fn an_event_wakes_its_listeners_and_is_handled_only_while_listened_to() {
        let (wakes, waker) = rt_test::counting_waker();
        let mut cx = Context::from_waker(&waker);
        let mut listener = listen(CTRL_BREAK_EVENT).unwrap();
        assert!(listener.poll_delivery(&mut cx).is_pending());
        assert_eq!(deliver(CTRL_BREAK_EVENT), 1);
        assert_eq!(wakes.count(), 1);
        assert!(listener.poll_delivery(&mut cx).is_ready());
        assert!(listener.poll_delivery(&mut cx).is_pending());
        drop(listener);
        // Nobody listens: the next handler (ending the process) runs.
        assert_eq!(deliver(CTRL_BREAK_EVENT), 0);
    }

    #[test]
    fn ctrl_c_completes_on_the_event() {
        let (wakes, waker) = rt_test::counting_waker();
        let mut cx = Context::from_waker(&waker);
        let mut interrupted = pin!(crate::signal::ctrl_c());
        assert!(interrupted.as_mut().poll(&mut cx).is_pending());
        assert_eq!(deliver(CTRL_C_EVENT), 1);
        assert_eq!(wakes.count(), 1);
        assert!(matches!(
            interrupted.as_mut().poll(&mut cx),
            Poll::Ready(Ok(()))
        ));
    }
}
