//! One measurement: the HTTP server served on a fresh runtime of the given
//! flavor, loaded by `wrk` from the blocking pool, then shut down cleanly.
//! Written against the crate alias `tk`, like the server itself.

use std::io;

use super::build::runtime;
use super::server::accept;
use super::tk;
use bench_harness::Flavor;
use examples::cli::{run_wrk, WrkLoad};
use tk::net::TcpListener;
use tk::sync::watch;

/// Serves the HTTP server on a runtime of `flavor` while `wrk` loads
/// `GET /` under `load`, and returns wrk's requests per second.
pub fn requests_per_second(flavor: Flavor, load: WrkLoad) -> io::Result<f64> {
    let rt = runtime(flavor);
    rt.block_on(async move {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/", listener.local_addr()?);
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let server = tk::spawn(async move {
            // Every connection closes on its own once shutdown starts.
            let mut open = accept(listener, shutdown_rx).await;
            while open.join_next().await.is_some() {}
        });
        // wrk blocks a thread for the whole run; the server's tasks keep
        // the runtime's own threads.
        let rate = tk::task::spawn_blocking(move || run_wrk(&url, &load))
            .await
            .map_err(io::Error::other)?;
        shutdown_tx.send_replace(true);
        server.await.map_err(io::Error::other)?;
        let rate = rate?;
        rate.parse()
            .map_err(|_| io::Error::other(format!("wrk's rate {rate:?} is not a number")))
    })
}
