//! Framed TCP checks: LinesCodec (including its line-length limit) and
//! LengthDelimitedCodec (empty to 256 KiB frames), several connections at
//! once.

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tokio_util::codec::{Framed, LengthDelimitedCodec, LinesCodec};
use tokio_util::sync::CancellationToken;

use super::{ensure, Outcome};
use crate::framed::{start_frames, start_lines, MAX_LINE, TOO_LONG};

const CONNECTIONS: usize = 8;
const LINES: usize = 200;

/// Each connection sends lines and checks every answer, in order; its last
/// line is too long, which the server answers with an error line before it
/// closes the connection (a Framed stream ends after a decoding error).
pub async fn lines() -> Outcome {
    let token = CancellationToken::new();
    let (addr, server) = start_lines(token.clone())
        .await
        .map_err(|e| format!("starting the line server: {e}"))?;
    let mut clients = JoinSet::new();
    for c in 0..CONNECTIONS {
        clients.spawn(async move {
            let stream = TcpStream::connect(addr)
                .await
                .map_err(|e| format!("connect: {e}"))?;
            let mut framed = Framed::new(stream, LinesCodec::new());
            for i in 0..LINES {
                let too_long = i == LINES - 1;
                let line = if too_long {
                    "x".repeat(MAX_LINE + 1)
                } else {
                    format!("line {i} from connection {c}")
                };
                framed
                    .send(line.as_str())
                    .await
                    .map_err(|e| format!("send: {e}"))?;
                let answer = framed
                    .next()
                    .await
                    .ok_or("the server closed the connection")?
                    .map_err(|e| format!("receive: {e}"))?;
                let expected = if too_long {
                    TOO_LONG.to_string()
                } else {
                    line.to_uppercase()
                };
                ensure!(
                    answer == expected,
                    "connection {c}, line {i}: answered {answer:?}, expected {expected:?}"
                );
            }
            let after = framed.next().await;
            ensure!(
                after.is_none(),
                "connection {c}: after the error line the server sent {after:?}, not end of stream"
            );
            Ok::<(), String>(())
        });
    }
    finish(clients, token, server).await?;
    Ok(format!(
        "{CONNECTIONS} connections x {LINES} lines, the last over the limit"
    ))
}

/// Each connection sends frames of many sizes, pipelined, and checks each
/// answer is the frame reversed.
pub async fn length_delimited() -> Outcome {
    let token = CancellationToken::new();
    let (addr, server) = start_frames(token.clone())
        .await
        .map_err(|e| format!("starting the frame server: {e}"))?;
    let sizes = [0usize, 1, 2, 100, 4096, 65_536, 262_144, 7];
    let mut clients = JoinSet::new();
    for c in 0..CONNECTIONS {
        clients.spawn(async move {
            let stream = TcpStream::connect(addr).await.map_err(|e| format!("connect: {e}"))?;
            let (mut sink, mut stream) = Framed::new(stream, LengthDelimitedCodec::new()).split();
            let frames: Vec<Bytes> = sizes.iter().map(|&n| Bytes::from((0..n).map(|b| (b * 31 + c) as u8).collect::<Vec<u8>>())).collect();
            let sent = frames.clone();
            let writer = tokio::spawn(async move {
                for frame in sent {
                    sink.feed(frame).await?;
                }
                sink.flush().await
            });
            for (i, frame) in frames.iter().enumerate() {
                let answer = stream.next().await.ok_or("the server closed the connection")?.map_err(|e| format!("receive: {e}"))?;
                let mut expected = frame.to_vec();
                expected.reverse();
                ensure!(answer[..] == expected[..], "connection {c}, frame {i} ({} bytes): answered {} bytes, not the frame reversed", frame.len(), answer.len());
            }
            writer.await.map_err(|e| format!("writer task: {e}"))?.map_err(|e| format!("send: {e}"))?;
            Ok::<(), String>(())
        });
    }
    finish(clients, token, server).await?;
    Ok(format!(
        "{CONNECTIONS} connections x {} frames of 0 B to 256 KiB, pipelined",
        sizes.len()
    ))
}

/// Waits for every client, then stops the server.
async fn finish(
    mut clients: JoinSet<Result<(), String>>,
    token: CancellationToken,
    server: tokio::task::JoinHandle<()>,
) -> Result<(), String> {
    while let Some(joined) = clients.join_next().await {
        joined.map_err(|e| format!("a client task failed: {e}"))??;
    }
    token.cancel();
    server
        .await
        .map_err(|e| format!("the server task failed: {e}"))
}
