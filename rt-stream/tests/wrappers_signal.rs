//! `SignalStream` (feature `signal`): deliveries of a Unix signal read as
//! stream items.
// Unix only: Unix signals.
#![cfg(unix)]
#![cfg(all(feature = "signal", feature = "net"))]

use rt_io::signal::unix::{signal, SignalKind};
use rt_stream::wrappers::SignalStream;
use rt_stream::{Stream, StreamExt};

#[test]
fn signal_stream_yields_once_per_read_of_deliveries() {
    let kind = SignalKind::user_defined1();
    let rt = rt_core::runtime::Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap();
    rt.block_on(async {
        let mut deliveries = SignalStream::new(signal(kind).unwrap());
        rt_test::raise_now(kind);
        assert_eq!(deliveries.next().await, Some(()));
        // Two deliveries before the next read count once.
        rt_test::raise_now(kind);
        rt_test::raise_now(kind);
        assert_eq!(deliveries.next().await, Some(()));
        let nothing = std::future::poll_fn(|cx| {
            std::task::Poll::Ready(std::pin::Pin::new(&mut deliveries).poll_next(cx))
        })
        .await;
        assert_eq!(nothing, std::task::Poll::Pending);
        let _listener = deliveries.into_inner();
    });
}
