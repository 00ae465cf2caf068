//! The listener wrappers (`TcpListenerStream`, `UnixListenerStream`)
//! accepting loopback clients on a runtime with rt-io's reactor.

#![cfg(feature = "net")]

use std::collections::HashSet;
use std::net::SocketAddr;

use rt_core::runtime::Builder;
use rt_io::net::{TcpListener, TcpStream};
use rt_stream::wrappers::TcpListenerStream;
use rt_stream::{Stream, StreamExt};

#[test]
fn tcp_listener_stream_accepts_three_loopback_clients() {
    rt_test::io_runtime().block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut incoming = TcpListenerStream::new(listener);
        assert_eq!(incoming.as_ref().local_addr().unwrap(), addr);
        assert_eq!(incoming.size_hint(), (0, None));

        let accepting = rt_core::spawn(async move {
            let mut peers = HashSet::new();
            for _ in 0..3 {
                let server = incoming.next().await.expect("never ends").unwrap();
                peers.insert(server.peer_addr().unwrap());
            }
            (peers, incoming.into_inner())
        });
        let mut clients = Vec::new();
        for _ in 0..3 {
            clients.push(TcpStream::connect(addr).await.unwrap());
        }
        let (peers, listener) = accepting.await.unwrap();
        let expected: HashSet<SocketAddr> =
            clients.iter().map(|c| c.local_addr().unwrap()).collect();
        assert_eq!(peers, expected);
        // The listener came back whole and still listens on the same port.
        assert_eq!(listener.local_addr().unwrap(), addr);
    });
}

#[cfg(feature = "time")]
#[test]
fn an_idle_listener_times_out_on_a_paused_clock_then_accepts() {
    use std::time::Duration;

    let rt = Builder::new_current_thread()
        .base_driver(rt_io::reactor::base_driver())
        .driver_layer(rt_time::driver_layer(true))
        .build()
        .unwrap();
    rt.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let start = rt_time::Instant::now();
        let mut incoming =
            std::pin::pin!(TcpListenerStream::new(listener).timeout(Duration::from_secs(5)));
        assert!(incoming.next().await.unwrap().is_err());
        assert_eq!(start.elapsed(), Duration::from_secs(5));
        let client = TcpStream::connect(addr).await.unwrap();
        let server = incoming.next().await.unwrap().unwrap().unwrap();
        assert_eq!(server.peer_addr().unwrap(), client.local_addr().unwrap());
    });
}

#[cfg(unix)]
#[test]
fn unix_listener_stream_accepts_clients() {
    use rt_io::net::{UnixListener, UnixStream};
    use rt_stream::wrappers::UnixListenerStream;

    let path = std::env::temp_dir().join(format!(
        "rt-stream-unix-listener-{}.sock",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    rt_test::io_runtime().block_on(async {
        let listener = UnixListener::bind(&path).unwrap();
        let mut incoming = UnixListenerStream::new(listener);
        let first = UnixStream::connect(&path).await.unwrap();
        let second = UnixStream::connect(&path).await.unwrap();
        for _ in 0..2 {
            let server = incoming.next().await.expect("never ends").unwrap();
            assert!(server.peer_addr().is_ok());
        }
        assert!(incoming.as_mut().local_addr().is_ok());
        drop((first, second));
    });
    std::fs::remove_file(&path).unwrap();
}
