//! Request/response over length-delimited frames, with a bound on how many
//! requests the server works on at once.
//!
//! Each frame is a 4-byte big-endian length followed by the message, the
//! format `LengthDelimitedCodec` reads. A request is `id (u64) | op (u8) |
//! payload`; a response is `id (u64) | status (u8) | payload`, so a client
//! may pipeline requests and match answers that come back out of order.
//! Operations: `e` echo, `r` reverse the bytes, `s` sum big-endian u64s.
//!
//! A `Semaphore` holds one permit per request being worked on: when all
//! are taken the server stops reading, and further requests wait in the
//! socket instead of in memory.
//!
//! `cargo run -p examples --example rpc -- --addr 127.0.0.1:7200` serves
//! until killed; `--smoke` runs concurrent in-process clients against it.

use examples::cli::{exit_if_stuck, ServerArgs};
use rt::codec::{FramedRead, LengthDelimitedCodec};
use rt::io::{AsyncWriteExt, BufWriter};
use rt::net::tcp::OwnedWriteHalf;
use rt::net::{TcpListener, TcpStream};
use rt::stream::StreamExt;
use rt::sync::{mpsc, watch, Semaphore};
use rt::task::JoinSet;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const DEFAULT_ADDR: &str = "127.0.0.1:7200";
/// Most requests worked on at once, over all connections.
const MAX_IN_FLIGHT: usize = 64;
/// Largest accepted frame.
const MAX_FRAME: usize = 64 * 1024;

const STATUS_OK: u8 = 0;
const STATUS_ERROR: u8 = 1;

#[rt::main]
async fn main() -> io::Result<()> {
    let args = ServerArgs::parse("rpc", DEFAULT_ADDR);
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: ServerArgs) -> io::Result<()> {
    if args.smoke {
        return smoke().await;
    }
    let listener = TcpListener::bind(&args.addr).await?;
    println!("rpc: listening on {}", listener.local_addr()?);
    // Whoever owns `shutdown_tx` stops the server by sending `true`.
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let served = serve(listener, Arc::new(Limits::new(MAX_IN_FLIGHT)), shutdown_rx).await;
    drop(shutdown_tx);
    served
}

/// The in-flight bound, and how close the server came to it.
struct Limits {
    permits: Arc<Semaphore>,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
}

impl Limits {
    fn new(max: usize) -> Limits {
        Limits {
            permits: Arc::new(Semaphore::new(max)),
            in_flight: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }
}

/// Accepts connections until `shutdown` turns true; then each connection
/// answers the requests it has taken and closes.
async fn serve(
    listener: TcpListener,
    limits: Arc<Limits>,
    mut shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let mut connections = JoinSet::new();
    loop {
        rt::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let _ = stream.set_nodelay(true);
                    connections.spawn(connection(stream, limits.clone(), shutdown.clone()));
                }
                Err(e) => eprintln!("rpc: accept failed: {e}"),
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            _ = shutdown.changed() => break,
        }
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
    Ok(())
}

fn codec() -> LengthDelimitedCodec {
    LengthDelimitedCodec::builder()
        .max_frame_length(MAX_FRAME)
        .new_codec()
}

/// Reads requests, runs each in its own task once a permit is free, and
/// sends the answers back through one writer task.
async fn connection(stream: TcpStream, limits: Arc<Limits>, mut shutdown: watch::Receiver<bool>) {
    let (reader, writer) = stream.into_split();
    let mut requests = FramedRead::new(reader, codec());
    let (replies, outbox) = mpsc::channel(MAX_IN_FLIGHT);
    let writer = rt::spawn(write_frames(writer, outbox));
    loop {
        // Take the permit before reading, so that at the limit the next
        // request stays unread.
        let permit = rt::select! {
            permit = limits.permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            _ = shutdown.changed() => break,
        };
        let frame = rt::select! {
            frame = requests.next() => match frame {
                Some(Ok(frame)) => frame,
                // End of stream, a read error or an oversized frame.
                _ => break,
            },
            _ = shutdown.changed() => break,
        };
        let replies = replies.clone();
        let limits = limits.clone();
        rt::spawn(async move {
            let now = limits.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
            limits.peak.fetch_max(now, Ordering::Relaxed);
            let reply = handle(&frame).await;
            limits.in_flight.fetch_sub(1, Ordering::Relaxed);
            drop(permit);
            let _ = replies.send(reply).await;
        });
    }
    // The writer ends once every request already taken has been answered.
    drop(replies);
    let _ = writer.await;
}

/// Writes each message as one length-delimited frame, flushing when no
/// more are waiting.
async fn write_frames(
    writer: OwnedWriteHalf,
    mut outbox: mpsc::Receiver<Vec<u8>>,
) -> io::Result<()> {
    let mut writer = BufWriter::new(writer);
    while let Some(message) = outbox.recv().await {
        write_frame(&mut writer, &message).await?;
        while let Ok(message) = outbox.try_recv() {
            write_frame(&mut writer, &message).await?;
        }
        writer.flush().await?;
    }
    writer.shutdown().await
}

async fn write_frame(writer: &mut BufWriter<OwnedWriteHalf>, message: &[u8]) -> io::Result<()> {
    writer.write_u32(message.len() as u32).await?;
    writer.write_all(message).await
}

