//! A key-value server that speaks the Redis protocol (RESP2).
//!
//! Supports GET, SET (with EX/PX), DEL, INCR, EXPIRE, TTL, PING, ECHO,
//! PUBLISH and SUBSCRIBE/UNSUBSCRIBE, with pipelining: every complete
//! command in a read is answered in one write. Malformed input gets a RESP
//! error and the connection is closed; every size is bounded.
//!
//! On Ctrl-C each connection finishes the commands it has read and
//! closes.
//!
//! `cargo run -p examples --example kv -- --addr 127.0.0.1:6380` serves
//! until Ctrl-C (try `redis-cli -p 6380`); `--smoke` checks itself with
//! `redis-benchmark` and `redis-cli` when they are installed and with an
//! in-process client always, then runs itself for real and stops that with
//! a real `SIGINT`.

mod db;
mod resp;
mod session;
mod smoke;

use db::Db;
use examples::cli::ServerArgs;
use examples::server::{self, Drained};
use resp::Reply;
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use session::{Flow, Session};
use std::io;
use std::sync::Arc;

const DEFAULT_ADDR: &str = "127.0.0.1:6380";
/// Bytes asked of the socket per read.
const READ_CHUNK: usize = 16 * 1024;
/// Reply bytes gathered before they are written out and more commands run.
const MAX_PENDING_REPLIES: usize = 1024 * 1024;

#[rt::main]
async fn main() -> io::Result<()> {
    let args = ServerArgs::parse("kv", DEFAULT_ADDR);
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: ServerArgs) -> io::Result<()> {
    if args.smoke {
        return smoke::run().await;
    }
    server::until_ctrl_c("kv", &args.addr, serve).await
}

/// Serves every connection from one database until `shutdown` turns
/// true; then every connection finishes the commands it has read and
/// closes.
async fn serve(listener: TcpListener, shutdown: watch::Receiver<bool>) -> Drained {
    let db = Arc::new(Db::default());
    let mut next_id = 0u64;
    let watch_shutdown = shutdown.clone();
    server::serve("kv", listener, shutdown, move |stream, _peer| {
        next_id += 1;
        let _ = stream.set_nodelay(true);
        connection(stream, db.clone(), next_id, watch_shutdown.clone())
    })
    .await
}

/// Reads commands, answers them, and forwards published messages while
/// subscribed.
async fn connection(stream: TcpStream, db: Arc<Db>, id: u64, mut shutdown: watch::Receiver<bool>) {
    let mut session = Session::new(db, id);
    let (mut reader, mut writer) = stream.into_split();
    let mut input = Vec::with_capacity(READ_CHUNK);
    let mut chunk = vec![0u8; READ_CHUNK];
    let mut out = Vec::new();
    let mut batch = Batch::Drained;
    loop {
        if batch == Batch::Paused {
            // Commands are still buffered from the last read: answer them
            // before reading more.
            batch = run_buffered(&mut session, &mut input, &mut out);
        } else {
            rt::select! {
                read = reader.read(&mut chunk) => {
                    let n = match read {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    input.extend_from_slice(&chunk[..n]);
                    batch = run_buffered(&mut session, &mut input, &mut out);
                }
                Some(message) = session.messages.recv(), if session.is_subscribed() => {
                    Session::message_reply(message).write_to(&mut out);
                }
                _ = shutdown.changed() => return,
            }
        }
        if session.fell_behind() {
            Reply::err("subscriber fell too far behind; disconnecting").write_to(&mut out);
            batch = Batch::Close;
        }
        if !out.is_empty() {
            if writer.write_all(&out).await.is_err() {
                return;
            }
            out.clear();
        }
        if batch == Batch::Close {
            return;
        }
    }
}

/// How far [`run_buffered`] got.
#[derive(PartialEq)]
enum Batch {
    /// Every complete command was answered.
    Drained,
    /// The replies reached [`MAX_PENDING_REPLIES`]; more commands wait.
    Paused,
    /// The connection must close once the replies are written.
    Close,
}

/// Runs the complete commands at the front of `input` and removes them
/// from there, stopping early once the replies grow large (a pipeline of
/// GETs of big values must not turn into an unbounded reply buffer).
fn run_buffered(session: &mut Session, input: &mut Vec<u8>, out: &mut Vec<u8>) -> Batch {
    let mut used = 0;
    let batch = loop {
        if out.len() >= MAX_PENDING_REPLIES {
            break Batch::Paused;
        }
        match resp::parse_command(&input[used..]) {
            Ok(Some((command, len))) => {
                used += len;
                if session.execute(command, out) == Flow::Close {
                    break Batch::Close;
                }
            }
            Ok(None) if input.len() - used > resp::MAX_REQUEST => {
                Reply::err("Protocol error: request too large").write_to(out);
                break Batch::Close;
            }
            Ok(None) => break Batch::Drained,
            Err(problem) => {
                Reply::err(format!("Protocol error: {problem}")).write_to(out);
                break Batch::Close;
            }
        }
    };
    input.drain(..used);
    batch
}
