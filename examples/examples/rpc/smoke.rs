//! `rpc --smoke`: concurrent pipelining clients against the server on a
//! free port (every answer matched by id, the in-flight bound kept), then
//! the real mode stopped by a real `SIGINT`.

use super::{codec, response, write_frame, Limits, STATUS_ERROR, STATUS_OK};
use examples::cli::exit_if_stuck;
use examples::real_mode::{exchange, expect_closed, RealServer};
use rt::codec::FramedRead;
use rt::io::{AsyncWriteExt, BufWriter};
use rt::net::{TcpListener, TcpStream};
use rt::stream::StreamExt;
use rt::sync::watch;
use rt::task::JoinSet;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Connections in the in-process check.
const CLIENTS: usize = 32;
/// Requests each of them pipelines.
const CALLS: usize = 200;
/// The in-flight bound of the in-process server.
const LIMIT: usize = 16;

/// Runs every check; any failure is an error.
pub async fn run() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(20));
    let started = Instant::now();
    let (answered, peak) = in_process().await?;
    ctrl_c().await?;
    println!(
        "rpc smoke: {answered} calls from {CLIENTS} clients answered correctly, at most {peak} \
         in flight (bound {LIMIT}); Ctrl-C drained the real server, which exited 0; in {:.1?}",
        started.elapsed()
    );
    Ok(())
}

/// `CLIENTS` connections each pipeline `CALLS` requests and check every
/// answer by id; the server must never exceed its bound. Returns the
/// calls answered and the most in flight at once.
async fn in_process() -> io::Result<(usize, usize)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let limits = Arc::new(Limits::new(LIMIT));
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(super::serve(listener, limits.clone(), shutdown_rx));

    let mut clients = JoinSet::new();
    for client in 0..CLIENTS {
        clients.spawn(run_client(addr, client as u64, CALLS));
    }
    let mut answered = 0;
    while let Some(done) = clients.join_next().await {
        answered += done.map_err(io::Error::other)??;
    }
    shutdown_tx.send_replace(true);
    let drained = server.await.map_err(io::Error::other)?;
    if drained.aborted != 0 {
        return Err(io::Error::other(format!("in-process shutdown: {drained}")));
    }

    let peak = limits.peak.load(Ordering::Relaxed);
    if peak > LIMIT {
        return Err(io::Error::other(format!(
            "{peak} requests in flight, bound is {LIMIT}"
        )));
    }
    Ok((answered, peak))
}

/// The real server: a connection open across Ctrl-C is closed once its
/// answers are out, and the server exits with status 0.
async fn ctrl_c() -> io::Result<()> {
    let mut server = RealServer::start("rpc", &[]).await?;
    let mut stream = TcpStream::connect(server.addr()).await?;
    let (request, answer) = call(7, 1);
    exchange(&mut stream, &frame(&request), &frame(&answer)).await?;
    server.interrupt(1).await?;
    expect_closed(&mut stream).await?;
    server.stopped(1).await
}

/// `message` as one length-delimited frame.
fn frame(message: &[u8]) -> Vec<u8> {
    let mut framed = (message.len() as u32).to_be_bytes().to_vec();
    framed.extend_from_slice(message);
    framed
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
