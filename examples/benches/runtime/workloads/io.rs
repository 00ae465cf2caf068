//! Sockets on loopback: TCP round trips on one and on many connections,
//! bulk throughput, `io::copy` at both ends of a connection, connection
//! churn, UDP and Unix socket round trips, and a proxy built on
//! `copy_bidirectional`. Many connections echoing at once, with their tail
//! latency, live in `echo_fleet`.
//!
//! Each workload runs in a spawned driver task (so that on the multi-thread
//! flavors it runs on a worker, as a server would) and times only the
//! traffic: binding the listeners happens before the clock starts.

use std::net::SocketAddr;
use std::time::Duration;

use super::build::runtime;
use super::tk;
use bench_harness::{Size, Stopwatch};
use tk::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tk::net::{TcpListener, TcpStream, UdpSocket, UnixStream};

/// Bytes in one ping or pong of the round-trip workloads.
pub(super) const MESSAGE: usize = 64;

/// Bytes per write in the throughput workloads.
const CHUNK: usize = 64 * 1024;

/// One mebibyte, the unit the copy workload's size is counted in.
const MIB: u64 = 1024 * 1024;

/// Longest a UDP round-trip run may take before it is declared stuck: a
/// datagram lost on loopback would otherwise leave it waiting forever.
const UDP_DEADLINE: Duration = Duration::from_secs(60);

/// One connection, 10k round trips of a 64-byte message to an echo task.
pub fn io_tcp_echo(size: &Size) -> f64 {
    let rounds = size.count(10_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let listener = bind_loopback().await;
            let addr = listener.local_addr().expect("listener has an address");
            let server = tk::spawn(async move {
                let (stream, _) = listener.accept().await.expect("accept succeeds");
                stream.set_nodelay(true).expect("nodelay is settable");
                echo_messages(stream, rounds).await;
            });
            let mut client = connect(addr).await;
            let started = Stopwatch::start();
            bounce_messages(&mut client, rounds).await;
            let elapsed = started.elapsed();
            server.await.expect("echo task completes");
            nanos(elapsed)
        });
        driver.await.expect("driver completes")
    })
}

/// 64 connections at once, each making 1k round trips of a 64-byte message
/// to its own echo task. The clock includes the connects.
pub fn io_tcp_echo_many(size: &Size) -> f64 {
    let connections = size.count(64);
    let rounds = size.count(1_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let listener = bind_loopback().await;
            let addr = listener.local_addr().expect("listener has an address");
            let started = Stopwatch::start();
            let server = tk::spawn(async move {
                let mut echoes = Vec::with_capacity(connections);
                for _ in 0..connections {
                    let (stream, _) = listener.accept().await.expect("accept succeeds");
                    stream.set_nodelay(true).expect("nodelay is settable");
                    echoes.push(tk::spawn(echo_messages(stream, rounds)));
                }
                for echo in echoes {
                    echo.await.expect("echo task completes");
                }
            });
            let clients: Vec<_> = (0..connections)
                .map(|_| {
                    tk::spawn(async move {
                        let mut client = connect(addr).await;
                        bounce_messages(&mut client, rounds).await;
                    })
                })
                .collect();
            for client in clients {
                client.await.expect("client completes");
            }
            server.await.expect("server completes");
            nanos(started.elapsed())
        });
        driver.await.expect("driver completes")
    })
}

/// 64 MiB through one connection in 64 KiB writes; the clock stops when the
/// receiving task has read the last byte.
pub fn io_tcp_bulk(size: &Size) -> f64 {
    let chunks = size.count(1_024);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let listener = bind_loopback().await;
            let addr = listener.local_addr().expect("listener has an address");
            let receiver = tk::spawn(async move {
                let (mut stream, _) = listener.accept().await.expect("accept succeeds");
                drain(&mut stream).await
            });
            let mut sender = connect(addr).await;
            let started = Stopwatch::start();
            send_chunks(&mut sender, chunks).await;
            let received = receiver.await.expect("receiver completes");
            let elapsed = started.elapsed();
            assert_eq!(received, chunks * CHUNK);
            nanos(elapsed)
        });
        driver.await.expect("driver completes")
    })
}

