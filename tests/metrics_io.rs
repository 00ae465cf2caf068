//! The reactor's counters reach `RuntimeMetrics`.

use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};

#[rt::test]
async fn io_driver_counts_registrations_and_ready_events() {
    let metrics = rt::runtime::Handle::current().metrics();
    let registered_before = metrics.io_driver_fd_registered_count();
    let deregistered_before = metrics.io_driver_fd_deregistered_count();
    let ready_before = metrics.io_driver_ready_count();

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (client, accepted) = rt::join!(TcpStream::connect(addr), listener.accept());
    let mut client = client.unwrap();
    let (mut server, _) = accepted.unwrap();
    client.write_all(b"ping").await.unwrap();
    let mut buf = [0; 4];
    server.read_exact(&mut buf).await.unwrap();
    assert_eq!(&buf, b"ping");

    assert_eq!(
        metrics.io_driver_fd_registered_count() - registered_before,
        3
    );
    assert!(metrics.io_driver_ready_count() > ready_before);

    drop((client, server, listener));
    assert_eq!(
        metrics.io_driver_fd_deregistered_count() - deregistered_before,
        3
    );
}

#[test]
fn a_runtime_without_io_reports_zero() {
    let rt = rt::runtime::Builder::new_current_thread().build().unwrap();
    let metrics = rt.handle().metrics();
    assert_eq!(metrics.io_driver_fd_registered_count(), 0);
    assert_eq!(metrics.io_driver_ready_count(), 0);
}
