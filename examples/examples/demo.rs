//! The end-to-end demonstration: a small compute service and the load that
//! drives it, in one process, on the multi-thread runtime.
//!
//! The server listens on a free port of 127.0.0.1 and speaks
//! length-delimited frames (`LengthDelimitedCodec` over a `TcpStream`,
//! through `Framed`). A request is `op (u8) | n (u64)`, its answer
//! `status (u8) | value (u64)`, integers big-endian: op `f` asks for the
//! n-th Fibonacci number (n up to 92), op `c` for the number of Collatz steps
//! from n down to 1. Connections hand requests to a fixed pool of worker
//! tasks through an `mpsc` channel; a `Semaphore` bounds the requests in
//! flight over the whole server, every request has a deadline
//! (`time::timeout`), and a `time::interval` task prints progress.
//!
//! 64 clients send 200 requests each, one after another, time each one with
//! `time::Instant` and check every answer. Then a `watch` channel tells the
//! server to stop, and `JoinSet`s drain the connections, the workers and
//! the reporter. The report gives requests, errors, throughput, latency
//! percentiles and the runtime's own counters (`Handle::metrics`).
//!
//! `cargo run --release -p examples --example demo` exits by itself: 0 when
//! every answer was right, non-zero otherwise. Arguments (such as the
//! `--smoke` the smoke runs pass) are ignored: the demo is already small.

use rt::codec::{Encoder, Framed, LengthDelimitedCodec};
use rt::io::AsyncWriteExt;
use rt::net::{TcpListener, TcpStream};
use rt::runtime::Handle;
use rt::stream::StreamExt;
use rt::sync::{mpsc, oneshot, watch, Mutex, OwnedSemaphorePermit, Semaphore};
use rt::task::JoinSet;
use rt::time::{self, Duration, Instant};
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

const CLIENTS: usize = 64;
/// A quarter of the load without optimizations, so `cargo run` without
/// `--release` still finishes well within `RUN_LIMIT`.
const REQUESTS_PER_CLIENT: usize = if cfg!(debug_assertions) { 50 } else { 200 };
/// Worker tasks that compute answers.
const WORKERS: usize = 4;
/// Most requests holding a permit (queued or being computed) at once.
const MAX_IN_FLIGHT: usize = 16;
/// Deadline of one request inside the server, queueing included.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// Deadline of the whole demonstration.
const RUN_LIMIT: Duration = Duration::from_secs(8);
const REPORT_EVERY: Duration = Duration::from_millis(200);
/// Requests and answers are 9 bytes; anything longer is refused.
const MAX_FRAME: usize = 64;

const STATUS_OK: u8 = 0;
const STATUS_FAILED: u8 = 1;

/// One connection: frames in through `Stream`, out through `send_frame`.
type Wire = Framed<TcpStream, LengthDelimitedCodec>;

#[rt::main]
async fn main() {
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it, and gives up after `RUN_LIMIT`.
    let outcome = match time::timeout(RUN_LIMIT, rt::spawn(run())).await {
        Ok(joined) => joined.map_err(io::Error::other).and_then(|run| run),
        Err(_) => Err(io::Error::other(format!(
            "not finished within {RUN_LIMIT:?}"
        ))),
    };
    if let Err(e) = outcome {
        eprintln!("demo failed: {e}");
        std::process::exit(1);
    }
}

