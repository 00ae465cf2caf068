//! The example servers' shared shutdown path: the drain's grace period
//! and abort (on the paused clock, so the five seconds cost nothing) and
//! the accept loop's hand-over to it, over loopback.

use examples::server::{drain, serve, Drained, GRACE};
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use rt::task::JoinSet;
use rt::time::Instant;

#[rt::test(start_paused = true)]
async fn drain_aborts_what_outlives_the_grace_period() {
    let mut connections = JoinSet::new();
    connections.spawn(rt::time::sleep(GRACE / 2));
    connections.spawn(std::future::pending::<()>());
    let started = Instant::now();
    let drained = drain("test", connections).await;
    assert_eq!(
        drained,
        Drained {
            finished: 1,
            aborted: 1
        }
    );
    assert_eq!(started.elapsed(), GRACE);
}

#[rt::test(start_paused = true)]
async fn drain_ends_when_the_last_connection_does() {
    let mut connections = JoinSet::new();
    connections.spawn(rt::time::sleep(GRACE / 4));
    connections.spawn(rt::time::sleep(GRACE / 2));
    let started = Instant::now();
    let drained = drain("test", connections).await;
    assert_eq!(
        drained,
        Drained {
            finished: 2,
            aborted: 0
        }
    );
    assert_eq!(started.elapsed(), GRACE / 2);
    assert_eq!(drain("test", JoinSet::new()).await, Drained::default());
}

#[rt::test]
async fn serve_hands_the_open_connections_to_the_drain() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    // Each connection answers one byte, then waits for the peer to hang up.
    let server = rt::spawn(serve(
        "test",
        listener,
        shutdown_rx,
        |mut stream, _| async move {
            let mut byte = [0u8; 1];
            if stream.read_exact(&mut byte).await.is_ok() && stream.write_all(&byte).await.is_ok() {
                let _ = stream.read(&mut byte).await;
            }
        },
    ));
    let mut client = TcpStream::connect(addr).await.unwrap();
    client.write_all(b"x").await.unwrap();
    let mut back = [0u8; 1];
    client.read_exact(&mut back).await.unwrap();

    shutdown_tx.send_replace(true);
    drop(client);
    assert_eq!(
        server.await.unwrap(),
        Drained {
            finished: 1,
            aborted: 0
        }
    );
    assert!(TcpStream::connect(addr).await.is_err(), "still accepting");
}
