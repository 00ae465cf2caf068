//! HTTP checks: the axum application answered by hyper-util's pooled
//! client and by reqwest, many requests at once; tower's concurrency limit;
//! a bare hyper server; and graceful shutdown through CancellationToken.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use hyper::{Method, StatusCode};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::{ensure, Outcome};
use crate::clients::{hyper_call, hyper_client, reqwest_client};
use crate::server::{self, Gauge, Info, Running, LIMIT, PLAIN};

/// Requests each client makes in a check.
const REQUESTS: usize = 300;
/// How many of them are in flight at once.
const IN_FLIGHT: usize = 32;

/// The body sent to `/echo` by request `i`: its size varies with `i`.
fn payload(i: usize) -> Bytes {
    Bytes::from(format!("payload {i};").repeat(1 + i % 50))
}

/// Cancels a server's token and checks that it stops in time, cleanly,
/// and no longer accepts connections.
async fn stop(server: Running, name: &str) -> Result<(), String> {
    server.token.cancel();
    match tokio::time::timeout(Duration::from_secs(10), server.task).await {
        Err(_) => {
            return Err(format!(
                "{name}: still running 10 s after its token was cancelled"
            ))
        }
        Ok(Err(e)) => return Err(format!("{name}: server task failed: {e}")),
        Ok(Ok(Err(e))) => return Err(format!("{name}: server returned an error: {e}")),
        Ok(Ok(Ok(()))) => {}
    }
    ensure!(
        tokio::net::TcpStream::connect(server.addr).await.is_err(),
        "{name}: still accepts connections after its graceful shutdown"
    );
    Ok(())
}

/// Runs `REQUESTS` mixed requests through the hyper-util client, one task
/// each, `IN_FLIGHT` at once.
pub async fn axum_with_hyper_client() -> Outcome {
    let server = server::start_axum(server::app(Arc::default()))
        .await
        .map_err(|e| format!("starting axum: {e}"))?;
    let client = hyper_client();
    let permits = Arc::new(Semaphore::new(IN_FLIGHT));
    let mut tasks = JoinSet::new();
    for i in 0..REQUESTS {
        let client = client.clone();
        let permits = permits.clone();
        let addr = server.addr;
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await.map_err(|e| e.to_string())?;
            one_hyper_request(&client, addr, i).await
        });
    }
    while let Some(joined) = tasks.join_next().await {
        joined.map_err(|e| format!("a request task failed: {e}"))??;
    }
    let (status, _) =
        hyper_call(&client, server.addr, Method::GET, "/missing", Bytes::new()).await?;
    ensure!(
        status == StatusCode::NOT_FOUND,
        "/missing answered {status}, not 404"
    );
    stop(server, "axum").await?;
    Ok(format!(
        "{REQUESTS} requests, {IN_FLIGHT} in flight, then a graceful shutdown"
    ))
}

async fn one_hyper_request(
    client: &crate::clients::HyperClient,
    addr: SocketAddr,
    i: usize,
) -> Result<(), String> {
    match i % 3 {
        0 => {
            let (status, body) =
                hyper_call(client, addr, Method::GET, "/plain", Bytes::new()).await?;
            ensure!(
                status == StatusCode::OK && body == PLAIN,
                "/plain answered {status} {body:?}"
            );
        }
        1 => {
            let (status, body) =
                hyper_call(client, addr, Method::GET, "/json", Bytes::new()).await?;
            let info: Info = serde_json::from_slice(&body)
                .map_err(|e| format!("/json answered {status} and bad JSON: {e}"))?;
            ensure!(info == Info::expected(), "/json answered {info:?}");
        }
        _ => hyper_echo(client, addr, i).await?,
    }
    Ok(())
}

/// POSTs `payload(i)` to `/echo` through the hyper-util client and checks
/// that it comes back.
async fn hyper_echo(
    client: &crate::clients::HyperClient,
    addr: SocketAddr,
    i: usize,
) -> Result<(), String> {
    let sent = payload(i);
    let (status, body) = hyper_call(client, addr, Method::POST, "/echo", sent.clone()).await?;
    ensure!(
        status == StatusCode::OK && body == sent,
        "/echo answered {status} with {} bytes for {} sent",
        body.len(),
        sent.len()
    );
    Ok(())
}

