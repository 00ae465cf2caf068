//! A line-based chat server.
//!
//! A client's first line is its name; every later line goes to everyone as
//! `name: text`. Each client has its own bounded queue of lines waiting to
//! be written to it. The room never waits for a queue: when a client's
//! queue is full (it stopped reading), the client is dropped, so one slow
//! reader cannot slow everyone else down or make the server buffer without
//! bound. On Ctrl-C every client is told the server is shutting down and
//! disconnected; one that has not even sent its name yet gets the grace
//! period, then is aborted.
//!
//! `cargo run -p examples --example chat -- --addr 127.0.0.1:7001` serves
//! until Ctrl-C (try two `nc 127.0.0.1 7001`); `--smoke` runs in-process
//! clients against it on a free port, then runs itself for real and stops
//! that with a real `SIGINT`, and exits.

mod smoke;

use examples::cli::ServerArgs;
use examples::server::{self, Drained};
use rt::codec::{FramedRead, LinesCodec};
use rt::io::AsyncWriteExt;
use rt::net::tcp::OwnedWriteHalf;
use rt::net::{TcpListener, TcpStream};
use rt::stream::StreamExt;
use rt::sync::{mpsc, watch, Notify};
use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

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
        return smoke::run().await;
    }
    server::until_ctrl_c("chat", &args.addr, serve).await
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

/// Runs the room until `shutdown` turns true; each client task then says
/// goodbye and closes.
async fn serve(listener: TcpListener, shutdown: watch::Receiver<bool>) -> Drained {
    let room = Arc::new(Room::default());
    let mut next_id = 0;
    let watch_shutdown = shutdown.clone();
    server::serve("chat", listener, shutdown, move |stream, _peer| {
        next_id += 1;
        client(stream, next_id, room.clone(), watch_shutdown.clone())
    })
    .await
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
