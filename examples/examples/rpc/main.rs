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
//! On Ctrl-C each connection stops reading, answers the requests it has
//! taken and closes.
//!
//! `cargo run -p examples --example rpc -- --addr 127.0.0.1:7200` serves
//! until Ctrl-C; `--smoke` runs concurrent in-process clients against it
//! on a free port, then runs itself for real and stops that with a real
//! `SIGINT`, and exits.

mod smoke;

use examples::cli::ServerArgs;
use examples::server::{self, Drained};
use rt::codec::{FramedRead, LengthDelimitedCodec};
use rt::io::{AsyncWriteExt, BufWriter};
use rt::net::tcp::OwnedWriteHalf;
use rt::net::{TcpListener, TcpStream};
use rt::stream::StreamExt;
use rt::sync::{mpsc, watch, Semaphore};
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

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
        return smoke::run().await;
    }
    let limits = Arc::new(Limits::new(MAX_IN_FLIGHT));
    server::until_ctrl_c("rpc", &args.addr, |listener, shutdown| {
        serve(listener, limits, shutdown)
    })
    .await
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

/// Serves every connection under `limits` until `shutdown` turns true;
/// then each connection answers the requests it has taken and closes.
async fn serve(
    listener: TcpListener,
    limits: Arc<Limits>,
    shutdown: watch::Receiver<bool>,
) -> Drained {
    let watch_shutdown = shutdown.clone();
    server::serve("rpc", listener, shutdown, move |stream, _peer| {
        let _ = stream.set_nodelay(true);
        connection(stream, limits.clone(), watch_shutdown.clone())
    })
    .await
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