async fn run() -> io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    println!("demo: serving on {addr}, {CLIENTS} clients x {REQUESTS_PER_CLIENT} requests");

    let load = Arc::new(Load {
        permits: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
        in_flight: 0.into(),
        peak: 0.into(),
        answered: 0.into(),
        failed: 0.into(),
    });
    let (jobs_tx, jobs_rx) = mpsc::channel(MAX_IN_FLIGHT);
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let mut background = JoinSet::new();
    let jobs_rx = Arc::new(Mutex::new(jobs_rx));
    for _ in 0..WORKERS {
        background.spawn(worker(jobs_rx.clone()));
    }
    background.spawn(report_progress(load.clone(), shutdown_rx.clone()));
    let server = rt::spawn(serve(listener, jobs_tx, load.clone(), shutdown_rx));

    let started = Instant::now();
    let mut clients = JoinSet::new();
    for id in 0..CLIENTS {
        clients.spawn(client(addr, id as u64));
    }
    let mut latencies = Vec::with_capacity(CLIENTS * REQUESTS_PER_CLIENT);
    let mut wrong = 0;
    while let Some(joined) = clients.join_next().await {
        let (measured, wrong_answers) = joined.map_err(io::Error::other)??;
        latencies.extend(measured);
        wrong += wrong_answers;
    }
    let elapsed = started.elapsed();

    // Graceful shutdown: the server stops accepting and its connections
    // end; with them go the last job senders, so the workers finish what is
    // queued and stop; the reporter stops on the same signal.
    shutdown_tx.send_replace(true);
    server.await.map_err(io::Error::other)??;
    while let Some(joined) = background.join_next().await {
        joined.map_err(io::Error::other)?;
    }

    let failed = load.failed.load(Ordering::Relaxed) as usize;
    let peak = load.peak.load(Ordering::Relaxed);
    let errors = wrong + failed;
    latencies.sort_unstable();
    let percentile = |p: usize| latencies[(latencies.len() - 1) * p / 100];
    println!("requests:    {}", latencies.len());
    println!("errors:      {errors} ({wrong} wrong answers, {failed} failed in the server)");
    println!(
        "throughput:  {:.0} requests/s over {elapsed:.1?}",
        latencies.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "latency:     p50 {:.1?}, p99 {:.1?}, max {:.1?}",
        percentile(50),
        percentile(99),
        percentile(100)
    );
    println!("in flight:   at most {peak} (bound {MAX_IN_FLIGHT})");
    let metrics = Handle::current().metrics();
    let workers = metrics.num_workers();
    let sum = |count: &dyn Fn(usize) -> u64| (0..workers).map(count).sum::<u64>();
    println!(
        "runtime:     {workers} workers, {} polls, {} steals, {} parks",
        sum(&|w| metrics.worker_poll_count(w)),
        sum(&|w| metrics.worker_steal_count(w)),
        sum(&|w| metrics.worker_park_count(w)),
    );

    if errors > 0 || peak > MAX_IN_FLIGHT || latencies.len() != CLIENTS * REQUESTS_PER_CLIENT {
        return Err(io::Error::other(format!(
            "{errors} errors, {} of {} requests answered, at most {peak} in flight (bound {MAX_IN_FLIGHT})",
            latencies.len(),
            CLIENTS * REQUESTS_PER_CLIENT
        )));
    }
    Ok(())
}

/// What the server counts, and the permits that bound its work.
struct Load {
    permits: Arc<Semaphore>,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
    answered: AtomicU64,
    failed: AtomicU64,
}

/// A request's place among those in flight. It is counted from the moment
/// the permit is taken until just before the permit goes back, so the
/// count never exceeds the semaphore's bound.
struct Slot {
    load: Arc<Load>,
    _permit: OwnedSemaphorePermit,
}

