//! The fixture's axum application and a reqwest client as hosts of an
//! rt-sim simulation, unchanged: `ecosystem sim` (rt build with the `sim`
//! feature only; tokio has no simulator).
//!
//! Host `server` (10.0.0.1) serves [`server::app`] with `axum::serve` on
//! port 80. Host `client` talks to it as `http://server` through a pooled
//! reqwest client with a request timeout:
//!
//! 1. `/plain` and `/json` answer while the network is whole;
//! 2. a partition between the two hosts stalls the next request until
//!    reqwest's timeout ends it, on the virtual clock;
//! 3. the partition is repaired and the request is retried, with a
//!    backoff, until it is answered.
//!
//! The scenario runs twice with the same seed; both runs must pass and
//! their trace hashes must be equal (when they are not, the first event
//! that differs is named). `ECOSYSTEM_SIM_TRACE=1` prints the trace.
//!
//! The one thing set differently from a plain reqwest client is the
//! resolver. reqwest's default one (hyper-util's `GaiResolver`) calls
//! getaddrinfo in `spawn_blocking`: inside a simulation that closure runs
//! inline, but getaddrinfo asks the machine's resolver, which knows no
//! simulated host. [`LookupHost`] resolves through `tokio::net::lookup_host`
//! instead, which the simulation answers (and which outside one is the
//! same getaddrinfo). reqwest's connector needs nothing: it creates its
//! socket with socket2 and hands it to `TcpSocket::from_std_stream`, and
//! inside a simulation `TcpSocket::connect` opens a simulated stream (the
//! real socket is created, never connected, and closed).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::StatusCode;
use rt::sim::{HostResult, Report, Sim};

use crate::server::{self, Info, PLAIN};

/// The seed both runs use, unless `RT_SIM_SEED` names another.
const SEED: u64 = 46;

/// How long the client waits for an answer before giving up on a request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);

/// How often the client tries a request after the repair, at most.
const ATTEMPTS: u32 = 4;

/// Runs the scenario twice with [`SEED`] (or `RT_SIM_SEED`) and compares
/// the runs.
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
            "sim: two runs with seed {} differ: trace hashes {:016x} and {:016x}; {diverged}",
            first.seed, first.hash, second.hash
        ));
    }
    if std::env::var_os("ECOSYSTEM_SIM_TRACE").is_some() {
        first.events.iter().for_each(|event| println!("{event}"));
    }
    println!(
        "ok sim (seed {}: {} trace events over {:.3?} of virtual time, the same hash {:016x} twice)",
        first.seed,
        first.events.len(),
        first.elapsed,
        first.hash
    );
    Ok(())
}

/// One run: the server host, the client host, and the client's checks.
/// A failed run prints the seed it used (`RT_SIM_SEED` may override
/// `seed`) and how to replay it.
fn scenario(seed: u64) -> Result<Report, String> {
    let mut sim = Sim::builder().seed(seed).keep_trace(true).build();
    sim.host("server", || async {
        let listener = tokio::net::TcpListener::bind("0.0.0.0:80").await?;
        let app = server::app(Arc::default());
        axum::serve(listener, app).await?;
        Ok(())
    });
    sim.client("client", client());
    sim.run().map_err(|e| format!("sim: {e}"))
}

/// The client host's software: the three steps of the module's list.
async fn client() -> HostResult {
    let http = reqwest::Client::builder()
        .no_proxy()
        .timeout(REQUEST_TIMEOUT)
        .dns_resolver(Arc::new(LookupHost))
        .build()?;

    let (status, body) = get(&http, "/plain").await?;
    expect(status == StatusCode::OK && body == PLAIN, "/plain", &body)?;
    let response = http.get("http://server/json").send().await?;
    expect(
        response.status() == StatusCode::OK,
        "/json",
        response.status(),
    )?;
    let info: Info = response.json().await?;
    expect(info == Info::expected(), "/json", &info)?;

    rt::sim::partition("client", "server");
    let started = tokio::time::Instant::now();
    match get(&http, "/plain").await {
        Err(e) if e.is_timeout() => {}
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
        match get(&http, "/plain").await {
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

/// One GET of `http://server{path}`: the status and the body as text.
async fn get(http: &reqwest::Client, path: &str) -> reqwest::Result<(StatusCode, String)> {
    let response = http.get(format!("http://server{path}")).send().await?;
    let status = response.status();
    Ok((status, response.text().await?))
}

/// Fails the client with what `what` was when `ok` is false.
fn expect(ok: bool, what: &str, was: impl std::fmt::Debug) -> HostResult {
    if ok {
        Ok(())
    } else {
        Err(format!("{what}: unexpected answer {was:?}").into())
    }
}

/// reqwest's resolver over `tokio::net::lookup_host`: inside a simulation
/// a host's name resolves to its simulated address.
struct LookupHost;

impl Resolve for LookupHost {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            // The port is the URL's; reqwest puts it in place of this one.
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}