/// 256 MiB moved by `io::copy` at both ends of one connection: one task
/// copies a `repeat(..).take(256 MiB)` reader into the socket, the other
/// copies the socket into `sink()`. The clock stops when the sink has taken
/// the last byte.
pub fn io_tcp_copy_256mib(size: &Size) -> f64 {
    let bytes = size.count(256) as u64 * MIB;
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let listener = bind_loopback().await;
            let addr = listener.local_addr().expect("listener has an address");
            let receiver = tk::spawn(async move {
                let (mut stream, _) = listener.accept().await.expect("accept succeeds");
                tk::io::copy(&mut stream, &mut tk::io::sink())
                    .await
                    .expect("copy into the sink succeeds")
            });
            let mut sender = TcpStream::connect(addr).await.expect("connect succeeds");
            let started = Stopwatch::start();
            let mut source = tk::io::repeat(0x5a).take(bytes);
            let sent = tk::io::copy(&mut source, &mut sender)
                .await
                .expect("copy into the socket succeeds");
            sender.shutdown().await.expect("shutdown succeeds");
            let received = receiver.await.expect("receiver completes");
            let elapsed = started.elapsed();
            assert_eq!((sent, received), (bytes, bytes));
            nanos(elapsed)
        });
        driver.await.expect("driver completes")
    })
}

/// 1k connections made one after the other: connect, accept, the server
/// closes, the client sees end of stream.
pub fn io_tcp_accept_churn(size: &Size) -> f64 {
    let connections = size.count(1_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let listener = bind_loopback().await;
            let addr = listener.local_addr().expect("listener has an address");
            let started = Stopwatch::start();
            let server = tk::spawn(async move {
                for _ in 0..connections {
                    let (stream, _) = listener.accept().await.expect("accept succeeds");
                    drop(stream);
                }
            });
            for _ in 0..connections {
                let mut client = TcpStream::connect(addr).await.expect("connect succeeds");
                let mut byte = [0u8; 1];
                let read = client.read(&mut byte).await.expect("read succeeds");
                assert_eq!(read, 0, "the server sends nothing before closing");
            }
            server.await.expect("server completes");
            nanos(started.elapsed())
        });
        driver.await.expect("driver completes")
    })
}

/// Two connected UDP sockets, 10k round trips of a 64-byte datagram.
pub fn io_udp_ping_pong(size: &Size) -> f64 {
    let rounds = size.count(10_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let client = UdpSocket::bind("127.0.0.1:0").await.expect("bind succeeds");
            let server = UdpSocket::bind("127.0.0.1:0").await.expect("bind succeeds");
            let client_addr = client.local_addr().expect("socket has an address");
            let server_addr = server.local_addr().expect("socket has an address");
            client.connect(server_addr).await.expect("connect succeeds");
            server.connect(client_addr).await.expect("connect succeeds");
            let echo = tk::spawn(async move {
                let mut buf = [0u8; MESSAGE];
                for _ in 0..rounds {
                    let len = server.recv(&mut buf).await.expect("recv succeeds");
                    server.send(&buf[..len]).await.expect("send succeeds");
                }
            });
            let started = Stopwatch::start();
            let bounced = tk::time::timeout(UDP_DEADLINE, async {
                let ping = [0x5au8; MESSAGE];
                let mut pong = [0u8; MESSAGE];
                for _ in 0..rounds {
                    client.send(&ping).await.expect("send succeeds");
                    let len = client.recv(&mut pong).await.expect("recv succeeds");
                    assert_eq!(len, MESSAGE);
                }
            })
            .await;
            let elapsed = started.elapsed();
            bounced.expect("no datagram is lost on loopback");
            echo.await.expect("echo task completes");
            nanos(elapsed)
        });
        driver.await.expect("driver completes")
    })
}

