//! `http --smoke`: starts the server on a free port and checks it with an
//! in-process keep-alive client, then with `curl` and `wrk` when they are
//! on PATH; last, the real mode stopped by a real `SIGINT`.

use examples::cli::{exit_if_stuck, on_path, wrk_requests_per_second};
use examples::real_mode::{expect_closed, RealServer};
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use rt::task::JoinSet;
use std::io;
use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

const CLIENTS: usize = 20;
const REQUESTS: usize = 50;

/// Runs every check; any failure is an error.
pub async fn run() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(25));
    let started = Instant::now();
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(super::serve(listener, shutdown_rx));

    let mut done = vec![keep_alive_load(addr).await?];
    done.push(bad_requests(addr).await?);
    if on_path("curl") {
        done.push(curl(addr).await?);
    } else {
        println!("curl not found: install curl (in-process checks still ran)");
    }
    if on_path("wrk") {
        done.push(wrk(addr).await?);
    } else {
        println!("wrk not found: install wrk (in-process load still ran)");
    }

    shutdown_tx.send_replace(true);
    let drained = server.await.map_err(io::Error::other)?;
    if drained.aborted != 0 {
        return Err(io::Error::other(format!("in-process shutdown: {drained}")));
    }
    done.push(ctrl_c().await?);
    println!(
        "http smoke: {} in {:.1?}",
        done.join(", "),
        started.elapsed()
    );
    Ok(())
}

/// A response as the test client sees it.
struct Response {
    status: u16,
    body: Vec<u8>,
}

/// Reads one response (head plus `Content-Length` body) from `stream`,
/// keeping any bytes after it in `buf`.
async fn read_response(stream: &mut TcpStream, buf: &mut Vec<u8>) -> io::Result<Response> {
    let mut chunk = [0u8; 1024];
    loop {
        if let Some(head_len) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..head_len]).into_owned();
            let status = head
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| io::Error::other(format!("bad status line in {head:?}")))?;
            let body_len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| io::Error::other("response without Content-Length"))?;
            let total = head_len + 4 + body_len;
            if buf.len() >= total {
                let body = buf[head_len + 4..total].to_vec();
                buf.drain(..total);
                return Ok(Response { status, body });
            }
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "server closed mid-response",
            ));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// `CLIENTS` connections each send `REQUESTS` requests, the last few of
/// them pipelined, and check every answer.
async fn keep_alive_load(addr: SocketAddr) -> io::Result<String> {
    let mut clients = JoinSet::new();
    for _ in 0..CLIENTS {
        clients.spawn(async move {
            let mut stream = TcpStream::connect(addr).await?;
            let mut buf = Vec::new();
            for n in 0..REQUESTS {
                let (path, want) = if n % 2 == 0 {
                    ("/", &b"Hello, world!\n"[..])
                } else {
                    ("/json", &br#"{"message":"Hello, world!","server":"rt"}"#[..])
                };
                stream
                    .write_all(format!("GET {path} HTTP/1.1\r\nHost: smoke\r\n\r\n").as_bytes())
                    .await?;
                let response = read_response(&mut stream, &mut buf).await?;
                if response.status != 200 || response.body != want {
                    return Err(io::Error::other(format!("GET {path}: status {}", response.status)));
                }
            }
            // Three pipelined requests, the last one closing the connection.
            stream
                .write_all(
                    b"GET / HTTP/1.1\r\n\r\nGET /missing HTTP/1.1\r\n\r\nHEAD /json HTTP/1.1\r\nConnection: close\r\n\r\n",
                )
                .await?;
            let statuses = [
                read_response(&mut stream, &mut buf).await?.status,
                read_response(&mut stream, &mut buf).await?.status,
            ];
            // HEAD: a head whose Content-Length describes a body not sent.
            stream.read_to_end(&mut buf).await?;
            let head = String::from_utf8_lossy(&buf);
            if statuses != [200, 404] || !head.starts_with("HTTP/1.1 200 OK") || !head.ends_with("\r\n\r\n") {
                return Err(io::Error::other(format!("pipelined answers wrong: {statuses:?} {head:?}")));
            }
            io::Result::Ok(REQUESTS + 3)
        });
    }
    let mut answered = 0;
    while let Some(done) = clients.join_next().await {
        answered += done.map_err(io::Error::other)??;
    }
    Ok(format!(
        "{answered} requests on {CLIENTS} keep-alive connections"
    ))
}

/// Malformed or oversized requests get an error status and a closed
/// connection.
async fn bad_requests(addr: SocketAddr) -> io::Result<String> {
    let huge_header = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(10_000));
    let cases: &[(&[u8], u16)] = &[
        (b"NONSENSE\r\n\r\n", 400),
        (b"GET / HTTP/2.0\r\n\r\n", 505),
        (b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", 413),
        (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi", 405),
        (huge_header.as_bytes(), 431),
    ];
    for (request, want) in cases {
        let mut stream = TcpStream::connect(addr).await?;
        stream.write_all(request).await?;
        let mut buf = Vec::new();
        let response = read_response(&mut stream, &mut buf).await?;
        if response.status != *want {
            return Err(io::Error::other(format!(
                "{:?}: wanted {want}, got {}",
                String::from_utf8_lossy(&request[..request.len().min(40)]),
                response.status
            )));
        }
    }
    Ok(format!("{} bad requests refused", cases.len()))
}

/// Fetches both routes with `curl`.
async fn curl(addr: SocketAddr) -> io::Result<String> {
    for (path, want) in [
        ("/", "Hello, world!\n"),
        ("/json", r#"{"message":"Hello, world!","server":"rt"}"#),
    ] {
        let url = format!("http://{addr}{path}");
        let output = rt::task::spawn_blocking(move || {
            Command::new("curl")
                .args(["-sS", "--fail", "--max-time", "5", &url])
                .output()
        })
        .await
        .map_err(io::Error::other)??;
        if !output.status.success() || output.stdout != want.as_bytes() {
            return Err(io::Error::other(format!(
                "curl {path}: {:?} {}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )));
        }
    }
    Ok("curl".into())
}

/// Loads `/` with `wrk` for two seconds; non-2xx answers or socket errors
/// fail the check.
async fn wrk(addr: SocketAddr) -> io::Result<String> {
    let rate = wrk_requests_per_second(format!("http://{addr}/"), 50).await?;
    Ok(format!("wrk {rate} requests/s"))
}

/// The real server: a keep-alive connection open across Ctrl-C is closed
/// after its answer, and the server exits with status 0.
async fn ctrl_c() -> io::Result<String> {
    let mut server = RealServer::start("http", &[]).await?;
    let mut stream = TcpStream::connect(server.addr()).await?;
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: smoke\r\n\r\n")
        .await?;
    let mut buf = Vec::new();
    let response = read_response(&mut stream, &mut buf).await?;
    if response.status != 200 || !buf.is_empty() {
        return Err(io::Error::other(format!(
            "GET / on the real server: status {}",
            response.status
        )));
    }
    server.interrupt(1).await?;
    expect_closed(&mut stream).await?;
    server.stopped(1).await?;
    Ok("Ctrl-C drained the real server, which exited 0".into())
}
