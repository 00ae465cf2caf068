//! TCP echo under growing load: 1, 50 and 500 loopback connections at
//! once, each making round trips of a 64-byte message to its own echo
//! task. Every connection count is measured twice: as the time one run
//! takes (throughput) and as the 99th-percentile round trip of that run
//! (tail latency), so both appear in the rt/tokio table.
//!
//! The connection count is what the workload is about, so a smoke run keeps
//! it and only shrinks the rounds; 500 connections use about 1,000 file
//! descriptors (both ends live in this process; about 1,010 with the
//! runtime's own), under the usual soft limit of 1,024.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::io::{bind_loopback, connect, echo_messages, nanos, MESSAGE};
use super::tk;
use bench_harness::{percentile, Size, Stopwatch};
use tk::io::{AsyncReadExt, AsyncWriteExt};
use tk::net::TcpStream;

/// Round trips in one run, shared out evenly among the connections, so
/// that every connection count moves the same number of messages.
const ROUND_TRIPS: usize = 10_000;

/// Time for 10k round trips made by one connection.
pub fn io_tcp_echo_conns_1(size: &Size) -> f64 {
    nanos(echo_fleet(size, 1).elapsed)
}

/// Time for 10k round trips made by 50 connections at once (200 each).
pub fn io_tcp_echo_conns_50(size: &Size) -> f64 {
    nanos(echo_fleet(size, 50).elapsed)
}

/// Time for 10k round trips made by 500 connections at once (20 each).
pub fn io_tcp_echo_conns_500(size: &Size) -> f64 {
    nanos(echo_fleet(size, 500).elapsed)
}

/// The 99th-percentile round trip of `io_tcp_echo_conns_1`'s run.
pub fn io_tcp_echo_p99_1(size: &Size) -> f64 {
    nanos(echo_fleet(size, 1).p99)
}

/// The 99th-percentile round trip of `io_tcp_echo_conns_50`'s run.
pub fn io_tcp_echo_p99_50(size: &Size) -> f64 {
    nanos(echo_fleet(size, 50).p99)
}

/// The 99th-percentile round trip of `io_tcp_echo_conns_500`'s run.
pub fn io_tcp_echo_p99_500(size: &Size) -> f64 {
    nanos(echo_fleet(size, 500).p99)
}

/// What one run of the fleet measured.
struct FleetRun {
    /// From the first message sent to the last echo received.
    elapsed: Duration,
    /// The 99th-percentile round trip over every connection's messages.
    p99: Duration,
}

/// Opens `connections` connections to an echo server, then times them all
/// making their share of [`ROUND_TRIPS`] at once. Connecting and accepting
/// happen before the clock starts: the workload is the traffic, not the
/// handshakes.
fn echo_fleet(size: &Size, connections: usize) -> FleetRun {
    let rounds = size.count(ROUND_TRIPS / connections);
    let rt = super::build::runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let listener = bind_loopback().await;
            let addr = listener.local_addr().expect("listener has an address");
            let (all_accepted, accepted) = tk::sync::oneshot::channel();
            let server = tk::spawn(async move {
                let mut echoes = Vec::with_capacity(connections);
                for _ in 0..connections {
                    let (stream, _) = listener.accept().await.expect("accept succeeds");
                    stream.set_nodelay(true).expect("nodelay is settable");
                    echoes.push(tk::spawn(echo_messages(stream, rounds)));
                }
                all_accepted
                    .send(())
                    .expect("the driver waits for the accepts");
                for echo in echoes {
                    echo.await.expect("echo task completes");
                }
            });
            let streams = connect_all(addr, connections).await;
            // A connect finishes at the handshake, before the server has
            // accepted it; the first round trips must not wait for accepts.
            accepted.await.expect("the server accepts every connection");
            let started = Stopwatch::start();
            let clients: Vec<_> = streams
                .into_iter()
                .map(|stream| tk::spawn(timed_round_trips(stream, rounds)))
                .collect();
            let mut latencies = Vec::with_capacity(connections * rounds);
            for client in clients {
                latencies.extend(client.await.expect("client completes"));
            }
            let elapsed = started.elapsed();
            server.await.expect("server completes");
            FleetRun {
                elapsed,
                p99: percentile(&mut latencies, 99).expect("a run makes round trips"),
            }
        });
        driver.await.expect("driver completes")
    })
}

/// `connections` client connections to `addr`, made one after the other.
async fn connect_all(addr: SocketAddr, connections: usize) -> Vec<TcpStream> {
    let mut streams = Vec::with_capacity(connections);
    for _ in 0..connections {
        streams.push(connect(addr).await);
    }
    streams
}

/// Sends a message and waits for its echo, `rounds` times, and returns how
/// long each round trip took.
async fn timed_round_trips(mut stream: TcpStream, rounds: usize) -> Vec<Duration> {
    let ping = [0x5au8; MESSAGE];
    let mut pong = [0u8; MESSAGE];
    let mut latencies = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let sent = Instant::now();
        stream.write_all(&ping).await.expect("write succeeds");
        stream.read_exact(&mut pong).await.expect("echo arrives");
        latencies.push(sent.elapsed());
    }
    assert_eq!(pong, ping);
    latencies
}
