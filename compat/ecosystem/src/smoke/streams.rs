//! tokio-stream's wrappers around tokio's types: TcpListenerStream
//! accepting connections, and the channel receiver streams.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_stream::wrappers::{
    BroadcastStream, ReceiverStream, TcpListenerStream, UnboundedReceiverStream, WatchStream,
};
use tokio_stream::StreamExt;

use super::{ensure, Outcome};

/// A server accepting through TcpListenerStream greets each connection
/// with its number.
pub async fn tcp_listener_stream() -> Outcome {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("bind: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let connections = 5;
    let server = tokio::spawn(async move {
        let mut incoming = TcpListenerStream::new(listener).take(connections);
        let mut n = 0;
        while let Some(stream) = incoming.next().await {
            let mut stream = stream?;
            stream.write_all(format!("hello {n}").as_bytes()).await?;
            n += 1;
        }
        Ok::<usize, std::io::Error>(n)
    });
    for i in 0..connections {
        let mut stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let mut answer = String::new();
        stream
            .read_to_string(&mut answer)
            .await
            .map_err(|e| format!("read: {e}"))?;
        ensure!(
            answer == format!("hello {i}"),
            "connection {i} was greeted with {answer:?}"
        );
    }
    let served = server
        .await
        .map_err(|e| format!("server task: {e}"))?
        .map_err(|e| format!("server: {e}"))?;
    ensure!(
        served == connections,
        "served {served} connections, not {connections}"
    );
    Ok(format!(
        "{connections} connections accepted through the stream"
    ))
}

/// mpsc, unbounded mpsc, broadcast and watch receivers as streams.
pub async fn receiver_streams() -> Outcome {
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let producer = tokio::spawn(async move {
        for i in 0..100u32 {
            if tx.send(i).await.is_err() {
                break;
            }
        }
    });
    let sum: u32 = ReceiverStream::new(rx).fold(0, |a, b| a + b).await;
    producer.await.map_err(|e| format!("producer: {e}"))?;
    ensure!(sum == 4950, "the bounded receiver stream summed to {sum}");

    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    for i in 0..10u32 {
        tx.send(i).map_err(|e| e.to_string())?;
    }
    drop(tx);
    let items: Vec<u32> = UnboundedReceiverStream::new(rx).collect().await;
    ensure!(
        items == (0..10).collect::<Vec<_>>(),
        "the unbounded receiver stream gave {items:?}"
    );

    let (tx, rx) = tokio::sync::broadcast::channel(16);
    let stream = BroadcastStream::new(rx);
    for i in 0..3u32 {
        tx.send(i).map_err(|e| e.to_string())?;
    }
    drop(tx);
    let items: Vec<u32> = stream.filter_map(Result::ok).collect().await;
    ensure!(items == [0, 1, 2], "the broadcast stream gave {items:?}");

    let (tx, rx) = tokio::sync::watch::channel(0u32);
    let mut stream = WatchStream::new(rx);
    let first = stream.next().await;
    tx.send(7).map_err(|e| e.to_string())?;
    let second = stream.next().await;
    ensure!(
        first == Some(0) && second == Some(7),
        "the watch stream gave {first:?} then {second:?}"
    );
    Ok("mpsc, unbounded, broadcast and watch streams".to_string())
}
