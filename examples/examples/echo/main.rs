//! A TCP echo server with graceful shutdown.
//!
//! Every connection gets its own task that writes back whatever it reads.
//! On Ctrl-C the server stops accepting, gives the open connections a
//! grace period on rt's timer to finish on their own, then aborts whatever
//! is left and says how many of each there were (`examples::server`).
//!
//! `cargo run -p examples --example echo -- --addr 127.0.0.1:7000` serves
//! until Ctrl-C (try `nc 127.0.0.1 7000`); `--smoke` drives the server
//! with in-process clients on a free port, then runs itself for real and
//! stops that with a real `SIGINT`, and exits.

mod smoke;

use examples::cli::ServerArgs;
use examples::server::{self, Drained};
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use std::io;

const DEFAULT_ADDR: &str = "127.0.0.1:7000";

#[rt::main]
async fn main() -> io::Result<()> {
    let args = ServerArgs::parse("echo", DEFAULT_ADDR);
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: ServerArgs) -> io::Result<()> {
    if args.smoke {
        return smoke::run().await;
    }
    server::until_ctrl_c("echo", &args.addr, serve).await
}

/// Echoes on every connection until `shutdown` turns true, then drains
/// them.
async fn serve(listener: TcpListener, shutdown: watch::Receiver<bool>) -> Drained {
    server::serve("echo", listener, shutdown, |stream, _peer| echo(stream)).await
}

/// Copies everything the peer sends back to it until the peer closes.
async fn echo(mut stream: TcpStream) {
    let mut buf = vec![0u8; 4096];
    loop {
        let n = match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if stream.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}
