//! A line-based chat server over TCP on a multi-thread runtime: every
//! client gets every other client's lines, in order; a client that sends
//! an over-long line is disconnected, and a peer that resets in the middle
//! of a line ends only its own connection, while the others carry on.
#![cfg(feature = "net")]

use futures_core::Stream;
use rt_codec::{Framed, LinesCodec, LinesCodecError, SinkExt};
use rt_core::runtime::{Builder, Runtime};
use rt_io::io::AsyncWriteExt;
use rt_io::net::{TcpListener, TcpStream};
use rt_stream::StreamExt;
use rt_sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use rt_sync::Barrier;
use std::collections::HashMap;
use std::future::{poll_fn, Future};
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

const CLIENTS: usize = 100;
const LINES_PER_CLIENT: usize = 10;
/// The server's line limit.
const MAX_LINE: usize = 64;
/// What the server says first, once the connection is registered.
const WELCOME: &str = "welcome";

fn runtime() -> Runtime {
    Builder::new_multi_thread()
        .worker_threads(2)
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .unwrap()
}

// ---- the server ----

/// How a connection ended, as the server saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// The client hung up between lines.
    Closed,
    /// The client sent a line over `MAX_LINE` and was disconnected.
    LineTooLong,
    /// Reading or writing failed.
    Io(io::ErrorKind),
}

impl From<LinesCodecError> for Ending {
    fn from(e: LinesCodecError) -> Ending {
        match e {
            LinesCodecError::MaxLineLengthExceeded => Ending::LineTooLong,
            LinesCodecError::Io(e) => Ending::Io(e.kind()),
        }
    }
}

/// The outbox of every connected client, by connection number.
type Peers = Arc<Mutex<HashMap<usize, UnboundedSender<Arc<str>>>>>;

/// Accepts `connections` clients, serves them all, and returns how each
/// connection ended, in the order they were accepted.
async fn serve(listener: TcpListener, connections: usize) -> Vec<Ending> {
    let peers = Peers::default();
    let mut served = Vec::with_capacity(connections);
    for id in 0..connections {
        let (stream, _) = listener.accept().await.unwrap();
        served.push(rt_core::spawn(serve_one(id, stream, peers.clone())));
    }
    let mut endings = Vec::with_capacity(connections);
    for connection in served {
        endings.push(connection.await.expect("a connection task panicked"));
    }
    assert!(peers.lock().unwrap().is_empty());
    endings
}

async fn serve_one(id: usize, stream: TcpStream, peers: Peers) -> Ending {
    let mut framed = Framed::new(stream, LinesCodec::new_with_max_length(MAX_LINE));
    let (outbox, mut inbox) = unbounded_channel();
    peers.lock().unwrap().insert(id, outbox);
    let ending = chat(id, &mut framed, &mut inbox, &peers).await;
    peers.lock().unwrap().remove(&id);
    ending
}

/// What a connection task wakes up for.
enum Event {
    /// A line from another client, to pass on.
    ForClient(Arc<str>),
    /// What the client's side of the connection produced.
    FromClient(Option<Result<String, LinesCodecError>>),
}

fn poll_event(
    cx: &mut Context<'_>,
    framed: &mut Framed<TcpStream, LinesCodec>,
    inbox: &mut UnboundedReceiver<Arc<str>>,
) -> Poll<Event> {
    // `None` cannot come: this connection's outbox stays in `Peers` until
    // the task ends.
    if let Poll::Ready(Some(line)) = inbox.poll_recv(cx) {
        return Poll::Ready(Event::ForClient(line));
    }
    Pin::new(framed).poll_next(cx).map(Event::FromClient)
}

async fn chat(
    id: usize,
    framed: &mut Framed<TcpStream, LinesCodec>,
    inbox: &mut UnboundedReceiver<Arc<str>>,
    peers: &Peers,
) -> Ending {
    if let Err(e) = framed.send(WELCOME).await {
        return e.into();
    }
    loop {
        match poll_fn(|cx| poll_event(cx, framed, inbox)).await {
            Event::ForClient(line) => {
                // Batch whatever else is waiting into one flush.
                let mut batch = Some(line);
                while let Some(line) = batch.take() {
                    if let Err(e) = framed.feed(line).await {
                        return e.into();
                    }
                    batch = inbox.try_recv().ok();
                }
                if let Err(e) = SinkExt::<Arc<str>>::flush(framed).await {
                    return e.into();
                }
            }
            Event::FromClient(Some(Ok(line))) => {
                let line: Arc<str> = line.into();
                for (other, outbox) in peers.lock().unwrap().iter() {
                    if *other != id {
                        // A peer that just left has dropped its inbox.
                        let _ = outbox.send(line.clone());
                    }
                }
            }
            Event::FromClient(Some(Err(e))) => {
                // Hang up politely (a FIN, not a reset) where possible.
                let _ = SinkExt::<&str>::close(framed).await;
                return e.into();
            }
            Event::FromClient(None) => return Ending::Closed,
        }
    }
}

// ---- the clients ----

async fn connect(addr: SocketAddr) -> Framed<TcpStream, LinesCodec> {
    let mut framed = Framed::new(TcpStream::connect(addr).await.unwrap(), LinesCodec::new());
    let welcome = framed.next().await.unwrap().unwrap();
    assert_eq!(welcome, WELCOME);
    framed
}

