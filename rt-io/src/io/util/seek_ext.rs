//! `AsyncSeekExt`: the `async` methods every [`AsyncSeek`] gets.

use crate::io::AsyncSeek;
use std::future::Future;
use std::io::{self, SeekFrom};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// Seeking helpers for every [`AsyncSeek`], as futures.
pub trait AsyncSeekExt: AsyncSeek {
    /// Moves to `position`; returns the new position from the start.
    fn seek(&mut self, position: SeekFrom) -> Seek<'_, Self>
    where
        Self: Unpin,
    {
        Seek {
            seeker: self,
            position: Some(position),
        }
    }

    /// Moves back to the start of the stream.
    fn rewind(&mut self) -> Seek<'_, Self>
    where
        Self: Unpin,
    {
        self.seek(SeekFrom::Start(0))
    }

    /// The current position from the start of the stream.
    fn stream_position(&mut self) -> Seek<'_, Self>
    where
        Self: Unpin,
    {
        self.seek(SeekFrom::Current(0))
    }
}

impl<S: AsyncSeek + ?Sized> AsyncSeekExt for S {}

/// Future returned by [`AsyncSeekExt::seek`].
#[derive(Debug)]
#[must_use = "futures do nothing unless you `.await` or poll them"]
pub struct Seek<'a, S: ?Sized> {
    seeker: &'a mut S,
    position: Option<SeekFrom>,
}

impl<S: AsyncSeek + Unpin + ?Sized> Future for Seek<'_, S> {
    type Output = io::Result<u64>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<u64>> {
        let me = &mut *self;
        if let Some(position) = me.position {
            // Finish whatever seek was in progress before starting ours.
            ready!(Pin::new(&mut *me.seeker).poll_complete(cx))?;
            Pin::new(&mut *me.seeker).start_seek(position)?;
            me.position = None;
        }
        Pin::new(&mut *me.seeker).poll_complete(cx)
    }
}
