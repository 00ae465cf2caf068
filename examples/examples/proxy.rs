//! A TCP proxy: every accepted connection is joined to a new connection to
//! the backend, and `copy_bidirectional` moves bytes both ways until both
//! sides are done (a half-close on one side is passed on to the other).
//!
//! `cargo run -p examples --example proxy -- --addr 127.0.0.1:7100 --to
//! 127.0.0.1:7000` forwards to the echo example until killed; `--smoke`
//! starts its own echo backend, proxies to it and checks the bytes.

use examples::cli::exit_if_stuck;
use rt::io::{self, AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::{oneshot, watch};
use rt::task::JoinSet;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const DEFAULT_ADDR: &str = "127.0.0.1:7100";
const DEFAULT_BACKEND: &str = "127.0.0.1:7000";
/// How long proxied connections may keep going after shutdown starts.
const GRACE: Duration = Duration::from_secs(5);

#[rt::main]
async fn main() -> io::Result<()> {
    let args = Args::parse();
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: Args) -> io::Result<()> {
    if args.smoke {
        return smoke().await;
    }
    let listener = TcpListener::bind(&args.addr).await?;
    println!("proxy: {} -> {}", listener.local_addr()?, args.backend);
    // Whoever owns `shutdown_tx` stops the proxy by sending `true`.
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let served = serve(listener, args.backend, shutdown_rx).await;
    drop(shutdown_tx);
    served
}

/// Accepts connections until `shutdown` turns true, then lets the open
/// ones finish for up to [`GRACE`].
async fn serve(
    listener: TcpListener,
    backend: String,
    mut shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let mut connections = JoinSet::new();
    loop {
        rt::select! {
            accepted = listener.accept() => match accepted {
                Ok((inbound, peer)) => {
                    let backend = backend.clone();
                    connections.spawn(async move {
                        if let Err(e) = forward(inbound, &backend).await {
                            eprintln!("proxy: {peer}: {e}");
                        }
                    });
                }
                Err(e) => eprintln!("proxy: accept failed: {e}"),
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            _ = shutdown.changed() => break,
        }
    }
    drop(listener);

    let mut deadline = deadline_after(GRACE);
    loop {
        rt::select! {
            finished = connections.join_next() => {
                if finished.is_none() {
                    return Ok(());
                }
            }
            _ = &mut deadline => {
                eprintln!("proxy: closing {} connection(s) after the grace period", connections.len());
                connections.shutdown().await;
                return Ok(());
            }
        }
    }
}

/// Connects to `backend` and copies both ways until both directions end.
async fn forward(mut inbound: TcpStream, backend: &str) -> io::Result<(u64, u64)> {
    let mut outbound = TcpStream::connect(backend).await?;
    io::copy_bidirectional(&mut inbound, &mut outbound).await
}

/// A future that completes once `after` has passed. A plain thread does the
/// waiting, so the runtime needs no timer and shutdown never waits on it.
fn deadline_after(after: Duration) -> oneshot::Receiver<()> {
    let (tx, rx) = oneshot::channel();
    std::thread::spawn(move || {
        std::thread::sleep(after);
        let _ = tx.send(());
    });
    rx
}

/// An echo server for the self-check: each connection's bytes go back
/// until the client half-closes, then the reply side closes too.
async fn echo_backend(listener: TcpListener) {
    while let Ok((stream, _)) = listener.accept().await {
        rt::spawn(async move {
            let (mut reader, mut writer) = stream.into_split();
            let _ = io::copy(&mut reader, &mut writer).await;
            let _ = writer.shutdown().await;
        });
    }
}

/// Self-check: clients send payloads of several sizes through the proxy
/// to an echo backend, half-close, and must read exactly their bytes back.
async fn smoke() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(10));
    let started = Instant::now();
    let backend = TcpListener::bind("127.0.0.1:0").await?;
    let backend_addr = backend.local_addr()?;
    let backend_task = rt::spawn(echo_backend(backend));

    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let proxy_addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let proxy = rt::spawn(serve(listener, backend_addr.to_string(), shutdown_rx));

    let sizes = [0usize, 1, 1000, 64 * 1024, 1024 * 1024];
    let mut clients = JoinSet::new();
    for round in 0..4 {
        for (i, &size) in sizes.iter().enumerate() {
            clients.spawn(round_trip(
                proxy_addr,
                size,
                (round * sizes.len() + i) as u8,
            ));
        }
    }
    let mut bytes = 0;
    while let Some(done) = clients.join_next().await {
        bytes += done.map_err(io::Error::other)??;
    }

    shutdown_tx.send_replace(true);
    proxy.await.map_err(io::Error::other)??;
    backend_task.abort();
    println!(
        "proxy smoke: {} connections carried {bytes} bytes each way, intact, in {:.1?}",
        4 * sizes.len(),
        started.elapsed()
    );
    Ok(())
}

/// Sends `size` bytes through the proxy while reading the echo, then
/// half-closes and checks that exactly the same bytes came back.
async fn round_trip(proxy: SocketAddr, size: usize, seed: u8) -> io::Result<usize> {
    let payload: Vec<u8> = (0..size)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect();
    let (mut reader, mut writer) = TcpStream::connect(proxy).await?.into_split();
    let send = async {
        writer.write_all(&payload).await?;
        writer.shutdown().await
    };
    let receive = async {
        let mut back = Vec::with_capacity(size);
        reader.read_to_end(&mut back).await?;
        io::Result::Ok(back)
    };
    let (sent, back) = rt::join!(send, receive);
    sent?;
    if back? != payload {
        return Err(io::Error::other(format!(
            "{size}-byte payload came back changed"
        )));
    }
    Ok(size)
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
