//! The timed workloads, one line each on stdout for `cargo xtask ecosystem
//! --bench` to read: `result NAME ops=N secs=S rate=R p99_us=P`, where R
//! is operations per second and P the 99th percentile of one operation's
//! latency. The same code runs on whichever runtime `tokio` is.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use hyper::Method;
use tokio::net::TcpStream;
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::codec::{Decoder, Encoder, Framed, LengthDelimitedCodec, LinesCodec};
use tokio_util::sync::CancellationToken;

use crate::clients::{hyper_call, hyper_client, reqwest_client};
use crate::{framed, server, watchdog};

/// Requests in flight at once in the HTTP workloads, and connections in the
/// framed ones.
const IN_FLIGHT: usize = 32;
const CONNECTIONS: usize = 8;

/// Runs every workload on a multi-thread runtime of `workers` threads;
/// `scale` divides the operation counts (1 for a real run).
pub fn run(workers: usize, scale: usize) -> Result<(), String> {
    let runtime = crate::multi_thread(workers)?;
    runtime.block_on(async {
        // A short untimed pass first: threads, allocator and connection
        // pools warmed up alike on both runtimes.
        watchdog::step("warm-up");
        workloads(scale * 10, false).await?;
        workloads(scale, true).await
    })
}

/// Each workload once, with the operation counts divided by `scale`;
/// prints the result lines when `print`.
async fn workloads(scale: usize, print: bool) -> Result<(), String> {
    let show = |name: &str, result| {
        if print {
            report(name, result);
        }
    };
    watchdog::step("hyper_roundtrip");
    show("hyper_roundtrip", hyper_roundtrip(30_000 / scale).await?);
    watchdog::step("reqwest_get_post");
    show("reqwest_get_post", reqwest_get_post(16_000 / scale).await?);
    watchdog::step("framed_lines");
    let line = "a line of some forty bytes, give or take";
    let lines = framed_round_trips(framed::start_lines, LinesCodec::new(), line, 8000 / scale);
    show("framed_lines", lines.await?);
    watchdog::step("framed_length_delimited");
    let frame = Bytes::from(vec![7u8; 1024]);
    let frames = framed_round_trips(
        framed::start_frames,
        LengthDelimitedCodec::new(),
        frame,
        8000 / scale,
    );
    show("framed_length_delimited", frames.await?);
    Ok(())
}

/// Prints one result line from the latencies of every operation and the
/// wall time of the whole workload.
fn report(name: &str, (mut latencies, wall): (Vec<Duration>, Duration)) {
    latencies.sort_unstable();
    let ops = latencies.len();
    let p99 = latencies
        .get((ops * 99 / 100).min(ops.saturating_sub(1)))
        .copied()
        .unwrap_or_default();
    let secs = wall.as_secs_f64();
    println!(
        "result {name} ops={ops} secs={secs:.4} rate={:.1} p99_us={:.1}",
        ops as f64 / secs,
        p99.as_secs_f64() * 1e6
    );
}

/// Times `op(i)` for `i` in `0..ops`, `in_flight` at once from one task.
async fn timed<F, Fut>(
    ops: usize,
    in_flight: usize,
    op: F,
) -> Result<(Vec<Duration>, Duration), String>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let started = Instant::now();
    let latencies: Vec<Result<Duration, String>> = futures_util::stream::iter(0..ops)
        .map(|i| {
            let op = &op;
            async move {
                let t = Instant::now();
                op(i).await?;
                Ok(t.elapsed())
            }
        })
        .buffer_unordered(in_flight)
        .collect()
        .await;
    let wall = started.elapsed();
    Ok((latencies.into_iter().collect::<Result<_, _>>()?, wall))
}

/// hyper-util's pooled client against a bare hyper server: small GETs.
async fn hyper_roundtrip(ops: usize) -> Result<(Vec<Duration>, Duration), String> {
    let server = server::start_hyper().await.map_err(|e| e.to_string())?;
    let client = hyper_client();
    let addr = server.addr;
    let result = timed(ops, IN_FLIGHT, |_| {
        let client = &client;
        async move {
            let (status, _) = hyper_call(client, addr, Method::GET, "/", Bytes::new()).await?;
            if status.is_success() {
                Ok(())
            } else {
                Err(format!("GET / answered {status}"))
            }
        }
    })
    .await;
    server.token.cancel();
    let _ = server.task.await;
    result
}

/// reqwest against axum: GET /json and POST /echo (1 KiB) alternately.
async fn reqwest_get_post(ops: usize) -> Result<(Vec<Duration>, Duration), String> {
    let server = server::start_axum(server::app(Arc::default()))
        .await
        .map_err(|e| e.to_string())?;
    let client = reqwest_client()?;
    let base = format!("http://{}", server.addr);
    let body = Bytes::from(vec![b'x'; 1024]);
    let result = timed(ops, IN_FLIGHT, |i| {
        let (client, base, body) = (&client, &base, body.clone());
        async move {
            let response = if i % 2 == 0 {
                client.get(format!("{base}/json")).send().await
            } else {
                client.post(format!("{base}/echo")).body(body).send().await
            };
            let response = response.map_err(|e| e.to_string())?;
            if !response.status().is_success() {
                return Err(format!("answered {}", response.status()));
            }
            response.bytes().await.map(drop).map_err(|e| e.to_string())
        }
    })
    .await;
    drop(client);
    server.token.cancel();
    let _ = server.task.await;
    result
}

/// Ping-pong round trips of `message` through `codec`, `per_conn` on
/// each of `CONNECTIONS` connections at once (a task each), against the
/// server that `start` launches; the latency of every round trip.
async fn framed_round_trips<S, SF, C, M>(
    start: S,
    codec: C,
    message: M,
    per_conn: usize,
) -> Result<(Vec<Duration>, Duration), String>
where
    S: FnOnce(CancellationToken) -> SF,
    SF: Future<Output = std::io::Result<(SocketAddr, JoinHandle<()>)>>,
    C: Encoder<M> + Decoder + Clone + Send + 'static,
    <C as Encoder<M>>::Error: std::fmt::Display,
    <C as Decoder>::Error: std::fmt::Display,
    <C as Decoder>::Item: Send,
    M: Clone + Send + 'static,
{
    let token = CancellationToken::new();
    let (addr, server) = start(token.clone()).await.map_err(|e| e.to_string())?;
    let result = async {
        let started = Instant::now();
        let mut tasks = JoinSet::new();
        for _ in 0..CONNECTIONS {
            let stream = TcpStream::connect(addr)
                .await
                .map_err(|e| format!("connect: {e}"))?;
            let _ = stream.set_nodelay(true);
            let mut framed = Framed::new(stream, codec.clone());
            let message = message.clone();
            tasks.spawn(async move {
                let mut latencies = Vec::with_capacity(per_conn);
                for _ in 0..per_conn {
                    let t = Instant::now();
                    framed
                        .send(message.clone())
                        .await
                        .map_err(|e| e.to_string())?;
                    framed
                        .next()
                        .await
                        .ok_or("closed")?
                        .map_err(|e| e.to_string())?;
                    latencies.push(t.elapsed());
                }
                Ok::<_, String>(latencies)
            });
        }
        let mut all = Vec::new();
        while let Some(joined) = tasks.join_next().await {
            all.extend(joined.map_err(|e| e.to_string())??);
        }
        Ok((all, started.elapsed()))
    }
    .await;
    token.cancel();
    let _ = server.await;
    result
}
