//! A paced, low-rate load: a client task sends a 64-byte request over
//! loopback to an echo task once per millisecond (1,000 requests a second,
//! paced by an interval timer) and waits for each reply. The figure is the
//! process's CPU time per request (the harness records it beside the wall
//! time per request, which is the pace): what a runtime costs when it
//! parks and wakes between every request, not how fast it can go.

use std::time::Duration;

use super::build::runtime;
use super::io::{bind_loopback, connect, echo_messages, MESSAGE};
use super::tk;
use bench_harness::{Size, Stopwatch};
use tk::io::{AsyncReadExt, AsyncWriteExt};
use tk::time::MissedTickBehavior;

/// The time between two requests.
pub(super) const PACE: Duration = Duration::from_millis(1);

/// Requests per sample: 0.2 s at the pace.
const REQUESTS: usize = 200;

/// An interval at [`PACE`] whose first tick has passed, which waits out a
/// late tick rather than bursting to catch up.
pub(super) async fn pacer() -> tk::time::Interval {
    let mut ticks = tk::time::interval(PACE);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    ticks.tick().await;
    ticks
}

/// 200 requests at 1,000 a second to an echo task on the same runtime;
/// the region covers the requests, per request.
pub fn paced_tcp(size: &Size) -> f64 {
    let requests = size.count(REQUESTS);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let listener = bind_loopback().await;
        let addr = listener.local_addr().expect("listener has an address");
        let server = tk::spawn(async move {
            let (stream, _) = listener.accept().await.expect("accept succeeds");
            stream.set_nodelay(true).expect("nodelay is settable");
            echo_messages(stream, requests).await;
        });
        let client = tk::spawn(async move {
            let mut stream = connect(addr).await;
            let (request, mut reply) = ([0x5au8; MESSAGE], [0u8; MESSAGE]);
            let mut ticks = pacer().await;
            let watch = Stopwatch::start();
            for _ in 0..requests {
                ticks.tick().await;
                stream.write_all(&request).await.expect("write succeeds");
                stream.read_exact(&mut reply).await.expect("echo arrives");
            }
            watch.elapsed_per(requests as u32).as_nanos() as f64
        });
        let per_request = client.await.expect("client completes");
        server.await.expect("echo task completes");
        per_request
    })
}
