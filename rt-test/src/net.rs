//! Sockets on loopback for the network tests, and a runtime whose reactor
//! drives them.

use rt_core::runtime::{Builder, Runtime};
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
