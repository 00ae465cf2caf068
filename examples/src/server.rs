//! How every example server runs and stops: an accept loop that spawns a
//! task per connection until the shutdown signal, a drain that gives the
//! open connections a grace period on rt's timer and then aborts the rest,
//! and the real-mode driver that turns Ctrl-C into that signal.
//!
//! A server's own code only says what one connection does; the same
//! shutdown path then runs whether Ctrl-C started it or a smoke run did.
//! The lines the driver prints are built by the functions here, so that a
//! smoke run reading a server's output ([`real_mode`](crate::real_mode))
//! matches exactly what the server says.

use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use rt::task::JoinSet;
use std::fmt;
use std::future::{poll_fn, Future};
use std::io;
use std::net::SocketAddr;
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

/// How long open connections may keep going once shutdown starts before
/// the rest are aborted.
pub const GRACE: Duration = Duration::from_secs(5);

/// Accepts connections on `listener` and runs `connection` for each as its
/// own task, until `shutdown` turns true (or its sender is gone); then
/// stops accepting and [`drain`]s the connections still open. `name`
/// prefixes the lines it prints.
///
/// `connection` gets the stream and the peer's address; a connection task
/// that should end early on shutdown watches its own clone of the
/// receiver.
pub async fn serve<F, C>(
    name: &str,
    listener: TcpListener,
    mut shutdown: watch::Receiver<bool>,
    mut connection: F,
) -> Drained
where
    F: FnMut(TcpStream, SocketAddr) -> C,
    C: Future<Output = ()> + Send + 'static,
{
    let mut connections = JoinSet::new();
    loop {
        // Shutdown is looked at first: a connection that ended because of
        // it is then still in the set, and the drain counts it.
        rt::select! {
            biased;
            // Only `true` is ever sent; a closed channel means nobody is
            // left who could stop the server, so it stops too.
            _ = shutdown.changed() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    connections.spawn(connection(stream, peer));
                }
                // Running out of descriptors is no reason to stop serving
                // the connections already open.
                Err(e) => eprintln!("{name}: accept failed: {e}"),
            },
            // Reap finished connections so the set does not grow forever.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    drain(name, connections).await
}

/// What a shutdown did with the connections open when it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drained {
    /// Connections that ended on their own within the grace period.
    pub finished: usize,
    /// Connections still open when it ran out, and aborted.
    pub aborted: usize,
}

impl fmt::Display for Drained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} connection(s) finished, {} aborted after the grace period",
            self.finished, self.aborted
        )
    }
}

/// Says how many connections are open, waits up to [`GRACE`] for each of
/// them to end, then aborts the ones left and waits for them to be gone.
/// The grace period runs on rt's timer, so the wait costs no thread. Call
/// it once the listener is closed: its line says so.
pub async fn drain(name: &str, mut connections: JoinSet<()>) -> Drained {
    println!("{}", draining_line(name, connections.len()));
    let mut drained = Drained::default();
    let mut deadline = pin!(rt::time::sleep(GRACE));
    loop {
        rt::select! {
            finished = connections.join_next() => match finished {
                Some(_) => drained.finished += 1,
                None => return drained,
            },
            _ = &mut deadline => {
                drained.aborted = connections.len();
                connections.shutdown().await;
                return drained;
            }
        }
    }
}

/// Serves for real: binds `addr`, prints where it listens, runs `serve`
/// as a task until Ctrl-C, then sends it the shutdown signal, waits for
/// its drain and prints what the drain did.
///
/// The Ctrl-C handler is installed before the listening line is printed,
/// so an interrupt sent by anyone who has read that line is never lost
/// (nor ends the process the default way).
pub async fn until_ctrl_c<F, S>(name: &str, addr: &str, serve: F) -> io::Result<()>
where
    F: FnOnce(TcpListener, watch::Receiver<bool>) -> S,
    S: Future<Output = Drained> + Send + 'static,
{
    let mut interrupted = pin!(rt::signal::ctrl_c());
    // The handler goes in on the first poll; an interrupt that already
    // came (or a failure to install) is kept for the wait below.
    let early = poll_fn(|cx| Poll::Ready(interrupted.as_mut().poll(cx))).await;

    let listener = TcpListener::bind(addr).await?;
    println!("{}", listening_line(name, listener.local_addr()?));
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(serve(listener, shutdown_rx));

    match early {
        Poll::Ready(result) => result?,
        Poll::Pending => interrupted.await?,
    }
    println!("{}", interrupted_line(name));
    shutdown_tx.send_replace(true);
    let drained = server.await.map_err(io::Error::other)?;
    println!("{}", stopped_line(name, drained));
    Ok(())
}

/// The line a server prints once it listens on `addr`.
pub fn listening_line(name: &str, addr: SocketAddr) -> String {
    format!("{name}: listening on {addr} (Ctrl-C stops it gracefully)")
}

/// The line a server prints when Ctrl-C starts its shutdown.
pub fn interrupted_line(name: &str) -> String {
    format!("{name}: Ctrl-C: shutting down")
}

/// The line [`drain`] prints once the server stopped accepting, with
/// `open` connections left.
pub fn draining_line(name: &str, open: usize) -> String {
    format!("{name}: no longer accepting; {open} open connection(s) have {GRACE:?} to finish")
}

/// The line a server prints last, once its connections are drained.
pub fn stopped_line(name: &str, drained: Drained) -> String {
    format!("{name}: stopped: {drained}")
}
