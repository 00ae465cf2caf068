//! `echo --smoke`: in-process clients against the server on a free port,
//! then the real mode stopped by a real `SIGINT`.

use examples::cli::exit_if_stuck;
use examples::real_mode::{exchange, expect_closed, RealServer};
use rt::io::AsyncWriteExt;
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use rt::task::JoinSet;
use std::io;
use std::time::{Duration, Instant};

/// Runs every check; any failure is an error.
pub async fn run() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(20));
    let started = Instant::now();
    let bytes = in_process().await?;
    ctrl_c().await?;
    println!(
        "echo smoke: 32 clients echoed {bytes} bytes, drained on shutdown; Ctrl-C drained the \
         real server, which exited 0; in {:.1?}",
        started.elapsed()
    );
    Ok(())
}

/// 32 clients each echo 64 messages, then one client stays connected
/// across the shutdown and must still get its bytes back.
async fn in_process() -> io::Result<usize> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(super::serve(listener, shutdown_rx));

    let mut clients = JoinSet::new();
    for id in 0..32 {
        clients.spawn(async move {
            let mut stream = TcpStream::connect(addr).await?;
            for n in 0..64 {
                // Pad to a fixed 64 bytes so the reply length is known.
                let msg = format!("{:<64}", format!("client {id} message {n}"));
                exchange(&mut stream, msg.as_bytes(), msg.as_bytes()).await?;
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
    exchange(&mut lingering, b"ping", b"ping").await?;
    shutdown_tx.send_replace(true);
    exchange(&mut lingering, b"last", b"last").await?;
    drop(lingering);
    let drained = server.await.map_err(io::Error::other)?;
    if drained.aborted != 0 {
        return Err(io::Error::other(format!("in-process shutdown: {drained}")));
    }
    Ok(bytes)
}

/// The real server: a connection open across Ctrl-C keeps its echo until
/// it closes, and then the server exits with status 0.
async fn ctrl_c() -> io::Result<()> {
    let mut server = RealServer::start("echo", &[]).await?;
    let mut stream = TcpStream::connect(server.addr()).await?;
    exchange(&mut stream, b"before", b"before").await?;
    server.interrupt(1).await?;
    exchange(&mut stream, b"after", b"after").await?;
    // Hanging up ends the connection's task; the echo side closes too.
    stream.shutdown().await?;
    expect_closed(&mut stream).await?;
    server.stopped(1).await
}
