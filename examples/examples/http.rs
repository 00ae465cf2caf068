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
#[path = "http/server.rs"]
mod server;
#[path = "http/smoke.rs"]
mod smoke;

use examples::cli::ServerArgs;
// `server` is written against `tk`; here that is rt (the `http_vs_tokio`
// benchmark compiles it against tokio too).
use rt as tk;
use rt::net::TcpListener;
use rt::sync::watch;
use server::serve;
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
