//! A small HTTP/1.1 server with keep-alive.
//!
//! `GET /` answers with a greeting and `GET /json` with a small JSON
//! document; anything else gets 404 or 405. A connection serves requests
//! one after another (pipelined ones too) until the client asks to close
//! or the server shuts down. Requests that are too large or malformed get
//! a 4xx/5xx answer and the connection is closed.
//!
//! `cargo run -p examples --example http -- --addr 127.0.0.1:8080` serves
//! until killed (try `curl -v localhost:8080/json`); `--smoke` checks it
//! with `curl` and `wrk` when they are installed and with an in-process
//! client always.

#[path = "http/request.rs"]
mod request;
#[path = "http/smoke.rs"]
mod smoke;

use examples::cli::ServerArgs;
use request::{Parsed, Request};
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use rt::task::JoinSet;
use std::io;

const DEFAULT_ADDR: &str = "127.0.0.1:8080";

#[rt::main]
async fn main() -> io::Result<()> {
    let args = ServerArgs::parse("http", DEFAULT_ADDR);
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: ServerArgs) -> io::Result<()> {
    if args.smoke {
        return smoke::run().await;
    }
    let listener = TcpListener::bind(&args.addr).await?;
    println!("http: listening on http://{}", listener.local_addr()?);
    // Whoever owns `shutdown_tx` stops the server by sending `true`.
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let served = serve(listener, shutdown_rx).await;
    drop(shutdown_tx);
    served
}

/// Accepts connections until `shutdown` turns true; then each connection
/// finishes the requests it has read and closes.
async fn serve(listener: TcpListener, mut shutdown: watch::Receiver<bool>) -> io::Result<()> {
    let mut connections = JoinSet::new();
    loop {
        rt::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let _ = stream.set_nodelay(true);
                    connections.spawn(connection(stream, shutdown.clone()));
                }
                Err(e) => eprintln!("http: accept failed: {e}"),
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            _ = shutdown.changed() => break,
        }
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// Serves requests on one connection until it closes.
async fn connection(mut stream: TcpStream, mut shutdown: watch::Receiver<bool>) {
    let mut input = Vec::with_capacity(4096);
    let mut chunk = vec![0u8; 4096];
    let mut out = Vec::new();
    loop {
        // Answer every complete request already buffered, in order.
        let mut keep_open = true;
        while keep_open {
            match request::parse(&input) {
                Parsed::Complete { request, len } => {
                    input.drain(..len);
                    respond(&request, &mut out);
                    keep_open = request.keep_alive;
                }
                Parsed::Partial => break,
                Parsed::Invalid(status) => {
                    write_response(
                        status,
                        "text/plain",
                        reason(status).as_bytes(),
                        true,
                        true,
                        &mut out,
                    );
                    keep_open = false;
                }
            }
        }
        if !out.is_empty() {
            if stream.write_all(&out).await.is_err() {
                return;
            }
            out.clear();
        }
        if !keep_open {
            return;
        }
        rt::select! {
            read = stream.read(&mut chunk) => match read {
                Ok(0) | Err(_) => return,
                Ok(n) => input.extend_from_slice(&chunk[..n]),
            },
            _ = shutdown.changed() => return,
        }
    }
}

/// Routes `request` and appends the response to `out`.
fn respond(request: &Request, out: &mut Vec<u8>) {
    let close = !request.keep_alive;
    let with_body = request.method != "HEAD";
    if request.method != "GET" && request.method != "HEAD" {
        let body = b"only GET and HEAD are supported\n";
        return write_response(405, "text/plain", body, with_body, close, out);
    }
    match request.path.as_str() {
        "/" => write_response(200, "text/plain", b"Hello, world!\n", with_body, close, out),
        "/json" => {
            // Small enough to write by hand; a real service would use a
            // serializer.
            let body = br#"{"message":"Hello, world!","server":"rt"}"#;
            write_response(200, "application/json", body, with_body, close, out)
        }
        _ => write_response(404, "text/plain", b"not found\n", with_body, close, out),
    }
}

fn write_response(
    status: u16,
    content_type: &str,
    body: &[u8],
    with_body: bool,
    close: bool,
    out: &mut Vec<u8>,
) {
    let connection = if close { "Connection: close\r\n" } else { "" };
    out.extend_from_slice(
        format!(
            "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{connection}\r\n",
            reason(status),
            body.len()
        )
        .as_bytes(),
    );
    if with_body {
        out.extend_from_slice(body);
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}
