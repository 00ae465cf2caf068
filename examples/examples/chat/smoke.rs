//! `chat --smoke`: in-process clients against the server on a free port
//! (every line reaches everyone, a client that stops reading is dropped,
//! everyone gets the goodbye), then the real mode stopped by a real
//! `SIGINT`.

use super::MAX_LINE;
use examples::cli::exit_if_stuck;
use examples::real_mode::{exchange, expect_closed, RealServer};
use rt::codec::{FramedRead, LinesCodec};
use rt::io::AsyncWriteExt;
use rt::net::{TcpListener, TcpSocket, TcpStream};
use rt::stream::StreamExt;
use rt::sync::{watch, Barrier};
use rt::task::JoinSet;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs every check; any failure is an error.
pub async fn run() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(20));
    let started = Instant::now();
    let (heard, talked) = in_process().await?;
    ctrl_c().await?;
    println!(
        "chat smoke: {CLIENTS} clients said {} lines, {heard} deliveries; a client that stopped \
         reading was dropped ({talked} lines sent meanwhile); clean shutdown; Ctrl-C drained \
         the real server, which exited 0; in {:.1?}",
        CLIENTS * SAYS,
        started.elapsed()
    );
    Ok(())
}

/// Clients in the in-process check.
const CLIENTS: usize = 16;
/// Lines each of them says.
const SAYS: usize = 50;

/// `CLIENTS` clients join, each says `SAYS` lines, and every client must
/// hear every line; then the server shuts down and each client must get
/// the goodbye. Returns the deliveries and how many lines the talker of
/// [`slow_client_is_dropped`] needed.
async fn in_process() -> io::Result<(usize, usize)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(super::serve(listener, shutdown_rx));

    let talked = slow_client_is_dropped(addr).await?;

    let everyone_joined = Arc::new(Barrier::new(CLIENTS));
    let everyone_heard = Arc::new(Barrier::new(CLIENTS + 1));
    let mut clients = JoinSet::new();
    for id in 0..CLIENTS {
        let everyone_joined = everyone_joined.clone();
        let everyone_heard = everyone_heard.clone();
        clients.spawn(async move {
            let (reader, mut writer) = TcpStream::connect(addr).await?.into_split();
            let mut lines = FramedRead::new(reader, LinesCodec::new_with_max_length(MAX_LINE));
            writer.write_all(format!("user{id}\n").as_bytes()).await?;
            expect_line(&mut lines, |l| l == format!("*** welcome user{id}")).await?;
            everyone_joined.wait().await;

            for n in 0..SAYS {
                writer.write_all(format!("line {n}\n").as_bytes()).await?;
            }
            let mut heard = 0;
            // Everyone hears everyone else's lines, not their own.
            while heard < (CLIENTS - 1) * SAYS {
                let line = next_line(&mut lines).await?;
                if !line.starts_with("***") {
                    heard += 1;
                }
            }
            everyone_heard.wait().await;
            expect_line(&mut lines, |l| l == "*** server shutting down").await?;
            io::Result::Ok(heard)
        });
    }
    everyone_heard.wait().await;
    shutdown_tx.send_replace(true);
    let mut heard = 0;
    while let Some(done) = clients.join_next().await {
        heard += done.map_err(io::Error::other)??;
    }
    let drained = server.await.map_err(io::Error::other)?;
    if drained.aborted != 0 {
        return Err(io::Error::other(format!("in-process shutdown: {drained}")));
    }
    Ok((heard, talked))
}

/// The real server: a member present at Ctrl-C is told the server is
/// shutting down and disconnected, and the server exits with status 0.
async fn ctrl_c() -> io::Result<()> {
    let mut server = RealServer::start("chat", &[]).await?;
    let mut stream = TcpStream::connect(server.addr()).await?;
    // Everyone hears of a new member, the new member too.
    exchange(
        &mut stream,
        b"alice\n",
        b"*** welcome alice\n*** alice joined\n",
    )
    .await?;
    server.interrupt(1).await?;
    exchange(&mut stream, b"", b"*** server shutting down\n").await?;
    expect_closed(&mut stream).await?;
    server.stopped(1).await
}

/// A client that stops reading is dropped while another keeps talking,
/// and the talker is told. Returns how many lines the talker needed.
async fn slow_client_is_dropped(addr: std::net::SocketAddr) -> io::Result<usize> {
    // A small receive buffer, so the kernel absorbs little on the slow
    // client's behalf and its queue on the server fills sooner.
    let socket = TcpSocket::new_v4()?;
    socket.set_recv_buffer_size(4096)?;
    let (slow_reader, mut slow_writer) = socket.connect(addr).await?.into_split();
    let mut slow_lines = FramedRead::new(slow_reader, LinesCodec::new_with_max_length(MAX_LINE));
    slow_writer.write_all(b"slowpoke\n").await?;
    expect_line(&mut slow_lines, |l| l == "*** welcome slowpoke").await?;
    // From here on `slow_lines` is never read.

    let (reader, mut writer) = TcpStream::connect(addr).await?.into_split();
    let mut lines = FramedRead::new(reader, LinesCodec::new_with_max_length(MAX_LINE));
    writer.write_all(b"talker\n").await?;
    expect_line(&mut lines, |l| l == "*** welcome talker").await?;

    let dropped = AtomicBool::new(false);
    let line = format!("{}\n", "x".repeat(MAX_LINE - 1));
    let talk = async {
        let mut said = 0;
        while !dropped.load(Ordering::Relaxed) {
            if said == 100_000 {
                return Err(io::Error::other("the slow client was never dropped"));
            }
            writer.write_all(line.as_bytes()).await?;
            said += 1;
        }
        Ok(said)
    };
    let listen = async {
        expect_line(&mut lines, |l| {
            l == "*** slowpoke dropped for being too slow"
        })
        .await?;
        dropped.store(true, Ordering::Relaxed);
        io::Result::Ok(())
    };
    let (said, heard) = rt::join!(talk, listen);
    heard?;
    drop(slow_lines);
    // Hang up, then wait for the server to close our connection: by then
    // it has relayed every line we sent, and none of them can reach the
    // clients of the next check.
    drop(writer);
    while lines.next().await.is_some() {}
    said
}

type ClientLines = FramedRead<rt::net::tcp::OwnedReadHalf, LinesCodec>;

async fn next_line(lines: &mut ClientLines) -> io::Result<String> {
    match lines.next().await {
        Some(Ok(line)) => Ok(line),
        Some(Err(e)) => Err(io::Error::other(e)),
        None => Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "server closed",
        )),
    }
}

/// Skips lines until one matches `wanted`.
async fn expect_line(lines: &mut ClientLines, wanted: impl Fn(&str) -> bool) -> io::Result<()> {
    loop {
        if wanted(&next_line(lines).await?) {
            return Ok(());
        }
    }
}
