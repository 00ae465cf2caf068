//! A line-based chat server.
//!
//! A client's first line is its name; every later line goes to everyone as
//! `name: text`. Lines travel through one `broadcast` channel, whose ring
//! buffer is each client's bounded queue: a client that falls more than
//! `QUEUE` lines behind (because it stopped reading) is told so and
//! disconnected, and nobody else ever waits for it.
//!
//! `cargo run -p examples --example chat -- --addr 127.0.0.1:7001` serves
//! until killed (try two `nc 127.0.0.1 7001`); `--smoke` binds a free port,
//! runs in-process clients against it, shuts it down and exits.

use rt::codec::{FramedRead, LinesCodec};
use rt::io::AsyncWriteExt;
use rt::net::{TcpListener, TcpStream};
use rt::stream::StreamExt;
use rt::sync::{broadcast, watch, Barrier};
use rt::task::JoinSet;
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

const DEFAULT_ADDR: &str = "127.0.0.1:7001";
/// How many lines a client may fall behind before it is dropped.
const QUEUE: usize = 1024;
/// Longest accepted line, so one client cannot make us buffer without bound.
const MAX_LINE: usize = 1024;

/// One chat line, shared by every client that receives it.
type Line = Arc<str>;

#[rt::main]
async fn main() -> io::Result<()> {
    let args = Args::parse();
    if args.smoke {
        return smoke().await;
    }
    let listener = TcpListener::bind(&args.addr).await?;
    println!("chat: listening on {}", listener.local_addr()?);
    // Whoever owns `shutdown_tx` stops the server by sending `true`.
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let served = serve(listener, shutdown_rx).await;
    drop(shutdown_tx);
    served
}

/// Accepts clients until `shutdown` turns true, then waits for each client
/// task to say goodbye and close.
async fn serve(listener: TcpListener, mut shutdown: watch::Receiver<bool>) -> io::Result<()> {
    let (room, _) = broadcast::channel::<Line>(QUEUE);
    let mut clients = JoinSet::new();
    loop {
        rt::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    clients.spawn(client(stream, room.clone(), shutdown.clone()));
                }
                Err(e) => eprintln!("chat: accept failed: {e}"),
            },
            Some(_) = clients.join_next(), if !clients.is_empty() => {}
            _ = shutdown.changed() => break,
        }
    }
    drop(listener);
    while clients.join_next().await.is_some() {}
    Ok(())
}

/// Serves one client: reads its name, then relays lines both ways until
/// it leaves, lags too far behind, or the server shuts down.
async fn client(
    stream: TcpStream,
    room: broadcast::Sender<Line>,
    mut shutdown: watch::Receiver<bool>,
) {
    let (reader, mut writer) = stream.into_split();
    let mut lines = FramedRead::new(reader, LinesCodec::new_with_max_length(MAX_LINE));

    let name = match lines.next().await {
        Some(Ok(name)) if !name.trim().is_empty() => name.trim().to_owned(),
        _ => return,
    };
    // Subscribe before greeting, so everything said after the greeting
    // reaches this client.
    let mut inbox = room.subscribe();
    if writer
        .write_all(format!("*** welcome {name}\n").as_bytes())
        .await
        .is_err()
    {
        return;
    }
    let _ = room.send(format!("*** {name} joined").into());

    let farewell = loop {
        rt::select! {
            line = lines.next() => match line {
                Some(Ok(text)) => {
                    let _ = room.send(format!("{name}: {text}").into());
                }
                Some(Err(e)) => break format!("*** {name} dropped: {e}"),
                None => break format!("*** {name} left"),
            },
            heard = inbox.recv() => match heard {
                Ok(line) => {
                    let mut out = Vec::with_capacity(line.len() + 1);
                    out.extend_from_slice(line.as_bytes());
                    out.push(b'\n');
                    if writer.write_all(&out).await.is_err() {
                        break format!("*** {name} left");
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    let _ = writer
                        .write_all(format!("*** too slow: missed {missed} lines, disconnecting\n").as_bytes())
                        .await;
                    break format!("*** {name} dropped for being too slow");
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = shutdown.changed() => {
                let _ = writer.write_all(b"*** server shutting down\n").await;
                return;
            }
        }
    };
    let _ = room.send(farewell.into());
}

/// Self-check: `CLIENTS` clients join, each says `SAYS` lines, and every
/// client must hear every line; then the server shuts down and each
/// client must get the goodbye.
async fn smoke() -> io::Result<()> {
    const CLIENTS: usize = 16;
    const SAYS: usize = 50;
    exit_if_stuck(Duration::from_secs(10));
    let started = Instant::now();
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(serve(listener, shutdown_rx));

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
            while heard < CLIENTS * SAYS {
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
    server.await.map_err(io::Error::other)??;

    println!(
        "chat smoke: {CLIENTS} clients said {} lines, {heard} deliveries, clean shutdown, in {:.1?}",
        CLIENTS * SAYS,
        started.elapsed()
    );
    Ok(())
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

/// Ends the process with an error if the self-check hangs.
fn exit_if_stuck(limit: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        eprintln!("smoke: not finished after {limit:?}");
        std::process::exit(1);
    });
}

/// Command-line options shared by the network examples.
struct Args {
    smoke: bool,
    addr: String,
}

impl Args {
    fn parse() -> Args {
        let mut args = Args {
            smoke: false,
            addr: DEFAULT_ADDR.to_owned(),
        };
        let mut argv = std::env::args().skip(1);
        while let Some(arg) = argv.next() {
            match arg.as_str() {
                "--smoke" => args.smoke = true,
                "--addr" => match argv.next() {
                    Some(addr) => args.addr = addr,
                    None => usage("--addr needs HOST:PORT"),
                },
                other => usage(&format!("unknown argument {other:?}")),
            }
        }
        args
    }
}

fn usage(problem: &str) -> ! {
    eprintln!("{problem}\nusage: chat [--smoke] [--addr HOST:PORT]");
    std::process::exit(2);
}
