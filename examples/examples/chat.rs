//! A line-based chat server.
//!
//! A client's first line is its name; every later line goes to everyone as
//! `name: text`. Each client has its own bounded queue of lines waiting to
//! be written to it. The room never waits for a queue: when a client's
//! queue is full (it stopped reading), the client is dropped, so one slow
//! reader cannot slow everyone else down or make the server buffer without
//! bound.
//!
//! `cargo run -p examples --example chat -- --addr 127.0.0.1:7001` serves
//! until killed (try two `nc 127.0.0.1 7001`); `--smoke` binds a free port,
//! runs in-process clients against it, shuts it down and exits.

use examples::cli::{exit_if_stuck, ServerArgs};
use rt::codec::{FramedRead, LinesCodec};
use rt::io::AsyncWriteExt;
use rt::net::tcp::OwnedWriteHalf;
use rt::net::{TcpListener, TcpSocket, TcpStream};
use rt::stream::StreamExt;
use rt::sync::{mpsc, watch, Barrier, Notify};
use rt::task::JoinSet;
use std::collections::HashMap;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const DEFAULT_ADDR: &str = "127.0.0.1:7001";
/// How many lines may wait for one client before it is dropped.
const QUEUE: usize = 1024;
/// Longest accepted line, so one client cannot make us buffer without bound.
const MAX_LINE: usize = 1024;

/// One chat line, shared by every client that receives it.
type Line = Arc<str>;
/// The sender of announcements: no client has this id.
const NOBODY: u64 = 0;

#[rt::main]
async fn main() -> io::Result<()> {
    let args = ServerArgs::parse("chat", DEFAULT_ADDR);
    // The program runs as a spawned task on the runtime's worker threads;
    // `main` only waits for it.
    rt::spawn(run(args)).await.map_err(io::Error::other)?
}

async fn run(args: ServerArgs) -> io::Result<()> {
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

/// The members of the chat and their queues.
#[derive(Default)]
struct Room {
    members: Mutex<HashMap<u64, Member>>,
}

struct Member {
    queue: mpsc::Sender<Line>,
    /// Told when the member is dropped for being too slow.
    evicted: Arc<Notify>,
}

impl Room {
    fn join(&self, id: u64, queue: mpsc::Sender<Line>, evicted: Arc<Notify>) {
        let member = Member { queue, evicted };
        self.lock().insert(id, member);
    }

    fn leave(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Queues `line` for every member except `from` (who said it),
    /// dropping members whose queue is full; their own tasks then announce
    /// that they were dropped. Announcements come from [`NOBODY`].
    fn say(&self, from: u64, line: impl Into<Line>) {
        let line = line.into();
        self.lock().retain(|&id, member| {
            if id == from {
                return true;
            }
            match member.queue.try_send(line.clone()) {
                Ok(()) => true,
                Err(mpsc::error::TrySendError::Full(_)) => {
                    member.evicted.notify_one();
                    false
                }
                Err(mpsc::error::TrySendError::Closed(_)) => false,
            }
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Member>> {
        // No update leaves the map inconsistent, so a poisoned lock is fine.
        self.members
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Accepts clients until `shutdown` turns true, then waits for each client
/// task to say goodbye and close.
async fn serve(listener: TcpListener, mut shutdown: watch::Receiver<bool>) -> io::Result<()> {
    let room = Arc::new(Room::default());
    let mut clients = JoinSet::new();
    let mut next_id = 0;
    loop {
        rt::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    next_id += 1;
                    clients.spawn(client(stream, next_id, room.clone(), shutdown.clone()));
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

/// Serves one client: reads its name, then relays lines both ways until it
/// leaves, falls too far behind, or the server shuts down.
async fn client(stream: TcpStream, id: u64, room: Arc<Room>, mut shutdown: watch::Receiver<bool>) {
    let (reader, mut writer) = stream.into_split();
    let mut lines = FramedRead::new(reader, LinesCodec::new_with_max_length(MAX_LINE));
    let name = match lines.next().await {
        Some(Ok(name)) if !name.trim().is_empty() => name.trim().to_owned(),
        _ => return,
    };
    let (queue, mut inbox) = mpsc::channel::<Line>(QUEUE);
    let evicted = Arc::new(Notify::new());
    // Join before the greeting, so everything said after it reaches us.
    room.join(id, queue, evicted.clone());
    if writer
        .write_all(format!("*** welcome {name}\n").as_bytes())
        .await
        .is_err()
    {
        room.leave(id);
        return;
    }
    room.say(NOBODY, format!("*** {name} joined"));

    // Reading and writing run side by side in this task; whichever ends
    // first ends the client.
    let read_side = async {
        loop {
            match lines.next().await {
                Some(Ok(text)) => room.say(id, format!("{name}: {text}")),
                Some(Err(e)) => break format!("*** {name} dropped: {e}"),
                None => break format!("*** {name} left"),
            }
        }
    };
    let write_side = async {
        while let Some(line) = inbox.recv().await {
            if write_line(&mut writer, &line).await.is_err() {
                break;
            }
        }
        format!("*** {name} left")
    };
    let farewell = rt::select! {
        farewell = read_side => farewell,
        farewell = write_side => farewell,
        _ = evicted.notified() => format!("*** {name} dropped for being too slow"),
        _ = shutdown.changed() => {
            // Best effort and without waiting: a stuck client must not
            // hold up the shutdown.
            let _ = writer.try_write(b"*** server shutting down\n");
            room.leave(id);
            return;
        }
    };
    room.leave(id);
    room.say(NOBODY, farewell);
}

async fn write_line(writer: &mut OwnedWriteHalf, line: &str) -> io::Result<()> {
    let mut out = Vec::with_capacity(line.len() + 1);
    out.extend_from_slice(line.as_bytes());
    out.push(b'\n');
    writer.write_all(&out).await
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
    server.await.map_err(io::Error::other)??;

    println!(
        "chat smoke: {CLIENTS} clients said {} lines, {heard} deliveries; a client that stopped \
         reading was dropped ({talked} lines sent meanwhile); clean shutdown; in {:.1?}",
        CLIENTS * SAYS,
        started.elapsed()
    );
    Ok(())
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
