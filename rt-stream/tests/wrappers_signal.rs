//! `SignalStream` (feature `signal`): deliveries of a Unix signal read as
//! stream items.

#![cfg(all(feature = "signal", feature = "net"))]

use std::os::raw::c_int;

use rt_io::signal::unix::{signal, SignalKind};
use rt_stream::wrappers::SignalStream;
use rt_stream::{Stream, StreamExt};

extern "C" {
    fn raise(signum: c_int) -> c_int;
}

/// Delivers `kind` to this thread; its handler has run when this returns.
fn raise_now(kind: SignalKind) {
    // SAFETY: `raise` only sends a signal to the calling thread, and the
    // test installs a handler for it first, so the default action (ending
    // the process) cannot happen.
    let rc = unsafe { raise(kind.as_raw_value()) };
    assert_eq!(rc, 0, "raise failed");
}

#[test]
fn signal_stream_yields_once_per_read_of_deliveries() {
    let kind = SignalKind::user_defined1();
    let rt = rt_core::runtime::Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap();
    rt.block_on(async {
        let mut deliveries = SignalStream::new(signal(kind).unwrap());
        raise_now(kind);
        assert_eq!(deliveries.next().await, Some(()));
        // Two deliveries before the next read count once.
        raise_now(kind);
        raise_now(kind);
        assert_eq!(deliveries.next().await, Some(()));
        let nothing = std::future::poll_fn(|cx| {
            std::task::Poll::Ready(std::pin::Pin::new(&mut deliveries).poll_next(cx))
        })
        .await;
        assert_eq!(nothing, std::task::Poll::Pending);
        let _listener = deliveries.into_inner();
    });
}
