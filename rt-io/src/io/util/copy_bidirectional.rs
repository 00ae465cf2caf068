//! `copy_bidirectional`: relay two streams into each other until both
//! directions reach end of stream.
//!
//! Each direction is a small state machine kept in the outer future
//! (copying, then shutting the writer down, then done with its count), and
//! every poll advances both before looking at either result, so one
//! direction waiting never stalls the other and nothing is lost between
//! polls.

use super::copy::{retry_interrupted, CopyBuffer};
use crate::io::{AsyncRead, AsyncWrite};
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

#[derive(Debug)]
enum TransferState {
    Running(CopyBuffer),
    ShuttingDown(u64),
    Done(u64),
}

fn transfer_one_direction<A, B>(
    cx: &mut Context<'_>,
    state: &mut TransferState,
    reader: &mut A,
    writer: &mut B,
) -> Poll<io::Result<u64>>
where
    A: AsyncRead + Unpin + ?Sized,
    B: AsyncWrite + Unpin + ?Sized,
{
    loop {
        match state {
            TransferState::Running(buffer) => {
                let count = ready!(retry_interrupted(
                    buffer.poll_copy(cx, Pin::new(&mut *reader), Pin::new(&mut *writer)),
                    cx
                ))?;
                *state = TransferState::ShuttingDown(count);
            }
            TransferState::ShuttingDown(count) => {
                ready!(Pin::new(&mut *writer).poll_shutdown(cx))?;
                *state = TransferState::Done(*count);
            }
            TransferState::Done(count) => return Poll::Ready(Ok(*count)),
        }
    }
}

/// Copies `a` into `b` and `b` into `a` at the same time, until both reach
/// end of stream; after one side ends, the other is shut down for writing.
/// Returns `(bytes a→b, bytes b→a)`.
///
/// Each direction has a buffer of 8 KiB that grows to 16 KiB once a read
/// fills it, as [`copy`](crate::io::copy)'s does;
/// [`copy_bidirectional_with_sizes`] keeps the sizes it is given.
///
/// Interrupted reads and writes are retried; any other error ends both
/// directions at once, and bytes read but not yet written are lost.
pub async fn copy_bidirectional<A, B>(a: &mut A, b: &mut B) -> io::Result<(u64, u64)>
where
    A: AsyncRead + AsyncWrite + Unpin + ?Sized,
    B: AsyncRead + AsyncWrite + Unpin + ?Sized,
{
    relay(a, b, CopyBuffer::growing(), CopyBuffer::growing()).await
}

/// Like [`copy_bidirectional`], with a buffer of `a_to_b_buf_size` bytes for
/// the direction `a`→`b` and `b_to_a_buf_size` for the other.
///
/// A zero size is an `InvalidInput` error: no byte could ever be copied.
pub async fn copy_bidirectional_with_sizes<A, B>(
    a: &mut A,
    b: &mut B,
    a_to_b_buf_size: usize,
    b_to_a_buf_size: usize,
) -> io::Result<(u64, u64)>
where
    A: AsyncRead + AsyncWrite + Unpin + ?Sized,
    B: AsyncRead + AsyncWrite + Unpin + ?Sized,
{
    if a_to_b_buf_size == 0 || b_to_a_buf_size == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "copy buffer size must be greater than zero",
        ));
    }
    let a_to_b = CopyBuffer::with_size(a_to_b_buf_size);
    let b_to_a = CopyBuffer::with_size(b_to_a_buf_size);
    relay(a, b, a_to_b, b_to_a).await
}

/// Runs both directions, `a_to_b` and `b_to_a` holding their bytes.
async fn relay<A, B>(
    a: &mut A,
    b: &mut B,
    a_to_b: CopyBuffer,
    b_to_a: CopyBuffer,
) -> io::Result<(u64, u64)>
where
    A: AsyncRead + AsyncWrite + Unpin + ?Sized,
    B: AsyncRead + AsyncWrite + Unpin + ?Sized,
{
    let mut a_to_b = TransferState::Running(a_to_b);
    let mut b_to_a = TransferState::Running(b_to_a);
    std::future::poll_fn(|cx| {
        let forward = transfer_one_direction(cx, &mut a_to_b, a, b)?;
        let backward = transfer_one_direction(cx, &mut b_to_a, b, a)?;
        let forward = ready!(forward);
        let backward = ready!(backward);
        Poll::Ready(Ok((forward, backward)))
    })
    .await
}
