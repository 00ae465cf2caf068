//! The timed workloads, one line each on stdout for `cargo xtask ecosystem
//! --bench` to read: `result NAME ops=N secs=S rate=R p99_us=P
//! cpu_us_per_op=C`, where R is operations per second, P the 99th
//! percentile of one operation's latency and C the process's CPU time
//! (user and system) per operation. The same code runs on whichever
//! runtime `tokio` is.

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

/// The workloads' names, in the order a full run takes them.
pub const WORKLOADS: [&str; 4] = [
    "hyper_roundtrip",
    "reqwest_get_post",
    "framed_lines",
    "framed_length_delimited",
];

/// Runs the workloads named in `only` (every workload when it is empty)
/// on a multi-thread runtime of `workers` threads; `scale` divides the
/// operation counts (1 for a real run).
pub fn run(workers: usize, scale: usize, only: &[String]) -> Result<(), String> {
    if let Some(unknown) = only.iter().find(|n| !WORKLOADS.contains(&n.as_str())) {
        return Err(format!(
            "no workload is called `{unknown}` (there are {})",
            WORKLOADS.join(", ")
        ));
    }
    let chosen: Vec<&str> = WORKLOADS
        .into_iter()
        .filter(|w| only.is_empty() || only.iter().any(|n| n == w))
        .collect();
    let runtime = crate::multi_thread(workers)?;
    runtime.block_on(async {
        // A short untimed pass first: threads, allocator and connection
        // pools warmed up alike on both runtimes.
        for name in &chosen {
            workload(name, scale * 10).await?;
        }
        for name in &chosen {
            let cpu_before = cpu_seconds();
            let timed = workload(name, scale).await?;
            let cpu = cpu_before.zip(cpu_seconds()).map(|(a, b)| b - a);
            report(name, timed, cpu);
        }
        Ok(())
    })
}

/// Runs the workload `name` once, with its operation count divided by
/// `scale`. At full size each lasts about a second on a 2-core machine
/// (half that before the counts were doubled), so that a brief swing in
/// a shared machine's speed weighs less in its result.
async fn workload(name: &'static str, scale: usize) -> Result<(Vec<Duration>, Duration), String> {
    watchdog::step(name);
    match name {
        "hyper_roundtrip" => hyper_roundtrip(60_000 / scale).await,
        "reqwest_get_post" => reqwest_get_post(32_000 / scale).await,
        "framed_lines" => {
            let line = "a line of some forty bytes, give or take";
            framed_round_trips(framed::start_lines, LinesCodec::new(), line, 16_000 / scale).await
        }
        "framed_length_delimited" => {
            let frame = Bytes::from(vec![7u8; 1024]);
            let codec = LengthDelimitedCodec::new();
            framed_round_trips(framed::start_frames, codec, frame, 16_000 / scale).await
        }
        other => Err(format!("no workload is called `{other}`")),
    }
}

/// The CPU time this process has used so far, user and system together,
/// in seconds: fields 14 and 15 of /proc/self/stat, counted in Linux's
/// USER_HZ (100 a second). None where /proc cannot be read.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in brackets and may hold spaces; the
    // fields after it are plain numbers, the state (field 3) first.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some((user + system) as f64 / 100.0)
}

/// Prints one result line from the latencies of every operation, the
/// wall time of the whole workload and the CPU time the process (client
/// and server both) spent in it.
fn report(name: &str, (mut latencies, wall): (Vec<Duration>, Duration), cpu_secs: Option<f64>) {
    latencies.sort_unstable();
    let ops = latencies.len();
    let p99 = latencies
        .get((ops * 99 / 100).min(ops.saturating_sub(1)))
        .copied()
        .unwrap_or_default();
    let secs = wall.as_secs_f64();
    let cpu_us_per_op = cpu_secs.map_or(f64::NAN, |c| c * 1e6 / ops.max(1) as f64);
    println!(
        "result {name} ops={ops} secs={secs:.4} rate={:.1} p99_us={:.1} cpu_us_per_op={cpu_us_per_op:.2}",
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
