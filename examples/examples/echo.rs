//! A TCP echo server with graceful shutdown.
//!
//! Every connection gets its own task that writes back whatever it reads.
//! When the shutdown signal fires, the server stops accepting, gives the open
//! connections a grace period to finish on their own, then aborts whatever is
//! left.
//!
//! `cargo run -p examples --example echo -- --addr 127.0.0.1:7000` serves
//! until killed (try `nc 127.0.0.1 7000`); `--smoke` binds a free port,
//! drives the server with in-process clients, shuts it down and exits.

use examples::cli::{exit_if_stuck, ServerArgs};
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::{oneshot, watch};
use rt::task::JoinSet;
use std::io;
use std::time::{Duration, Instant};

const DEFAULT_ADDR: &str = "127.0.0.1:7000";
/// How long open connections may keep going after shutdown starts.
const GRACE: Duration = Duration::from_secs(5);

#[rt::main]
async fn main() -> io::Result<()> {
    let args = ServerArgs::parse("echo", DEFAULT_ADDR);
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: ServerArgs) -> io::Result<()> {
    if args.smoke {
        return smoke().await;
    }
    let listener = TcpListener::bind(&args.addr).await?;
    println!("echo: listening on {}", listener.local_addr()?);
    // Whoever owns `shutdown_tx` (a Ctrl-C handler, a test) stops the server
    // by sending `true`.
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let served = serve(listener, shutdown_rx).await;
    drop(shutdown_tx);
    served
}

/// Accepts connections until `shutdown` turns true, then drains them.
async fn serve(listener: TcpListener, mut shutdown: watch::Receiver<bool>) -> io::Result<()> {
    let mut connections = JoinSet::new();
    loop {
        rt::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    connections.spawn(echo(stream));
                }
                // Running out of descriptors is not a reason to stop serving
                // the connections we already have.
                Err(e) => eprintln!("echo: accept failed: {e}"),
            },
            // Reap finished connections so the set does not grow forever.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            // Only `true` is ever sent. An error means the sender is gone;
            // stop then too rather than serve with nobody able to stop us.
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
                eprintln!("echo: aborting {} connection(s) after the grace period", connections.len());
                connections.shutdown().await;
                return Ok(());
            }
        }
    }
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

/// Self-check: 32 clients each echo 64 messages, then one client stays
/// connected across the shutdown and must still get its bytes back.
async fn smoke() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(10));
    let started = Instant::now();
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(serve(listener, shutdown_rx));

    let mut clients = JoinSet::new();
    for id in 0..32 {
        clients.spawn(async move {
            let mut stream = TcpStream::connect(addr).await?;
            let mut back = vec![0u8; 64];
            for n in 0..64 {
                // Pad to a fixed 64 bytes so the reply length is known.
                let msg = format!("{:<64}", format!("client {id} message {n}"));
                let msg = msg.as_bytes();
                stream.write_all(msg).await?;
                stream.read_exact(&mut back).await?;
                if back != msg {
                    return Err(io::Error::other("echoed bytes differ"));
                }
            }
            io::Result::Ok(64 * 64)
        });
    }
    let mut bytes = 0;
    while let Some(done) = clients.join_next().await {
        bytes += done.map_err(io::Error::other)??;
    }

    // A connection open when shutdown starts may finish its exchange.
    let mut lingering = TcpStream::connect(addr).await?;
    lingering.write_all(b"ping").await?;
    let mut back = [0u8; 4];
    lingering.read_exact(&mut back).await?;
    shutdown_tx.send_replace(true);
    lingering.write_all(b"last").await?;
    lingering.read_exact(&mut back).await?;
    if &back != b"last" {
        return Err(io::Error::other("lingering connection lost its echo"));
    }
    drop(lingering);
    server.await.map_err(io::Error::other)??;

    println!(
        "echo smoke: 32 clients echoed {bytes} bytes, drained on shutdown, in {:.1?}",
        started.elapsed()
    );
    Ok(())
}
