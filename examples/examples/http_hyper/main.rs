//! The HTTP/1.1 keep-alive server of the `http` example, built on hyper 1.x
//! instead of a hand-written parser, to show that the ecosystem's HTTP
//! stack runs on rt.
//!
//! Hyper is runtime-agnostic: it needs I/O, an executor and a timer, which
//! `http_hyper/adapter.rs` provides on top of rt in a few dozen lines.
//! `GET /` answers with a greeting and `GET /json` with a small JSON
//! document; other paths get 404 and other methods 405. A client that
//! takes longer than the header read timeout to send a request head is
//! disconnected, which is hyper using rt's timer.
//!
//! `cargo run --release -p examples --example http_hyper -- --addr
//! 127.0.0.1:8080` serves until Ctrl-C, then asks hyper to close each
//! connection once its request in progress is answered, and aborts any
//! still open after the grace period. `--smoke` checks it with a hyper
//! client on rt, and with `curl` and `wrk` when they are installed, then
//! runs itself for real and stops that with a real `SIGINT`.

mod adapter;
mod smoke;

use adapter::{RtIo, RtTimer};
use bytes::Bytes;
use examples::cli::ServerArgs;
use examples::server::{self, Drained};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use std::convert::Infallible;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

const DEFAULT_ADDR: &str = "127.0.0.1:8080";
const HELLO: &[u8] = b"Hello, world!\n";
const JSON: &[u8] = br#"{"message":"Hello, world!","server":"rt"}"#;

#[rt::main]
async fn main() -> io::Result<()> {
    let args = ServerArgs::parse("http_hyper", DEFAULT_ADDR);
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: ServerArgs) -> io::Result<()> {
    if args.smoke {
        return smoke::run().await;
    }
    let config = Config {
        header_read_timeout: Duration::from_secs(10),
        accepted: Arc::default(),
    };
    server::until_ctrl_c("http_hyper", &args.addr, |listener, shutdown| {
        serve(listener, config, shutdown)
    })
    .await
}

/// How the server treats its connections.
#[derive(Clone)]
struct Config {
    /// How long a client may take to send a complete request head,
    /// counted from when the server starts waiting for one.
    header_read_timeout: Duration,
    /// Connections accepted so far (the smoke test checks keep-alive
    /// with it).
    accepted: Arc<AtomicUsize>,
}

/// Serves every connection with hyper until `shutdown` turns true; then
/// each connection finishes the request in progress and closes.
async fn serve(listener: TcpListener, config: Config, shutdown: watch::Receiver<bool>) -> Drained {
    let watch_shutdown = shutdown.clone();
    server::serve("http_hyper", listener, shutdown, move |stream, _peer| {
        config.accepted.fetch_add(1, Ordering::Relaxed);
        let _ = stream.set_nodelay(true);
        connection(stream, config.header_read_timeout, watch_shutdown.clone())
    })
    .await
}

/// Lets hyper serve one connection; on shutdown, asks it to close once the
/// request in progress (if any) is answered.
async fn connection(
    stream: TcpStream,
    header_read_timeout: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    let conn = http1::Builder::new()
        .timer(RtTimer)
        .header_read_timeout(header_read_timeout)
        .serve_connection(RtIo::new(stream), service_fn(route));
    let mut conn = std::pin::pin!(conn);
    let served = rt::select! {
        served = conn.as_mut() => served,
        _ = shutdown.changed() => {
            conn.as_mut().graceful_shutdown();
            conn.await
        }
    };
    // A slow client timing out is the timeout doing its job, a malformed
    // request already got its 400, and a peer that hangs up mid-request is
    // its own business; anything else is worth a line.
    if let Err(e) = served {
        if !e.is_timeout() && !e.is_parse() && !e.is_incomplete_message() {
            eprintln!("http_hyper: connection failed: {e}");
        }
    }
}

/// Answers one request.
async fn route(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    // Hyper leaves out the body of answers to HEAD by itself.
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return Ok(respond(
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            b"only GET and HEAD are supported\n",
        ));
    }
    Ok(match request.uri().path() {
        "/" => respond(StatusCode::OK, "text/plain", HELLO),
        // Small enough to write by hand; a real service would use a
        // serializer.
        "/json" => respond(StatusCode::OK, "application/json", JSON),
        _ => respond(StatusCode::NOT_FOUND, "text/plain", b"not found\n"),
    })
}

fn respond(
    status: StatusCode,
    content_type: &'static str,
    body: &'static [u8],
) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}
