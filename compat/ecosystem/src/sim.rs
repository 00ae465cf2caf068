//! The fixture's axum application and an HTTP client as hosts of an rt-sim
//! simulation, unchanged: `ecosystem sim` (rt build with the `sim`
//! feature only; tokio has no simulator).
//!
//! Host `server` (10.0.0.1) serves [`server::app`] with `axum::serve` on
//! port 80. Host `client` talks to it through hyper-util's pooled client,
//! the one reqwest is built on, with tower's `Timeout` around it:
//!
//! 1. `/plain` and `/json` answer while the network is whole;
//! 2. a partition between the two hosts stalls the next request until the
//!    timeout ends it, on the virtual clock;
//! 3. the partition is repaired and the request is retried, with a
//!    backoff, until it is answered.
//!
//! The scenario runs twice with the same seed; both runs must pass and
//! their trace hashes must be equal (when they are not, the first event
//! that differs is named). `ECOSYSTEM_SIM_TRACE=1` prints the trace.
//!
//! reqwest itself is not the client: its connector (hyper-util's
//! `HttpConnector`) opens a real socket with socket2 and hands it to
//! `TcpSocket::from_std_stream`, which leaves the simulation; and its
//! default resolver calls getaddrinfo in `spawn_blocking`, which would ask
//! the machine's resolver for the simulated host names. reqwest offers no
//! way to replace its base connector, so the client here is hyper-util's
//! with a connector that opens `tokio::net::TcpStream` by host name, which
//! resolves and connects inside the simulation.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, StatusCode, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rt::sim::{HostResult, Report, Sim};
use tokio::net::TcpStream;
use tower::timeout::Timeout;
use tower::{Service, ServiceExt};

use crate::server::{self, Info, PLAIN};

/// The seed both runs use.
const SEED: u64 = 46;

/// How long the client waits for an answer before giving up on a request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);

/// How often the client tries a request after the repair, at most.
const ATTEMPTS: u32 = 4;

/// Runs the scenario twice with [`SEED`] and compares the runs.
pub fn run() -> Result<(), String> {
    let first = scenario(SEED)?;
    let second = scenario(SEED)?;
    if first.hash != second.hash {
        let diverged = first
            .events
            .iter()
            .zip(&second.events)
            .find(|(a, b)| a != b)
            .map_or(
                "one trace is a prefix of the other".to_string(),
                |(a, b)| format!("first difference: `{a}` and `{b}`"),
            );
        return Err(format!(
            "sim: two runs with seed {SEED} differ: trace hashes {:016x} and {:016x}; {diverged}",
            first.hash, second.hash
        ));
    }
    if std::env::var_os("ECOSYSTEM_SIM_TRACE").is_some() {
        first.events.iter().for_each(|event| println!("{event}"));
    }
    println!(
        "ok sim (seed {SEED}: {} trace events over {:.3?} of virtual time, the same hash {:016x} twice)",
        first.events.len(),
        first.elapsed,
        first.hash
    );
    Ok(())
}

/// One run: the server host, the client host, and the client's checks.
fn scenario(seed: u64) -> Result<Report, String> {
    let mut sim = Sim::builder().seed(seed).keep_trace(true).build();
    sim.host("server", || async {
        let listener = tokio::net::TcpListener::bind("0.0.0.0:80").await?;
        let app = server::app(Arc::default());
        axum::serve(listener, app).await?;
        Ok(())
    });
    sim.client("client", client());
    sim.run().map_err(|e| format!("sim: seed {seed}: {e}"))
}

/// The client host's software: the three steps of the module's list.
async fn client() -> HostResult {
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new())
        .build(tower::service_fn(|uri| Box::pin(connect(uri))));
    let mut http = Timeout::new(client, REQUEST_TIMEOUT);

    let (status, body) = get(&mut http, "/plain").await?;
    expect(status == StatusCode::OK && body == PLAIN, "/plain", &body)?;
    let (status, body) = get(&mut http, "/json").await?;
    let info: Info = serde_json::from_slice(&body)?;
    expect(
        status == StatusCode::OK && info == Info::expected(),
        "/json",
        &body,
    )?;

    rt::sim::partition("client", "server");
    let started = tokio::time::Instant::now();
    match get(&mut http, "/plain").await {
        Err(e) if e.is::<tower::timeout::error::Elapsed>() => {}
        Err(e) => return Err(format!("during the partition: {e}, not the timeout").into()),
        Ok((status, _)) => {
            return Err(format!("during the partition: answered {status}").into());
        }
    }
    let waited = started.elapsed();
    expect(waited >= REQUEST_TIMEOUT, "the timeout", waited)?;
    rt::sim::repair("client", "server");

    let mut backoff = Duration::from_millis(100);
    for attempt in 1..=ATTEMPTS {
        match get(&mut http, "/plain").await {
            Ok((status, body)) => {
                expect(
                    status == StatusCode::OK && body == PLAIN,
                    "the retry",
                    &body,
                )?;
                return Ok(());
            }
            Err(e) if attempt < ATTEMPTS => {
                eprintln!("sim: attempt {attempt} after the repair failed: {e}");
                tokio::time::sleep(backoff).await;
                backoff *= 2;
            }
            Err(e) => return Err(format!("after the repair, {ATTEMPTS} attempts: {e}").into()),
        }
    }
    unreachable!("the last attempt returns")
}

/// One GET through `http`: the status and whole body.
async fn get<S>(http: &mut S, path: &str) -> Result<(StatusCode, Bytes), tower::BoxError>
where
    S: Service<Request<Full<Bytes>>, Response = hyper::Response<hyper::body::Incoming>>,
    S::Error: Into<tower::BoxError>,
{
    let request = Request::get(format!("http://server:80{path}")).body(Full::default())?;
    let response = http.ready().await.map_err(Into::into)?;
    let response = response.call(request).await.map_err(Into::into)?;
    let status = response.status();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, body))
}

/// Fails the client with what `what` was when `ok` is false.
fn expect(ok: bool, what: &str, was: impl std::fmt::Debug) -> HostResult {
    if ok {
        Ok(())
    } else {
        Err(format!("{what}: unexpected answer {was:?}").into())
    }
}

/// Opens a connection for hyper-util's client (which takes its future
/// boxed: it must be `Unpin`) with
/// `tokio::net::TcpStream::connect` by host name: inside a simulation the
/// name resolves to the host's simulated address and the stream is a
/// simulated one.
async fn connect(uri: Uri) -> std::io::Result<TokioIo<TcpStream>> {
    let host = uri.host().unwrap_or_default();
    let port = uri.port_u16().unwrap_or(80);
    Ok(TokioIo::new(TcpStream::connect((host, port)).await?))
}
