//! `proxy --smoke`: its own echo backend, clients sending payloads of
//! several sizes through the proxy on a free port, then the real mode
//! stopped by a real `SIGINT`.

use examples::cli::exit_if_stuck;
use examples::real_mode::{exchange, expect_closed, RealServer};
use rt::io::{self, AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use rt::task::JoinSet;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

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

/// Runs every check; any failure is an error.
pub async fn run() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(20));
    let started = Instant::now();
    let backend = TcpListener::bind("127.0.0.1:0").await?;
    let backend_addr = backend.local_addr()?;
    let backend_task = rt::spawn(echo_backend(backend));
    let (connections, bytes) = in_process(backend_addr).await?;
    ctrl_c(backend_addr).await?;
    backend_task.abort();
    println!(
        "proxy smoke: {connections} connections carried {bytes} bytes each way, intact; Ctrl-C \
         drained the real proxy, which exited 0; in {:.1?}",
        started.elapsed()
    );
    Ok(())
}

/// Clients send payloads of several sizes through the proxy to the echo
/// backend at `backend_addr`, half-close, and must read exactly their
/// bytes back. Returns the connections made and the bytes they carried.
async fn in_process(backend_addr: SocketAddr) -> io::Result<(usize, usize)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let proxy_addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let proxy = rt::spawn(super::serve(
        listener,
        backend_addr.to_string(),
        shutdown_rx,
    ));

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
    let drained = proxy.await.map_err(io::Error::other)?;
    if drained.aborted != 0 {
        return Err(io::Error::other(format!("in-process shutdown: {drained}")));
    }
    Ok((4 * sizes.len(), bytes))
}

/// The real proxy: a connection open across Ctrl-C still carries bytes
/// both ways until the client half-closes, and then the proxy exits with
/// status 0.
async fn ctrl_c(backend_addr: SocketAddr) -> io::Result<()> {
    let backend = backend_addr.to_string();
    let mut proxy = RealServer::start("proxy", &["--to", &backend]).await?;
    let mut stream = TcpStream::connect(proxy.addr()).await?;
    exchange(&mut stream, b"before", b"before").await?;
    proxy.interrupt(1).await?;
    exchange(&mut stream, b"after", b"after").await?;
    stream.shutdown().await?;
    expect_closed(&mut stream).await?;
    proxy.stopped(1).await
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
