//! Two framed TCP servers built on tokio-util's codecs: a line server
//! (LinesCodec) that answers each line in upper case, and a frame server
//! (LengthDelimitedCodec) that answers each frame reversed. Used by the
//! smoke checks and the timings.

use std::net::SocketAddr;

use bytes::Bytes;
use futures_util::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_util::codec::{Framed, LengthDelimitedCodec, LinesCodec, LinesCodecError};
use tokio_util::sync::CancellationToken;

/// The longest line the line server accepts.
pub const MAX_LINE: usize = 4096;

/// What the line server answers to a line longer than [`MAX_LINE`], before
/// it closes the connection: LinesCodec's stream ends after that error.
pub const TOO_LONG: &str = "error: line too long";

/// Starts the line server on a loopback port.
pub async fn start_lines(
    token: CancellationToken,
) -> std::io::Result<(SocketAddr, JoinHandle<()>)> {
    serve(token, |stream| async move {
        let mut framed = Framed::new(stream, LinesCodec::new_with_max_length(MAX_LINE));
        while let Some(line) = framed.next().await {
            let answer = match line {
                Ok(line) => line.to_uppercase(),
                Err(LinesCodecError::MaxLineLengthExceeded) => {
                    let _ = framed.send(TOO_LONG).await;
                    // Close the sending half, then read to the end: closing
                    // with the long line's rest unread would reset the
                    // connection and could lose the answer.
                    let mut stream = framed.into_inner();
                    let _ = stream.shutdown().await;
                    let _ = tokio::io::copy(&mut stream, &mut tokio::io::sink()).await;
                    return;
                }
                Err(LinesCodecError::Io(_)) => return,
            };
            if framed.send(answer).await.is_err() {
                return;
            }
        }
    })
    .await
}

/// Starts the frame server on a loopback port.
pub async fn start_frames(
    token: CancellationToken,
) -> std::io::Result<(SocketAddr, JoinHandle<()>)> {
    serve(token, |stream| async move {
        let mut framed = Framed::new(stream, LengthDelimitedCodec::new());
        while let Some(Ok(frame)) = framed.next().await {
            let mut reversed = frame.to_vec();
            reversed.reverse();
            if framed.send(Bytes::from(reversed)).await.is_err() {
                return;
            }
        }
    })
    .await
}

/// Accepts connections until `token` is cancelled, one task each.
async fn serve<F, Fut>(
    token: CancellationToken,
    handle: F,
) -> std::io::Result<(SocketAddr, JoinHandle<()>)>
where
    F: Fn(TcpStream) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(async move {
        loop {
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        let _ = stream.set_nodelay(true);
                        tokio::spawn(handle(stream));
                    }
                    Err(_) => return,
                },
                () = token.cancelled() => return,
            }
        }
    });
    Ok((addr, task))
}