/// Runs `REQUESTS` mixed requests through one reqwest client, `IN_FLIGHT`
/// at once from one task.
pub async fn axum_with_reqwest() -> Outcome {
    let server = server::start_axum(server::app(Arc::default()))
        .await
        .map_err(|e| format!("starting axum: {e}"))?;
    let client = reqwest_client()?;
    let base = format!("http://{}", server.addr);
    let results: Vec<Result<(), String>> = futures_util::stream::iter(0..REQUESTS)
        .map(|i| {
            let client = &client;
            let base = &base;
            async move {
                match i % 3 {
                    0 => {
                        let text = client
                            .get(format!("{base}/plain"))
                            .send()
                            .await
                            .map_err(|e| format!("GET /plain: {e}"))?
                            .text()
                            .await
                            .map_err(|e| format!("GET /plain body: {e}"))?;
                        ensure!(text == PLAIN, "/plain answered {text:?}");
                    }
                    1 => {
                        let info: Info = client
                            .get(format!("{base}/json"))
                            .send()
                            .await
                            .map_err(|e| format!("GET /json: {e}"))?
                            .json()
                            .await
                            .map_err(|e| format!("GET /json body: {e}"))?;
                        ensure!(info == Info::expected(), "/json answered {info:?}");
                    }
                    _ => {
                        let sent = payload(i);
                        let body = client
                            .post(format!("{base}/echo"))
                            .body(sent.clone())
                            .send()
                            .await
                            .map_err(|e| format!("POST /echo: {e}"))?
                            .bytes()
                            .await
                            .map_err(|e| format!("POST /echo body: {e}"))?;
                        ensure!(
                            body == sent,
                            "/echo answered {} bytes for {} sent",
                            body.len(),
                            sent.len()
                        );
                    }
                }
                Ok(())
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .collect()
        .await;
    results.into_iter().collect::<Result<Vec<()>, String>>()?;
    drop(client);
    stop(server, "axum").await?;
    Ok(format!("{REQUESTS} requests, {IN_FLIGHT} in flight"))
}

/// Sends many requests at once to `/limited`: every one is answered and
/// never more than `LIMIT` are inside the handler together.
pub async fn tower_limit() -> Outcome {
    let gauge = Arc::new(Gauge::default());
    let server = server::start_axum(server::app(gauge.clone()))
        .await
        .map_err(|e| format!("starting axum: {e}"))?;
    let client = reqwest_client()?;
    let url = format!("http://{}/limited", server.addr);
    let count = 40;
    let answers: Vec<Result<String, String>> = futures_util::stream::iter(0..count)
        .map(|_| async {
            let response = client
                .get(&url)
                .send()
                .await
                .map_err(|e| format!("GET /limited: {e}"))?;
            response
                .text()
                .await
                .map_err(|e| format!("GET /limited body: {e}"))
        })
        .buffer_unordered(count)
        .collect()
        .await;
    for answer in answers {
        let answer = answer?;
        ensure!(answer == "limited", "/limited answered {answer:?}");
    }
    let most = gauge.most();
    ensure!(
        (1..=LIMIT).contains(&most),
        "{most} requests were inside /limited at once; the limit is {LIMIT}"
    );
    drop(client);
    stop(server, "axum").await?;
    Ok(format!(
        "{count} requests at once, at most {most} inside (limit {LIMIT})"
    ))
}

/// A bare hyper server answered by the hyper-util client; then its
/// graceful shutdown with the client's pooled connections still open.
pub async fn hyper_both_ends() -> Outcome {
    let server = server::start_hyper()
        .await
        .map_err(|e| format!("starting hyper: {e}"))?;
    let client = hyper_client();
    let calls = futures_util::stream::iter(0..REQUESTS)
        .map(|i| {
            let client = &client;
            let addr = server.addr;
            async move {
                hyper_echo(client, addr, i).await?;
                let (status, body) =
                    hyper_call(client, addr, Method::GET, "/", Bytes::new()).await?;
                ensure!(
                    status == StatusCode::OK && body == PLAIN,
                    "/ answered {status} {body:?}"
                );
                Ok(())
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .collect::<Vec<Result<(), String>>>()
        .await;
    calls.into_iter().collect::<Result<Vec<()>, String>>()?;
    stop(server, "hyper").await?;
    Ok(format!(
        "{} requests, shut down with pooled connections open",
        2 * REQUESTS
    ))
}