/// Sends its lines once every client is in, receives everyone else's,
/// hangs up, and returns how many lines it got from each client.
async fn chat_client(addr: SocketAddr, me: usize, all_in: Arc<Barrier>) -> Vec<usize> {
    let mut framed = connect(addr).await;
    // Registered with the server (the welcome says so): once all are, no
    // line can miss a client.
    all_in.wait().await;
    for seq in 0..LINES_PER_CLIENT {
        framed.feed(format!("{me} {seq}")).await.unwrap();
    }
    SinkExt::<String>::flush(&mut framed).await.unwrap();

    let mut received = vec![0; CLIENTS];
    for _ in 0..(CLIENTS - 1) * LINES_PER_CLIENT {
        let line = framed
            .next()
            .await
            .expect("the server hung up early")
            .unwrap();
        let (from, seq) = line.split_once(' ').unwrap();
        let (from, seq): (usize, usize) = (from.parse().unwrap(), seq.parse().unwrap());
        assert_ne!(from, me, "a client got its own line back");
        assert_eq!(seq, received[from], "lines of client {from} out of order");
        received[from] += 1;
    }
    // Hang up (our FIN ends the server's connection, whose FIN ends our
    // stream); nothing may arrive in between.
    SinkExt::<String>::close(&mut framed).await.unwrap();
    assert!(framed.next().await.is_none(), "a line too many");
    received
}

/// Sends one line over the server's limit; returns what ended its stream
/// (`None`: the server's FIN; or the reset that follows it when the server
/// closed with part of the line unread).
async fn over_long_client(addr: SocketAddr) -> Option<io::ErrorKind> {
    let mut framed = connect(addr).await;
    framed.send("x".repeat(4 * MAX_LINE)).await.unwrap();
    // Lines of the chat may come first.
    loop {
        match framed.next().await {
            Some(Ok(_)) => continue,
            Some(Err(LinesCodecError::Io(e))) => return Some(e.kind()),
            Some(Err(e)) => panic!("unexpected {e:?}"),
            None => return None,
        }
    }
}

/// Writes half a line, then resets the connection (linger 0).
async fn resetting_peer(addr: SocketAddr) {
    let mut framed = connect(addr).await;
    framed.get_mut().write_all(b"half a li").await.unwrap();
    framed.get_ref().set_linger(Some(Duration::ZERO)).unwrap();
    drop(framed);
}

#[test]
fn every_client_hears_every_other_client_in_order() {
    runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        // The chat clients, the over-long line and the reset peer.
        let server = rt_core::spawn(serve(listener, CLIENTS + 2));

        let all_in = Arc::new(Barrier::new(CLIENTS));
        let clients: Vec<_> = (0..CLIENTS)
            .map(|me| rt_core::spawn(chat_client(addr, me, all_in.clone())))
            .collect();
        let over_long = rt_core::spawn(over_long_client(addr));
        let reset = rt_core::spawn(resetting_peer(addr));

        for (me, client) in clients.into_iter().enumerate() {
            let received = client.await.unwrap();
            for (from, count) in received.into_iter().enumerate() {
                let expected = if from == me { 0 } else { LINES_PER_CLIENT };
                assert_eq!(count, expected, "client {me} got {count} lines from {from}");
            }
        }
        let over_long_end = over_long.await.unwrap();
        assert!(
            matches!(over_long_end, None | Some(io::ErrorKind::ConnectionReset)),
            "over-long client ended with {over_long_end:?}"
        );
        reset.await.unwrap();

        let endings = server.await.unwrap();
        let count = |wanted: fn(&Ending) -> bool| endings.iter().filter(|e| wanted(e)).count();
        assert_eq!(count(|e| *e == Ending::Closed), CLIENTS, "{endings:?}");
        assert_eq!(count(|e| *e == Ending::LineTooLong), 1, "{endings:?}");
        // The reset is seen by a read, or by a write of chat lines to it.
        assert_eq!(
            count(|e| matches!(
                e,
                Ending::Io(io::ErrorKind::ConnectionReset | io::ErrorKind::BrokenPipe)
            )),
            1,
            "{endings:?}"
        );
    });
}

/// Runs `peer` against a one-connection LinesCodec reader and returns all
/// it read.
fn read_all_from<F, Fut>(peer: F) -> Vec<Result<String, Ending>>
where
    F: FnOnce(TcpStream) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let peer =
            rt_core::spawn(async move { peer(TcpStream::connect(addr).await.unwrap()).await });
        let (stream, _) = listener.accept().await.unwrap();
        let mut framed = Framed::new(stream, LinesCodec::new());
        let mut read = Vec::new();
        while let Some(item) = framed.next().await {
            read.push(item.map_err(Ending::from));
        }
        peer.await.unwrap();
        read
    })
}

#[test]
fn a_peer_that_hangs_up_mid_line_ends_the_stream_cleanly() {
    // A plain hang-up: the unfinished line is the stream's last line.
    let read = read_all_from(|mut stream| async move {
        stream.write_all(b"whole\nhalf a li").await.unwrap();
    });
    assert_eq!(read, [Ok("whole".to_string()), Ok("half a li".to_string())]);

    // Half a character at the end: `decode_eof` reports it.
    let read = read_all_from(|mut stream| async move {
        stream.write_all(b"whole\n\xc3").await.unwrap();
    });
    assert_eq!(
        read,
        [
            Ok("whole".to_string()),
            Err(Ending::Io(io::ErrorKind::InvalidData))
        ]
    );

    // A reset: the half line is never taken for a line.
    let read = read_all_from(|mut stream| async move {
        stream.write_all(b"whole\nhalf a li").await.unwrap();
        stream.set_linger(Some(Duration::ZERO)).unwrap();
    });
    assert_eq!(
        read,
        [
            Ok("whole".to_string()),
            Err(Ending::Io(io::ErrorKind::ConnectionReset))
        ]
    );
}
