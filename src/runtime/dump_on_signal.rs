//! `Builder::dump_on_signal`: the runtime's task dump, written to stderr on
//! each delivery of a signal.
//!
//! The dump is taken on the process's signal dispatcher thread (the one
//! that wakes signal listeners), not by a task of the runtime: a runtime
//! whose every worker is blocked, the case where a dump is most wanted,
//! still writes one. Idle tasks are traced from that thread like from any
//! other; a task that holds a worker is listed as running, without a
//! trace. The listener's waker is the trigger: the dispatcher calls it on
//! each delivery, and it takes the dump there and then; listeners of other
//! signals are woken once it is written (for 10,000 idle tasks in release,
//! about 15 ms, or 80-110 ms on the process's first dump, which loads the
//! symbols).

use crate::signal::unix::{Signal, SignalKind};
use rt_core::loom::sync::Mutex;
use rt_core::runtime::Handle;
use std::future::Future;
use std::io::{self, Write};
use std::pin::pin;
use std::sync::{Arc, Weak};
use std::task::{Context, Poll, Wake, Waker};

/// Dumps `handle`'s runtime on each delivery of `kind` for as long as the
/// value lives (the `Runtime` holds it).
pub(super) struct DumpOnSignal {
    handle: Handle,
    kind: SignalKind,
    signal: Mutex<Signal>,
    /// Wakes this value through a `Weak`, so that the waker the signal
    /// listener keeps does not keep the runtime alive.
    waker: Waker,
}

/// The listener's waker: a dump each time the dispatcher calls it.
struct Trigger(Weak<DumpOnSignal>);

impl Wake for Trigger {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if let Some(dumper) = self.0.upgrade() {
            dumper.on_delivery();
        }
    }
}

impl DumpOnSignal {
    /// Listens to `kind` for `handle`'s runtime. The handler is installed
    /// before this returns, so that no delivery after it is missed.
    pub(super) fn start(handle: &Handle, kind: SignalKind) -> io::Result<Arc<DumpOnSignal>> {
        let signal = {
            let _enter = handle.enter();
            crate::signal::unix::signal(kind)?
        };
        let dumper = Arc::new_cyclic(|weak| DumpOnSignal {
            handle: handle.clone(),
            kind,
            signal: Mutex::new(signal),
            waker: Waker::from(Arc::new(Trigger(weak.clone()))),
        });
        // Registers the waker: nothing was delivered yet.
        dumper.on_delivery();
        Ok(dumper)
    }

    /// Writes a dump for each delivery not reported yet, then leaves the
    /// waker with the listener for the next one.
    fn on_delivery(&self) {
        let mut signal = self.signal.lock().unwrap_or_else(|e| e.into_inner());
        let mut cx = Context::from_waker(&self.waker);
        // Without a coop budget, whatever thread this runs on: a spent
        // budget would wake (re-enter) this waker instead of answering.
        let mut next = pin!(rt_core::task::unconstrained(std::future::poll_fn(|cx| {
            signal.poll_recv(cx)
        })));
        while let Poll::Ready(Some(())) = next.as_mut().poll(&mut cx) {
            self.write_dump();
        }
    }

    fn write_dump(&self) {
        // Trace polls see the runtime as current, as on a worker.
        let _enter = self.handle.enter();
        let dump = self.handle.dump();
        let text = format!(
            "rt: task dump on signal {}:\n{dump}",
            self.kind.as_raw_value()
        );
        let _ = io::stderr().lock().write_all(text.as_bytes());
    }
}
