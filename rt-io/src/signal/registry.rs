//! The process-wide part of signal handling: one [`SignalEvent`] per signal
//! number, the handler installed (once) per number, the wake pipe, and the
//! dispatcher thread that turns pipe bytes into listener wake-ups.
//!
//! The handler may only do async-signal-safe work, so it records the
//! delivery in the event's atomics and writes one byte to a non-blocking
//! Unix socket. A dedicated thread blocks on the other end and, for every
//! byte batch, dispatches the pending events. The dispatcher is a thread
//! rather than a task of some runtime because signals belong to the
//! process: listeners in any number of runtimes (or none) are served alike,
//! and shutting one runtime down does not stop delivery to the others.

use super::event::{EventListener, SignalEvent};
use rt_core::loom::sync::Arc;
use std::io::{self, Read, Write};
use std::os::raw::c_int;
use std::os::unix::net::UnixStream;
use std::sync::OnceLock;

/// Signal numbers 0..SLOTS have an event (Linux's highest real-time signal
/// is 64).
const SLOTS: usize = 65;

/// Why a one-time setup failed, kept so that every later call reports it.
type StoredError = (io::ErrorKind, String);

struct Registry {
    events: Vec<Arc<SignalEvent>>,
    /// The outcome of installing the handler, per signal number.
    handlers: Vec<OnceLock<Result<(), StoredError>>>,
    /// Write end of the wake pipe, non-blocking.
    wake_tx: UnixStream,
}

static REGISTRY: OnceLock<Result<Registry, StoredError>> = OnceLock::new();

/// Starts listening to `signum`, installing its handler on first use.
pub(crate) fn listen(signum: c_int) -> io::Result<EventListener> {
    if signum < 0 || signal_hook_registry::FORBIDDEN.contains(&signum) {
        return Err(io::Error::other(format!(
            "Refusing to register signal {signum}"
        )));
    }
    let slot = signum as usize;
    if slot >= SLOTS {
        return Err(io::Error::other("signal too large"));
    }
    let registry = registry()?;
    // Listen before installing, so that no delivery after the handler is in
    // place can be missed by this listener.
    let listener = SignalEvent::listen(&registry.events[slot]);
    registry.handlers[slot]
        .get_or_init(|| install(signum))
        .clone()
        .map_err(|(kind, message)| io::Error::new(kind, message))?;
    Ok(listener)
}

/// The number of live listeners of `signum` (for tests).
pub(crate) fn listener_count(signum: c_int) -> usize {
    match (REGISTRY.get(), usize::try_from(signum)) {
        (Some(Ok(registry)), Ok(slot)) if slot < SLOTS => registry.events[slot].listener_count(),
        _ => 0,
    }
}

fn registry() -> io::Result<&'static Registry> {
    REGISTRY
        .get_or_init(|| Registry::start().map_err(|e| (e.kind(), e.to_string())))
        .as_ref()
        .map_err(|(kind, message)| io::Error::new(*kind, message.clone()))
}

impl Registry {
    fn start() -> io::Result<Registry> {
        let (wake_tx, wake_rx) = UnixStream::pair()?;
        wake_tx.set_nonblocking(true)?;
        std::thread::Builder::new()
            .name("rt-signal".into())
            .spawn(move || dispatch_loop(wake_rx))?;
        Ok(Registry {
            events: (0..SLOTS).map(|_| Arc::new(SignalEvent::new())).collect(),
            handlers: (0..SLOTS).map(|_| OnceLock::new()).collect(),
            wake_tx,
        })
    }
}

fn install(signum: c_int) -> Result<(), StoredError> {
    // SAFETY: `on_signal` is async-signal-safe: it reads an initialised
    // `OnceLock` (an atomic load), bumps two atomics and writes to a
    // non-blocking socket; it neither locks nor allocates nor panics.
    let result = unsafe { signal_hook_registry::register(signum, move || on_signal(signum)) };
    result.map(drop).map_err(|e| (e.kind(), e.to_string()))
}

/// The signal handler proper.
fn on_signal(signum: c_int) {
    let Some(Ok(registry)) = REGISTRY.get() else {
        return;
    };
    // `install` only runs for numbers below SLOTS; `get` keeps the handler
    // free of any panic path regardless.
    let Some(event) = registry.events.get(signum as usize) else {
        return;
    };
    event.record();
    // A full pipe already holds a wake-up; any error is ignored for the same
    // reason: nothing in a handler can report it.
    let _ = (&registry.wake_tx).write(&[1]);
}

/// The dispatcher thread: waits for wake bytes and wakes the listeners of
/// every event recorded since the last round.
fn dispatch_loop(mut wake_rx: UnixStream) {
    let mut buf = [0u8; 64];
    loop {
        match wake_rx.read(&mut buf) {
            // The write end lives in a static: this does not happen.
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        }
        if let Some(Ok(registry)) = REGISTRY.get() {
            for event in &registry.events {
                event.dispatch();
            }
        }
    }
}