/// 16 MiB sent through a proxy task (`copy_bidirectional` between the
/// client's connection and one to an echo task) and back, with the client
/// writing and reading at the same time.
pub fn io_proxy_copy(size: &Size) -> f64 {
    let chunks = size.count(256);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let echo_listener = bind_loopback().await;
            let echo_addr = echo_listener.local_addr().expect("listener has an address");
            let proxy_listener = bind_loopback().await;
            let proxy_addr = proxy_listener
                .local_addr()
                .expect("listener has an address");
            let echo = tk::spawn(async move {
                let (stream, _) = echo_listener.accept().await.expect("accept succeeds");
                let (mut reader, mut writer) = stream.into_split();
                let copied = tk::io::copy(&mut reader, &mut writer)
                    .await
                    .expect("echo copies");
                writer.shutdown().await.expect("shutdown succeeds");
                copied
            });
            let proxy = tk::spawn(async move {
                let (mut inbound, _) = proxy_listener.accept().await.expect("accept succeeds");
                let mut outbound = connect(echo_addr).await;
                tk::io::copy_bidirectional(&mut inbound, &mut outbound)
                    .await
                    .expect("proxy copies")
            });
            let client = connect(proxy_addr).await;
            let (mut reader, mut writer) = client.into_split();
            let started = Stopwatch::start();
            let sender = tk::spawn(async move { send_chunks(&mut writer, chunks).await });
            let received = drain(&mut reader).await;
            let elapsed = started.elapsed();
            sender.await.expect("sender completes");
            let total = chunks * CHUNK;
            assert_eq!(received, total);
            assert_eq!(
                proxy.await.expect("proxy completes"),
                (total as u64, total as u64)
            );
            assert_eq!(echo.await.expect("echo completes"), total as u64);
            nanos(elapsed)
        });
        driver.await.expect("driver completes")
    })
}

/// A Unix socket pair, 10k round trips of a 64-byte message to an echo
/// task.
pub fn io_unix_ping_pong(size: &Size) -> f64 {
    let rounds = size.count(10_000);
    let rt = runtime(size.flavor);
    rt.block_on(async move {
        let driver = tk::spawn(async move {
            let (mut client, server) = UnixStream::pair().expect("socket pair is created");
            let echo = tk::spawn(echo_messages(server, rounds));
            let started = Stopwatch::start();
            bounce_messages(&mut client, rounds).await;
            let elapsed = started.elapsed();
            echo.await.expect("echo task completes");
            nanos(elapsed)
        });
        driver.await.expect("driver completes")
    })
}

pub(super) async fn bind_loopback() -> TcpListener {
    TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binding a loopback listener succeeds")
}

/// A client connection with Nagle's algorithm off, as round-trip protocols
/// use.
pub(super) async fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).await.expect("connect succeeds");
    stream.set_nodelay(true).expect("nodelay is settable");
    stream
}

/// Sends a message and waits for its echo, `rounds` times.
async fn bounce_messages<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut S, rounds: usize) {
    let ping = [0x5au8; MESSAGE];
    let mut pong = [0u8; MESSAGE];
    for _ in 0..rounds {
        stream.write_all(&ping).await.expect("write succeeds");
        stream.read_exact(&mut pong).await.expect("echo arrives");
    }
    assert_eq!(pong, ping);
}

/// Echoes `rounds` messages back to the sender.
pub(super) async fn echo_messages<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, rounds: usize) {
    let mut buf = [0u8; MESSAGE];
    for _ in 0..rounds {
        stream.read_exact(&mut buf).await.expect("message arrives");
        stream.write_all(&buf).await.expect("write succeeds");
    }
}

/// Writes `chunks` chunks of `CHUNK` bytes, then shuts the write side down
/// so that the receiver sees end of stream.
async fn send_chunks<W: AsyncWrite + Unpin>(writer: &mut W, chunks: usize) {
    let chunk = vec![0x5au8; CHUNK];
    for _ in 0..chunks {
        writer.write_all(&chunk).await.expect("write succeeds");
    }
    writer.shutdown().await.expect("shutdown succeeds");
}

/// Reads until end of stream and returns how many bytes came.
async fn drain<R: AsyncRead + Unpin>(reader: &mut R) -> usize {
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0;
    loop {
        match reader.read(&mut buf).await.expect("read succeeds") {
            0 => return total,
            read => total += read,
        }
    }
}

pub(super) fn nanos(elapsed: Duration) -> f64 {
    elapsed.as_nanos() as f64
}