/// Runs one request and builds its response.
async fn handle(request: &[u8]) -> Vec<u8> {
    if request.len() < 9 {
        return response(0, STATUS_ERROR, b"request shorter than id and op");
    }
    let id = u64::from_be_bytes(request[..8].try_into().expect("8 bytes"));
    let payload = &request[9..];
    // Stand-in for real work that awaits something; it also lets other
    // requests overlap with this one.
    rt::task::yield_now().await;
    match request[8] {
        b'e' => response(id, STATUS_OK, payload),
        b'r' => {
            let reversed: Vec<u8> = payload.iter().rev().copied().collect();
            response(id, STATUS_OK, &reversed)
        }
        b's' if payload.len() % 8 == 0 => {
            let sum = payload
                .chunks_exact(8)
                .map(|n| u64::from_be_bytes(n.try_into().expect("8 bytes")))
                .fold(0u64, u64::wrapping_add);
            response(id, STATUS_OK, &sum.to_be_bytes())
        }
        b's' => response(id, STATUS_ERROR, b"sum takes whole u64s"),
        _ => response(id, STATUS_ERROR, b"unknown op"),
    }
}

fn response(id: u64, status: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(9 + payload.len());
    out.extend_from_slice(&id.to_be_bytes());
    out.push(status);
    out.extend_from_slice(payload);
    out
}

/// Self-check: `CLIENTS` connections each pipeline `CALLS` requests and
/// check every answer by id; the server must never exceed its bound.
async fn smoke() -> io::Result<()> {
    const CLIENTS: usize = 32;
    const CALLS: usize = 200;
    const LIMIT: usize = 16;
    exit_if_stuck(Duration::from_secs(10));
    let started = Instant::now();
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let limits = Arc::new(Limits::new(LIMIT));
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(serve(listener, limits.clone(), shutdown_rx));

    let mut clients = JoinSet::new();
    for client in 0..CLIENTS {
        clients.spawn(run_client(addr, client as u64, CALLS));
    }
    let mut answered = 0;
    while let Some(done) = clients.join_next().await {
        answered += done.map_err(io::Error::other)??;
    }
    shutdown_tx.send_replace(true);
    server.await.map_err(io::Error::other)??;

    let peak = limits.peak.load(Ordering::Relaxed);
    if peak > LIMIT {
        return Err(io::Error::other(format!(
            "{peak} requests in flight, bound is {LIMIT}"
        )));
    }
    println!(
        "rpc smoke: {answered} calls from {CLIENTS} clients answered correctly, at most {peak} in flight (bound {LIMIT}), in {:.1?}",
        started.elapsed()
    );
    Ok(())
}

/// The request a client sends as call `n`, and the answer it expects.
fn call(id: u64, n: usize) -> (Vec<u8>, Vec<u8>) {
    let mut request = id.to_be_bytes().to_vec();
    match n % 4 {
        0 => {
            request.push(b'e');
            request.extend_from_slice(format!("hello {id}").as_bytes());
            (
                request,
                response(id, STATUS_OK, format!("hello {id}").as_bytes()),
            )
        }
        1 => {
            request.push(b'r');
            request.extend_from_slice(b"abc");
            (request, response(id, STATUS_OK, b"cba"))
        }
        2 => {
            request.push(b's');
            for k in 1..=n as u64 {
                request.extend_from_slice(&k.to_be_bytes());
            }
            let sum = (n as u64) * (n as u64 + 1) / 2;
            (request, response(id, STATUS_OK, &sum.to_be_bytes()))
        }
        _ => {
            request.push(b'?');
            (request, response(id, STATUS_ERROR, b"unknown op"))
        }
    }
}

/// Pipelines `calls` requests on one connection while reading the answers.
async fn run_client(addr: SocketAddr, client: u64, calls: usize) -> io::Result<usize> {
    let (reader, writer) = TcpStream::connect(addr).await?.into_split();
    let mut answers = FramedRead::new(reader, codec());
    let mut expected = std::collections::HashMap::new();
    let mut requests = Vec::new();
    for n in 0..calls {
        let id = client << 32 | n as u64;
        let (request, answer) = call(id, n);
        expected.insert(id, answer);
        requests.push(request);
    }
    let send = async move {
        let mut writer = BufWriter::new(writer);
        for request in &requests {
            write_frame(&mut writer, request).await?;
        }
        writer.flush().await?;
        io::Result::Ok(writer)
    };
    let receive = async {
        for _ in 0..calls {
            let frame = match answers.next().await {
                Some(Ok(frame)) => frame,
                Some(Err(e)) => return Err(io::Error::other(e)),
                None => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "server closed early",
                    ))
                }
            };
            let id = u64::from_be_bytes(frame[..8].try_into().expect("8 bytes"));
            match expected.remove(&id) {
                Some(answer) if answer == frame[..] => {}
                _ => {
                    return Err(io::Error::other(format!(
                        "wrong or unexpected answer for id {id:#x}"
                    )))
                }
            }
        }
        Ok(())
    };
    let (sent, received) = rt::join!(send, receive);
    let _writer = sent?;
    received?;
    Ok(calls)
}
