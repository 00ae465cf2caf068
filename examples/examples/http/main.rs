//! A small HTTP/1.1 server with keep-alive.
//!
//! `GET /` answers with a greeting and `GET /json` with a small JSON
//! document; anything else gets 404 or 405. A connection serves requests
//! one after another (pipelined ones too) until the client asks to close
//! or the server shuts down. Requests that are too large or malformed get
//! a 4xx/5xx answer and the connection is closed.
//!
//! On Ctrl-C the server stops accepting, lets each connection finish the
//! requests it has read, and aborts any still open after the grace period.
//!
//! `cargo run -p examples --example http -- --addr 127.0.0.1:8080` serves
//! until Ctrl-C (try `curl -v localhost:8080/json`); `--smoke` checks it
//! with `curl` and `wrk` when they are installed and with an in-process
//! client always, then runs itself for real and stops that with a real
//! `SIGINT`.

mod request;
mod server;
mod smoke;

use examples::cli::ServerArgs;
use examples::server::{drain, until_ctrl_c, Drained};
// `server` is written against `tk`; here that is rt (the `http_vs_tokio`
// benchmark compiles it against tokio too).
use rt as tk;
use rt::net::TcpListener;
use rt::sync::watch;
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
    until_ctrl_c("http", &args.addr, serve).await
}

/// Serves HTTP until `shutdown` turns true, then drains the connections.
async fn serve(listener: TcpListener, shutdown: watch::Receiver<bool>) -> Drained {
    drain("http", server::accept(listener, shutdown).await).await
}
