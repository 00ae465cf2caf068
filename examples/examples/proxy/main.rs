//! A TCP proxy: every accepted connection is joined to a new connection to
//! the backend, and `copy_bidirectional` moves bytes both ways until both
//! sides are done (a half-close on one side is passed on to the other).
//!
//! On Ctrl-C the proxy stops accepting, lets the open connections finish
//! for a grace period, then aborts the rest.
//!
//! `cargo run -p examples --example proxy -- --addr 127.0.0.1:7100 --to
//! 127.0.0.1:7000` forwards to the echo example until Ctrl-C; `--smoke`
//! starts its own echo backend, proxies to it and checks the bytes, then
//! runs itself for real and stops that with a real `SIGINT`.

mod smoke;

use examples::server::{self, Drained};
use rt::io;
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;

const DEFAULT_ADDR: &str = "127.0.0.1:7100";
const DEFAULT_BACKEND: &str = "127.0.0.1:7000";

#[rt::main]
async fn main() -> io::Result<()> {
    let args = Args::parse();
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: Args) -> io::Result<()> {
    if args.smoke {
        return smoke::run().await;
    }
    println!("proxy: forwarding to {}", args.backend);
    let backend = args.backend;
    server::until_ctrl_c("proxy", &args.addr, |listener, shutdown| {
        serve(listener, backend, shutdown)
    })
    .await
}

/// Forwards every connection to `backend` until `shutdown` turns true,
/// then drains them.
async fn serve(listener: TcpListener, backend: String, shutdown: watch::Receiver<bool>) -> Drained {
    server::serve("proxy", listener, shutdown, move |inbound, peer| {
        let backend = backend.clone();
        async move {
            if let Err(e) = forward(inbound, &backend).await {
                eprintln!("proxy: {peer}: {e}");
            }
        }
    })
    .await
}

/// Connects to `backend` and copies both ways until both directions end.
async fn forward(mut inbound: TcpStream, backend: &str) -> io::Result<(u64, u64)> {
    let mut outbound = TcpStream::connect(backend).await?;
    io::copy_bidirectional(&mut inbound, &mut outbound).await
}

/// Command-line options.
struct Args {
    smoke: bool,
    addr: String,
    backend: String,
}

impl Args {
    fn parse() -> Args {
        let mut args = Args {
            smoke: false,
            addr: DEFAULT_ADDR.to_owned(),
            backend: DEFAULT_BACKEND.to_owned(),
        };
        let mut argv = std::env::args().skip(1);
        while let Some(arg) = argv.next() {
            match arg.as_str() {
                "--smoke" => args.smoke = true,
                "--addr" | "--to" => match argv.next() {
                    Some(addr) if arg == "--addr" => args.addr = addr,
                    Some(addr) => args.backend = addr,
                    None => usage(&format!("{arg} needs HOST:PORT")),
                },
                other => usage(&format!("unknown argument {other:?}")),
            }
        }
        args
    }
}

fn usage(problem: &str) -> ! {
    eprintln!("{problem}\nusage: proxy [--smoke] [--addr HOST:PORT] [--to BACKEND:PORT]");
    std::process::exit(2);
}
