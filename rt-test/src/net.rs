//! Sockets on loopback for the network tests, a runtime whose reactor
//! drives them, and the two sides of an echo.

use rt_core::runtime::{Builder, Runtime};
use rt_io::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use rt_io::net::{TcpListener, TcpStream};

/// A current-thread runtime with rt-io's reactor installed.
pub fn io_runtime() -> Runtime {
    Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .build()
        .expect("a current-thread runtime with I/O builds")
}

/// A connected loopback TCP pair: (client, server).
pub async fn tcp_pair() -> (TcpStream, TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind on loopback");
    let addr = listener.local_addr().expect("listener address");
    let client = TcpStream::connect(addr).await.expect("connect on loopback");
    let (server, _) = listener.accept().await.expect("accept on loopback");
    (client, server)
}

/// Echoes everything `stream` receives back to it until the peer shuts its
/// side down, then shuts this side down too.
pub async fn echo<S: AsyncRead + AsyncWrite + Unpin>(stream: S) {
    let (mut reader, mut writer) = rt_io::io::split(stream);
    rt_io::io::copy(&mut reader, &mut writer)
        .await
        .expect("echo the peer's bytes");
    writer.shutdown().await.expect("shut the echo down");
}

/// Sends `msg` to an echoing peer, shuts the write side down and checks
/// that exactly `msg` comes back.
pub async fn assert_echoed<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut S, msg: &[u8]) {
    stream.write_all(msg).await.expect("send to the echo");
    stream.shutdown().await.expect("shut the write side down");
    let mut back = Vec::new();
    stream
        .read_to_end(&mut back)
        .await
        .expect("read the echo back");
    assert_eq!(back, msg, "the echo returns exactly what was sent");
}