impl Slot {
    async fn take(load: &Arc<Load>) -> Slot {
        let semaphore = load.permits.clone();
        let _permit = semaphore.acquire_owned().await.expect("never closed");
        let now = load.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        load.peak.fetch_max(now, Ordering::Relaxed);
        let load = load.clone();
        Slot { load, _permit }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        // Runs before the permit field is dropped.
        self.load.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A request on its way to a worker, with where its answer goes.
struct Job {
    op: u8,
    n: u64,
    answer: oneshot::Sender<Option<u64>>,
    _slot: Slot,
}

/// Takes jobs until every sender is gone and the queue is empty.
async fn worker(jobs: Arc<Mutex<mpsc::Receiver<Job>>>) {
    loop {
        // The lock is held while waiting for a job, not while computing.
        let Some(job) = jobs.lock().await.recv().await else {
            return;
        };
        // The connection may have given up (timeout); then nobody listens.
        let _ = job.answer.send(compute(job.op, job.n));
    }
}

/// Accepts connections until `shutdown` turns true, then waits for the
/// open ones to end. Returns the first connection error, if any.
async fn serve(
    listener: TcpListener,
    jobs: mpsc::Sender<Job>,
    load: Arc<Load>,
    mut shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let mut connections = JoinSet::new();
    let mut first_error = Ok(());
    loop {
        rt::select! {
            accepted = listener.accept() => {
                let (stream, _peer) = accepted?;
                stream.set_nodelay(true)?;
                let wire = Framed::new(stream, codec());
                connections.spawn(connection(wire, jobs.clone(), load.clone(), shutdown.clone()));
            }
            Some(joined) = connections.join_next(), if !connections.is_empty() => {
                first_error = first_error.and(joined.map_err(io::Error::other)?);
            }
            _ = shutdown.changed() => break,
        }
    }
    drop(listener);
    drop(jobs);
    while let Some(joined) = connections.join_next().await {
        first_error = first_error.and(joined.map_err(io::Error::other)?);
    }
    first_error
}

/// Answers one client's requests in order until it hangs up or the server
/// shuts down.
async fn connection(
    mut wire: Wire,
    jobs: mpsc::Sender<Job>,
    load: Arc<Load>,
    mut shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    loop {
        let request = rt::select! {
            request = wire.next() => match request {
                Some(request) => request?,
                None => return Ok(()),
            },
            _ = shutdown.changed() => return Ok(()),
        };
        let value = match parse(&request) {
            Some((op, n)) => time::timeout(REQUEST_TIMEOUT, submit(&jobs, &load, op, n))
                .await
                .unwrap_or(None),
            None => None,
        };
        load.answered.fetch_add(1, Ordering::Relaxed);
        let answer = match value {
            Some(value) => message(STATUS_OK, value),
            None => {
                load.failed.fetch_add(1, Ordering::Relaxed);
                message(STATUS_FAILED, 0)
            }
        };
        send_frame(&mut wire, &answer).await?;
    }
}

/// Waits for a permit, queues the job and waits for its answer.
async fn submit(jobs: &mpsc::Sender<Job>, load: &Arc<Load>, op: u8, n: u64) -> Option<u64> {
    let _slot = Slot::take(load).await;
    let (answer, answered) = oneshot::channel();
    let job = Job {
        op,
        n,
        answer,
        _slot,
    };
    jobs.send(job).await.ok()?;
    answered.await.ok().flatten()
}

/// Prints progress every `REPORT_EVERY` until `shutdown` turns true.
async fn report_progress(load: Arc<Load>, mut shutdown: watch::Receiver<bool>) {
    let mut ticks = time::interval(REPORT_EVERY);
    ticks.tick().await; // The first tick completes at once.
    loop {
        rt::select! {
            _ = ticks.tick() => println!(
                "  progress: {} answered, {} in flight",
                load.answered.load(Ordering::Relaxed),
                load.in_flight.load(Ordering::Relaxed),
            ),
            _ = shutdown.changed() => return,
        }
    }
}

/// Sends `REQUESTS_PER_CLIENT` requests one at a time, checks each answer
/// against a local computation, and returns the latencies and how many
/// answers were wrong.
async fn client(addr: SocketAddr, id: u64) -> io::Result<(Vec<Duration>, usize)> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let mut wire = Framed::new(stream, codec());
    let (mut latencies, mut wrong) = (Vec::with_capacity(REQUESTS_PER_CLIENT), 0);
    for k in 0..REQUESTS_PER_CLIENT as u64 {
        let (op, n) = match k % 2 {
            0 => (b'f', (id + k) % 93),
            _ => (b'c', id * 1_000 + k + 1),
        };
        let sent = Instant::now();
        send_frame(&mut wire, &message(op, n)).await?;
        let answer = wire.next().await.ok_or_else(|| {
            io::Error::new(io::ErrorKind::UnexpectedEof, "server closed the connection")
        })??;
        latencies.push(sent.elapsed());
        let expected = message(STATUS_OK, compute(op, n).unwrap_or(0));
        wrong += usize::from(answer[..] != expected);
    }
    Ok((latencies, wrong))
}

fn codec() -> LengthDelimitedCodec {
    LengthDelimitedCodec::builder()
        .max_frame_length(MAX_FRAME)
        .new_codec()
}

/// Writes one frame. `rt::codec` has no `SinkExt::send` yet, so the codec
/// encodes into the `Framed`'s write buffer and that buffer goes to the
/// socket with `write_all`.
async fn send_frame(wire: &mut Wire, payload: &[u8]) -> io::Result<()> {
    let mut encoder = wire.codec().clone();
    encoder.encode(payload.to_vec().into(), wire.write_buffer_mut())?;
    let frame = wire.write_buffer_mut().split();
    wire.get_mut().write_all(&frame).await
}

/// A request (`op | n`) or an answer (`status | value`): one byte and a
/// big-endian u64.
fn message(tag: u8, value: u64) -> [u8; 9] {
    let mut out = [0; 9];
    out[0] = tag;
    out[1..].copy_from_slice(&value.to_be_bytes());
    out
}

fn parse(request: &[u8]) -> Option<(u8, u64)> {
    let (&op, n) = request.split_first()?;
    Some((op, u64::from_be_bytes(n.try_into().ok()?)))
}

/// The service itself; `None` for an unknown op or an n out of range.
fn compute(op: u8, n: u64) -> Option<u64> {
    match op {
        // The loop also computes F(n + 1), and F(93) is the last that fits.
        b'f' if n <= 92 => {
            let (mut a, mut b) = (0u64, 1u64);
            for _ in 0..n {
                (a, b) = (b, a + b);
            }
            Some(a)
        }
        // Every start up to a million is known to reach 1, without overflow.
        b'c' if (1..=1_000_000).contains(&n) => {
            let (mut x, mut steps) = (n, 0);
            while x != 1 {
                x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
                steps += 1;
            }
            Some(steps)
        }
        _ => None,
    }
}
